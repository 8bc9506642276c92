import Signing

/// The service's signing key: made on first use, stored with mode 0600 and never replaced.
public enum ServiceKey {
    /// Reads the key at `path`, or makes it. Two processes starting at once agree on one key: the
    /// key file appears complete or not at all, and never replaces one that is there
    /// (`SigningKey.write(toFileAt:replace:)`); the one that loses reads the winner's key.
    public static func loadOrCreate(at path: String) throws(StoreError) -> SigningKey {
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
            throw StoreError(.storage, "cannot use the service key: \(error)")
        }
    }
}
