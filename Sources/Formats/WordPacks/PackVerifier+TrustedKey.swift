import Signing

extension PackVerifier {
    /// A verifier that accepts only signatures by the key in the `.pub` file at `path` (as
    /// `hangman pack keygen` writes it), and with `requireSignature`, refuses an unsigned pack.
    ///
    /// ```swift
    /// let verifier = try PackVerifier(trustedKeyFileAt: "Keys/release.pub")
    /// let result = verifier.verify(fileAt: "easy-words.wordpack")
    /// #expect(result.problems.isEmpty)
    /// ```
    ///
    /// Throws when the file is missing, unreadable or not a public key file; the error's
    /// description names the file and what to pass instead.
    public init(trustedKeyFileAt path: String, requireSignature: Bool = true) throws(SigningError) {
        self.init(trustedKeys: [try SigningPublicKey.read(fileAt: path)], requireSignature: requireSignature)
    }

    /// A verifier that accepts only signatures by the key in `contents`, the text of a `.pub` file
    /// (`hangman-ed25519-public <base64>`): a key pinned in the test itself, say.
    public init(trustedKeyFile contents: String, requireSignature: Bool = true) throws(SigningError) {
        self.init(trustedKeys: [try SigningPublicKey(fileContents: contents)], requireSignature: requireSignature)
    }

    /// A verifier that accepts only signatures by the key in `bytes`, the bytes of a `.pub` file.
    public init(trustedKeyFile bytes: [UInt8], requireSignature: Bool = true) throws(SigningError) {
        try self.init(trustedKeyFile: String(decoding: bytes, as: UTF8.self), requireSignature: requireSignature)
    }
}
