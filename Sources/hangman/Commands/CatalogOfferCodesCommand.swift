import CivilCalendar
import PackServiceAPI
import Seller
import SystemCalls

/// `hangman catalog offer-codes ID --count N -o FILE`
enum CatalogOfferCodesCommand: Command {
    static let spec = CommandSpec(
        name: "hangman catalog offer-codes",
        overview: "Make one-time offer codes for a product, as App Store Connect's: each redeemed once with 'hangman redeem'.",
        usage: ["hangman catalog offer-codes <PRODUCT_ID> --count <N> -o <FILE> [--offer <ID>] [--days <N>] [--name <NAME>] [--packs <DIR>]"],
        arguments: [.init(name: "<PRODUCT_ID>", help: "The product the codes give: its identifier or short name (easy, hints.10, premium).", kind: .product)],
        options: [
            .init(names: ["--count"], value: "N", help: "How many codes (1 to \(OfferCodes.batchLimit)).", kind: .integer(1...OfferCodes.batchLimit)),
            .init(names: ["--output", "-o"], value: "FILE", help: "Where the codes go, one a line (a regular file, made readable by you alone; - for standard output). They are nowhere else."),
            .init(names: ["--offer"], value: "ID", help: "A subscription's codes: the offer they give, one of its PromotionalOffers in Catalog.plist."),
            .init(names: ["--days"], value: "N", help: "How long the codes work, from now (1 to \(OfferCodes.longestDays); default 90).", kind: .integer(1...OfferCodes.longestDays)),
            .init(names: ["--name"], value: "NAME", help: "The batch's reference name (default: the product's short name and a number); a one-time product's purchase carries it as its offerIdentifier."),
            HomeContext.packsOption,
        ],
        discussion: """
            The batch is recorded in OfferCodes.plist beside Catalog.plist, with the SHA-256 of each
            code and never the code, so the packs folder can be published as it is; servers read it
            when a code is redeemed (no restart). A code for a pack, hints or a feature gives it
            free; a code for a subscription starts it under --offer, and the developer's server
            hears OFFER_REDEEMED. Each code is redeemed once across the service.
            Exit status: 0 made; 64 no --count, -o or --offer where one is needed, or an unknown
            product or offer; 65 a batch name the folder has, or a file that would pass 16 MB
            (batches leave it 30 days after they expire); 66 no catalog; 73 cannot write
            (nothing is recorded when the output cannot be written).
            """)

    struct Options {
        var product: ProductName
        var count: Int
        var output: String
        var offer: String?
        var days: Int
        var name: String?
        var packs: String?
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        guard let count = parsed.integer("--count") else { throw CommandFailure.usage("'catalog offer-codes' needs --count <N>: how many codes to make") }
        guard let output = parsed.value("--output") else { throw CommandFailure.usage("'catalog offer-codes' needs -o <FILE>: where the codes go (they are nowhere else)") }
        return Options(
            product: try parsed.required(parsed.productName("<PRODUCT_ID>"), "<PRODUCT_ID>", of: "catalog offer-codes"), count: count, output: output,
            offer: parsed.value("--offer"), days: parsed.integer("--days") ?? 90, name: parsed.value("--name"), packs: parsed.value("--packs"))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let packs = try EmbeddedStore.packsFolder(options.packs, context: context)
        let catalog: Catalog
        do { catalog = try Catalog.load(folder: packs) } catch { throw CatalogUpdateCommand.failure(error, packs: packs, context: context) }
        let id = try options.product.resolve(in: catalog)
        // The codes' file is checked first: a batch whose codes nobody has is never recorded.
        if options.output != "-" {
            if let kind = try? FileSystem.status(atPath: options.output, followingLinks: false)?.kind, kind != .regular {
                throw CommandFailure.cannotCreate("cannot write the codes to \(options.output): it is \(kind), not a regular file (pass -o - for standard output)")
            }
            if let refusal = FileSystem.writeRefusal(atPath: options.output) { throw CommandFailure.cannotCreate("cannot write the codes to \(options.output): \(refusal)") }
        }
        let made: (batch: OfferCodeBatch, codes: [String])
        do {
            made = try OfferCodes.make(
                count: options.count, product: id, offer: options.offer, days: options.days, name: options.name, catalog: catalog, folder: packs,
                now: context.clock.now())
        } catch {
            throw refusal(error)
        }
        let lines = Array(made.codes.map { $0 + "\n" }.joined().utf8)
        let summary =
            "\(options.count) offer code\(options.count == 1 ? "" : "s") for \(StoreText.productName(id, catalog: catalog)) (\(id))"
            + (options.offer.map { ", offer \($0)" } ?? ", free") + ", batch '\(made.batch.name)', working until \(UTCDateTime(millisecondsSince1970: made.batch.expires).dateText)"
        if options.output == "-" {
            context.outBytes(lines)
            context.error("\(summary). Recorded in \(packs)/\(OfferCodes.fileName).")
        } else {
            do {
                try FileSystem.writeAtomically(lines, toPath: options.output, permissions: 0o600)
            } catch {
                throw CommandFailure.cannotCreate("cannot write the codes to \(options.output): \(error); the batch '\(made.batch.name)' is recorded with codes nobody has: make another")
            }
            context.out("\(summary): \(options.output).")
            context.out("Recorded in \(packs)/\(OfferCodes.fileName). Players redeem one with 'hangman redeem CODE'.")
        }
        return .ok
    }

    /// What a refused batch exits with: a request the command line got wrong is 64, a batch
    /// name the folder has 65; anything else as the service's error says.
    private static func refusal(_ error: ServiceError) -> any Error {
        switch error.kind {
        case .invalidRequest where error.reason == .offerCodesFolder: CommandFailure.invalid(error.message)
        case .invalidRequest, .unknownProduct: CommandFailure.usage(error.message)
        default: error
        }
    }
}
