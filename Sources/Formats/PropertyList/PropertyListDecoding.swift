/// Decodes XML and binary (`bplist00`) property lists from untrusted bytes.
///
/// Decoding never recurses on the machine stack, bounds nesting and the number of values by
/// `PropertyListLimits`, and reports every failure as a `PropertyListError`. Binary sets, UIDs
/// and nulls are refused as `.unsupported`. Dictionary keys are Swift `String`s, so two keys that
/// differ only in Unicode normalization (NFC "é" and NFD "e\u{301}") are a `.duplicateKey`.
public enum PropertyListDecoding {
    /// Decodes a property list, detecting its format from the bytes.
    public static func decode(
        _ bytes: UnsafeRawBufferPointer,
        limits: PropertyListLimits = .default
    ) throws(PropertyListError) -> (value: PropertyList, format: PropertyListFormat) {
        try bytes.withMemoryRebound(to: UInt8.self) { (buffer) throws(PropertyListError) in
            try decode(buffer: buffer, limits: limits)
        }
    }

    /// Decodes a property list, detecting its format from the bytes.
    public static func decode(
        _ bytes: [UInt8],
        limits: PropertyListLimits = .default
    ) throws(PropertyListError) -> (value: PropertyList, format: PropertyListFormat) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(PropertyListError) in try decode(raw, limits: limits) }
        }
        return try result.get()
    }

    private static func decode(
        buffer: UnsafeBufferPointer<UInt8>,
        limits: PropertyListLimits
    ) throws(PropertyListError) -> (value: PropertyList, format: PropertyListFormat) {
        switch try detectFormat(buffer) {
        case .binary:
            var reader = try BinaryPropertyListReader(bytes: buffer, limits: limits)
            return (try reader.read(), .binary)
        case .xml(let start):
            var reader = XMLPropertyListReader(bytes: buffer, start: start, limits: limits)
            return (try reader.read(), .xml)
        }
    }

    private enum DetectedFormat {
        case binary
        case xml(start: Int)
    }

    /// Tells binary from XML by the first bytes, and names the formats this reader refuses.
    private static func detectFormat(_ bytes: UnsafeBufferPointer<UInt8>) throws(PropertyListError) -> DetectedFormat {
        func starts(with prefix: [UInt8], at offset: Int = 0) -> Bool {
            guard bytes.count - offset >= prefix.count else { return false }
            for (index, byte) in prefix.enumerated() where bytes[offset + index] != byte { return false }
            return true
        }
        if starts(with: Array("bplist".utf8)) {
            if starts(with: Array("bplist00".utf8)) { return .binary }
            let version = bytes.prefix(8).map { (0x21...0x7E).contains($0) ? Character(Unicode.Scalar($0)) : "?" }
            throw PropertyListError(.unsupported, "binary property list version '\(String(version))' is not supported; only bplist00 is read")
        }
        if starts(with: [0x00, 0x00, 0xFE, 0xFF]) || starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            throw PropertyListError(.unsupported, "UTF-32 text is not supported; property lists must be UTF-8 XML or binary")
        }
        if starts(with: [0xFE, 0xFF]) || starts(with: [0xFF, 0xFE])
            || starts(with: [0x00, UInt8(ascii: "<")]) || starts(with: [UInt8(ascii: "<"), 0x00]) {
            throw PropertyListError(.unsupported, "UTF-16 text is not supported; property lists must be UTF-8 XML or binary")
        }
        var start = starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, XMLTokenizer.isWhitespace(bytes[start]) { start += 1 }
        guard start < bytes.count else {
            throw PropertyListError(.notAPropertyList, bytes.isEmpty ? "empty input is not a property list" : "input holds only whitespace, not a property list")
        }
        switch bytes[start] {
        case UInt8(ascii: "<"):
            return .xml(start: start)
        case UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "\""):
            throw PropertyListError(.unsupported, "this looks like an old-style (OpenStep) or JSON property list; only XML and binary (bplist00) are read")
        case UInt8(ascii: "["):
            throw PropertyListError(.unsupported, "this looks like JSON; only XML and binary (bplist00) property lists are read")
        default:
            throw PropertyListError(.notAPropertyList, "not a property list: expected '<' (XML) or 'bplist00' (binary) at the start")
        }
    }
}
