/// An entry name from an archive, checked and normalised: relative, `/`-separated, no `.` or
/// `..` components, valid UTF-8 without control characters.
public struct EntryName: Sendable, Hashable, CustomStringConvertible {
    /// The path components, none empty, `.` or `..`.
    public let components: [String]

    /// The normalised path, components joined with `/`.
    public var path: String { components.joined(separator: "/") }
    public var description: String { path }

    /// The last component.
    public var lastComponent: String { components.last ?? "" }

    /// Checks raw name bytes; returns the normalised name, `nil` for the archive root itself
    /// (`./`), or the problem that refuses the name.
    public static func check(_ raw: [UInt8]) -> Result<EntryName?, ArchiveProblem> {
        let shown = printable(raw)
        guard let name = String(validating: raw, as: UTF8.self) else {
            return .failure(ArchiveProblem(.notUTF8, entry: shown, "name is not valid UTF-8"))
        }
        if let bad = name.unicodeScalars.first(where: isControl) {
            let hex = String(bad.value, radix: 16, uppercase: true)
            return .failure(ArchiveProblem(
                .controlCharacter, entry: shown, "name contains the control character U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)"))
        }
        if name.hasPrefix("/") {
            return .failure(ArchiveProblem(.absolutePath, entry: shown, "absolute path: entries must be relative to the pack folder"))
        }
        if name.contains("\\") {
            return .failure(ArchiveProblem(.badName, entry: shown, "name contains a backslash"))
        }
        let scalars = Array(name.unicodeScalars.prefix(2))
        if scalars.count == 2, scalars[1] == ":", scalars[0].properties.isAlphabetic, scalars[0].isASCII {
            return .failure(ArchiveProblem(.absolutePath, entry: shown, "absolute path with a drive letter"))
        }
        var components: [String] = []
        for part in name.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                return .failure(ArchiveProblem(.parentReference, entry: shown, "path contains '..', which would leave the pack folder"))
            }
            components.append(String(part))
        }
        return .success(components.isEmpty ? nil : EntryName(components: components))
    }

    /// A form of raw name bytes that is safe to print: invalid UTF-8 as `\xNN`, controls as `\u{N}`.
    public static func printable(_ raw: [UInt8]) -> String {
        var out = ""
        var index = 0
        while index < raw.count {
            // Decode one scalar at a time so that invalid bytes are shown individually.
            var iterator = raw[index...].makeIterator()
            var decoder = UTF8()
            let before = index
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                let width = scalar.value < 0x80 ? 1 : scalar.value < 0x800 ? 2 : scalar.value < 0x10000 ? 3 : 4
                index += width
                if isControl(scalar) {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            case .error, .emptyInput:
                out += "\\x" + (raw[before] < 16 ? "0" : "") + String(raw[before], radix: 16)
                index = before + 1
            }
        }
        return out
    }

    /// Control characters (Cc) and the bidirectional overrides that disguise a name.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.generalCategory == .control { return true }
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
