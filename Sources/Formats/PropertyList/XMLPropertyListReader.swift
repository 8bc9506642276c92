internal import Base64

/// Reads Apple's XML property lists from UTF-8 bytes, without recursion.
///
/// Containers are parsed with an explicit stack, so hostile nesting stops at
/// `PropertyListLimits.maxDepth` instead of the machine stack. Line numbers are counted only when
/// an error is reported, which keeps the common path a plain byte scan. The markup itself is read
/// by `XMLTokenizer`.
struct XMLPropertyListReader {
    private typealias Element = XMLTokenizer.Element
    private typealias StartTag = XMLTokenizer.StartTag

    private var tokens: XMLTokenizer
    private let limits: PropertyListLimits
    private var objectCount = 0
    private var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, start: Int, limits: PropertyListLimits) {
        self.tokens = XMLTokenizer(bytes: bytes, position: start, atEnd: true)
        self.limits = limits
    }

    private var bytes: UnsafeBufferPointer<UInt8> { tokens.bytes }
    private var position: Int { tokens.position }

    /// Decodes the whole document: prolog, one root value, nothing but comments after it.
    mutating func read() throws(PropertyListError) -> PropertyList {
        try lex { (tokens) throws(XMLTokenizer.Stop) in
            tokens.skipWhitespace()
            while try tokens.skipPrologItem() { tokens.skipWhitespace() }
        }
        guard position < bytes.count else { throw malformed("unexpected end of input: no root element") }
        guard try nextMarkup() == .startTag else {
            throw PropertyListError(.notAPropertyList, "line \(line(at: position)): expected a root element, found \(describe(at: position))")
        }
        let rootTag = try readStartTag(isRoot: true)
        let value: PropertyList
        if rootTag.element == .plist {
            guard !rootTag.isEmpty else { throw malformed(at: rootTag.offset, "<plist/> holds no value") }
            try skipMisc()
            let markup = try nextMarkup()
            guard markup != .end else { throw truncated(inside: .plist, openedAt: rootTag.offset) }
            guard markup == .startTag else { throw malformed("expected a value inside <plist>, found \(describe(at: position))") }
            value = try readValue(first: try readStartTag(isRoot: false))
            try skipMisc()
            guard position < bytes.count else { throw truncated(inside: .plist, openedAt: rootTag.offset) }
            try readEndTag(expected: .plist)
        } else {
            value = try readValue(first: rootTag)
        }
        try skipMisc()
        guard position >= bytes.count else {
            throw malformed("unexpected \(describe(at: position)) after the root element")
        }
        return value
    }

    // MARK: - Values

    /// An open container on the explicit parse stack; `.plist` marks the bottom, which takes the root.
    private struct Frame {
        var element: Element
        var offset: Int
        var items: [PropertyList] = []
        var entries: [String: PropertyList] = [:]
        var pendingKey: String?
        var pendingKeyOffset = 0

        init(element: Element, offset: Int) {
            self.element = element
            self.offset = offset
        }

        var value: PropertyList {
            element == .dict ? .dictionary(entries) : .array(items)
        }

        mutating func add(_ value: PropertyList) {
            if element == .dict {
                if let key = pendingKey { entries[key] = value }
                pendingKey = nil
            } else {
                items.append(value)
            }
        }
    }

    /// Reads the value whose start tag was just read, including everything nested in it.
    private mutating func readValue(first: StartTag) throws(PropertyListError) -> PropertyList {
        var parents: [Frame] = []
        var current = Frame(element: .plist, offset: first.offset)
        var tag = first
        while true {
            if tag.element == .key {
                try readKey(tag, into: &current)
            } else {
                if current.element == .dict, current.pendingKey == nil {
                    throw malformed(at: tag.offset, "<\(tag.element.name)> in a <dict> without a <key> before it")
                }
                try countObject(at: tag.offset)
                if tag.element == .array || tag.element == .dict {
                    guard depth < limits.maxDepth else {
                        throw PropertyListError(.tooDeep, "line \(line(at: tag.offset)): containers nest deeper than the limit of \(limits.maxDepth)")
                    }
                    if tag.isEmpty {
                        let value: PropertyList = tag.element == .dict ? .dictionary([:]) : .array([])
                        if current.element == .plist { return value }
                        current.add(value)
                    } else {
                        depth += 1
                        parents.append(current)
                        current = Frame(element: tag.element, offset: tag.offset)
                    }
                } else {
                    let value = try readScalar(tag)
                    if current.element == .plist { return value }
                    current.add(value)
                }
            }
            // Find the next start tag, closing containers on the way.
            while true {
                try skipMisc()
                let markup = try nextMarkup()
                if markup == .end { throw truncated(inside: current.element, openedAt: current.offset) }
                if markup == .text { throw malformed("unexpected text \(describe(at: position)) inside <\(current.element.name)>") }
                guard markup == .endTag else { break }
                if current.element == .dict, let key = current.pendingKey {
                    throw malformed(at: current.pendingKeyOffset, "key \(quoted(key)) has no value before </dict>")
                }
                try readEndTag(expected: current.element, openedAt: current.offset)
                depth -= 1
                let value = current.value
                guard let parent = parents.popLast() else { return value }
                current = parent
                if current.element == .plist { return value }
                current.add(value)
            }
            tag = try readStartTag(isRoot: false)
        }
    }

    /// Reads `<key>text</key>` into the open dictionary.
    private mutating func readKey(_ tag: StartTag, into frame: inout Frame) throws(PropertyListError) {
        guard frame.element == .dict else {
            throw malformed(at: tag.offset, "<key> outside a <dict>")
        }
        if let pending = frame.pendingKey {
            throw malformed(at: tag.offset, "key \(quoted(pending)) has no value: found another <key>")
        }
        let key = try makeString(try readText(of: tag), at: tag.offset)
        if frame.entries[key] != nil {
            throw PropertyListError(.duplicateKey, "line \(line(at: tag.offset)): duplicate key \(quoted(key)) in the <dict> opened at line \(line(at: frame.offset))")
        }
        try countObject(at: tag.offset)
        frame.pendingKey = key
        frame.pendingKeyOffset = tag.offset
    }

    /// Reads a non-container element up to and including its end tag.
    private mutating func readScalar(_ tag: StartTag) throws(PropertyListError) -> PropertyList {
        switch tag.element {
        case .string:
            return .string(try makeString(try readText(of: tag), at: tag.offset))
        case .integer:
            return .integer(try parseInteger(try readText(of: tag), at: tag.offset))
        case .real:
            return .real(try parseReal(try readText(of: tag), at: tag.offset))
        case .date:
            return .date(try parseDate(try readText(of: tag), at: tag.offset))
        case .data:
            return .data(try parseData(try readText(of: tag), at: tag.offset))
        case .true, .false:
            if !tag.isEmpty {
                tokens.skipWhitespace()
                try readEndTag(expected: tag.element, openedAt: tag.offset)
            }
            return .boolean(tag.element == .true)
        case .plist, .key, .array, .dict:
            throw malformed(at: tag.offset, "<\(tag.element.name)> is not allowed here")
        }
    }

    private mutating func countObject(at offset: Int) throws(PropertyListError) {
        objectCount += 1
        guard objectCount <= limits.maxObjects else {
            throw PropertyListError(.tooManyObjects, "line \(line(at: offset)): more than \(limits.maxObjects) values in the document")
        }
    }

    // MARK: - Markup

    /// Runs one step of the tokenizer, turning what stops it into this reader's error; a
    /// truncated element is reported with the line where it opened.
    private mutating func lex<T>(
        openedAt: Int? = nil, _ step: (inout XMLTokenizer) throws(XMLTokenizer.Stop) -> T
    ) throws(PropertyListError) -> T {
        do throws(XMLTokenizer.Stop) {
            return try step(&tokens)
        } catch {
            throw self.error(error, openedAt: openedAt)
        }
    }

    private mutating func nextMarkup() throws(PropertyListError) -> XMLTokenizer.Markup {
        try lex { (tokens) throws(XMLTokenizer.Stop) in try tokens.peekMarkup() }
    }

    /// Skips whitespace, comments and processing instructions between elements.
    private mutating func skipMisc() throws(PropertyListError) {
        _ = try lex { (tokens) throws(XMLTokenizer.Stop) in try tokens.skipMisc() }
    }

    /// Reads `<name attributes...>` or `<name .../>` at the current `<`.
    private mutating func readStartTag(isRoot: Bool) throws(PropertyListError) -> StartTag {
        do throws(XMLTokenizer.Stop) {
            return try tokens.startTag()
        } catch .unknownElement(let name, let offset) where isRoot {
            throw PropertyListError(.notAPropertyList, "line \(line(at: offset)): the root element <\(shown(name))> is not a property list element")
        } catch {
            throw self.error(error)
        }
    }

    /// Reads `</name>` at the current `<`, which must close `expected`.
    private mutating func readEndTag(expected: Element, openedAt: Int? = nil) throws(PropertyListError) {
        try lex(openedAt: openedAt) { (tokens) throws(XMLTokenizer.Stop) in try tokens.endTag(expected) }
    }

    /// Reads the text of `tag` up to and including its end tag; `<x/>` has empty text.
    private mutating func readText(of tag: StartTag) throws(PropertyListError) -> XMLTokenizer.Text {
        try lex(openedAt: tag.offset) { (tokens) throws(XMLTokenizer.Stop) in try tokens.text(of: tag) }
    }

    private func makeString(_ text: XMLTokenizer.Text, at offset: Int) throws(PropertyListError) -> String {
        let string = tokens.withBytes(of: text) { bytes in
            text.isASCII ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
        }
        guard let string else {
            throw PropertyListError(.invalidUTF8, "line \(line(at: offset)): the text of this element is not valid UTF-8")
        }
        return string
    }

    // MARK: - Scalars

    private func parseInteger(_ content: XMLTokenizer.Text, at offset: Int) throws(PropertyListError) -> Int64 {
        try tokens.withBytes(of: content) { (raw) throws(PropertyListError) in
            let text = Self.trimmed(raw)
            var index = 0
            var negative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                negative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var radix: UInt64 = 10
            if text.count - index > 2, text[index] == UInt8(ascii: "0"), text[index + 1] | 0x20 == UInt8(ascii: "x") {
                radix = 16
                index += 2
            }
            guard index < text.count else {
                throw malformed(at: offset, "<integer> holds \(quoted(text)), not a number")
            }
            var magnitude: UInt64 = 0
            while index < text.count {
                guard let digit = XMLTokenizer.digitValue(text[index], radix: UInt32(radix)) else {
                    throw malformed(at: offset, "<integer> holds \(quoted(text)), not a number")
                }
                let (product, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
                let (sum, overflow2) = product.addingReportingOverflow(UInt64(digit))
                guard !overflow1, !overflow2 else {
                    throw malformed(at: offset, "integer \(quoted(text)) is out of the 64-bit signed range")
                }
                magnitude = sum
                index += 1
            }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else {
                    throw malformed(at: offset, "integer \(quoted(text)) is out of the 64-bit signed range")
                }
                return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
            }
            guard magnitude <= UInt64(Int64.max) else {
                throw malformed(at: offset, "integer \(quoted(text)) is out of the 64-bit signed range")
            }
            return Int64(magnitude)
        }
    }

    private func parseReal(_ content: XMLTokenizer.Text, at offset: Int) throws(PropertyListError) -> Double {
        try tokens.withBytes(of: content) { (raw) throws(PropertyListError) in
            let text = Self.trimmed(raw)
            // A length cap keeps strtod's big-number path from running on megabytes of digits.
            guard text.count <= 400, text.allSatisfy({ $0 < 0x80 }),
                  let value = Double(String(decoding: text, as: UTF8.self)) else {
                throw malformed(at: offset, "<real> holds \(quoted(text)), not a number")
            }
            return value
        }
    }

    private func parseDate(_ content: XMLTokenizer.Text, at offset: Int) throws(PropertyListError) -> Double {
        try tokens.withBytes(of: content) { (raw) throws(PropertyListError) in
            let text = Self.trimmed(raw)
            guard let seconds = PropertyListDate.parse(text) else {
                throw malformed(at: offset, "<date> holds \(quoted(text)), not a date like 2001-01-01T00:00:00Z")
            }
            return seconds
        }
    }

    private func parseData(_ content: XMLTokenizer.Text, at offset: Int) throws(PropertyListError) -> [UInt8] {
        try tokens.withBytes(of: content) { (text) throws(PropertyListError) in
            guard let data = Base64.decode(text, strictness: .lenient) else {
                throw malformed(at: offset, "<data> does not hold valid base64")
            }
            return data
        }
    }

    private static func trimmed(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = text.count
        while start < end, XMLTokenizer.isWhitespace(text[start]) { start += 1 }
        while end > start, XMLTokenizer.isWhitespace(text[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: text[start..<end])
    }

    // MARK: - Errors

    /// This reader's error for what stopped the tokenizer.
    private func error(_ stop: XMLTokenizer.Stop, openedAt: Int? = nil) -> PropertyListError {
        let offset: Int
        let message: String
        switch stop {
        case .endOfInput(.element(let element), let at):
            return truncated(inside: element, openedAt: openedAt ?? at)
        case .unsupportedEncoding(let value, let at):
            let encoding = String(decoding: bytes[value], as: UTF8.self)
            return PropertyListError(.unsupported, "line \(line(at: at)): encoding \"\(encoding.prefix(40))\" is not supported; only UTF-8 property lists are read")
        case .internalSubset(let at):
            return PropertyListError(.unsupported, "line \(line(at: at)): a DOCTYPE with an internal subset ('[...]') is refused; entity definitions are not supported")
        case .needMore:
            // Unreached: with every byte at hand (`atEnd`), the tokenizer reports the end of input.
            (offset, message) = (bytes.count, "unexpected end of input")
        case .endOfInput(let construct, let at): (offset, message) = (at, "unexpected end of input inside \(Self.describe(construct))")
        case .unknownElement(let name, let at): (offset, message) = (at, "unknown element <\(shown(name))>")
        case .tagNotClosed(let element, let at): (offset, message) = (at, "the tag <\(element.name)> is not closed with '>'")
        case .notAnEndTag(let expected, let at): (offset, message) = (at, "expected </\(expected.name)>, found \(describe(at: at))")
        case .wrongEndTag(let expected, let name, let at): (offset, message) = (at, "expected </\(expected.name)>, found </\(shown(name))>")
        case .endTagNotClosed(let element, let at): (offset, message) = (at, "the end tag </\(element.name)> is not closed with '>'")
        case .markupInText(let element, let at): (offset, message) = (at, "unexpected \(describe(at: at)) inside <\(element.name)>; only text is allowed")
        case .badEntity(let problem, let name, let at): (offset, message) = (at, describe(problem, entity: "&" + String(decoding: bytes[name], as: UTF8.self) + ";", at: at))
        case .unquotedEncoding(let at): (offset, message) = (at, "the encoding in the XML declaration is not quoted")
        }
        return malformed(at: offset, message)
    }

    private static func describe(_ construct: XMLTokenizer.Construct) -> String {
        switch construct {
        case .declaration: "the <?xml ...?> declaration"
        case .doctype: "<!DOCTYPE>"
        case .comment: "a comment"
        case .processingInstruction: "a processing instruction <?...?>"
        case .cdata: "a CDATA section"
        case .startTag(let element): "the tag <\(element.name)>"
        case .element(let element): "<\(element.name)>"
        }
    }

    private func describe(_ problem: XMLTokenizer.EntityProblem, entity: String, at offset: Int) -> String {
        switch problem {
        case .unterminated: "'&' must start an entity such as &amp; (found \(describe(from: offset, count: 12)))"
        case .unknown: "unknown entity \(entity); only &lt; &gt; &amp; &quot; &apos; and &#...; are allowed"
        case .invalidReference: "invalid character reference \(entity)"
        case .beyondUnicode: "character reference \(entity) is beyond U+10FFFF"
        case .notACharacter: "character reference \(entity) is not a valid character"
        }
    }

    /// The 1-based line of a byte offset; counted only when an error is reported.
    private func line(at offset: Int) -> Int {
        var line = 1
        for index in 0..<min(offset, bytes.count) where bytes[index] == .newline { line += 1 }
        return line
    }

    private func malformed(_ message: String) -> PropertyListError {
        malformed(at: position, message)
    }

    private func malformed(at offset: Int, _ message: String) -> PropertyListError {
        PropertyListError(.malformed, "line \(line(at: offset)): \(message)")
    }

    private func truncated(inside element: Element, openedAt offset: Int) -> PropertyListError {
        PropertyListError(.malformed, "line \(line(at: bytes.count)): unexpected end of input inside the <\(element.name)> opened at line \(line(at: offset))")
    }

    /// A few quoted bytes from `offset`, or "the end of input".
    private func describe(at offset: Int) -> String {
        offset < bytes.count ? quoted(describe(from: offset, count: 20)) : "the end of input"
    }

    private func describe(from offset: Int, count: Int) -> String {
        let end = min(bytes.count, offset + count)
        return String(decoding: bytes[offset..<end], as: UTF8.self) + (end < bytes.count ? "..." : "")
    }

    /// An element name as found in the input, cut to 40 bytes.
    private func shown(_ name: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[name]).prefix(40), as: UTF8.self)
    }

    private func quoted(_ text: UnsafeBufferPointer<UInt8>) -> String {
        quoted(String(decoding: text.prefix(60), as: UTF8.self) + (text.count > 60 ? "..." : ""))
    }

    private func quoted(_ text: String) -> String {
        "'" + text + "'"
    }
}
