import Foundation
import TestSupport

/// The shared temporary folder, with what these tests read back.
typealias TemporaryFolder = TemporaryDirectory

extension TemporaryDirectory {
    func contents(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: file(name))), as: UTF8.self)
    }

    func permissions(_ name: String) throws -> Int? {
        (try FileManager.default.attributesOfItem(atPath: file(name))[.posixPermissions] as? NSNumber)?.intValue
    }

    /// Every name in the folder, sorted.
    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}
