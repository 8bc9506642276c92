import FoundationEssentials
import Synchronization

/// The program's own sentences in the reader's language, from gettext message catalogs:
/// `Localization/<lang>.po`, the format translators know, read as they are (no compiled `.mo`),
/// with each language's plural rule from its `Plural-Forms` header. English is the program's own
/// text; a string a catalog does not have, or has empty or fuzzy, is written in English.
///
/// The language is the work's: ``L10n/language``, set once per run by the command line (from the
/// reader's locale) and once per request by the server (from its `Accept-Language`), so that a
/// refusal the store writes reaches a German player in German whichever side wrote it.
///
/// A message is marked where it is written, `L10n.text("Lives: %d/%d", left, lives)` or
/// `L10n.plural("%d hint", "%d hints", count)`, with the placeholders of C's printf (`%s`, `%d`,
/// and `%2$s` to reorder them), so that `msgfmt --check` checks each translation's.
public enum L10n {
    /// The language the current work speaks (`de`, `pt`), or `nil` for the program's English.
    @TaskLocal public static var language: String?

    /// `text` in the work's language, its placeholders filled with `arguments`.
    public static func text(_ text: String, _ arguments: Any...) -> String {
        format(catalog()?.messages[text].flatMap { $0.first } ?? text, arguments)
    }

    /// The singular or plural form for `count` (the language's rule picks it), `count` and
    /// `arguments` filling its placeholders in that order.
    public static func plural(_ singular: String, _ plural: String, _ count: Int, _ arguments: Any...) -> String {
        form(singular, plural, count, [count] + arguments)
    }

    /// The form for `count`, `shown` (the count as the reader's locale groups it: `1.000`)
    /// filling its `%s`.
    public static func plural(_ singular: String, _ plural: String, _ count: Int, shown: String) -> String {
        form(singular, plural, count, [shown])
    }

    private static func form(_ singular: String, _ plural: String, _ count: Int, _ all: [Any]) -> String {
        guard let catalog = catalog(), let forms = catalog.messages[singular], forms.count > 1 else {
            return format(count == 1 ? singular : plural, all)
        }
        let index = catalog.pluralIndex(count)
        return format(index < forms.count ? forms[index] : forms[forms.count - 1], all)
    }

    /// The languages a catalog ships for, beside English, each with its tag (BCP 47: what
    /// `Accept-Language` and `Content-Language` say). The Portuguese is Brazil's.
    public static let tags: [String: String] = ["de": "de", "fr": "fr", "es": "es", "pt": "pt-BR"]

    /// `language`'s tag (`pt` is `pt-BR`).
    public static func tag(of language: String) -> String { tags[language] ?? language }

    /// The catalog of the work's language, read once per process and language; `nil` for
    /// English, the C locale, or a language without one.
    public static func catalog() -> MessageCatalog? {
        guard let language, tags[language] != nil else { return nil }
        // gettext's name for a catalog: the tag with an underscore (`pt_BR.po`).
        let file = tag(of: language).replacing("-", with: "_")
        return catalogs.withLock { kept in
            if let found = kept[file] { return found }
            let read = folder().flatMap { try? MessageCatalog(poFile: $0 + "/" + file + ".po") }
            kept[file] = .some(read)
            return read
        }
    }

    private static let catalogs = Mutex<[String: MessageCatalog?]>([:])

    /// The `Localization/` folder that ships with the program.
    public static func folder() -> String? { ShippedFolder.path("Localization", holding: "de.po") }

    /// The language of an HTTP `Accept-Language` field (`de-DE,de;q=0.9,en;q=0.8`): the one of
    /// highest weight that has a catalog, `nil` for English or none (RFC 9110, section 12.5.4).
    public static func language(accepting field: String?) -> String? {
        guard let field, field.utf8.count <= 256 else { return nil }
        var best: (language: String, weight: Double)?
        for range in field.split(separator: ",").prefix(16) {
            let parts = range.split(separator: ";").map { $0.trimmingWhitespace() }
            guard let tag = parts.first, !tag.isEmpty else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                weight = Double(parameter.dropFirst(2)) ?? 0
            }
            let primary = tag.prefix { $0 != "-" && $0 != "_" }.lowercased()
            guard weight > 0, primary == "en" || tags[primary] != nil else { continue }
            if best == nil || weight > best!.weight { best = (primary, weight) }
        }
        return best?.language == "en" ? nil : best?.language
    }

    /// printf's `%s`, `%d`, `%n$s`, `%n$d` and `%%`, each filled with the argument as text.
    public static func format(_ template: String, _ arguments: [Any]) -> String {
        guard template.contains("%") else { return template }
        var out = ""
        var next = 0
        var characters = template[...]
        while let percent = characters.firstIndex(of: "%") {
            out += characters[..<percent]
            var rest = characters[characters.index(after: percent)...]
            if rest.first == "%" {
                out += "%"
                characters = rest.dropFirst()
                continue
            }
            var position: Int?
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, rest.dropFirst(digits.count).first == "$" {
                position = Int(digits).map { $0 - 1 }
                rest = rest.dropFirst(digits.count + 1)
            }
            guard let conversion = rest.first, conversion == "s" || conversion == "d" else {
                out += "%"
                characters = characters[characters.index(after: percent)...]
                continue
            }
            let index = position ?? next
            next = index + 1
            out += index < arguments.count ? String(describing: arguments[index]) : ""
            characters = rest.dropFirst()
        }
        return out + characters
    }
}

/// One `.po` file's translations: msgid -> its forms (one, or one per plural form), and the
/// language's plural rule.
public struct MessageCatalog: Sendable {
    public let messages: [String: [String]]
    public let pluralIndex: @Sendable (Int) -> Int

    public init(poFile path: String) throws {
        try self.init(poText: String(contentsOfFile: path, encoding: .utf8))
    }

    public init(poText text: String) throws {
        var messages: [String: [String]] = [:]
        var header = ""
        for entry in Self.entries(text) where !entry.fuzzy {
            if entry.id.isEmpty {
                header = entry.forms.first ?? ""
                continue
            }
            guard !entry.forms.isEmpty, entry.forms.allSatisfy({ !$0.isEmpty }) else { continue }
            messages[entry.id] = entry.forms
        }
        self.messages = messages
        var formula: String?
        for line in header.split(separator: "\n") where line.hasPrefix("Plural-Forms:") {
            guard let start = line.firstRange(of: "plural=") else { continue }
            formula = String(line[start.upperBound...].prefix { $0 != ";" })
        }
        if let formula {
            pluralIndex = try PluralRule.parse(formula)
        } else {
            pluralIndex = { count in count == 1 ? 0 : 1 }
        }
    }

    private struct Entry {
        var id = ""
        var forms: [String] = []
        var fuzzy = false
    }

    /// The entries of a `.po` text: `msgid`, `msgid_plural`, `msgstr` or `msgstr[n]`, each
    /// string possibly continued on the lines after it; `#, fuzzy` marks one not to use.
    private static func entries(_ text: String) -> [Entry] {
        var entries: [Entry] = []
        var entry = Entry()
        var field = ""
        var started = false
        func finish() {
            if started { entries.append(entry) }
            entry = Entry()
            field = ""
            started = false
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingWhitespace()
            if line.isEmpty {
                finish()
                continue
            }
            if line.hasPrefix("#") {
                if line.hasPrefix("#,") && line.contains("fuzzy") { entry.fuzzy = true }
                continue
            }
            if line.hasPrefix("\"") {
                append(unquoted(line), to: field, &entry)
                continue
            }
            guard let space = line.firstIndex(of: " ") else { continue }
            let keyword = String(line[..<space])
            if keyword == "msgid", started, !entry.forms.isEmpty { finish() }
            started = true
            field = keyword
            let value = unquoted(line[line.index(after: space)...].trimmingWhitespace())
            if keyword.hasPrefix("msgstr") { entry.forms.append("") }
            append(value, to: field, &entry)
        }
        finish()
        return entries
    }

    private static func append(_ value: String, to field: String, _ entry: inout Entry) {
        if field == "msgid" { entry.id += value } else if field.hasPrefix("msgstr"), !entry.forms.isEmpty { entry.forms[entry.forms.count - 1] += value }
    }

    /// A quoted `.po` string's text: `\"`, `\\`, `\n` and `\t` read.
    private static func unquoted(_ quoted: String) -> String {
        guard quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") else { return "" }
        var out = ""
        var escaped = false
        for character in quoted.dropFirst().dropLast() {
            if escaped {
                switch character {
                case "n": out += "\n"
                case "t": out += "\t"
                default: out.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}

/// A `Plural-Forms` formula (`n != 1`, `n > 1`, `n==1 ? 0 : n%10>=2 && ... ? 1 : 2`): C's
/// expressions over `n`, parsed once into a function of the count.
public enum PluralRule {
    public struct Malformed: Error {}

    public static func parse(_ formula: String) throws -> @Sendable (Int) -> Int {
        var parser = Parser(tokens: try tokens(formula))
        let expression = try parser.conditional()
        guard parser.position == parser.tokens.count else { throw Malformed() }
        return { n in max(0, expression(n)) }
    }

    private static func tokens(_ text: String) throws -> [String] {
        var tokens: [String] = []
        var characters = Array(text)
        var index = 0
        characters.append(" ")
        while index < characters.count - 1 {
            let character = characters[index]
            if character == " " { index += 1; continue }
            if character.isNumber {
                var number = ""
                while characters[index].isNumber { number.append(characters[index]); index += 1 }
                tokens.append(number)
                continue
            }
            let pair = String([character, characters[index + 1]])
            if ["==", "!=", "<=", ">=", "&&", "||"].contains(pair) {
                tokens.append(pair)
                index += 2
                continue
            }
            guard "n?:<>!%()+-*/".contains(character) else { throw Malformed() }
            tokens.append(String(character))
            index += 1
        }
        return tokens
    }

    private struct Parser {
        let tokens: [String]
        var position = 0
        typealias Value = @Sendable (Int) -> Int

        mutating func take(_ token: String) -> Bool {
            guard position < tokens.count, tokens[position] == token else { return false }
            position += 1
            return true
        }

        mutating func conditional() throws -> Value {
            let test = try binary(0)
            guard take("?") else { return test }
            let yes = try conditional()
            guard take(":") else { throw Malformed() }
            let no = try conditional()
            return { n in test(n) != 0 ? yes(n) : no(n) }
        }

        static let levels: [[String]] = [["||"], ["&&"], ["==", "!="], ["<", ">", "<=", ">="], ["+", "-"], ["*", "/", "%"]]

        mutating func binary(_ level: Int) throws -> Value {
            guard level < Self.levels.count else { return try unary() }
            var left = try binary(level + 1)
            while position < tokens.count, Self.levels[level].contains(tokens[position]) {
                let op = tokens[position]
                position += 1
                let right = try binary(level + 1)
                let l = left
                left = { n in
                    let (a, b) = (l(n), right(n))
                    switch op {
                    case "||": return (a != 0 || b != 0) ? 1 : 0
                    case "&&": return (a != 0 && b != 0) ? 1 : 0
                    case "==": return a == b ? 1 : 0
                    case "!=": return a != b ? 1 : 0
                    case "<": return a < b ? 1 : 0
                    case ">": return a > b ? 1 : 0
                    case "<=": return a <= b ? 1 : 0
                    case ">=": return a >= b ? 1 : 0
                    case "+": return a + b
                    case "-": return a - b
                    case "*": return a * b
                    case "/": return b == 0 ? 0 : a / b
                    default: return b == 0 ? 0 : a % b
                    }
                }
            }
            return left
        }

        mutating func unary() throws -> Value {
            if take("!") {
                let inner = try unary()
                return { n in inner(n) == 0 ? 1 : 0 }
            }
            if take("(") {
                let inner = try conditional()
                guard take(")") else { throw Malformed() }
                return inner
            }
            if take("n") { return { n in n } }
            guard position < tokens.count, let number = Int(tokens[position]) else { throw Malformed() }
            position += 1
            return { _ in number }
        }
    }
}

/// A folder that ships with the program (`Packs`, `Localization`): the checkout's this binary was
/// built in (it lives in `.build/<config>/`), or the one 'make install' put beside it
/// (`PREFIX/bin/hangman`, `PREFIX/share/hangman/<name>`).
public enum ShippedFolder {
    /// The first such folder holding `file`, or `nil`.
    public static func path(_ name: String, holding file: String) -> String? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        var candidates: [String] = []
        var folder = URL(filePath: executable).deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(folder.appending(path: name).path)
            candidates.append(folder.appending(path: "share/hangman/" + name).path)
            folder = folder.deletingLastPathComponent()
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/" + file) }
    }
}
