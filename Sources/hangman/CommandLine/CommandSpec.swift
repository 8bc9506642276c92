import PackServiceAPI
import WordPacks
import Messages

/// One command's interface: what `--help` prints, and what the parser accepts and converts.
/// Values are checked and typed once, here: a command reads a `ProductID` or an `Int`, never a
/// string to validate again.
struct CommandSpec {
    struct Option {
        /// Names, long first: `["--output", "-o"]`.
        var names: [String]
        /// The value's placeholder (`FILE`); `nil` for a flag.
        var value: String?
        var help: String
        /// May be given more than once.
        var repeatable = false
        /// What the value must be.
        var kind: ValueKind = .text

        var canonical: String { names[0] }
    }

    /// A positional argument.
    struct Argument {
        /// As shown in help: `<PRODUCT_ID>`.
        var name: String
        var help: String
        var kind: ValueKind = .text
        var arity: Arity = .one

        enum Arity { case one, optional, oneOrMore }
    }

    /// The full command, as typed: `hangman pack verify`.
    var name: String
    var overview: String
    var usage: [String]
    var arguments: [Argument] = []
    /// A command that reads its own words (`store approve TX`) takes any positionals.
    var takesWords = false
    var options: [Option] = []
    var subcommands: [(String, String)] = []
    var discussion: String?
    /// A discussion laid out for a width by its own code (tables, aligned columns): used as it
    /// is, in place of reflowing `discussion`.
    var laidOutDiscussion: (@Sendable (Int) -> String)? = nil

    static let help = Option(names: ["--help", "-h"], value: nil, help: "Show help information.")

    /// The overview's first clause, for a list of commands.
    var summary: String {
        var end = overview.endIndex
        var index = overview.startIndex
        while index < overview.endIndex {
            let next = overview.index(after: index)
            if [":", ".", ";"].contains(overview[index]), next == overview.endIndex || overview[next] == " " {
                end = index
                break
            }
            index = next
        }
        let clause = overview[..<end]
        return clause.hasSuffix(".") ? String(clause) : clause + "."
    }

    /// The help text for 80 columns (the manual page, a pipe).
    var helpText: String { helpText(width: 80) }

    /// The help text, in the OVERVIEW / USAGE / ARGUMENTS / OPTIONS / SUBCOMMANDS layout, every
    /// sentence broken between words at `width` and continued under itself.
    func helpText(width: Int) -> String {
        let width = max(40, width)
        var lines: [String] = []
        /// `text` after `first` (the first line's start), its other lines under `indent`.
        func hanging(_ first: String, _ text: String, indent: Int) {
            let wrapped = GameLayout.wrap(text, width: width - indent)
            for (index, line) in wrapped.enumerated() {
                lines.append((index == 0 ? first.padded(to: indent) : String(repeating: " ", count: indent)) + line)
            }
        }
        hanging("OVERVIEW: ", overview, indent: 10)
        lines.append("")
        for (index, line) in usage.enumerated() { hanging(index == 0 ? "USAGE: " : "", line, indent: 7) }
        func section(_ title: String, _ rows: [(String, String)]) {
            guard !rows.isEmpty else { return }
            lines += ["", "\(title):"]
            // Narrow: a narrower left column leaves the text room for its longest words.
            let column = min(26, width / 3, rows.map(\.0.count).max() ?? 0)
            for (left, right) in rows {
                if left.count > column { lines.append("  \(left)") }
                hanging(left.count > column ? "" : "  " + left, right, indent: 4 + column)
            }
        }
        section("ARGUMENTS", arguments.map { ($0.name, $0.help) })
        let optionRows = (options + [Self.help]).map { option in
            let names = option.names.reversed().joined(separator: ", ")
            return (option.value.map { "\(names) <\($0)>" } ?? names, option.help)
        }
        section("OPTIONS", optionRows)
        section("SUBCOMMANDS", subcommands)
        if let laidOutDiscussion {
            lines += ["", laidOutDiscussion(width)]
        } else if let discussion {
            lines.append("")
            // Reflowed: a paragraph's lines joined, then broken at the width; a blank line, an
            // indented line or a list item keeps its own start.
            var paragraph: [String] = []
            func flush() {
                if !paragraph.isEmpty { lines += GameLayout.wrap(paragraph.joined(separator: " "), width: width) }
                paragraph = []
            }
            for line in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.isEmpty {
                    flush()
                    lines.append("")
                } else if line.hasPrefix(" ") || line.hasPrefix("- ") {
                    flush()
                    let indent = line.prefix { $0 == " " }.count + (line.drop { $0 == " " }.hasPrefix("- ") ? 2 : 0)
                    hanging(String(line.prefix(indent)), String(line.dropFirst(indent)), indent: indent)
                } else {
                    paragraph.append(String(line))
                }
            }
            flush()
        }
        return lines.joined(separator: "\n")
    }

    /// Parses `arguments` (after the command's own name). `--help` anywhere asks for help.
    func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "--help" || argument == "-h" {
                parsed.wantsHelp = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                let suggestion = Suggestion.closest(to: name, among: (options + [Self.help]).flatMap(\.names)).map { ": did you mean '\($0)'?" } ?? ""
                throw CommandFailure.usage(L10n.text("unknown option '%s' for '%s'%s", name, self.name, suggestion))
            }
            if option.value == nil {
                if inlineValue != nil { throw CommandFailure.usage(L10n.text("option '%s' takes no value", name)) }
                parsed.flags.insert(option.canonical)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw CommandFailure.usage(L10n.text("option '%s' needs a value <%s>", name, option.value ?? "VALUE"))
            }
            if !option.repeatable && parsed.values[option.canonical] != nil {
                throw CommandFailure.usage(L10n.text("option '%s' is given twice", name))
            }
            parsed.values[option.canonical, default: []].append(try option.kind.convert(value, for: "option '\(name)'"))
        }
        if parsed.wantsHelp || takesWords { return parsed }
        try bindArguments(&parsed)
        return parsed
    }

    /// Checks the positionals against `arguments` and converts each, once.
    private func bindArguments(_ parsed: inout ParsedArguments) throws {
        var words = parsed.positionals[...]
        let command = "'\(name.split(separator: " ").dropFirst().joined(separator: " "))'"
        for argument in arguments {
            switch argument.arity {
            case .one:
                guard let word = words.popFirst() else { throw CommandFailure.usage(L10n.text("%s needs %s", command, argument.name)) }
                parsed.values[argument.name] = [try argument.kind.convert(word, for: argument.name)]
            case .optional:
                if let word = words.popFirst() { parsed.values[argument.name] = [try argument.kind.convert(word, for: argument.name)] }
            case .oneOrMore:
                guard !words.isEmpty else { throw CommandFailure.usage(L10n.text("%s needs at least one %s", command, argument.name)) }
                parsed.values[argument.name] = try words.map { word in try argument.kind.convert(word, for: argument.name) }
                words = []
            }
        }
        if let extra = words.first {
            throw CommandFailure.usage(arguments.isEmpty
                ? L10n.text("%s takes no arguments, not '%s'", command, extra)
                : L10n.text("unexpected argument '%s' for %s", extra, command))
        }
    }
}

/// What an option's value or an argument must be, and the typed value it becomes.
enum ValueKind {
    case text
    /// A full product identifier (`pack init --product-id`).
    case productID
    /// A product named by its identifier or a short name (`ios`): resolved against the catalog
    /// by the command (`ParsedArguments.product(_:in:)`).
    case product
    case contentVersion
    case languageTag
    case integer(ClosedRange<Int>)
    case unsignedInteger
    /// `on` or `off`.
    case toggle
    /// One of a few words (`bash`, `zsh`, `fish`).
    case choice([String])

    func convert(_ word: String, for what: String) throws -> ParsedValue {
        switch self {
        case .text:
            guard !word.isEmpty else { throw CommandFailure.usage(L10n.text("%s cannot be empty", what)) }
            return .text(word)
        case .productID:
            guard let id = ProductID(rawValue: word) else {
                throw CommandFailure.usage(L10n.text("%s: '%s' is not a product identifier (like com.hangmanpacks.words.ios): see 'hangman packs'", what, word))
            }
            return .productID(id)
        case .product:
            guard ProductNames.isWellFormed(word) else {
                throw CommandFailure.usage(L10n.text("%s: '%s' is not a product name (like ios, or com.hangmanpacks.words.ios): see 'hangman products'", what, word))
            }
            return .productName(word)
        case .contentVersion:
            guard let version = ContentVersion(word) else {
                throw CommandFailure.usage(L10n.text("%s: '%s' is not a content version (dotted integers, like 1.0 or 2.0.3)", what, word))
            }
            return .contentVersion(version)
        case .languageTag:
            guard PackManifest.isLanguageTag(word) else {
                throw CommandFailure.usage(L10n.text("%s: '%s' is not a BCP 47 language tag (like en, es or pt-BR)", what, word))
            }
            return .text(word)
        case .integer(let range):
            guard let number = Int(word), range.contains(number) else {
                throw CommandFailure.usage(L10n.text("%s takes a number from %s to %s, not '%s'", what, range.lowerBound, range.upperBound, word))
            }
            return .integer(number)
        case .unsignedInteger:
            guard let number = UInt64(word) else { throw CommandFailure.usage(L10n.text("%s takes a non-negative number, not '%s'", what, word)) }
            return .unsigned(number)
        case .toggle:
            guard word == "on" || word == "off" else { throw CommandFailure.usage(L10n.text("%s takes on or off, not '%s'", what, word)) }
            return .toggle(word == "on")
        case .choice(let words):
            guard words.contains(word) else {
                let suggestion = Suggestion.closest(to: word, among: words).map { ": did you mean '\($0)'?" } ?? ""
                let list = words.dropLast().joined(separator: ", ") + (words.count > 1 ? " or " : "") + (words.last ?? "")
                throw CommandFailure.usage(L10n.text("%s: '%s' is not one of %s%s", what, word, list, suggestion))
            }
            return .text(word)
        }
    }
}

/// A value converted by the parser.
enum ParsedValue: Equatable {
    case text(String)
    case productID(ProductID)
    /// A product as typed: an identifier or a short name, not yet looked up.
    case productName(String)
    case contentVersion(ContentVersion)
    case integer(Int)
    case unsigned(UInt64)
    case toggle(Bool)
}

/// A product as typed on the command line (an identifier or a short name such as `ios`), well
/// formed; which product it is depends on the catalog, known once the store is open.
struct ProductName: Sendable, Equatable {
    let typed: String

    func resolve(in catalog: Catalog) throws -> ProductID {
        try ProductNames(catalog).resolve(typed)
    }
}

/// What the parser found: options and arguments by name (`--pack`, `<PRODUCT_ID>`), typed.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: [ParsedValue]] = [:]
    var flags: Set<String> = []
    var wantsHelp = false

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// `value`, which the parser guarantees for a required argument; a usage error otherwise.
    func required<T>(_ value: T?, _ name: String, of command: String) throws -> T {
        guard let value else { throw CommandFailure.usage(L10n.text("'%s' needs %s", command, name)) }
        return value
    }

    /// A text value (an option's last, or an argument).
    func value(_ name: String) -> String? {
        if case .text(let text)? = values[name]?.last { text } else { nil }
    }

    func texts(_ name: String) -> [String] {
        (values[name] ?? []).compactMap { if case .text(let text) = $0 { text } else { nil } }
    }

    func productID(_ name: String) -> ProductID? { productIDs(name).last }

    func productIDs(_ name: String) -> [ProductID] {
        (values[name] ?? []).compactMap { if case .productID(let id) = $0 { id } else { nil } }
    }

    /// The product an argument or option names, as typed (resolved against the catalog later).
    func productName(_ name: String) -> ProductName? { productNames(name).last }

    func productNames(_ name: String) -> [ProductName] {
        (values[name] ?? []).compactMap { if case .productName(let typed) = $0 { ProductName(typed: typed) } else { nil } }
    }

    func toggle(_ name: String) -> Bool? {
        if case .toggle(let on)? = values[name]?.last { on } else { nil }
    }


    func contentVersion(_ name: String) -> ContentVersion? {
        if case .contentVersion(let version)? = values[name]?.last { version } else { nil }
    }

    func integer(_ name: String) -> Int? {
        if case .integer(let number)? = values[name]?.last { number } else { nil }
    }

    func unsigned(_ name: String) -> UInt64? {
        if case .unsigned(let number)? = values[name]?.last { number } else { nil }
    }
}

/// The name a mistyped word most likely meant: the closest by edit distance (letters inserted,
/// deleted, replaced or swapped), if it is close enough to be a typo.
enum Suggestion {
    static func closest(to word: String, among names: [String]) -> String? {
        let typed = Array(word.lowercased())
        let scored = names.map { name in (name, distance(typed, Array(name.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        // One edit for a short word, two for a longer one: beyond that it is another word.
        return best.1 <= (typed.count <= 4 ? 1 : 2) ? best.0 : nil
    }

    /// Optimal string alignment distance (Damerau-Levenshtein without repeated transpositions).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
