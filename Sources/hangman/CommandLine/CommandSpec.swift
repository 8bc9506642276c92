/// One command's interface: what `--help` prints, and what the parser accepts.
struct CommandSpec {
    struct Option {
        /// Names, long first: `["--output", "-o"]`.
        var names: [String]
        /// The value's placeholder (`FILE`); `nil` for a flag.
        var value: String?
        var help: String
        /// May be given more than once.
        var repeatable = false

        var canonical: String { names[0] }
    }

    /// The full command, as typed: `hangman pack verify`.
    var name: String
    var overview: String
    var usage: [String]
    var arguments: [(String, String)] = []
    var options: [Option] = []
    var subcommands: [(String, String)] = []
    var discussion: String?

    static let help = Option(names: ["--help", "-h"], value: nil, help: "Show help information.")

    /// The help text, in the OVERVIEW / USAGE / ARGUMENTS / OPTIONS / SUBCOMMANDS layout.
    var helpText: String {
        var lines = ["OVERVIEW: \(overview)", ""]
        lines.append("USAGE: " + usage.joined(separator: "\n       "))
        func section(_ title: String, _ rows: [(String, String)]) {
            guard !rows.isEmpty else { return }
            lines += ["", "\(title):"]
            let width = min(26, rows.map(\.0.count).max() ?? 0)
            for (left, right) in rows {
                if left.count > width {
                    lines.append("  \(left)")
                    lines.append("  " + String(repeating: " ", count: width) + "  " + right)
                } else {
                    lines.append("  " + left + String(repeating: " ", count: width - left.count) + "  " + right)
                }
            }
        }
        section("ARGUMENTS", arguments)
        let optionRows = (options + [Self.help]).map { option in
            let names = option.names.reversed().joined(separator: ", ")
            return (option.value.map { "\(names) <\($0)>" } ?? names, option.help)
        }
        section("OPTIONS", optionRows)
        section("SUBCOMMANDS", subcommands)
        if let discussion { lines += ["", discussion] }
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
                throw CommandFailure.usage("unknown option '\(name)' for '\(self.name)'")
            }
            if option.value == nil {
                if inlineValue != nil { throw CommandFailure.usage("option '\(name)' takes no value") }
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
                throw CommandFailure.usage("option '\(name)' needs a value <\(option.value ?? "VALUE")>")
            }
            if !option.repeatable && parsed.values[option.canonical] != nil {
                throw CommandFailure.usage("option '\(name)' is given twice")
            }
            parsed.values[option.canonical, default: []].append(value)
        }
        return parsed
    }
}

/// What the parser found.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []
    var wantsHelp = false

    func value(_ option: String) -> String? { values[option]?.last }
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
