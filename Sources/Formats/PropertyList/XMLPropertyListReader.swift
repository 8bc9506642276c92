/// Reads Apple's XML property lists from UTF-8 bytes, without recursion.
///
/// Containers are parsed with an explicit stack, so hostile nesting stops at
/// `PropertyListLimits.maxDepth` instead of the machine stack. Line numbers are counted only when
/// an error is reported, which keeps the common path a plain byte scan.
struct XMLPropertyListReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: PropertyListLimits
    private var position: Int
    private var objectCount = 0
    private var depth = 0

    init(bytes: UnsafeBufferPointer<UInt8>, start: Int, limits: PropertyListLimits) {
        self.bytes = bytes
        self.position = start
        self.limits = limits
    }

    /// Decodes the whole document: prolog, one root value, nothing but comments after it.
    mutating func read() throws(PropertyListError) -> PropertyList {
        try readProlog()
        guard position < bytes.count else { throw malformed("unexpected end of input: no root element") }
        guard bytes[position] == .lessThan, !peek(at: position + 1, is: .slash) else {
            throw PropertyListError(.notAPropertyList, "line \(line(at: position)): expected a root element, found \(describeHere())")
        }
        let rootTag = try readStartTag(isRoot: true)
        let value: PropertyList
        if rootTag.element == .plist {
            guard !rootTag.isEmpty else { throw malformed(at: rootTag.offset, "<plist/> holds no value") }
            try skipMisc()
            guard position < bytes.count else { throw truncated(inside: .plist, openedAt: rootTag.offset) }
            guard bytes[position] == .lessThan, !peek(at: position + 1, is: .slash) else {
                throw malformed("expected a value inside <plist>, found \(describeHere())")
            }
            value = try readValue(first: try readStartTag(isRoot: false))
            try skipMisc()
            guard position < bytes.count else { throw truncated(inside: .plist, openedAt: rootTag.offset) }
            try readEndTag(expected: .plist)
        } else {
            value = try readValue(first: rootTag)
        }
        try skipMisc()
        guard position >= bytes.count else {
            throw malformed("unexpected \(describeHere()) after the root element")
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
                guard position < bytes.count else { throw truncated(inside: current.element, openedAt: current.offset) }
                guard bytes[position] == .lessThan else {
                    throw malformed("unexpected text \(describeHere()) inside <\(current.element.name)>")
                }
                guard peek(at: position + 1, is: .slash) else { break }
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
        let key = try makeString(try readContent(of: tag), at: tag.offset)
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
            return .string(try makeString(try readContent(of: tag), at: tag.offset))
        case .integer:
            return .integer(try parseInteger(try readContent(of: tag), at: tag.offset))
        case .real:
            return .real(try parseReal(try readContent(of: tag), at: tag.offset))
        case .date:
            return .date(try parseDate(try readContent(of: tag), at: tag.offset))
        case .data:
            return .data(try parseData(try readContent(of: tag), at: tag.offset))
        case .true, .false:
            if !tag.isEmpty {
                skipWhitespace()
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

    // MARK: - Tags

    /// The elements of Apple's plist DTD.
    enum Element: Equatable {
        case plist, array, dict, key, string, integer, real, `true`, `false`, date, data

        var name: String {
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

        /// `</name>`, for the common end tag without whitespace.
        var endTag: StaticString {
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
        init?(_ name: UnsafeBufferPointer<UInt8>) {
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

    private struct StartTag {
        var element: Element
        var isEmpty: Bool
        var offset: Int
    }

    /// Reads `<name attributes...>` or `<name .../>` at the current `<`.
    private mutating func readStartTag(isRoot: Bool) throws(PropertyListError) -> StartTag {
        let offset = position
        position += 1
        let nameStart = position
        while position < bytes.count, !Self.endsName(bytes[position]) { position += 1 }
        let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<position])
        guard let element = Element(name) else {
            let shown = String(decoding: name.prefix(40), as: UTF8.self)
            if isRoot {
                throw PropertyListError(.notAPropertyList, "line \(line(at: offset)): the root element <\(shown)> is not a property list element")
            }
            throw malformed(at: offset, "unknown element <\(shown)>")
        }
        // Attributes are skipped; quoted values may hold '>' and '/'.
        var quote: UInt8 = 0
        var lastSignificant: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == .quotation || byte == .apostrophe {
                quote = byte
                lastSignificant = byte
            } else if byte == .greaterThan {
                return StartTag(element: element, isEmpty: lastSignificant == .slash, offset: offset)
            } else if byte == .lessThan {
                throw malformed(at: offset, "the tag <\(element.name)> is not closed with '>'")
            } else if !Self.isWhitespace(byte) {
                lastSignificant = byte
            }
        }
        throw malformed(at: offset, "unexpected end of input inside the tag <\(element.name)>")
    }

    /// Reads `</name>` at the current `<`, which must close `expected`.
    private mutating func readEndTag(expected: Element, openedAt: Int? = nil) throws(PropertyListError) {
        let endTag = expected.endTag
        if matches(endTag) {
            position += endTag.utf8CodeUnitCount
            return
        }
        let offset = position
        guard position < bytes.count else { throw truncated(inside: expected, openedAt: openedAt ?? offset) }
        guard bytes[position] == .lessThan, peek(at: position + 1, is: .slash) else {
            throw malformed("expected </\(expected.name)>, found \(describeHere())")
        }
        position += 2
        let nameStart = position
        while position < bytes.count, !Self.endsName(bytes[position]) { position += 1 }
        let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<position])
        guard Element(name) == expected else {
            throw malformed(at: offset, "expected </\(expected.name)>, found </\(String(decoding: name.prefix(40), as: UTF8.self))>")
        }
        skipWhitespace()
        guard position < bytes.count else { throw truncated(inside: expected, openedAt: openedAt ?? offset) }
        guard bytes[position] == .greaterThan else {
            throw malformed(at: offset, "the end tag </\(expected.name)> is not closed with '>'")
        }
        position += 1
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == .greaterThan || byte == .slash || byte == .lessThan || isWhitespace(byte)
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == .space || byte == .newline || byte == .tab || byte == .carriageReturn
    }

    // MARK: - Text content

    /// Text of an element: a slice of the input when it holds no markup, else decoded bytes.
    private enum Content {
        case slice(Range<Int>, isASCII: Bool)
        case decoded([UInt8])
    }

    /// Reads the text of `tag` up to and including its end tag; `<x/>` has empty text.
    private mutating func readContent(of tag: StartTag) throws(PropertyListError) -> Content {
        if tag.isEmpty { return .slice(position..<position, isASCII: true) }
        let start = position
        var bits: UInt8 = 0
        while position < bytes.count {
            let byte = bytes[position]
            if byte == .lessThan || byte == .ampersand { break }
            bits |= byte
            position += 1
        }
        guard position < bytes.count else { throw truncated(inside: tag.element, openedAt: tag.offset) }
        if bytes[position] == .lessThan, peek(at: position + 1, is: .slash) {
            let end = position
            try readEndTag(expected: tag.element, openedAt: tag.offset)
            return .slice(start..<end, isASCII: bits < 0x80)
        }
        var text = Array(bytes[start..<position])
        while true {
            guard position < bytes.count else { throw truncated(inside: tag.element, openedAt: tag.offset) }
            let byte = bytes[position]
            if byte == .ampersand {
                try readEntity(into: &text)
            } else if byte == .lessThan {
                if peek(at: position + 1, is: .slash) {
                    try readEndTag(expected: tag.element, openedAt: tag.offset)
                    return .decoded(text)
                } else if matches("<![CDATA[") {
                    let sectionStart = position
                    position += 9
                    guard let close = find("]]>") else {
                        throw malformed(at: sectionStart, "unexpected end of input inside a CDATA section")
                    }
                    text.append(contentsOf: bytes[position..<close])
                    position = close + 3
                } else if matches("<!--") {
                    try skipComment()
                } else {
                    throw malformed("unexpected \(describeHere()) inside <\(tag.element.name)>; only text is allowed")
                }
            } else {
                let run = position
                while position < bytes.count, bytes[position] != .lessThan, bytes[position] != .ampersand { position += 1 }
                text.append(contentsOf: bytes[run..<position])
            }
        }
    }

    /// Decodes `&name;` or `&#...;` at the current `&`, refusing undefined entities.
    private mutating func readEntity(into text: inout [UInt8]) throws(PropertyListError) {
        let start = position
        var end = position + 1
        while end < bytes.count, end - start < 12, bytes[end] != .semicolon { end += 1 }
        guard end < bytes.count, bytes[end] == .semicolon else {
            throw malformed(at: start, "'&' must start an entity such as &amp; (found \(describe(from: start, count: 12)))")
        }
        let name = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])
        let shown = "&" + String(decoding: name, as: UTF8.self) + ";"
        position = end + 1
        switch String(decoding: name, as: UTF8.self) {
        case "lt": text.append(.lessThan)
        case "gt": text.append(.greaterThan)
        case "amp": text.append(.ampersand)
        case "quot": text.append(.quotation)
        case "apos": text.append(.apostrophe)
        default:
            guard name.first == UInt8(ascii: "#") else {
                throw malformed(at: start, "unknown entity \(shown); only &lt; &gt; &amp; &quot; &apos; and &#...; are allowed")
            }
            var digits = name.dropFirst()
            var radix: UInt32 = 10
            if digits.first == UInt8(ascii: "x") {
                radix = 16
                digits = digits.dropFirst()
            }
            var code: UInt32 = 0
            for digit in digits {
                guard let value = Self.digitValue(digit, radix: radix) else {
                    throw malformed(at: start, "invalid character reference \(shown)")
                }
                code = code &* radix &+ value
                guard code <= 0x10FFFF else { throw malformed(at: start, "character reference \(shown) is beyond U+10FFFF") }
            }
            guard !digits.isEmpty, code != 0, let scalar = Unicode.Scalar(code) else {
                throw malformed(at: start, "character reference \(shown) is not a valid character")
            }
            text.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
    }

    static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        let value: UInt32
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt32(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): value = UInt32(byte - UInt8(ascii: "A")) + 10
        default: return nil
        }
        return value < radix ? value : nil
    }

    private func withBytes<R>(_ content: Content, _ body: (UnsafeBufferPointer<UInt8>) throws(PropertyListError) -> R) throws(PropertyListError) -> R {
        switch content {
        case .slice(let range, _):
            return try body(UnsafeBufferPointer(rebasing: bytes[range]))
        case .decoded(let text):
            let result = text.withUnsafeBufferPointer { buffer in
                Result { () throws(PropertyListError) in try body(buffer) }
            }
            return try result.get()
        }
    }

    private func makeString(_ content: Content, at offset: Int) throws(PropertyListError) -> String {
        if case .slice(let range, true) = content {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        let string = try withBytes(content) { (text) throws(PropertyListError) in
            String(validating: text, as: UTF8.self)
        }
        guard let string else {
            throw PropertyListError(.invalidUTF8, "line \(line(at: offset)): the text of this element is not valid UTF-8")
        }
        return string
    }

    // MARK: - Scalars

    private func parseInteger(_ content: Content, at offset: Int) throws(PropertyListError) -> Int64 {
        try withBytes(content) { (raw) throws(PropertyListError) in
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
                guard let digit = Self.digitValue(text[index], radix: UInt32(radix)) else {
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

    private func parseReal(_ content: Content, at offset: Int) throws(PropertyListError) -> Double {
        try withBytes(content) { (raw) throws(PropertyListError) in
            let text = Self.trimmed(raw)
            // A length cap keeps strtod's big-number path from running on megabytes of digits.
            guard text.count <= 400, text.allSatisfy({ $0 < 0x80 }),
                  let value = Double(String(decoding: text, as: UTF8.self)) else {
                throw malformed(at: offset, "<real> holds \(quoted(text)), not a number")
            }
            return value
        }
    }

    private func parseDate(_ content: Content, at offset: Int) throws(PropertyListError) -> Double {
        try withBytes(content) { (raw) throws(PropertyListError) in
            let text = Self.trimmed(raw)
            guard let seconds = PropertyListDate.parse(text) else {
                throw malformed(at: offset, "<date> holds \(quoted(text)), not a date like 2001-01-01T00:00:00Z")
            }
            return seconds
        }
    }

    private func parseData(_ content: Content, at offset: Int) throws(PropertyListError) -> [UInt8] {
        try withBytes(content) { (text) throws(PropertyListError) in
            guard let data = Base64.decode(text) else {
                throw malformed(at: offset, "<data> does not hold valid base64")
            }
            return data
        }
    }

    private static func trimmed(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = text.count
        while start < end, isWhitespace(text[start]) { start += 1 }
        while end > start, isWhitespace(text[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: text[start..<end])
    }

    // MARK: - Prolog and markup between elements

    /// Skips the XML declaration, comments, processing instructions and the DOCTYPE.
    private mutating func readProlog() throws(PropertyListError) {
        while true {
            skipWhitespace()
            if matches("<?xml"), position + 5 < bytes.count, bytes[position + 5] == .questionMark || Self.isWhitespace(bytes[position + 5]) {
                try readDeclaration()
            } else if matches("<?") {
                try skipProcessingInstruction()
            } else if matches("<!--") {
                try skipComment()
            } else if matches("<!DOCTYPE") {
                try skipDoctype()
            } else {
                return
            }
        }
    }

    /// Reads `<?xml ... ?>`, refusing any encoding but UTF-8.
    private mutating func readDeclaration() throws(PropertyListError) {
        let start = position
        guard let end = find("?>", from: position + 5) else {
            throw malformed(at: start, "unexpected end of input inside the <?xml ...?> declaration")
        }
        let declaration = Array(bytes[start..<end])
        position = end + 2
        let key = Array("encoding".utf8)
        guard let keyIndex = declaration.indices.first(where: { declaration[$0...].starts(with: key) }) else { return }
        var index = keyIndex + key.count
        while index < declaration.count, Self.isWhitespace(declaration[index]) || declaration[index] == .equals { index += 1 }
        guard index < declaration.count, declaration[index] == .quotation || declaration[index] == .apostrophe else {
            throw malformed(at: start, "the encoding in the XML declaration is not quoted")
        }
        let quote = declaration[index]
        let valueStart = index + 1
        guard let valueEnd = declaration[valueStart...].firstIndex(of: quote) else {
            throw malformed(at: start, "the encoding in the XML declaration is not quoted")
        }
        let encoding = String(decoding: declaration[valueStart..<valueEnd], as: UTF8.self)
        guard ["utf-8", "utf8"].contains(encoding.lowercased()) else {
            throw PropertyListError(.unsupported, "line \(line(at: start)): encoding \"\(encoding.prefix(40))\" is not supported; only UTF-8 property lists are read")
        }
    }

    /// Skips `<!DOCTYPE ...>`, refusing an internal subset: its entity definitions are how
    /// billion-laughs documents expand.
    private mutating func skipDoctype() throws(PropertyListError) {
        let start = position
        var quote: UInt8 = 0
        position += 9
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == .quotation || byte == .apostrophe {
                quote = byte
            } else if byte == .leftBracket {
                throw PropertyListError(.unsupported, "line \(line(at: start)): a DOCTYPE with an internal subset ('[...]') is refused; entity definitions are not supported")
            } else if byte == .greaterThan {
                return
            }
        }
        throw malformed(at: start, "unexpected end of input inside <!DOCTYPE>")
    }

    /// Skips whitespace, comments and processing instructions between elements.
    private mutating func skipMisc() throws(PropertyListError) {
        while true {
            skipWhitespace()
            guard position + 1 < bytes.count, bytes[position] == .lessThan else { return }
            let next = bytes[position + 1]
            if next == .exclamation, matches("<!--") {
                try skipComment()
            } else if next == .questionMark {
                try skipProcessingInstruction()
            } else {
                return
            }
        }
    }

    private mutating func skipComment() throws(PropertyListError) {
        guard let end = find("-->", from: position + 4) else {
            throw malformed("unexpected end of input inside a comment")
        }
        position = end + 3
    }

    private mutating func skipProcessingInstruction() throws(PropertyListError) {
        guard let end = find("?>", from: position + 2) else {
            throw malformed("unexpected end of input inside a processing instruction <?...?>")
        }
        position = end + 2
    }

    private mutating func skipWhitespace() {
        while position < bytes.count, Self.isWhitespace(bytes[position]) { position += 1 }
    }

    // MARK: - Byte helpers

    private func peek(at index: Int, is byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private func matches(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let pointer = literal.utf8Start
        for index in 0..<count where bytes[position + index] != pointer[index] { return false }
        return true
    }

    /// The offset of the next occurrence of `literal` at or after `start`.
    private func find(_ literal: StaticString, from start: Int? = nil) -> Int? {
        let count = literal.utf8CodeUnitCount
        let pointer = literal.utf8Start
        let first = pointer[0]
        var index = start ?? position
        while index <= bytes.count - count {
            if bytes[index] == first {
                var offset = 1
                while offset < count, bytes[index + offset] == pointer[offset] { offset += 1 }
                if offset == count { return index }
            }
            index += 1
        }
        return nil
    }

    // MARK: - Errors

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

    private func describeHere() -> String {
        position < bytes.count ? quoted(describe(from: position, count: 20)) : "the end of input"
    }

    private func describe(from offset: Int, count: Int) -> String {
        let end = min(bytes.count, offset + count)
        return String(decoding: bytes[offset..<end], as: UTF8.self) + (end < bytes.count ? "..." : "")
    }

    private func quoted(_ text: UnsafeBufferPointer<UInt8>) -> String {
        quoted(String(decoding: text.prefix(60), as: UTF8.self) + (text.count > 60 ? "..." : ""))
    }

    private func quoted(_ text: String) -> String {
        "'" + text + "'"
    }
}

extension UInt8 {
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let exclamation = UInt8(ascii: "!")
    static let quotation = UInt8(ascii: "\"")
    static let ampersand = UInt8(ascii: "&")
    static let apostrophe = UInt8(ascii: "'")
    static let slash = UInt8(ascii: "/")
    static let semicolon = UInt8(ascii: ";")
    static let lessThan = UInt8(ascii: "<")
    static let equals = UInt8(ascii: "=")
    static let greaterThan = UInt8(ascii: ">")
    static let questionMark = UInt8(ascii: "?")
    static let leftBracket = UInt8(ascii: "[")
}
