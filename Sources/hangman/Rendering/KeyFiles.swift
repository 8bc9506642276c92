#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import Signing

/// Reading and writing key files, with the exit codes their failures deserve.
enum KeyFiles {
    static func publicKey(at path: String) throws -> SigningPublicKey {
        let text = try contents(of: path)
        do {
            return try SigningPublicKey(fileContents: text)
        } catch {
            throw CommandFailure.invalid("\(path): \(error)")
        }
    }

    static func secretKey(at path: String) throws -> SigningKey {
        let text = try contents(of: path)
        do {
            return try SigningKey(fileContents: text)
        } catch {
            throw CommandFailure.invalid("\(path): \(error)")
        }
    }

    /// Writes the pair; the secret file is created with mode 0600 before any byte is written.
    static func write(_ key: SigningKey, secretPath: String, publicPath: String, replace: Bool) throws {
        if !replace {
            for path in [secretPath, publicPath] where FileManager.default.fileExists(atPath: path) {
                throw CommandFailure.cannotCreate("\(path) exists; pass --force to replace it")
            }
        }
        try create(secretPath, contents: key.fileContents, mode: 0o600)
        try create(publicPath, contents: key.publicKey.fileContents, mode: 0o644)
    }

    private static func create(_ path: String, contents: String, mode: mode_t) throws {
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw CommandFailure.cannotCreate("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            throw CommandFailure.cannotCreate("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    private static func contents(of path: String) throws -> String {
        guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure.missing("no such key file '\(path)'") }
        guard let data = FileManager.default.contents(atPath: path), data.count <= 4096 else {
            throw CommandFailure.invalid("\(path): not a key file (unreadable or larger than 4 KiB)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
