#if canImport(Glibc)
import Glibc
#endif
import Signing

/// The service's signing key: made on first use, stored with mode 0600 and never replaced.
enum ServiceKey {
    /// Reads the key at `path`, or makes it. Two processes starting at once agree on one key:
    /// the key is written to a private temporary file and linked into place, which fails if
    /// another process got there first; that one's key is then read.
    static func loadOrCreate(at path: String) throws(StoreError) -> SigningKey {
        if let key = try read(path) { return key }
        let key = SigningKey.generate()
        var random = SystemRandomNumberGenerator()
        let temporary = "\(path).\(String(random.next(), radix: 16)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError(.storage, "cannot create \(temporary): \(String(cString: strerror(errno)))") }
        let bytes = Array(key.fileContents.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        defer { unlink(temporary) }
        guard written == bytes.count, synced else { throw StoreError(.storage, "cannot write \(temporary)") }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw StoreError(.storage, "cannot store the service key at \(path): \(String(cString: strerror(errno)))")
        }
        guard let stored = try read(path) else { throw StoreError(.storage, "the service key at \(path) vanished") }
        return stored
    }

    private static func read(_ path: String) throws(StoreError) -> SigningKey? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw StoreError(.storage, "cannot read the service key \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { throw StoreError(.storage, "the service key \(path) is empty") }
        do {
            return try SigningKey(fileContents: String(decoding: buffer[..<count], as: UTF8.self))
        } catch {
            throw StoreError(.storage, "the service key \(path) is damaged: \(error)")
        }
    }
}
