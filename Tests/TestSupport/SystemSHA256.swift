import Foundation

/// Why the system's `sha256sum` gave no digest.
public struct SystemSHA256Failure: Error, CustomStringConvertible {
    public var description: String
}

/// The SHA-256 of a file as the system's `sha256sum` computes it, for tests that must not trust
/// the hashing of the code under test.
public func sha256sum(_ path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    process.arguments = ["--", path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let digest = String(String(decoding: data, as: UTF8.self).prefix(64))
    guard process.terminationStatus == 0, digest.count == 64 else {
        throw SystemSHA256Failure(description: "sha256sum \(path) exited with \(process.terminationStatus)")
    }
    return digest
}
