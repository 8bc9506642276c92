/// The XML of property lists, token by token, over UTF-8 bytes in memory: start and end tags,
/// text with its entities, CDATA sections and comments, and the declaration, DOCTYPE, comments
/// and processing instructions between elements.
///
/// `XMLPropertyListReader` tokenizes whole documents; the word-list scanner tokenizes blocks as
/// they inflate. Each token is read from `position` and, when it is whole, `position` moves past
/// it. When the bytes end inside a token and more may come (`atEnd` is false), the token throws
/// `.needMore` and `position` stays where it was; once `atEnd`, that is `.endOfInput`. Nothing is
/// allocated but the text of an element that holds markup.
@usableFromInline
package struct XMLTokenizer {
    /// The bytes at hand.
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    /// Where the next token starts.
    @usableFromInline package var position: Int
    /// No more bytes will come: a token cut short is an error, not a wait.
    @usableFromInline package let atEnd: Bool

    /// A tokenizer of `bytes` from `position`.
    @inlinable
    package init(bytes: UnsafeBufferPointer<UInt8>, position: Int, atEnd: Bool) {
        self.bytes = bytes
        self.position = position
        self.atEnd = atEnd
    }

    /// The bytes left from `position`.
    @inlinable @inline(__always)
    package var available: Int { bytes.count - position }

    // MARK: - Tokens

    /// The elements of Apple's plist DTD.
    @usableFromInline
    package enum Element: Equatable, Sendable {
        case plist, array, dict, key, string, integer, real, `true`, `false`, date, data

        /// The element's name, as in its tags.
        package var name: String {
            switch self {
            case .plist: "plist"
            case .array: "array"
            case .dict: "dict"
            case .key: "key"
            case .string: "string"
            case .integer: "integer"
            case .real: "real"
            case .true: "true"
            case .false: "false"
            case .date: "date"
            case .data: "data"
            }
        }

        /// `</name>`, the common end tag without blank space.
        @inlinable
        package var endTag: StaticString {
            switch self {
            case .plist: "</plist>"
            case .array: "</array>"
            case .dict: "</dict>"
            case .key: "</key>"
            case .string: "</string>"
            case .integer: "</integer>"
            case .real: "</real>"
            case .true: "</true>"
            case .false: "</false>"
            case .date: "</date>"
            case .data: "</data>"
            }
        }

        /// The element named by the bytes, or nil.
        @inlinable
        package init?(_ name: UnsafeBufferPointer<UInt8>) {
            func equals(_ literal: StaticString) -> Bool {
                guard literal.utf8CodeUnitCount == name.count else { return false }
                let pointer = literal.utf8Start
                for index in 0..<name.count where name[index] != pointer[index] { return false }
                return true
            }
            switch name.first {
            case UInt8(ascii: "s") where equals("string"): self = .string
            case UInt8(ascii: "k") where equals("key"): self = .key
            case UInt8(ascii: "d") where equals("dict"): self = .dict
            case UInt8(ascii: "d") where equals("data"): self = .data
            case UInt8(ascii: "d") where equals("date"): self = .date
            case UInt8(ascii: "a") where equals("array"): self = .array
            case UInt8(ascii: "i") where equals("integer"): self = .integer
            case UInt8(ascii: "r") where equals("real"): self = .real
            case UInt8(ascii: "t") where equals("true"): self = .true
            case UInt8(ascii: "f") where equals("false"): self = .false
            case UInt8(ascii: "p") where equals("plist"): self = .plist
            default: return nil
            }
        }
    }

    /// A start tag: its element, whether it closes itself (`<x/>`), and the offset of its `<`.
    @usableFromInline
    package struct StartTag {
        @usableFromInline package var element: Element
        @usableFromInline package var isEmpty: Bool
        @usableFromInline package var offset: Int

        @inlinable
        package init(element: Element, isEmpty: Bool, offset: Int) {
            self.element = element
            self.isEmpty = isEmpty
            self.offset = offset
        }
    }

    /// The text of an element: a range of the bytes when it holds no markup, else decoded bytes.
    @usableFromInline
    package enum Text {
        case slice(Range<Int>, isASCII: Bool)
        case decoded([UInt8], isASCII: Bool)

        /// Whether every byte is ASCII (and so valid UTF-8).
        @inlinable
        package var isASCII: Bool {
            switch self {
            case .slice(_, let isASCII), .decoded(_, let isASCII): isASCII
            }
        }
    }

    /// Calls `body` with the bytes of `text`.
    @inlinable
    package func withBytes<R, E: Error>(of text: Text, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        switch text {
        case .slice(let range, _): try body(UnsafeBufferPointer(rebasing: bytes[range]))
        case .decoded(let decoded, _): try decoded.withUnsafeBufferPointer(body)
        }
    }

    /// What comes at `position`.
    @usableFromInline
    package enum Markup: Equatable {
        case startTag, endTag, text, end
    }

    /// A construct the input can end inside.
    @usableFromInline
    package enum Construct: Equatable, Sendable {
        case declaration, doctype, comment, processingInstruction, cdata
        case startTag(Element)
        /// The element's text or its end tag.
        case element(Element)
    }

    /// What is wrong with an entity.
    @usableFromInline
    package enum EntityProblem: Sendable {
        /// No `;` within a few bytes of the `&`.
        case unterminated
        /// A name that is not one of the five XML entities.
        case unknown
        /// A character reference with a byte that is not a digit.
        case invalidReference
        /// A character reference past U+10FFFF.
        case beyondUnicode
        /// A reference to no character: empty, zero or a surrogate.
        case notACharacter
    }

    /// Why no token was read; `at` is where the faulty construct starts (its `<` or `&`).
    @usableFromInline
    package enum Stop: Error {
        /// The bytes end inside the token and more may come; `position` has not moved.
        case needMore
        /// The input ends inside the construct; for an element's text, `at` is the end.
        case endOfInput(inside: Construct, at: Int)
        case unknownElement(name: Range<Int>, at: Int)
        /// A `<` inside a start tag.
        case tagNotClosed(Element, at: Int)
        /// Something else where `</expected>` should be.
        case notAnEndTag(expected: Element, at: Int)
        case wrongEndTag(expected: Element, name: Range<Int>, at: Int)
        /// `</name` followed by something else than blank space and `>`.
        case endTagNotClosed(Element, at: Int)
        /// Markup other than CDATA and comments inside an element's text.
        case markupInText(Element, at: Int)
        /// `name` is the bytes between the `&` and the `;`.
        case badEntity(EntityProblem, name: Range<Int>, at: Int)
        case unquotedEncoding(at: Int)
        case unsupportedEncoding(Range<Int>, at: Int)
        /// A DOCTYPE with `[...]`, where entities would be defined.
        case internalSubset(at: Int)
    }

    // MARK: - Between elements

    /// Skips one XML declaration, processing instruction, comment or DOCTYPE at `position`;
    /// false when none starts there.
    package mutating func skipPrologItem() throws(Stop) -> Bool {
        // Nine bytes tell a DOCTYPE from anything else.
        guard available >= 9 || atEnd else { throw .needMore }
        if starts(with: "<?xml"), available > 5, bytes[position + 5] == .questionMark || Self.isWhitespace(bytes[position + 5]) {
            try skipDeclaration()
        } else if starts(with: "<?") || starts(with: "<!--") {
            try skipCommentOrInstruction()
        } else if starts(with: "<!DOCTYPE") {
            try skipDoctype()
        } else {
            return false
        }
        return true
    }

    /// Skips blank space, comments and processing instructions; returns whether it moved. It
    /// throws `.needMore` only when the bytes end inside the first of them.
    @inlinable
    package mutating func skipMisc() throws(Stop) -> Bool {
        let start = position
        while true {
            skipWhitespace()
            guard available >= 2 else {
                // A lone '<' may start a comment.
                if available == 1 && !atEnd && position == start { throw .needMore }
                return position != start
            }
            guard bytes[position] == .lessThan else { return position != start }
            let next = bytes[position + 1]
            if next == .exclamation {
                guard available >= 4 || atEnd else {
                    if position != start { return true }
                    throw .needMore
                }
                guard starts(with: "<!--") else { return position != start }
            } else if next != .questionMark {
                return position != start
            }
            do throws(Stop) {
                try skipCommentOrInstruction()
            } catch .needMore where position != start {
                return true
            }
        }
    }

    /// Skips `<!-- ... -->` or `<? ... ?>` at `position`.
    @usableFromInline
    mutating func skipCommentOrInstruction() throws(Stop) {
        let isComment = bytes[position + 1] == .exclamation
        let close: StaticString = isComment ? "-->" : "?>"
        guard let end = find(close, from: position + (isComment ? 4 : 2)) else {
            throw ranOut(inside: isComment ? .comment : .processingInstruction, at: position)
        }
        position = end + close.utf8CodeUnitCount
    }

    /// Skips `<?xml ... ?>`, refusing any encoding but UTF-8.
    private mutating func skipDeclaration() throws(Stop) {
        let start = position
        guard let end = find("?>", from: start + 5) else { throw ranOut(inside: .declaration, at: start) }
        let declaration = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let key = "encoding".utf8
        if let keyIndex = declaration.indices.first(where: { declaration[$0...].starts(with: key) }) {
            var index = keyIndex + key.count
            while index < declaration.count, Self.isWhitespace(declaration[index]) || declaration[index] == .equals { index += 1 }
            guard index < declaration.count, declaration[index] == .quotation || declaration[index] == .apostrophe else {
                throw .unquotedEncoding(at: start)
            }
            let quote = declaration[index]
            guard let valueEnd = declaration[(index + 1)...].firstIndex(of: quote) else { throw .unquotedEncoding(at: start) }
            let value = (start + index + 1)..<(start + valueEnd)
            let encoding = String(decoding: bytes[value], as: UTF8.self).lowercased()
            guard encoding == "utf-8" || encoding == "utf8" else { throw .unsupportedEncoding(value, at: start) }
        }
        position = end + 2
    }

    /// Skips `<!DOCTYPE ...>`, refusing an internal subset: its entity definitions are how
    /// billion-laughs documents expand.
    private mutating func skipDoctype() throws(Stop) {
        let start = position
        let close = closingBracket(from: start + 9, stoppingAt: .leftBracket)
        switch close.found {
        case .greaterThan: position = close.end
        case .leftBracket: throw .internalSubset(at: start)
        default: throw ranOut(inside: .doctype, at: start)
        }
    }

    /// Moves past spaces, tabs and line breaks.
    @inlinable @inline(__always)
    package mutating func skipWhitespace() {
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
    }

    /// What comes at `position`; two bytes tell a start tag from an end tag.
    @inlinable
    package func peekMarkup() throws(Stop) -> Markup {
        guard available >= 2 || atEnd else { throw .needMore }
        guard position < bytes.count else { return .end }
        guard bytes[position] == .lessThan else { return .text }
        return available >= 2 && bytes[position + 1] == .slash ? .endTag : .startTag
    }

    // MARK: - Tags

    /// Reads `<name attributes...>` or `<name .../>` at the `<` at `position`; attributes are
    /// skipped, and their quoted values may hold `>` and `/`.
    @inlinable
    package mutating func startTag() throws(Stop) -> StartTag {
        let offset = position
        guard offset < bytes.count, bytes[offset] == .lessThan else {
            throw offset == bytes.count && !atEnd ? .needMore : .unknownElement(name: offset..<offset, at: offset)
        }
        var index = offset + 1
        while index < bytes.count, !Self.endsName(bytes[index]) { index += 1 }
        if index == bytes.count && !atEnd { throw .needMore }
        guard let element = Element(UnsafeBufferPointer(rebasing: bytes[(offset + 1)..<index])) else {
            throw .unknownElement(name: (offset + 1)..<index, at: offset)
        }
        let close = closingBracket(from: index, stoppingAt: .lessThan)
        switch close.found {
        case .greaterThan:
            position = close.end
            return StartTag(element: element, isEmpty: close.isEmptyTag, offset: offset)
        case .lessThan: throw .tagNotClosed(element, at: offset)
        default: throw ranOut(inside: .startTag(element), at: offset)
        }
    }

    /// Finds the `>` that closes a tag or a DOCTYPE, from `start`; quoted values, which may hold
    /// `>`, are skipped whole. Stops early at `stop` outside quotes, and at the end of the bytes
    /// (`found` nil). `isEmptyTag`: the last byte before the `>` but blank space is `/`.
    @inlinable
    func closingBracket(from start: Int, stoppingAt stop: UInt8) -> (end: Int, found: UInt8?, isEmptyTag: Bool) {
        var index = start
        var quote: UInt8 = 0
        var lastSignificant: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == .quotation || byte == .apostrophe {
                quote = byte
                lastSignificant = byte
            } else if byte == .greaterThan || byte == stop {
                return (index, byte, lastSignificant == .slash)
            } else if !Self.isWhitespace(byte) {
                lastSignificant = byte
            }
        }
        return (index, nil, false)
    }

    /// Reads `</name>` or `</name  >` at `position`, which must close `expected`.
    @inlinable
    package mutating func endTag(_ expected: Element) throws(Stop) {
        position = try endOfEndTag(expected, at: position)
    }

    /// The offset just past `</expected>` at `start`.
    @inlinable
    func endOfEndTag(_ expected: Element, at start: Int) throws(Stop) -> Int {
        let literal = expected.endTag
        if starts(with: literal, at: start) { return start + literal.utf8CodeUnitCount }
        guard start < bytes.count else { throw ranOut(inside: .element(expected), at: start) }
        guard start + 1 < bytes.count || atEnd else { throw .needMore }
        guard start + 1 < bytes.count, bytes[start] == .lessThan, bytes[start + 1] == .slash else {
            throw .notAnEndTag(expected: expected, at: start)
        }
        var index = start + 2
        while index < bytes.count, !Self.endsName(bytes[index]) { index += 1 }
        if index == bytes.count && !atEnd { throw .needMore }
        guard Element(UnsafeBufferPointer(rebasing: bytes[(start + 2)..<index])) == expected else {
            throw .wrongEndTag(expected: expected, name: (start + 2)..<index, at: start)
        }
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
        guard index < bytes.count else { throw ranOut(inside: .element(expected), at: start) }
        guard bytes[index] == .greaterThan else { throw .endTagNotClosed(expected, at: start) }
        return index + 1
    }

    // MARK: - Text

    /// Reads `<string>text</string>` at `position` when the text holds no markup: the common
    /// word, read in place. Nil, with `position` unchanged, for anything else or when the bytes
    /// end first.
    @inlinable
    package mutating func plainString() -> (text: Range<Int>, isASCII: Bool)? {
        guard starts(with: "<string>") else { return nil }
        let start = position + 8
        let (end, bits) = textRun(from: start)
        guard starts(with: "</string>", at: end) else { return nil }
        position = end + 9
        return (start..<end, bits < 0x80)
    }

    /// Reads the text of the element whose start tag was just read, up to and past its end tag:
    /// entities decoded, CDATA kept, comments dropped. `<x/>` has empty text.
    @inlinable
    package mutating func text(of tag: StartTag) throws(Stop) -> Text {
        if tag.isEmpty { return .slice(position..<position, isASCII: true) }
        let element = tag.element
        let start = position
        var (index, bits) = textRun(from: start)
        var decoded: [UInt8] = []
        var isDecoded = false
        while true {
            guard index < bytes.count else { throw ranOut(inside: .element(element), at: index) }
            if bytes[index] == .ampersand {
                if !isDecoded {
                    decoded = Array(bytes[start..<index])
                    isDecoded = true
                }
                index = try entity(at: index, into: &decoded, bits: &bits)
            } else {
                guard index + 1 < bytes.count || atEnd else { throw .needMore }
                if index + 1 < bytes.count, bytes[index + 1] == .slash {
                    position = try endOfEndTag(element, at: index)
                    return isDecoded ? .decoded(decoded, isASCII: bits < 0x80) : .slice(start..<index, isASCII: bits < 0x80)
                }
                if !isDecoded {
                    decoded = Array(bytes[start..<index])
                    isDecoded = true
                }
                index = try skipMarkupInText(at: index, of: element, into: &decoded, bits: &bits)
            }
            let run = index
            let (end, runBits) = textRun(from: run)
            decoded.append(contentsOf: bytes[run..<end])
            bits |= runBits
            index = end
        }
    }

    /// Past a CDATA section (its bytes appended to `text`) or a comment at the `<` at `index`.
    @usableFromInline
    func skipMarkupInText(at index: Int, of element: Element, into text: inout [UInt8], bits: inout UInt8) throws(Stop) -> Int {
        if starts(with: "<![CDATA[", at: index) {
            guard let close = find("]]>", from: index + 9) else { throw ranOut(inside: .cdata, at: index) }
            for byte in bytes[(index + 9)..<close] { bits |= byte }
            text.append(contentsOf: bytes[(index + 9)..<close])
            return close + 3
        }
        if starts(with: "<!--", at: index) {
            guard let close = find("-->", from: index + 4) else { throw ranOut(inside: .comment, at: index) }
            return close + 3
        }
        if bytes.count - index < 9 && !atEnd { throw .needMore }
        throw .markupInText(element, at: index)
    }

    /// Decodes `&name;` or `&#...;` at `index` into `text`; the offset past the `;`.
    @usableFromInline
    func entity(at start: Int, into text: inout [UInt8], bits: inout UInt8) throws(Stop) -> Int {
        var end = start + 1
        while end < bytes.count, end - start < 12, bytes[end] != .semicolon { end += 1 }
        if end == bytes.count && !atEnd { throw .needMore }
        let nameRange = (start + 1)..<end
        guard end < bytes.count, bytes[end] == .semicolon else { throw .badEntity(.unterminated, name: nameRange, at: start) }
        let name = UnsafeBufferPointer(rebasing: bytes[nameRange])
        let named: UInt8? = switch String(decoding: name, as: UTF8.self) {
        case "lt": .lessThan
        case "gt": .greaterThan
        case "amp": .ampersand
        case "quot": .quotation
        case "apos": .apostrophe
        default: nil
        }
        if let named {
            text.append(named)
            return end + 1
        }
        guard name.first == UInt8(ascii: "#") else { throw .badEntity(.unknown, name: nameRange, at: start) }
        var digits = name.dropFirst()
        var radix: UInt32 = 10
        if digits.first == UInt8(ascii: "x") {
            radix = 16
            digits = digits.dropFirst()
        }
        var code: UInt32 = 0
        for digit in digits {
            guard let value = Self.digitValue(digit, radix: radix) else { throw .badEntity(.invalidReference, name: nameRange, at: start) }
            code = code &* radix &+ value
            guard code <= 0x10FFFF else { throw .badEntity(.beyondUnicode, name: nameRange, at: start) }
        }
        guard !digits.isEmpty, code != 0, let scalar = Unicode.Scalar(code) else {
            throw .badEntity(.notACharacter, name: nameRange, at: start)
        }
        UTF8.encode(scalar) { unit in
            bits |= unit
            text.append(unit)
        }
        return end + 1
    }

    /// The end of the text from `start` (the first `<` or `&`, or the end of the bytes), and every
    /// byte of it OR-ed together, enough to tell whether it is all ASCII.
    @inlinable @inline(__always)
    func textRun(from start: Int) -> (end: Int, bits: UInt8) {
        var index = start
        var bits: UInt8 = 0
        if let base = bytes.baseAddress {
            // Eight bytes at a time while none is '<' or '&' (a zero byte in x ^ repeated byte marks it).
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            var groupBits: UInt64 = 0
            while index + 8 <= bytes.count {
                let group = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let lessThan = group ^ (ones &* UInt64(UInt8.lessThan))
                let ampersand = group ^ (ones &* UInt64(UInt8.ampersand))
                let found = ((lessThan &- ones) & ~lessThan | (ampersand &- ones) & ~ampersand) & highs
                if found != 0 { break }
                groupBits |= group
                index += 8
            }
            if groupBits & highs != 0 { bits = 0x80 }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .lessThan || byte == .ampersand { break }
            bits |= byte
            index += 1
        }
        return (index, bits)
    }

    // MARK: - Bytes

    /// XML's blank space: space, tab, line feed, carriage return.
    @inlinable @inline(__always)
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == .space || byte == .newline || byte == .tab || byte == .carriageReturn
    }

    @inlinable
    static func endsName(_ byte: UInt8) -> Bool {
        byte == .greaterThan || byte == .slash || byte == .lessThan || isWhitespace(byte)
    }

    /// The value of a hexadecimal digit, when it is a digit in `radix`.
    @inlinable
    package static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        let value: UInt32
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt32(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = UInt32(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
        return value < radix ? value : nil
    }

    /// Whether the bytes at `offset` (`position` by default) spell `literal`.
    @inlinable @inline(__always)
    package func starts(with literal: StaticString, at offset: Int? = nil) -> Bool {
        let start = offset ?? position
        let count = literal.utf8CodeUnitCount
        guard bytes.count - start >= count, let base = bytes.baseAddress else { return count == 0 }
        let here = UnsafeRawPointer(base + start)
        let pointer = UnsafeRawPointer(literal.utf8Start)
        // Eight bytes at a time: the literals are tags, most of them eight bytes or longer.
        var index = 0
        while index &+ 8 <= count {
            guard here.loadUnaligned(fromByteOffset: index, as: UInt64.self) == pointer.loadUnaligned(fromByteOffset: index, as: UInt64.self) else {
                return false
            }
            index &+= 8
        }
        while index < count {
            guard here.load(fromByteOffset: index, as: UInt8.self) == pointer.load(fromByteOffset: index, as: UInt8.self) else { return false }
            index &+= 1
        }
        return true
    }

    /// The offset of the next `literal` at or after `start`.
    @inlinable
    func find(_ literal: StaticString, from start: Int) -> Int? {
        let count = literal.utf8CodeUnitCount
        let pointer = literal.utf8Start
        var index = start
        while index <= bytes.count - count {
            if bytes[index] == pointer[0] {
                var matched = 1
                while matched < count, bytes[index + matched] == pointer[matched] { matched += 1 }
                if matched == count { return index }
            }
            index += 1
        }
        return nil
    }

    /// The input ran out inside `construct`: for now, or for good once `atEnd`.
    @inlinable
    func ranOut(inside construct: Construct, at offset: Int) -> Stop {
        atEnd ? .endOfInput(inside: construct, at: offset) : .needMore
    }
}

extension UInt8 {
    @inlinable static var tab: UInt8 { UInt8(ascii: "\t") }
    @inlinable static var newline: UInt8 { UInt8(ascii: "\n") }
    @inlinable static var carriageReturn: UInt8 { UInt8(ascii: "\r") }
    @inlinable static var space: UInt8 { UInt8(ascii: " ") }
    @inlinable static var exclamation: UInt8 { UInt8(ascii: "!") }
    @inlinable static var quotation: UInt8 { UInt8(ascii: "\"") }
    @inlinable static var ampersand: UInt8 { UInt8(ascii: "&") }
    @inlinable static var apostrophe: UInt8 { UInt8(ascii: "'") }
    @inlinable static var slash: UInt8 { UInt8(ascii: "/") }
    @inlinable static var semicolon: UInt8 { UInt8(ascii: ";") }
    @inlinable static var lessThan: UInt8 { UInt8(ascii: "<") }
    @inlinable static var equals: UInt8 { UInt8(ascii: "=") }
    @inlinable static var greaterThan: UInt8 { UInt8(ascii: ">") }
    @inlinable static var questionMark: UInt8 { UInt8(ascii: "?") }
    @inlinable static var leftBracket: UInt8 { UInt8(ascii: "[") }
}
