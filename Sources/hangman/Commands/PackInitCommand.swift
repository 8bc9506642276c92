import WordPacks

/// `hangman pack init DIR --product-id ID`
enum PackInitCommand: Command {
    static let spec = CommandSpec(
        name: "hangman pack init",
        overview: "Write the manifest, Info.plist, for a folder of word lists that has none; then 'pack build' takes the folder.",
        usage: ["hangman pack init <DIR> --product-id <ID> [--display-name <NAME>] [--language <TAG>] [--content-version <V>] [--force]"],
        arguments: [.init(name: "<DIR>", help: "The folder of *.plist word lists (an array of words, or {name, words}).")],
        options: [
            .init(names: ["--product-id"], value: "ID", help: "The product that unlocks the pack (like com.example.words.easy).", kind: .productID),
            .init(names: ["--display-name"], value: "NAME", help: "Shown to players (default: the word lists' 'name')."),
            .init(names: ["--language"], value: "TAG", help: "BCP 47 tag deciding which letters are the same (default: en).", kind: .languageTag),
            .init(names: ["--content-version"], value: "V", help: "Dotted integers, raised for each update (default: 1.0).", kind: .contentVersion),
            .init(names: ["--force"], value: nil, help: "Replace the folder's Info.plist if it has one."),
        ],
        discussion: """
            Made for folders such as the classic iOS sample's EasyWords/, whose words.plist is a
            dictionary {name, words}: the name becomes the pack's DisplayName. Then build the pack
            with 'hangman pack build DIR -o FILE'.
            Exit status: 0 written, 64 bad usage, 65 no word list or no display name,
            66 no such folder, 73 the folder has an Info.plist (pass --force) or it cannot be written.
            """)

    struct Options {
        var folder: String
        var productID: ProductID
        var displayName: String?
        var language: String
        var contentVersion: ContentVersion
        var force: Bool
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        guard let productID = parsed.productID("--product-id") else {
            throw CommandFailure.usage("'pack init' needs --product-id <ID>, the product that unlocks the pack (like com.example.words.easy)")
        }
        return Options(
            folder: try parsed.required(parsed.value("<DIR>"), "<DIR>", of: "pack init"), productID: productID,
            displayName: parsed.value("--display-name"), language: parsed.value("--language") ?? "en",
            contentVersion: parsed.contentVersion("--content-version") ?? .initial, force: parsed.has("--force"))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let (folder, productID) = (options.folder, options.productID)
        let writer = PackManifestWriter(
            productIdentifier: productID, displayName: options.displayName, language: options.language, contentVersion: options.contentVersion,
            replace: options.force)
        let written = try writer.write(folder: folder)
        context.out(PackText.written(written))
        context.out("next: \(PackText.buildCommand(folder: folder, productID: productID))")
        return .ok
    }
}
