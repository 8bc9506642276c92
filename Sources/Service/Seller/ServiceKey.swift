import Signing
import SystemCalls

/// The service's signing key: made on first use, stored with mode 0600 and never replaced.
public enum ServiceKey {
    /// Reads the key at `path`, or makes it. Two processes starting at once agree on one key: the
    /// key file appears complete or not at all, and never replaces one that is there
    /// (`SigningKey.write(toFileAt:replace:)`); the one that loses reads the winner's key.
    /// A symbolic link or anything but a regular file at `path` is refused: the key stays in the account folder.
    public static func loadOrCreate(at path: String) throws(ServiceError) -> SigningKey {
        _ = try kind(at: path)
        do {
            do {
                return try SigningKey.read(fileAt: path)
            } catch .missingKeyFile {
                do {
                    try SigningKey.generate().write(toFileAt: path, replace: false)
                } catch .keyFileExists {
                    // Another process made the key first: its key is the one.
                }
                return try SigningKey.read(fileAt: path)
            }
        } catch {
            throw ServiceError(.storage, "cannot use the service key: \(error)")
        }
    }

    /// Without reading the key: makes it when there is none, and refuses anything but a regular
    /// file at `path` (one `lstat`). Its contents are checked where it is used, by `loadOrCreate`.
    public static func checkOrCreate(at path: String) throws(ServiceError) {
        if try kind(at: path) == nil { _ = try loadOrCreate(at: path) }
    }

    /// What is at `path` (not following a link), refusing anything but a regular file.
    private static func kind(at path: String) throws(ServiceError) -> FileKind? {
        do {
            let kind = try FileSystem.status(atPath: path, followingLinks: false)?.kind
            if let kind, kind != .regular {
                throw ServiceError(.storage, "cannot use the service key: \(path) is \(kind), not a regular file; move it away (receipts signed with it will no longer verify)")
            }
            return kind
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(.storage, "cannot use the service key: \(error)")
        }
    }
}
