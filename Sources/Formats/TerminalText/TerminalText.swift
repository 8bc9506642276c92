/// Text on its way to standard output or standard error, terminal or pipe.
///
/// What the program writes in its own string literals is kept as it is; every value
/// interpolated into one is made safe: C0 and C1 control characters (line breaks and tabs
/// included), DEL, and the bidirectional embeddings, overrides and isolates that can reorder or
/// hide what follows are shown escaped (`\u{1B}`, `\n`, `\u{202E}`). A pack, a catalog, a file
/// name or a guess cannot move the cursor, retitle the window, or fake a line of `--plain` output.
///
/// ```swift
/// context.out("Hint: '\(letter)' revealed.")   // `letter` escaped, the literal kept
/// context.out(TerminalText(trusted: "\u{1B}[2J"))  // the program's own control sequence
/// ```
public struct TerminalText: ExpressibleByStringInterpolation, Sendable, Equatable, CustomStringConvertible {
    /// The safe text.
    public private(set) var text: String

    /// The program's own text, control sequences included, kept as it is.
    public init(trusted text: String) { self.text = text }

    /// `value` with every character that could act on a terminal escaped.
    public init(escaping value: String) { text = Self.escaped(value) }

    public init(stringLiteral value: String) { text = value }

    public init(stringInterpolation: StringInterpolation) { text = stringInterpolation.text }

    public var description: String { text }

    public static func + (lhs: TerminalText, rhs: TerminalText) -> TerminalText { TerminalText(trusted: lhs.text + rhs.text) }

    /// Lines joined by newlines.
    public static func lines(_ lines: [TerminalText]) -> TerminalText {
        TerminalText(trusted: lines.map(\.text).joined(separator: "\n"))
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity + 16 * interpolationCount) }

        public mutating func appendLiteral(_ literal: String) { text += literal }

        /// Text already made safe, kept.
        public mutating func appendInterpolation(_ value: TerminalText) { text += value.text }

        /// Any other value, escaped.
        public mutating func appendInterpolation<Value>(_ value: Value) { text += TerminalText.escaped(String(describing: value)) }
    }

    /// `text` with C0 and C1 controls, DEL and bidirectional controls written as escapes.
    public static func escaped(_ text: String) -> String {
        // Printable ASCII, the usual case (a log line), is left as it is without a look at its scalars.
        if text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return text }
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// C0 controls, DEL, C1 controls, and U+202A-U+202E, U+2066-U+2069 (embeddings, overrides, isolates).
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
