/// The first key that appears twice in one object of a JSON document, if any. Decoders keep one
/// of the two silently (which one depends on the decoder), so that a document read by two
/// programs could mean two things: it is refused before it is decoded.
///
/// Keys are compared as the strings they stand for (`"a"` and `"\u0061"` are the same key). The
/// scan is linear, keeps one set of keys per open object, and stops at the first duplicate;
/// anything malformed is left for the decoder to report.
enum JSONKeys {
    static func firstDuplicate(in bytes: [UInt8]) -> String? {
        var objects: [Set<String>] = []
        // Per open container: whether it is an object, and whether the next string is a key.
        var containers: [(isObject: Bool, expectingKey: Bool)] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                containers.append((true, true))
                objects.append([])
                index += 1
            case UInt8(ascii: "["):
                containers.append((false, false))
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let last = containers.popLast(), last.isObject { objects.removeLast() }
                index += 1
            case UInt8(ascii: ","):
                if let last = containers.indices.last, containers[last].isObject { containers[last].expectingKey = true }
                index += 1
            case UInt8(ascii: "\""):
                guard let last = containers.indices.last, containers[last].isObject, containers[last].expectingKey else {
                    // A value: skipped, never built.
                    guard let end = stringEnd(bytes, from: index + 1) else { return nil }
                    index = end
                    continue
                }
                guard let (text, end) = string(bytes, from: index + 1) else { return nil }
                containers[last].expectingKey = false
                if !objects[objects.count - 1].insert(text).inserted { return text }
                index = end
            default:
                index += 1
            }
        }
        return nil
    }

    /// The index after the closing quote of the string starting after its opening quote.
    private static func stringEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): return index + 1
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// The string starting after its opening quote, unescaped, and the index after its closing
    /// quote; `nil` when it does not end.
    private static func string(_ bytes: [UInt8], from start: Int) -> (String, Int)? {
        var scalars = String.UnicodeScalarView()
        var raw: [UInt8] = []
        var index = start
        func flush() {
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
            raw.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                flush()
                return (String(scalars), index + 1)
            }
            guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else {
                raw.append(byte)
                index += 1
                continue
            }
            flush()
            let escaped = bytes[index + 1]
            index += 2
            switch escaped {
            case UInt8(ascii: "u"):
                guard index + 4 <= bytes.count, let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else { return nil }
                index += 4
                scalars.append(Unicode.Scalar(code) ?? "\u{FFFD}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            default: scalars.append(Unicode.Scalar(escaped))
            }
        }
        return nil
    }
}
