import Foundation

/// Why the system's `sha256sum` gave no digest.
public struct SystemSHA256Failure: Error, CustomStringConvertible {
    public var description: String
}

/// The SHA-256 of a file as the system's `sha256sum` computes it, for tests that must not trust
/// the hashing of the code under test.
public func sha256sum(_ path: String) throws -> String {
    let result = try ExternalProcess.run("/usr/bin/sha256sum", ["--", path])
    let digest = String(result.stdout.prefix(64))
    guard result.status == 0, digest.count == 64 else {
        throw SystemSHA256Failure(description: "sha256sum \(path) exited with \(result.status): \(result.stderr)")
    }
    return digest
}
