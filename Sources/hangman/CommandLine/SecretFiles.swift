import PackServer
import PackServiceAPI
import SystemCalls

/// `--shared-secret-file`, for `serve` (the secret it asks) and `receipt verify` (the secret it
/// sends): read the one way ``SharedSecret`` says.
enum SharedSecretFile {
    static func read(_ file: String?) throws -> SharedSecret? {
        guard let file else { return nil }
        guard let secret = SharedSecret(fileContents: try SecretFile.bytes(file, option: "--shared-secret-file")) else {
            throw CommandFailure.invalid("the shared secret in \(file) must be \(SharedSecret.rule)")
        }
        return secret
    }
}

/// A secret an option names by its file: read whole (4 KiB at most), 66 when there is no such
/// file, 65 when it cannot be read.
enum SecretFile {
    static func bytes(_ file: String, option: String) throws -> [UInt8] {
        do {
            return try FileSystem.readFile(atPath: file, limit: 4096)
        } catch .system(.noSuchFile, _, _) {
            throw CommandFailure.missing("no such file '\(file)' (\(option))")
        } catch {
            throw CommandFailure.invalid("cannot read \(option) \(file): \(error)")
        }
    }

    /// `--downloads-url URL --downloads-secret FILE [--download-link-seconds N]`: both or neither
    /// (64); the secret is the file's first line.
    static func downloads(url: String?, secretFile: String?, seconds: Int?) throws -> DownloadLinks? {
        switch (url, secretFile) {
        case (nil, nil):
            if seconds != nil { throw CommandFailure.usage("--download-link-seconds goes with --downloads-url and --downloads-secret") }
            return nil
        case (let url?, let file?):
            let text = String(decoding: try bytes(file, option: "--downloads-secret"), as: UTF8.self)
            let secret = String(text.prefix { $0 != "\n" && $0 != "\r" })
            do {
                var links = try DownloadLinks(base: url, secret: secret)
                if let seconds { links.lifetime = Int64(seconds) * 1000 }
                return links
            } catch {
                if error.inSecret { throw CommandFailure.invalid("\(error.message): \(file)") }
                throw CommandFailure.usage(error.message)
            }
        default:
            throw CommandFailure.usage("pack downloads off this server need both --downloads-url <URL> and --downloads-secret <FILE>")
        }
    }
}
