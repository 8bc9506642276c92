internal import Base64
internal import SystemCalls

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
            // Canonical text only, decoded into memory that is wiped if the text turns out bad.
            var text = String(encoded)
            var bytes = [UInt8](repeating: 0, count: Base64.decodedCapacity(text.utf8.count))
            let count = text.withUTF8 { utf8 in
                bytes.withUnsafeMutableBufferPointer { Base64.decode(utf8, strictness: .canonical, into: $0) }
            }
            guard let count else {
                wipe(&bytes)
                throw .invalidBase64(expected)
            }
            bytes.removeLast(bytes.count - count)
            return bytes
        case other.label:
            throw .wrongKind(found: other, expected: expected)
        default:
            throw .notAKeyFile(expected: expected)
        }
    }
}

extension KeyFile {
    /// The most bytes a key file may hold: a key line is under 100.
    static let sizeLimit = 4096

    /// The text of the key file at `path` (`FileSystem.readFile`); the bytes read are wiped.
    static func text(at path: String, kind: SigningError.KeyKind) throws(SigningError) -> String {
        var bytes: [UInt8]
        do throws(FileError) {
            bytes = try FileSystem.readFile(atPath: path, limit: sizeLimit)
        } catch {
            switch error {
            case .system(.noSuchFile, _, _):
                throw .missingKeyFile(kind, path: path)
            case .system(let errno, _, _):
                throw .unreadableKeyFile(kind, path: path, reason: "\(errno)")
            case .notRegularFile(let fileKind, _), .notFolder(let fileKind, _):
                throw .unreadableKeyFile(kind, path: path, reason: "it is \(fileKind), not a key file")
            case .tooLarge:
                throw .unreadableKeyFile(kind, path: path, reason: "it is larger than \(sizeLimit) bytes, too large for a key file")
            }
        }
        defer { wipe(&bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes `bytes` to `path` with exactly `permissions`: as a new file (`FileSystem.createNew`),
    /// or with `replace`, over any file there (`FileSystem.writeAtomically`). Either way the file
    /// appears complete or not at all.
    static func write(_ bytes: [UInt8], to path: String, permissions: UInt32, replace: Bool) throws(SigningError) {
        do throws(FileError) {
            if replace {
                try FileSystem.writeAtomically(bytes, toPath: path, permissions: permissions)
            } else {
                try FileSystem.createNew(atPath: path, containing: bytes, permissions: permissions)
            }
        } catch {
            switch error {
            case .system(.fileExists, .create, let failed) where !replace && failed == path:
                throw .keyFileExists(path: path)
            case .system(let errno, _, _):
                throw .unwritableKeyFile(path: path, reason: "\(errno)")
            case .notRegularFile, .notFolder, .tooLarge:
                throw .unwritableKeyFile(path: path, reason: "\(error)")
            }
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
