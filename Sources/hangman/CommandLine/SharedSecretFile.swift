import PackServiceAPI
import SystemCalls

/// `--shared-secret-file`, for `serve` (the secret it asks) and `receipt verify` (the secret it
/// sends): read the one way ``SharedSecret`` says.
enum SharedSecretFile {
    static func read(_ file: String?) throws -> SharedSecret? {
        guard let file else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(atPath: file, limit: 4096)
        } catch .system(.noSuchFile, _, _) {
            throw CommandFailure.missing("no such file '\(file)' (--shared-secret-file)")
        } catch {
            throw CommandFailure.invalid("cannot read the shared secret: \(error)")
        }
        guard let secret = SharedSecret(fileContents: bytes) else {
            throw CommandFailure.invalid("the shared secret in \(file) must be \(SharedSecret.rule)")
        }
        return secret
    }
}
