import Device
import PackServiceAPI
import WordPacks

/// `hangman install PRODUCT_ID`
enum InstallCommand: Command {
    static let spec = CommandSpec(
        name: "hangman install",
        overview: "Install a pack the account owns (or a base pack) on this device.",
        usage: ["hangman install <PRODUCT_ID>"],
        arguments: [.init(name: "<PRODUCT_ID>", help: "A pack from 'hangman packs'.", kind: .product)],
        options: HomeContext.options,
        discussion: """
            The archive's SHA-256 and size are checked against the ones the catalog recorded when it was
            published before the archive is read, the pack is verified in full, then imported in one
            transaction. Installing what is installed does nothing.
            Exit status: 0 installed, 77 not purchased, 65 the archive is invalid or not the one the
            catalog records, 64 unknown pack.
            """)

    static func options(_ parsed: ParsedArguments) throws -> ProductOptions {
        try ProductOptions(parsed, command: "install")
    }

    static func run(_ options: ProductOptions, context: CommandContext) async throws -> ExitCode {
        var session = try await PlayerContext.open(options.store, context: context)
        let id = try await session.resolve(options.product)
        context.out(session.describe(try await session.install(id, context: context), id))
        return .ok
    }
}
