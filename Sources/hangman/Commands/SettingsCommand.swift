import Device
import FoundationEssentials
import FoundationInternationalization
import Messages
import PackServiceAPI
import TerminalText

/// `hangman settings`: this device's choices.
enum SettingsCommand: Command {
    static let spec = CommandSpec(
        name: "hangman settings",
        overview: "Show or change this device's settings: the languages of a default game, and whether it may buy.",
        usage: [
            "hangman settings [--json]",
            "hangman settings languages all|<TAG>...",
            "hangman settings payments on|off",
            "hangman settings theme classic|<THEME>",
            "hangman settings palette standard|high-contrast",
        ],
        takesWords: true,
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document.")] + HomeContext.options,
        subcommands: [
            ("languages all|<TAG>...", "Which languages a game without --pack draws from (BCP 47 tags: en es), or all."),
            ("payments on|off", "Allow purchases on this device, or refuse every one (exit 69); also 'store payments'."),
            ("theme classic|<THEME>", "How the game draws the gallows: the stick figure (classic), or a theme installed here (robot, zombie: 'hangman products' sells them)."),
            ("palette standard|high-contrast", "The colours of hits and misses on the board and in the share line: green and red, or orange and blue."),
        ],
        discussion: """
            The settings live in the device's database: 'hangman reset' (deleting the app) forgets them.
            The first time a pack in a second language is bought, buy asks whether default games should
            draw from it too (without a terminal it keeps the languages played so far, and says so).
            """)

    enum Action {
        case show
        /// The languages of a game without `--pack`; `nil` for every installed pack.
        case languages([String]?)
        case payments(allowed: Bool)
        /// A theme by name (`robot`, its identifier or its display name); `nil` for the stick figure.
        case theme(String?)
        case palette(DeviceSettings.Palette)
    }

    static func options(_ parsed: ParsedArguments) throws -> ActionOptions<Action> {
        ActionOptions(try action(parsed.positionals[...], command: "settings"), parsed)
    }

    /// The words after `settings` (and `payments` after `store`), read once.
    static func action(_ words: ArraySlice<String>, command: String) throws -> Action {
        switch words.first {
        case nil:
            return .show
        case "languages":
            let tags = Array(words.dropFirst())
            guard !tags.isEmpty else { throw CommandFailure.usage(L10n.text("'%s languages' takes all or language tags (like en es)", command)) }
            if tags == ["all"] { return .languages(nil) }
            var chosen: [String] = []
            for tag in tags {
                guard case .text(let checked) = try ValueKind.languageTag.convert(tag, for: "a language") else { continue }
                if !chosen.contains(checked) { chosen.append(checked) }
            }
            return .languages(chosen)
        case "payments":
            guard words.count == 2, case .toggle(let on) = try ValueKind.toggle.convert(words[words.startIndex + 1], for: "'\(command) payments'") else {
                throw CommandFailure.usage(L10n.text("'%s payments' takes on or off", command))
            }
            return .payments(allowed: on)
        case "theme":
            guard words.count == 2 else { throw CommandFailure.usage(L10n.text("'%s theme' takes classic or the name of a theme installed here (like robot)", command)) }
            let name = words[words.startIndex + 1]
            return .theme(["classic", "none", "stick", "default"].contains(name.lowercased()) ? nil : name)
        case "palette":
            guard words.count == 2, let palette = DeviceSettings.Palette(rawValue: words[words.startIndex + 1].lowercased()) else {
                throw CommandFailure.usage(L10n.text("'%s palette' takes standard or high-contrast", command))
            }
            return .palette(palette)
        case let other?:
            let suggestion = Suggestion.closest(to: other, among: ["languages", "payments", "theme", "palette"]).map { ": did you mean '\($0)'?" } ?? ""
            throw CommandFailure.usage(L10n.text("unknown setting '%s'%s (see 'hangman %s --help')", other, suggestion, command))
        }
    }

    static func run(_ options: ActionOptions<Action>, context: CommandContext) async throws -> ExitCode {
        // The device's own choices: no store is opened (they work offline, and before any catalog).
        let home = Home(folder: try HomeContext.homeFolder(options.store, context: context))
        do {
            return try apply(options.action, json: options.json, device: try home.openDevice(), context: context)
        } catch let failure as CommandFailure where failure.code == .noInput {
            // A theme not installed here: the store is asked, then, whether it sells one so named.
            guard case .theme(let name?) = options.action, let offer = await themeForSale(name, options.store, context: context) else { throw failure }
            let buy = "hangman buy " + offer.short
            throw CommandFailure(
                code: .noInput,
                message: offer.price.map { L10n.text("%s is not yours yet: it is for sale at %s, '%s' buys it", offer.name, $0, buy) }
                    ?? L10n.text("%s is not yours yet: it is for sale, '%s' buys it", offer.name, buy))
        }
    }

    /// The theme the store sells under `name` (its short name, identifier or display name), with
    /// its price in the account's storefront; `nil` when there is none or the store cannot say.
    static func themeForSale(_ name: String, _ options: HomeOptions, context: CommandContext) async -> (name: String, short: String, price: String?)? {
        guard let store = try? await HomeContext.open(options, context: context, quietOffline: true),
            let id = try? ProductName(typed: name).resolve(in: store.catalog), let product = store.catalog.product(id), product.isTheme, product.isForSale
        else { return nil }
        let storefront = try? await store.service.storefront()
        let price = storefront.flatMap { PriceText(environment: context.environment).format(product, storefront: $0) }
        return (ReaderLocale.current.name(of: product), ProductNames(store.catalog).shortName(of: id), price)
    }

    /// Shows or changes the settings; synchronous, apart from opening the device.
    @inline(never)  // inlined into an async caller, it crashes the 6.3.1 optimizer (splitting the coroutine)
    static func apply(_ action: Action, json: Bool, device: DeviceDatabase, context: CommandContext) throws -> ExitCode {
        var settings = try device.settings()
        switch action {
        case .show:
            if json {
                context.out(
                    JSONText.encode(
                        SettingsJSON(
                            paymentsAllowed: settings.paymentsAllowed, gameLanguages: settings.gameLanguages, theme: try device.chosenTheme()?.rawValue,
                            palette: settings.palette.rawValue)))
            } else {
                context.out("languages  \(try settings.gameLanguages.map { describe($0) } ?? installedLanguages(device))")
                context.out("payments   \(settings.paymentsAllowed ? "on" : "off")")
                let chosen = try device.chosenTheme()
                context.out("theme      \(chosen.flatMap { id in try? device.installedThemes().first { $0.productID == id }?.displayName } ?? "classic (the stick figure)")")
                context.out("palette    \(settings.palette == .highContrast ? "high-contrast (orange hits, blue misses)" : "standard (green hits, red misses)")")
            }
        case .languages(let chosen):
            settings.gameLanguages = chosen
            try device.save(settings)
            context.out(TerminalText(escaping: L10n.text("Games without --pack draw from %s.", try settings.gameLanguages.map { describe($0) } ?? installedLanguages(device))))
        case .payments(let allowed):
            settings.paymentsAllowed = allowed
            try device.save(settings)
            context.out(TerminalText(escaping: allowed ? L10n.text("Purchases are allowed on this device.") : L10n.text("Purchases are turned off on this device: every 'buy' is refused (exit 69).")))
        case .palette(let palette):
            settings.palette = palette
            try device.save(settings)
            context.out(
                TerminalText(
                    escaping: palette == .highContrast
                        ? L10n.text("Hits are orange and misses blue, on the board and in the share line.")
                        : L10n.text("Hits are green and misses red, on the board and in the share line.")))
        case .theme(nil):
            try device.chooseTheme(nil)
            context.out(TerminalText(escaping: L10n.text("Games draw the classic stick figure.")))
        case .theme(let name?):
            let themes = try device.installedThemes()
            let lowered = name.lowercased()
            guard let theme = themes.first(where: {
                $0.productID.rawValue == name || $0.productID.rawValue.split(separator: ".").last.map(String.init)?.lowercased() == lowered
                    || $0.displayName.lowercased() == lowered
            }) else {
                let installed = themes.map { $0.productID.rawValue.split(separator: ".").last.map(String.init) ?? $0.displayName }
                throw CommandFailure(
                    code: .noInput,
                    message: "no theme '\(name)' is installed here (\(installed.isEmpty ? "none is" : "installed: classic, " + installed.joined(separator: ", "))): "
                        + "'hangman products' lists the themes for sale, 'hangman buy <THEME>' buys one, 'hangman restore' brings back those bought")
            }
            try device.chooseTheme(theme.productID)
            context.out(TerminalText(escaping: L10n.text("Games draw the %s theme.", theme.displayName)))
        }
        return .ok
    }

    /// `English (en), Spanish (es)`.
    /// What games draw from when no language is chosen: the languages of the installed packs, on a
    /// home bound to a server as on the embedded store.
    static func installedLanguages(_ device: DeviceDatabase) throws -> String {
        var tags: [String] = []
        for pack in try device.installedPacks() where !tags.contains(where: { LanguageTag.sameLanguage($0, pack.language) }) { tags.append(pack.language) }
        return tags.isEmpty ? "the installed packs (none yet)" : describe(tags) + ": the installed packs' languages"
    }

    static func describe(_ tags: [String]) -> String {
        tags.map { "\(languageName($0)) (\($0))" }.joined(separator: ", ")
    }

    /// A language tag's name in the reader's language (`es` -> Spanish, or Spanisch), or the tag.
    static func languageName(_ tag: String) -> String {
        Locale(identifier: ReaderLocale.current.language ?? "en").localizedString(forIdentifier: tag) ?? tag
    }

    struct SettingsJSON: Encodable {
        var paymentsAllowed: Bool
        /// `null`: every installed pack.
        var gameLanguages: [String]?
        /// The chosen theme's product identifier; `null`: the classic stick figure.
        var theme: String?
        /// `standard` or `high-contrast`.
        var palette: String
    }
}
