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
        // A word takes 18 bytes of XML at least (`<string>a</string>`): room for as many as fit.
        if let expectedSize { words.reserve(words: expectedSize / 18, bytes: min(expectedSize, PackedWords.maxBytes)) }
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
            var tokens = XMLTokenizer(bytes: buffer, position: 0, atEnd: atEnd)
            run(&tokens)
            return tokens.position
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

    /// Reads tokens until the bytes run out (`position` is then where the next step starts) or the scanner gives up.
    private mutating func run(_ tokens: inout XMLTokenizer) {
        if atDocumentStart {
            // The UTF-8 byte order mark the decoder skips; it needs three bytes to be sure.
            guard tokens.available >= 3 || tokens.atEnd else { return }
            if tokens.starts(with: "\u{FEFF}") { tokens.position += 3 }
            atDocumentStart = false
        }
        while !gaveUp {
            // A step takes its tokens whole or not at all: cut short, it starts again with more bytes.
            let mark = tokens.position
            let step: ScanStep
            do throws(XMLTokenizer.Stop) {
                step = try self.step(&tokens)
            } catch .needMore {
                tokens.position = mark
                return
            } catch {
                step = .giveUp
            }
            switch step {
            case .advanced: continue
            case .finished: return
            case .giveUp:
                giveUp()
                return
            }
        }
    }

    /// One step from where the scanner is; what can come between tokens is a step of its own.
    private mutating func step(_ tokens: inout XMLTokenizer) throws(XMLTokenizer.Stop) -> ScanStep {
        if case .prolog = place {
            tokens.skipWhitespace()
            if try tokens.skipPrologItem() { return .advanced }
        } else if try tokens.skipMisc() {
            return .advanced
        }
        switch place {
        case .prolog: return try root(&tokens)
        case .insidePlist: return try insidePlist(&tokens)
        case .rootDictionary: return try rootDictionary(&tokens)
        case .rootValue(let key): return try rootValue(key, &tokens)
        case .words: return try wordsArray(&tokens)
        case .item: return try item(&tokens)
        case .itemValue(let key): return try itemValue(key, &tokens)
        case .afterRoot: return try afterRoot(&tokens)
        case .epilog: return try epilog(&tokens)
        }
    }

    /// The root element: `<plist>`, or the array or dictionary alone.
    private mutating func root(_ tokens: inout XMLTokenizer) throws(XMLTokenizer.Stop) -> ScanStep {
        guard try tokens.peekMarkup() == .startTag else { return .giveUp }
        let tag = try tokens.startTag()
        switch tag.element {
        case .plist:
            guard !tag.isEmpty else { return .giveUp }
            inPlist = true
            place = .insidePlist
            return .advanced
        case .array, .dict:
            return openRoot(tag)
        default:
            return .giveUp
        }
    }

    /// The value inside `<plist>`: the root array or dictionary.
    private mutating func insidePlist(_ tokens: inout XMLTokenizer) throws(XMLTokenizer.Stop) -> ScanStep {
        guard try tokens.peekMarkup() == .startTag else { return .giveUp }
        let tag = try tokens.startTag()
        guard tag.element == .array || tag.element == .dict else { return .giveUp }
        return openRoot(tag)
    }

    private mutating func openRoot(_ tag: XMLTokenizer.StartTag) -> ScanStep {
        // An empty root holds no words: the decoder and the list rules say what is wrong.
        guard !tag.isEmpty, countObject(), limits.maxDepth > 0 else { return .giveUp }
        rootIsDictionary = tag.element == .dict
        place = rootIsDictionary ? .rootDictionary : .words
        return .advanced
    }

    /// In the root dictionary: `<key>name</key>` or `<key>words</key>`, or its end.
    private mutating func rootDictionary(_ tokens: inout XMLTokenizer) throws(XMLTokenizer.Stop) -> ScanStep {
        switch try tokens.peekMarkup() {
        case .endTag:
            try tokens.endTag(.dict)
            guard sawWords else { return .giveUp }
            place = .afterRoot
            return .advanced
        case .startTag:
            guard let key = try textElement(.key, &tokens), countObject() else { return .giveUp }
            if tokens.withBytes(of: key, { $0.elementsEqual("name".utf8) }), !sawName {
                sawName = true
                place = .rootValue(.name)
            } else if tokens.withBytes(of: key, { $0.elementsEqual("words".utf8) }), !sawWords {
                sawWords = true
                place = .rootValue(.words)
            } else {
                return .giveUp
            }
            return .advanced
        case .text, .end:
            return .giveUp
        }
    }

    /// The value of `name` (a string that is not all blank) or of `words` (an array that is not empty).
    private mutating func rootValue(_ key: RootKey, _ tokens: inout XMLTokenizer) throws(XMLTokenizer.Stop) -> ScanStep {
        guard try tokens.peekMarkup() == .startTag else { return .giveUp }
        switch key {
        case .name:
            guard let text = try textElement(.string, &tokens), countObject(), let title = makeString(text, tokens),
                  !title.allSatisfy(\.isWhitespace) else {
                return .giveUp
            }
            name = title
            place = .rootDictionary
        case .words:
            let tag = try tokens.startTag()
            guard tag.element == .array, !tag.isEmpty, countObject(), limits.maxDepth > 1 else { return .giveUp }
            place = .words
        }
        return .advanced
    }

    /// In the words array: a word (`<string>`), a word with a clue (`<dict>`), or the array's end.
    private mutating func wordsArray(_ tokens: inout XMLTokenizer) throws(XMLTokenizer.Stop) -> ScanStep {
        // The common case first, a plain word with nothing around it but blank space.
        let start = tokens.position
        while let word = tokens.plainString() {
            guard objects < limits.maxObjects else { return .giveUp }
            objects += 1
            guard append(UnsafeBufferPointer(rebasing: tokens.bytes[word.text]), isASCII: word.isASCII) else { return .giveUp }
            tokens.skipWhitespace()
        }
        if tokens.position != start { return .advanced }
        switch try tokens.peekMarkup() {
        case .endTag:
            try tokens.endTag(.array)
            guard words.count > 0 else { return .giveUp }
            place = rootIsDictionary ? .rootDictionary : .afterRoot
            return .advanced
        case .startTag:
            let tag = try tokens.startTag()
            switch tag.element {
            case .string:
                let text = try tokens.text(of: tag)
                guard countObject(), tokens.withBytes(of: text, { append($0, isASCII: text.isASCII) }) else { return .giveUp }
                return .advanced
            case .dict:
                let depth = rootIsDictionary ? 2 : 1
                guard !tag.isEmpty, countObject(), depth < limits.maxDepth else { return .giveUp }
                itemWord = nil
                itemClue = nil
                itemSawClue = false
                place = .item
                return .advanced
            default:
                return .giveUp
            }
        case .text, .end:
            return .giveUp
        }
    }

    /// In a word's dictionary: `<key>word</key>` or `<key>clue</key>`, or its end.
    private mutating func item(_ tokens: inout XMLTokenizer) throws(XMLTokenizer.Stop) -> ScanStep {
        switch try tokens.peekMarkup() {
        case .endTag:
            try tokens.endTag(.dict)
            guard let word = itemWord, word.bytes.withUnsafeBufferPointer({ append($0, isASCII: word.isASCII) }) else { return .giveUp }
            if let clue = itemClue { words.setClueOfLastWord(clue) }
            place = .words
            return .advanced
        case .startTag:
            guard let key = try textElement(.key, &tokens), countObject() else { return .giveUp }
            if tokens.withBytes(of: key, { $0.elementsEqual("word".utf8) }), itemWord == nil {
                place = .itemValue(.word)
            } else if tokens.withBytes(of: key, { $0.elementsEqual("clue".utf8) }), !itemSawClue {
                itemSawClue = true
                place = .itemValue(.clue)
            } else {
                return .giveUp
            }
            return .advanced
        case .text, .end:
            return .giveUp
        }
    }

    /// The string value of `word` or `clue`.
    private mutating func itemValue(_ key: ItemKey, _ tokens: inout XMLTokenizer) throws(XMLTokenizer.Stop) -> ScanStep {
        guard try tokens.peekMarkup() == .startTag, let text = try textElement(.string, &tokens), countObject() else { return .giveUp }
        switch key {
        case .word:
            itemWord = (tokens.withBytes(of: text) { Array($0) }, text.isASCII)
        case .clue:
            guard let clue = makeString(text, tokens), clue.count <= WordList.maximumClueLength else { return .giveUp }
            itemClue = clue
        }
        place = .item
        return .advanced
    }

    /// After the root container: `</plist>` if it was in one.
    private mutating func afterRoot(_ tokens: inout XMLTokenizer) throws(XMLTokenizer.Stop) -> ScanStep {
        if inPlist { try tokens.endTag(.plist) }
        place = .epilog
        return .advanced
    }

    /// Nothing but blank space, comments and processing instructions until the end.
    private func epilog(_ tokens: inout XMLTokenizer) throws(XMLTokenizer.Stop) -> ScanStep {
        guard tokens.available == 0 else { return .giveUp }
        guard tokens.atEnd else { throw .needMore }
        return .finished
    }

    /// A whole `<element>text</element>`; nil for another element.
    private func textElement(_ element: XMLTokenizer.Element, _ tokens: inout XMLTokenizer) throws(XMLTokenizer.Stop) -> XMLTokenizer.Text? {
        let tag = try tokens.startTag()
        guard tag.element == element else { return nil }
        return try tokens.text(of: tag)
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

    /// Appends the word when `WordList.parse` would keep it.
    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> Bool {
        guard accept(bytes, isASCII: isASCII) else { return false }
        words.append(bytes)
        return true
    }

    private func makeString(_ text: XMLTokenizer.Text, _ tokens: XMLTokenizer) -> String? {
        tokens.withBytes(of: text) { bytes in
            text.isASCII ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
        }
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

/// What one step of scanning did; a step cut short by the end of the bytes throws `.needMore`.
private enum ScanStep {
    case advanced
    /// Everything was read, and the document is complete.
    case finished
    case giveUp
}
