import PropertyList

/// Reads an XML word list while it inflates, block by block, straight into `PackedWords`: no
/// value tree, no `String` per ASCII word.
///
/// It takes only what it is sure `PropertyListDecoding` followed by `WordList.parse` would take
/// without a problem: an array of words (strings, or dictionaries with `word` and `clue`), alone
/// or as the `words` of a dictionary with an optional `name`, with comments, processing
/// instructions, entities and CDATA wherever the decoder allows them. Anything else (another key,
/// another type, a word the rules refuse, malformed XML, a limit) makes it give up, and the list
/// is read again by the decoder, which says exactly what is wrong. So a list it accepts is the list
/// the decoder would have made, and a list it gives up on costs a second reading, nothing more.
struct XMLWordListScanner {
    /// Where in a word list the scanner is, between tokens.
    private enum Place {
        case prolog
        case insidePlist
        case rootDictionary
        case rootValue(RootKey)
        case words
        case item
        case itemValue(ItemKey)
        case afterRoot
        case epilog
    }

    private enum RootKey { case name, words }
    private enum ItemKey { case word, clue }

    private let limits: PropertyListLimits
    private var place = Place.prolog
    private var pending: [UInt8] = []
    private var atDocumentStart = true
    private var inPlist = false
    private var rootIsDictionary = false
    private var sawName = false
    private var sawWords = false
    private var itemWord: (bytes: [UInt8], isASCII: Bool)?
    private var itemClue: String?
    private var itemSawClue = false
    private var objects = 0
    private(set) var gaveUp = false
    private(set) var name: String?
    private(set) var words = PackedWords()

    /// Bytes of one token the scanner waits for before it gives up (the decoder handles any length).
    static let maxPendingBytes = 64 << 10

    init(limits: PropertyListLimits, expectedSize: Int?) {
        self.limits = limits
        if let expectedSize { words.reserve(bytes: min(expectedSize, PackedWords.maxBytes)) }
    }

    /// Scans the next bytes of the file.
    mutating func feed(_ block: UnsafeRawBufferPointer) {
        guard !gaveUp, !block.isEmpty else { return }
        pending.append(contentsOf: block)
        scanPending(atEnd: false)
        if pending.count > Self.maxPendingBytes { giveUp() }
    }

    /// The list, once the file is complete; `nil` when the scanner gave up.
    mutating func finish() -> (name: String?, words: PackedWords)? {
        if !gaveUp { scanPending(atEnd: true) }
        guard !gaveUp, case .epilog = place, pending.isEmpty else { return nil }
        return (name, words)
    }

    private mutating func giveUp() {
        gaveUp = true
        pending = []
        words = PackedWords()
    }

    private mutating func scanPending(atEnd: Bool) {
        let consumed = pending.withUnsafeBufferPointer { buffer in
            var cursor = Cursor(bytes: buffer, position: 0, atEnd: atEnd)
            run(&cursor)
            return cursor.position
        }
        if gaveUp { return }
        if consumed == pending.count {
            pending.removeAll(keepingCapacity: true)
        } else if consumed > 0 {
            pending.removeSubrange(0..<consumed)
        }
        if atEnd && !pending.isEmpty { giveUp() }
    }

    // MARK: - The grammar of a word list

    /// Scans tokens until the input runs out (`position` is then where the next token starts) or the scanner gives up.
    private mutating func run(_ cursor: inout Cursor) {
        if atDocumentStart {
            // The UTF-8 byte order mark the decoder skips; it needs three bytes to be sure.
            guard cursor.available >= 3 || cursor.atEnd else { return }
            if cursor.starts(with: [0xEF, 0xBB, 0xBF]) { cursor.position += 3 }
            atDocumentStart = false
        }
        while !gaveUp {
            let step: ScanStep
            switch place {
            case .prolog: step = prolog(&cursor)
            case .insidePlist: step = insidePlist(&cursor)
            case .rootDictionary: step = rootDictionary(&cursor)
            case .rootValue(let key): step = rootValue(key, &cursor)
            case .words: step = wordsArray(&cursor)
            case .item: step = item(&cursor)
            case .itemValue(let key): step = itemValue(key, &cursor)
            case .afterRoot: step = afterRoot(&cursor)
            case .epilog: step = epilog(&cursor)
            }
            switch step {
            case .advanced: continue
            case .finished: return
            case .needMore:
                if cursor.atEnd { giveUp() }
                return
            case .giveUp:
                giveUp()
                return
            }
        }
    }

    /// The XML declaration, comments, processing instructions and a DOCTYPE, then the root element.
    private mutating func prolog(_ cursor: inout Cursor) -> ScanStep {
        cursor.skipWhitespace()
        guard cursor.available >= 9 || cursor.atEnd else { return .needMore }
        if cursor.starts(with: "<?xml"), cursor.available > 5, cursor[5] == .questionMark || isWhitespace(cursor[5]) {
            return declaration(&cursor)
        }
        if cursor.starts(with: "<?") { return cursor.skip(past: "?>", from: 2) }
        if cursor.starts(with: "<!--") { return cursor.skip(past: "-->", from: 4) }
        if cursor.starts(with: "<!DOCTYPE") { return doctype(&cursor) }
        guard cursor.available >= 2 else { return cursor.atEnd ? .giveUp : .needMore }
        guard cursor[0] == .lessThan, cursor[1] != .slash else { return .giveUp }
        let tag: StartTag
        switch cursor.startTag() {
        case .needMore: return .needMore
        case .giveUp: return .giveUp
        case .tag(let found): tag = found
        }
        switch tag.element {
        case .plist:
            guard !tag.isEmpty else { return .giveUp }
            cursor.position = tag.end
            inPlist = true
            place = .insidePlist
            return .advanced
        case .array, .dictionary:
            return openRoot(tag, &cursor)
        default:
            return .giveUp
        }
    }

    /// `<?xml ... ?>`: only UTF-8, or no encoding named, as the decoder requires.
    private func declaration(_ cursor: inout Cursor) -> ScanStep {
        guard let end = cursor.find("?>", from: 5) else { return cursor.atEnd ? .giveUp : .needMore }
        let text = UnsafeBufferPointer(rebasing: cursor.bytes[cursor.position..<(cursor.position + end)])
        let key = Array("encoding".utf8)
        if let keyIndex = (0..<text.count).first(where: { text[$0...].starts(with: key) }) {
            var index = keyIndex + key.count
            while index < text.count, isWhitespace(text[index]) || text[index] == UInt8(ascii: "=") { index += 1 }
            guard index < text.count, text[index] == .quotation || text[index] == .apostrophe else { return .giveUp }
            let quote = text[index]
            guard let valueEnd = text[(index + 1)...].firstIndex(of: quote) else { return .giveUp }
            let encoding = String(decoding: text[(index + 1)..<valueEnd], as: UTF8.self).lowercased()
            guard encoding == "utf-8" || encoding == "utf8" else { return .giveUp }
        }
        cursor.position += end + 2
        return .advanced
    }

    /// `<!DOCTYPE ...>` without an internal subset.
    private func doctype(_ cursor: inout Cursor) -> ScanStep {
        var index = 9
        var quote: UInt8 = 0
        while index < cursor.available {
            let byte = cursor[index]
            index += 1
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == .quotation || byte == .apostrophe {
                quote = byte
            } else if byte == UInt8(ascii: "[") {
                return .giveUp
            } else if byte == .greaterThan {
                cursor.position += index
                return .advanced
            }
        }
        return cursor.atEnd ? .giveUp : .needMore
    }

    /// The value inside `<plist>`: the root array or dictionary.
    private mutating func insidePlist(_ cursor: inout Cursor) -> ScanStep {
        if let step = cursor.skipMisc() { return step }
        guard cursor.available >= 2 else { return cursor.atEnd ? .giveUp : .needMore }
        guard cursor[0] == .lessThan, cursor[1] != .slash else { return .giveUp }
        switch cursor.startTag() {
        case .needMore: return .needMore
        case .giveUp: return .giveUp
        case .tag(let tag):
            guard tag.element == .array || tag.element == .dictionary else { return .giveUp }
            return openRoot(tag, &cursor)
        }
    }

    private mutating func openRoot(_ tag: StartTag, _ cursor: inout Cursor) -> ScanStep {
        // An empty root holds no words: the decoder and the list rules say what is wrong.
        guard !tag.isEmpty, countObject(), limits.maxDepth > 0 else { return .giveUp }
        cursor.position = tag.end
        rootIsDictionary = tag.element == .dictionary
        place = rootIsDictionary ? .rootDictionary : .words
        return .advanced
    }

    /// In the root dictionary: `<key>name</key>` or `<key>words</key>`, or its end.
    private mutating func rootDictionary(_ cursor: inout Cursor) -> ScanStep {
        if let step = cursor.skipMisc() { return step }
        guard cursor.available >= 2 else { return cursor.atEnd ? .giveUp : .needMore }
        guard cursor[0] == .lessThan else { return .giveUp }
        if cursor[1] == .slash {
            switch cursor.endTag(.dictionary) {
            case .needMore: return .needMore
            case .giveUp: return .giveUp
            case .tag(let end):
                guard sawWords else { return .giveUp }
                cursor.position = end
                place = .afterRoot
                return .advanced
            }
        }
        switch cursor.textElement(.key) {
        case .needMore: return .needMore
        case .giveUp: return .giveUp
        case .text(let text, _, let end):
            guard countObject() else { return .giveUp }
            if text.elementsEqual("name".utf8), !sawName {
                sawName = true
                place = .rootValue(.name)
            } else if text.elementsEqual("words".utf8), !sawWords {
                sawWords = true
                place = .rootValue(.words)
            } else {
                return .giveUp
            }
            cursor.position = end
            return .advanced
        }
    }

    /// The value of `name` (a string that is not all blank) or of `words` (an array that is not empty).
    private mutating func rootValue(_ key: RootKey, _ cursor: inout Cursor) -> ScanStep {
        if let step = cursor.skipMisc() { return step }
        guard cursor.available >= 2 else { return cursor.atEnd ? .giveUp : .needMore }
        guard cursor[0] == .lessThan, cursor[1] != .slash else { return .giveUp }
        switch key {
        case .name:
            switch cursor.textElement(.string) {
            case .needMore: return .needMore
            case .giveUp: return .giveUp
            case .text(let text, let isASCII, let end):
                guard countObject(), let title = makeString(text, isASCII: isASCII), !title.allSatisfy(\.isWhitespace) else {
                    return .giveUp
                }
                name = title
                cursor.position = end
                place = .rootDictionary
                return .advanced
            }
        case .words:
            switch cursor.startTag() {
            case .needMore: return .needMore
            case .giveUp: return .giveUp
            case .tag(let tag):
                guard tag.element == .array, !tag.isEmpty, countObject(), limits.maxDepth > 1 else { return .giveUp }
                cursor.position = tag.end
                place = .words
                return .advanced
            }
        }
    }

    /// In the words array: a word (`<string>`), a word with a clue (`<dict>`), or the array's end.
    private mutating func wordsArray(_ cursor: inout Cursor) -> ScanStep {
        // The common case first, a plain word with nothing around it but blank space.
        while true {
            cursor.skipWhitespace()
            guard let word = cursor.plainStringElement() else { break }
            guard objects < limits.maxObjects else { return .giveUp }
            objects += 1
            let bytes = UnsafeBufferPointer(rebasing: cursor.bytes[word.text])
            guard accept(bytes, isASCII: word.isASCII) else { return .giveUp }
            words.append(bytes)
            cursor.position = word.end
        }
        if let step = cursor.skipMisc() { return step }
        guard cursor.available >= 2 else { return cursor.atEnd ? .giveUp : .needMore }
        guard cursor[0] == .lessThan else { return .giveUp }
        if cursor[1] == .slash {
            switch cursor.endTag(.array) {
            case .needMore: return .needMore
            case .giveUp: return .giveUp
            case .tag(let end):
                guard words.count > 0 else { return .giveUp }
                cursor.position = end
                place = rootIsDictionary ? .rootDictionary : .afterRoot
                return .advanced
            }
        }
        switch cursor.startTag() {
        case .needMore: return .needMore
        case .giveUp: return .giveUp
        case .tag(let tag):
            switch tag.element {
            case .string:
                switch cursor.textElement(.string) {
                case .needMore: return .needMore
                case .giveUp: return .giveUp
                case .text(let text, let isASCII, let end):
                    guard countObject() else { return .giveUp }
                    let accepted = text.withUnsafeBufferPointer { bytes in
                        guard accept(bytes, isASCII: isASCII) else { return false }
                        words.append(bytes)
                        return true
                    }
                    guard accepted else { return .giveUp }
                    cursor.position = end
                    return .advanced
                }
            case .dictionary:
                let depth = rootIsDictionary ? 2 : 1
                guard !tag.isEmpty, countObject(), depth < limits.maxDepth else { return .giveUp }
                cursor.position = tag.end
                itemWord = nil
                itemClue = nil
                itemSawClue = false
                place = .item
                return .advanced
            default:
                return .giveUp
            }
        }
    }

    /// In a word's dictionary: `<key>word</key>` or `<key>clue</key>`, or its end.
    private mutating func item(_ cursor: inout Cursor) -> ScanStep {
        if let step = cursor.skipMisc() { return step }
        guard cursor.available >= 2 else { return cursor.atEnd ? .giveUp : .needMore }
        guard cursor[0] == .lessThan else { return .giveUp }
        if cursor[1] == .slash {
            switch cursor.endTag(.dictionary) {
            case .needMore: return .needMore
            case .giveUp: return .giveUp
            case .tag(let end):
                guard let word = itemWord else { return .giveUp }
                let accepted = word.bytes.withUnsafeBufferPointer { bytes in
                    guard accept(bytes, isASCII: word.isASCII) else { return false }
                    words.append(bytes)
                    return true
                }
                guard accepted else { return .giveUp }
                if let clue = itemClue { words.setClueOfLastWord(clue) }
                cursor.position = end
                place = .words
                return .advanced
            }
        }
        switch cursor.textElement(.key) {
        case .needMore: return .needMore
        case .giveUp: return .giveUp
        case .text(let text, _, let end):
            guard countObject() else { return .giveUp }
            if text.elementsEqual("word".utf8), itemWord == nil {
                place = .itemValue(.word)
            } else if text.elementsEqual("clue".utf8), !itemSawClue {
                itemSawClue = true
                place = .itemValue(.clue)
            } else {
                return .giveUp
            }
            cursor.position = end
            return .advanced
        }
    }

    /// The string value of `word` or `clue`.
    private mutating func itemValue(_ key: ItemKey, _ cursor: inout Cursor) -> ScanStep {
        if let step = cursor.skipMisc() { return step }
        guard cursor.available >= 2 else { return cursor.atEnd ? .giveUp : .needMore }
        guard cursor[0] == .lessThan, cursor[1] != .slash else { return .giveUp }
        switch cursor.textElement(.string) {
        case .needMore: return .needMore
        case .giveUp: return .giveUp
        case .text(let text, let isASCII, let end):
            guard countObject() else { return .giveUp }
            switch key {
            case .word:
                itemWord = (text, isASCII)
            case .clue:
                guard let clue = makeString(text, isASCII: isASCII), clue.count <= WordList.maximumClueLength else { return .giveUp }
                itemClue = clue
            }
            cursor.position = end
            place = .item
            return .advanced
        }
    }

    /// After the root container: `</plist>` if it was in one.
    private mutating func afterRoot(_ cursor: inout Cursor) -> ScanStep {
        guard inPlist else {
            place = .epilog
            return .advanced
        }
        if let step = cursor.skipMisc() { return step }
        switch cursor.endTag(.plist) {
        case .needMore: return .needMore
        case .giveUp: return .giveUp
        case .tag(let end):
            cursor.position = end
            place = .epilog
            return .advanced
        }
    }

    /// Nothing but blank space, comments and processing instructions until the end.
    private func epilog(_ cursor: inout Cursor) -> ScanStep {
        if let step = cursor.skipMisc() { return step }
        if cursor.available == 0 { return cursor.atEnd ? .finished : .needMore }
        return .giveUp
    }

    // MARK: - Values

    private mutating func countObject() -> Bool {
        objects += 1
        return objects <= limits.maxObjects
    }

    /// Whether `WordList.parse` keeps this word (valid UTF-8, and `WordRules` find no problem), and
    /// the list stays within 32-bit offsets.
    private func accept(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> Bool {
        guard words.bytes.count + bytes.count <= PackedWords.maxBytes else { return false }
        return WordRules.isKept(bytes, isASCII: isASCII)
    }

    private func makeString(_ bytes: [UInt8], isASCII: Bool) -> String? {
        isASCII ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }
}

extension WordRules {
    /// Whether the word in `bytes` is one `WordList.parse` keeps: valid UTF-8 with no problem under
    /// `problem(with:)`. All-ASCII words are checked on their bytes.
    static func isKept(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> Bool {
        if isASCII && isValidASCIIWord(bytes) { return true }
        guard let text = String(validating: bytes, as: UTF8.self) else { return false }
        return problem(with: text) == nil
    }
}

// MARK: - Tokens

/// A start tag: which element, whether it closes itself (`<x/>`), and where it ends.
private struct StartTag {
    var element: XMLElementName
    var isEmpty: Bool
    var end: Int
}

/// The elements of Apple's plist DTD.
private enum XMLElementName: Equatable {
    case plist, array, dictionary, key, string, other

    init(_ name: UnsafeBufferPointer<UInt8>) {
        if name.elementsEqual("string".utf8) { self = .string }
        else if name.elementsEqual("key".utf8) { self = .key }
        else if name.elementsEqual("dict".utf8) { self = .dictionary }
        else if name.elementsEqual("array".utf8) { self = .array }
        else if name.elementsEqual("plist".utf8) { self = .plist }
        else { self = .other }
    }

    var endTag: String {
        switch self {
        case .plist: "</plist>"
        case .array: "</array>"
        case .dictionary: "</dict>"
        case .key: "</key>"
        case .string: "</string>"
        case .other: ""
        }
    }
}

/// What one step of scanning did.
private enum ScanStep {
    case advanced
    /// Everything was read, and the document is complete.
    case finished
    case needMore
    case giveUp
}

private enum TagScan<T> {
    case tag(T)
    case needMore
    case giveUp
}

private enum TextScan {
    /// The element's decoded text, whether it is all ASCII, and where the element ends.
    case text([UInt8], isASCII: Bool, end: Int)
    case needMore
    case giveUp
}

private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == .space || byte == .newline || byte == .tab || byte == .carriageReturn
}

private func endsName(_ byte: UInt8) -> Bool {
    byte == .greaterThan || byte == .slash || byte == .lessThan || isWhitespace(byte)
}

/// A position in the bytes at hand; offsets in its methods are relative to `position`.
private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    /// No more bytes will come: a token cut short is malformed, not pending.
    let atEnd: Bool

    var available: Int { bytes.count - position }

    subscript(offset: Int) -> UInt8 { bytes[position + offset] }

    func starts(with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard available >= count else { return false }
        let pointer = literal.utf8Start
        for index in 0..<count where bytes[position + index] != pointer[index] { return false }
        return true
    }

    func starts(with prefix: [UInt8]) -> Bool {
        guard available >= prefix.count else { return false }
        for (index, byte) in prefix.enumerated() where bytes[position + index] != byte { return false }
        return true
    }

    /// The offset of the next `literal` at or after offset `from`.
    func find(_ literal: StaticString, from: Int) -> Int? {
        let count = literal.utf8CodeUnitCount
        let pointer = literal.utf8Start
        var index = position + from
        while index <= bytes.count - count {
            if bytes[index] == pointer[0] {
                var matched = 1
                while matched < count, bytes[index + matched] == pointer[matched] { matched += 1 }
                if matched == count { return index - position }
            }
            index += 1
        }
        return nil
    }

    mutating func skipWhitespace() {
        while position < bytes.count, isWhitespace(bytes[position]) { position += 1 }
    }

    /// Moves past the next `literal` found at or after offset `from`.
    mutating func skip(past literal: StaticString, from: Int) -> ScanStep {
        guard let end = find(literal, from: from) else { return atEnd ? .giveUp : .needMore }
        position += end + literal.utf8CodeUnitCount
        return .advanced
    }

    /// Skips blank space, comments and processing instructions between elements, as the decoder
    /// does; returns a step only when it cannot go on (the rest of a comment has not come yet).
    mutating func skipMisc() -> ScanStep? {
        while true {
            skipWhitespace()
            guard available >= 2 else { return available == 1 && !atEnd ? .needMore : nil }
            guard self[0] == .lessThan else { return nil }
            let step: ScanStep
            if self[1] == .exclamation {
                guard available >= 4 || atEnd else { return .needMore }
                guard starts(with: "<!--") else { return nil }
                step = skip(past: "-->", from: 4)
            } else if self[1] == .questionMark {
                step = skip(past: "?>", from: 2)
            } else {
                return nil
            }
            guard case .advanced = step else { return step }
        }
    }

    /// `<name attributes...>` or `<name .../>` here (attributes skipped, quoted values may hold `>`).
    func startTag() -> TagScan<StartTag> {
        guard available >= 1 else { return atEnd ? .giveUp : .needMore }
        guard self[0] == .lessThan else { return .giveUp }
        var index = position + 1
        while index < bytes.count, !endsName(bytes[index]) { index += 1 }
        guard index < bytes.count else { return atEnd ? .giveUp : .needMore }
        let element = XMLElementName(UnsafeBufferPointer(rebasing: bytes[(position + 1)..<index]))
        guard element != .other else { return .giveUp }
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
            } else if byte == .greaterThan {
                return .tag(StartTag(element: element, isEmpty: lastSignificant == .slash, end: index))
            } else if byte == .lessThan {
                return .giveUp
            } else if !isWhitespace(byte) {
                lastSignificant = byte
            }
        }
        return atEnd ? .giveUp : .needMore
    }

    /// `</name>` or `</name  >` at absolute index `at`, closing `element`; the index after it.
    func endTag(_ element: XMLElementName, at start: Int? = nil) -> TagScan<Int> {
        let start = start ?? position
        let literal = element.endTag.utf8
        var index = start
        for byte in literal {
            guard index < bytes.count else { return atEnd ? .giveUp : .needMore }
            guard bytes[index] == byte else { break }
            index += 1
        }
        if index - start == literal.count { return .tag(index) }
        // The long form: the name, blank space, then '>'.
        guard start + 2 <= bytes.count || atEnd else { return .needMore }
        guard start + 2 <= bytes.count, bytes[start] == .lessThan, bytes[start + 1] == .slash else { return .giveUp }
        index = start + 2
        while index < bytes.count, !endsName(bytes[index]) { index += 1 }
        guard index < bytes.count else { return atEnd ? .giveUp : .needMore }
        guard XMLElementName(UnsafeBufferPointer(rebasing: bytes[(start + 2)..<index])) == element else { return .giveUp }
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        guard index < bytes.count else { return atEnd ? .giveUp : .needMore }
        guard bytes[index] == .greaterThan else { return .giveUp }
        return .tag(index + 1)
    }

    /// `<string>text</string>` exactly, the text without markup: the common word, read in place.
    func plainStringElement() -> (text: Range<Int>, isASCII: Bool, end: Int)? {
        guard starts(with: "<string>"), let base = bytes.baseAddress else { return nil }
        let start = position + 8
        var index = start
        var bits: UInt8 = 0
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
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .lessThan || byte == .ampersand { break }
            bits |= byte
            index += 1
        }
        guard index + 9 <= bytes.count, bytes[index] == .lessThan else { return nil }
        let close = "</string>".utf8
        var offset = 0
        for byte in close {
            guard bytes[index + offset] == byte else { return nil }
            offset += 1
        }
        return (start..<index, bits < 0x80, index + 9)
    }

    /// A whole `<element>` holding text: its start tag, its text (entities, CDATA and comments
    /// decoded as the decoder does) and its end tag.
    func textElement(_ element: XMLElementName) -> TextScan {
        let tag: StartTag
        switch startTag() {
        case .needMore: return .needMore
        case .giveUp: return .giveUp
        case .tag(let found): tag = found
        }
        guard tag.element == element else { return .giveUp }
        if tag.isEmpty { return .text([], isASCII: true, end: tag.end) }
        var text: [UInt8] = []
        var bits: UInt8 = 0
        var index = tag.end
        while true {
            guard index < bytes.count else { return atEnd ? .giveUp : .needMore }
            let byte = bytes[index]
            if byte == .ampersand {
                var end = index + 1
                while end < bytes.count, end - index < 12, bytes[end] != .semicolon { end += 1 }
                guard end < bytes.count else { return atEnd ? .giveUp : .needMore }
                guard bytes[end] == .semicolon else { return .giveUp }
                guard let decoded = Self.entity(UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])) else { return .giveUp }
                for unit in decoded { bits |= unit }
                text.append(contentsOf: decoded)
                index = end + 1
            } else if byte == .lessThan {
                guard index + 1 < bytes.count else { return atEnd ? .giveUp : .needMore }
                if bytes[index + 1] == .slash {
                    switch endTag(element, at: index) {
                    case .needMore: return .needMore
                    case .giveUp: return .giveUp
                    case .tag(let end): return .text(text, isASCII: bits < 0x80, end: end)
                    }
                }
                let cursor = Cursor(bytes: bytes, position: index, atEnd: atEnd)
                if cursor.starts(with: "<![CDATA[") {
                    guard let close = cursor.find("]]>", from: 9) else { return atEnd ? .giveUp : .needMore }
                    for unit in bytes[(index + 9)..<(index + close)] { bits |= unit }
                    text.append(contentsOf: bytes[(index + 9)..<(index + close)])
                    index += close + 3
                } else if cursor.starts(with: "<!--") {
                    guard let close = cursor.find("-->", from: 4) else { return atEnd ? .giveUp : .needMore }
                    index += close + 3
                } else if cursor.available < 9 && !atEnd {
                    return .needMore
                } else {
                    return .giveUp
                }
            } else {
                let run = index
                while index < bytes.count, bytes[index] != .lessThan, bytes[index] != .ampersand {
                    bits |= bytes[index]
                    index += 1
                }
                text.append(contentsOf: bytes[run..<index])
            }
        }
    }

    /// The UTF-8 of `&name;` (the name between `&` and `;`): the five XML entities and character
    /// references, as the decoder reads them; `nil` for anything else.
    static func entity(_ name: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        switch String(decoding: name, as: UTF8.self) {
        case "lt": return [.lessThan]
        case "gt": return [.greaterThan]
        case "amp": return [.ampersand]
        case "quot": return [.quotation]
        case "apos": return [.apostrophe]
        default:
            guard name.first == UInt8(ascii: "#") else { return nil }
            var digits = name.dropFirst()
            var radix: UInt32 = 10
            if digits.first == UInt8(ascii: "x") {
                radix = 16
                digits = digits.dropFirst()
            }
            var code: UInt32 = 0
            for digit in digits {
                let value: UInt32
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(digit - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt32(digit - UInt8(ascii: "a")) + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): value = UInt32(digit - UInt8(ascii: "A")) + 10
                default: return nil
                }
                guard value < radix else { return nil }
                code = code &* radix &+ value
                guard code <= 0x10FFFF else { return nil }
            }
            guard !digits.isEmpty, code != 0, let scalar = Unicode.Scalar(code) else { return nil }
            return Array(String(Character(scalar)).utf8)
        }
    }
}

extension UInt8 {
    fileprivate static let tab = UInt8(ascii: "\t")
    fileprivate static let newline = UInt8(ascii: "\n")
    fileprivate static let carriageReturn = UInt8(ascii: "\r")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let exclamation = UInt8(ascii: "!")
    fileprivate static let quotation = UInt8(ascii: "\"")
    fileprivate static let ampersand = UInt8(ascii: "&")
    fileprivate static let apostrophe = UInt8(ascii: "'")
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let semicolon = UInt8(ascii: ";")
    fileprivate static let lessThan = UInt8(ascii: "<")
    fileprivate static let greaterThan = UInt8(ascii: ">")
    fileprivate static let questionMark = UInt8(ascii: "?")
}
