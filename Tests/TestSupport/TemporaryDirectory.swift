import Foundation

/// A fresh folder for one test, removed when the test releases it.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("hangman-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `bytes` to `name` (folders made as needed) and returns the file's path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = file(name)
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String { try write(name, Array(text.utf8)) }

    /// Every file and folder below, relative paths, sorted.
    public func listing() -> [String] {
        (FileManager.default.subpaths(atPath: path) ?? []).sorted()
    }
}
