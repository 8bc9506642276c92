import PropertyList
import Testing

@Suite struct XMLTokenizerTests {
    static let document = Array("<?xml version='1.0'?>\n<!-- c --><plist a='>'> <string>a&amp;b<![CDATA[<c>]]><!-- x -->d&#xE9;</string></plist>".utf8)

    /// Reads `document` the way a word-list reader does, recording each token or the first stop.
    static func tokenize(_ bytes: UnsafeBufferPointer<UInt8>, atEnd: Bool) -> (tokens: [String], stop: XMLTokenizer.Stop?) {
        var tokenizer = XMLTokenizer(bytes: bytes, position: 0, atEnd: atEnd)
        var tokens: [String] = []
        do throws(XMLTokenizer.Stop) {
            while try tokenizer.skipPrologItem() {
                tokens.append("prolog item")
                tokenizer.skipWhitespace()
            }
            let plist = try tokenizer.startTag()
            tokens.append("<\(plist.element.name)>")
            _ = try tokenizer.skipMisc()
            let string = try tokenizer.startTag()
            let text = try tokenizer.text(of: string)
            tokens.append(tokenizer.withBytes(of: text) { String(decoding: $0, as: UTF8.self) } + (text.isASCII ? " ascii" : ""))
            try tokenizer.endTag(.plist)
            tokens.append("</plist>")
        } catch {
            return (tokens, error)
        }
        return (tokens, nil)
    }

    @Test func aWholeDocumentReadsAsTokens() {
        let result = Self.document.withUnsafeBufferPointer { Self.tokenize($0, atEnd: true) }
        #expect(result.tokens == ["prolog item", "prolog item", "<plist>", "a&b<c>d\u{E9}", "</plist>"])
        #expect(result.stop == nil)
    }

    /// Cut anywhere, a token is read whole or waits for more without moving; at the end of the
    /// input the same cut is an error, never a wait.
    @Test func aTokenCutShortWaitsWithoutMovingOrFailsAtTheEnd() {
        for length in 0..<Self.document.count {
            Self.document[..<length].withUnsafeBufferPointer { bytes in
                var tokenizer = XMLTokenizer(bytes: bytes, position: 0, atEnd: false)
                var tag: XMLTokenizer.StartTag?
                var waited = false
                for step in 0..<8 where !waited {
                    let before = tokenizer.position
                    do throws(XMLTokenizer.Stop) {
                        switch step {
                        case 0, 2: _ = try tokenizer.skipPrologItem()
                        case 1: tokenizer.skipWhitespace()
                        case 3, 5: tag = try tokenizer.startTag()
                        case 4: _ = try tokenizer.skipMisc()
                        case 6: _ = try tag.map { (tag) throws(XMLTokenizer.Stop) in try tokenizer.text(of: tag) }
                        default: try tokenizer.endTag(.plist)
                        }
                    } catch .needMore {
                        #expect(tokenizer.position == before, "cut at \(length), step \(step)")
                        waited = true
                    } catch {
                        Issue.record("cut at \(length), step \(step): \(error)")
                        waited = true
                    }
                }
                #expect(waited, "cut at \(length)")
                let atEnd = Self.tokenize(bytes, atEnd: true)
                if case .needMore? = atEnd.stop { Issue.record("cut at \(length): waits at the end of input") }
                #expect(atEnd.stop != nil, "cut at \(length)")
            }
        }
    }

    @Test(arguments: [("<string>plain</string>", "plain", true), ("<string>caf\u{E9}</string>", "caf\u{E9}", false), ("<string/>", "", true)])
    func plainStringsAreReadInPlace(document: String, text: String, isASCII: Bool) {
        let bytes = Array(document.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var tokenizer = XMLTokenizer(bytes: buffer, position: 0, atEnd: true)
            guard let found = tokenizer.plainString() else {
                #expect(document == "<string/>", "only the empty element is not a plain string")
                return
            }
            #expect(String(decoding: buffer[found.text], as: UTF8.self) == text)
            #expect(found.isASCII == isASCII)
            #expect(tokenizer.position == bytes.count)
        }
    }
}
