internal import Base64

/// Writes the XML layout that Apple's `PropertyListSerialization` produces.
struct XMLPropertyListWriter {
    private(set) var output: [UInt8] = []

    private static let header = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)

    mutating func writeDocument(_ value: PropertyList) {
        output.append(contentsOf: Self.header)
        write(value, indent: 0)
        append("</plist>\n")
    }

    private mutating func write(_ value: PropertyList, indent: Int) {
        indentLine(indent)
        switch value {
        case .string(let string):
            append("<string>")
            appendEscaped(string)
            append("</string>\n")
        case .integer(let integer):
            append("<integer>")
            append(String(integer))
            append("</integer>\n")
        case .real(let real):
            append("<real>")
            append(Self.text(of: real))
            append("</real>\n")
        case .boolean(let boolean):
            append(boolean ? "<true/>\n" : "<false/>\n")
        case .date(let seconds):
            append("<date>")
            append(PropertyListDate.format(seconds))
            append("</date>\n")
        case .data(let bytes):
            append("<data>\n")
            appendBase64Lines(bytes, indent: indent)
            indentLine(indent)
            append("</data>\n")
        case .array(let items):
            guard !items.isEmpty else { return append("<array/>\n") }
            append("<array>\n")
            for item in items { write(item, indent: indent + 1) }
            indentLine(indent)
            append("</array>\n")
        case .dictionary(let entries):
            guard !entries.isEmpty else { return append("<dict/>\n") }
            append("<dict>\n")
            for (key, item) in entries.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                indentLine(indent + 1)
                append("<key>")
                appendEscaped(key)
                append("</key>\n")
                write(item, indent: indent + 1)
            }
            indentLine(indent)
            append("</dict>\n")
        }
    }

    /// The shortest text that reads back as the same Double.
    static func text(of real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
        return real.description
    }

    /// Base64 in lines of at most 76 columns counting 8 per tab, as CoreFoundation wraps them.
    private mutating func appendBase64Lines(_ bytes: [UInt8], indent: Int) {
        let encoded = Base64.encodedBytes(bytes)
        let lineLength = 76 - 8 * min(indent, 8)
        var start = 0
        while start < encoded.count {
            let end = min(start + lineLength, encoded.count)
            indentLine(indent)
            output.append(contentsOf: encoded[start..<end])
            output.append(.newline)
            start = end
        }
    }

    private mutating func appendEscaped(_ string: String) {
        let utf8 = string.utf8
        guard utf8.contains(where: { $0 == .ampersand || $0 == .lessThan || $0 == .greaterThan }) else {
            return output.append(contentsOf: utf8)
        }
        for byte in utf8 {
            switch byte {
            case .ampersand: append("&amp;")
            case .lessThan: append("&lt;")
            case .greaterThan: append("&gt;")
            default: output.append(byte)
            }
        }
    }

    private mutating func indentLine(_ indent: Int) {
        for _ in 0..<indent { output.append(.tab) }
    }

    private mutating func append(_ text: String) {
        output.append(contentsOf: text.utf8)
    }
}
