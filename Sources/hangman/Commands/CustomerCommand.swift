import CivilCalendar
import PackServer
import PackServiceAPI
import Seller
import SystemCalls
import TerminalText

/// `hangman customer FIND`: the seller's support view of one customer.
enum CustomerCommand: Command {
    static let spec = CommandSpec(
        name: "hangman customer",
        overview: "Find a customer of a pack server by account id, transaction id or number, order id, app account token or name, and tell their story.",
        usage: ["hangman customer <FIND> --data <DIR> [--database <URL>] [--json]"],
        arguments: [.init(name: "<FIND>", help: "An account id, a transaction's id or number, an order id (MK5TTTVWJH), an app account token, or a name's first letters.")],
        options: [
            .init(names: ["--data"], value: "DIR", help: "The pack server's data folder ('serve --data'): its accounts and keys."),
            .init(names: ["--database"], value: "URL", help: "The ledgers 'serve --database' uses: postgresql://... (or libpq's key=value)."),
            .init(names: ["--json"], value: nil, help: "Print the customer's story (or the customers found) as JSON."),
            HomeContext.packsOption,
        ],
        discussion: """
            One customer found: their story, as support reads it: when they joined, their
            storefront, devices (made, last used, revoked), hints, what they hold and since when,
            subscriptions, games, and every purchase, renewal, refund and notification in one
            timeline, newest first. Several found (the first letters of several names): one line
            each, with the key that found them. Every key is read from an index. Opening an account
            brings it up to date as a request of its player would (a renewal due is made).
            Exit status: 0, 64 a wrong option or no customer matches, 66 no such data folder, 69 the
            database cannot be reached, 74 a database cannot be read.
            """)

    struct Options {
        var find: String
        var data: String
        var database: String?
        var json: Bool
        var packs: String?
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        guard let find = parsed.positionals.first else { throw CommandFailure.usage("'customer' needs what to find: an account id, a transaction, an order id, a token or a name") }
        guard let data = parsed.value("--data") else { throw CommandFailure.usage("'customer' needs --data <DIR>: the pack server's data folder") }
        return Options(find: find, data: data, database: parsed.value("--database"), json: parsed.has("--json"), packs: parsed.value("--packs"))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        guard FileSystem.exists(atPath: options.data + "/accounts.sqlite") || options.database != nil else {
            throw CommandFailure.missing("no pack server's data folder at '\(options.data)' (--data): it has no accounts.sqlite")
        }
        let packs = try EmbeddedStore.packsFolder(options.packs, context: context)
        let catalog: Catalog
        do {
            catalog = try Catalog.load(folder: packs)
        } catch {
            throw error.isMissing ? CommandFailure.missing(error.description) : CommandFailure.invalid(error.description)
        }
        do {
            let database: SellerService.Database
            switch options.database.map({ LedgerDatabase(argument: $0) }) {
            case .some(.postgreSQL(let connection)): database = .postgreSQL(connectionString: connection, connections: 2)
            case .some(.sqlite(let folder)): database = .sqlite(folder: folder ?? options.data)
            case .some(nil): throw CommandFailure.usage("--database takes postgresql://... or a libpq 'key=value' string, not '\(options.database ?? "")'")
            case nil: database = .sqlite(folder: options.data)
            }
            let seller = try SellerService(database)
            let matches = try seller.findCustomers(options.find)
            guard !matches.isEmpty else { throw CommandFailure.usage("no customer matches '\(options.find)'") }
            guard matches.count == 1, let match = matches.first else {
                if options.json {
                    context.out(JSONText.encode(matches))
                } else {
                    for match in matches { context.out(TerminalText(escaping: "\(match.account)  \(match.name)  (\(match.matchedBy.rawValue))")) }
                    context.out(TerminalText(escaping: "\(matches.count) customers: 'hangman customer ACCOUNT_ID' tells one's story."))
                }
                return .ok
            }
            let key = try ServiceKey.loadOrCreate(at: options.data + "/" + AccountService.keyName)
            let service: AccountService
            if let ledgers = seller.ledgers {
                service = try AccountService(
                    catalog: catalog, packsFolder: packs, ledgers: ledgers, account: match.account, clock: context.clock, signingKey: key)
            } else {
                service = try AccountService(
                    catalog: catalog, packsFolder: packs, accountFolder: (seller.sqliteFolder ?? options.data) + "/accounts/" + match.account,
                    clock: context.clock, signingKey: key)
            }
            let story = try seller.customerStory(account: match.account, service: service)
            if options.json {
                context.out(JSONText.encode(story))
            } else {
                for line in lines(story, matchedBy: match.matchedBy, catalog: catalog) { context.out(TerminalText(escaping: line)) }
            }
            return .ok
        } catch let error as ServiceError {
            switch error.kind {
            case .unavailable: throw CommandFailure(code: .storeRefused, message: error.message)
            case .invalidRequest, .notFound: throw CommandFailure.usage(error.message)
            default: throw CommandFailure.storage(error.message)
            }
        }
    }

    /// The story in lines of text.
    static func lines(_ story: CustomerStory, matchedBy: CustomerMatch.Key, catalog: Catalog) -> [String] {
        func name(_ product: ProductID?) -> String { product.map { catalog.product($0)?.displayName ?? $0.rawValue } ?? "" }
        var lines = [
            "\(story.name) (account \(story.account), found by \(matchedBy.rawValue))",
            "Joined \(StoreText.date(story.createdDate))" + (story.closedDate.map { ", closed \(StoreText.date($0))" } ?? "") + "; storefront \(story.storefront).",
            "Hints: \(story.hints). Games: \(story.gamesPlayed) played, \(story.gamesWon) won.",
            "",
            "Devices:",
        ]
        for device in story.devices {
            let state = device.revokedDate.map { "revoked \(StoreText.date($0))" } ?? device.lastUsedDate.map { "last used \(StoreText.date($0))" } ?? "never used"
            lines.append("  \(device.deviceName ?? "a device") (token \(device.tokenID)): made \(StoreText.date(device.createdDate)), \(state)")
        }
        lines += ["", "Holds:"]
        for held in story.entitlements {
            let state = held.revokedDate.map { "taken back \(StoreText.date($0))" } ?? "since \(StoreText.date(held.grantedDate))"
            lines.append("  \(name(held.productID)): \(state), by transaction \(held.transactionID.number)")
        }
        if story.entitlements.isEmpty { lines.append("  nothing") }
        if !story.subscriptions.isEmpty {
            lines += ["", "Subscriptions:"]
            for subscription in story.subscriptions {
                lines.append("  \(name(subscription.productID)): \(subscription.state.rawValue), until \(StoreText.date(subscription.expiresDate))")
            }
        }
        lines += ["", "Timeline (newest first):"]
        for event in story.timeline {
            let subject = [event.productID.map(name), event.transactionID.map { "transaction \($0.number)" }].compactMap { $0 }.joined(separator: ", ")
            lines.append("  \(StoreText.date(event.date))  \(event.kind.rawValue)  \(subject)\(subject.isEmpty ? "" : ": ")\(event.summary)")
        }
        return lines
    }
}
