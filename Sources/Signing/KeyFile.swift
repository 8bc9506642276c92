/// The one-line text format of key files: `<label> <base64>` and a newline.
enum KeyFile {
    /// The decoded bytes after the label, once the label is checked against `expected`.
    static func payload(of text: String, expected: SigningError.KeyKind) throws(SigningError) -> [UInt8] {
        let line = text.trimmingBlankSpace()
        guard !line.contains(where: \.isNewline) else { throw .notAKeyFile(expected: expected) }
        let label = line.prefix { $0 != " " && $0 != "\t" }
        let encoded = line[label.endIndex...]
        let other: SigningError.KeyKind = expected == .publicKey ? .secretKey : .publicKey
        switch label {
        case expected.label where !encoded.isEmpty:
            guard let bytes = Base64.decode(String(encoded)) else { throw .invalidBase64(expected) }
            return bytes
        case other.label:
            throw .wrongKind(found: other, expected: expected)
        default:
            throw .notAKeyFile(expected: expected)
        }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs, line breaks and byte order marks.
    fileprivate func trimmingBlankSpace() -> Substring {
        func isBlank(_ character: Character) -> Bool {
            character == " " || character == "\t" || character.isNewline || character == "\u{FEFF}"
        }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return self[first...last]
    }
}
