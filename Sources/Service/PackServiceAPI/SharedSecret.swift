/// The shared secret `/verifyReceipt` asks of a receipt with an auto-renewable subscription
/// (Apple's `password`), read from a file the same way by the server that checks it and by a
/// client that sends it: the file's first line without the blanks around it, 8 to 256 bytes.
public struct SharedSecret: Sendable, Equatable, CustomStringConvertible {
    /// The secret, as its file's first line holds it.
    public let text: String

    /// What a shared-secret file must hold.
    public static let rule = "one line of 8 to 256 characters"

    /// The secret a file holds, or `nil` when it does not hold one by ``rule``.
    public init?(fileContents bytes: [UInt8]) {
        let line = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first ?? ""
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let secret = String(line.drop(while: blank).reversed().drop(while: blank).reversed())
        guard (8...256).contains(secret.utf8.count) else { return nil }
        text = secret
    }

    /// Never the secret itself: a secret in a log or an error is a secret no more.
    public var description: String { "SharedSecret(\(text.utf8.count) bytes)" }
}
