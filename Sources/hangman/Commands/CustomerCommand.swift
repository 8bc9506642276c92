import CivilCalendar
import FoundationEssentials
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
        usage: [
            "hangman customer <FIND> --data <DIR> [--database <URL>] [--json]",
            "hangman customer <ACCOUNT> grant <PRODUCT> --reason <TEXT> [--quantity <N>] [--key <KEY>] --data <DIR>",
            "hangman customer <ACCOUNT> extend <DAYS> --reason <TEXT> --data <DIR>",
            "hangman customer <ACCOUNT> refund <TRANSACTION> --reason <TEXT> --data <DIR>",
            "hangman customer --audit [<ACCOUNT>] --data <DIR> [--json]",
        ],
        arguments: [
            .init(name: "<FIND>", help: "An account id, a transaction's id or number, an order id (MK5TTTVWJH), an app account token, or a name's first letters.", arity: .optional),
            .init(name: "<ACTION>", help: "grant, extend or refund (on the customer <FIND> names by account id).", arity: .optional),
            .init(name: "<OF>", help: "What the action is of: a product (grant), a number of days (extend), a transaction (refund).", arity: .optional),
        ],
        options: [
            .init(names: ["--data"], value: "DIR", help: "The pack server's data folder ('serve --data'): its accounts and keys."),
            .init(names: ["--database"], value: "URL", help: "The ledgers 'serve --database' uses: postgresql://... (or libpq's key=value)."),
            .init(names: ["--json"], value: nil, help: "Print the customer's story (or the customers found, or the audit log) as JSON."),
            .init(names: ["--reason"], value: "TEXT", help: "Why support acts (kept with the action and, for a grant, with its transaction): 1 to 500 characters."),
            .init(names: ["--quantity"], value: "N", help: "How many of a consumable a grant gives (default 1).", kind: .integer(1...10)),
            .init(names: ["--key"], value: "KEY", help: "A grant's idempotency key: the same key again is the same grant (default: a new one, printed)."),
            .init(names: ["--audit"], value: nil, help: "List the actions taken on customers, newest first (of one customer when one is named)."),
            HomeContext.packsOption,
        ],
        discussion: """
            One customer found: their story, as support reads it: when they joined, their
            storefront, devices (made, last used, revoked), hints, what they hold and since when,
            subscriptions, games, and every purchase, renewal, refund and notification in one
            timeline, newest first. Several found (the first letters of several names): one line
            each, with the key that found them. Every key is read from an index. Opening an account
            brings it up to date as a request of its player would (a renewal due is made).

            Support's actions, each with a reason and recorded in the audit log (who: 'cli:' and
            your user name; the dashboard's are the admin token's id): 'grant' gives hints, a pack,
            Remove Ads or a non-renewing pass at no charge (its own kind of transaction, never
            revenue; the player's devices see it as a purchase); 'extend' gives days (1 to 90) of the
            customer's live subscription, by the App Store's rules for extensions; 'refund' refunds
            a purchase (revoked, its hints taken back, told to the developer's server).
            Exit status: 0, 64 a wrong option, no customer matches, or the rules refuse the action,
            66 no such data folder, 69 the database cannot be reached, 74 a database cannot be read.
            """)

    struct Options {
        var find: String
        var data: String
        var database: String?
        var json: Bool
        var packs: String?
        /// `grant`, `extend` or `refund`, and what it is of.
        var action: (name: String, argument: String)?
        var reason: String?
        var quantity = 1
        var key: String?
        var audit = false
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        let audit = parsed.has("--audit")
        guard let find = parsed.positionals.first ?? (audit ? "" : nil) else {
            throw CommandFailure.usage("'customer' needs what to find: an account id, a transaction, an order id, a token or a name")
        }
        guard let data = parsed.value("--data") else { throw CommandFailure.usage("'customer' needs --data <DIR>: the pack server's data folder") }
        var options = Options(find: find, data: data, database: parsed.value("--database"), json: parsed.has("--json"), packs: parsed.value("--packs"))
        options.audit = audit
        options.reason = parsed.value("--reason")
        options.quantity = parsed.integer("--quantity") ?? 1
        options.key = parsed.value("--key")
        let rest = Array(parsed.positionals.dropFirst())
        if let name = rest.first {
            guard ["grant", "extend", "refund"].contains(name) else {
                throw CommandFailure.usage("'\(name.prefix(40))' is no action on a customer: grant, extend or refund")
            }
            guard rest.count == 2 else { throw CommandFailure.usage("'customer ACCOUNT \(name)' needs what it is of: a product, a number of days or a transaction") }
            guard options.reason != nil else { throw CommandFailure.usage("'customer ACCOUNT \(name)' needs --reason: why support acts") }
            options.action = (name, rest[1])
        }
        return options
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
            if options.audit { return try audit(options, seller: seller, context: context) }
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
            if let action = options.action {
                guard match.matchedBy == .account else {
                    throw CommandFailure.usage("an action names its customer by account id ('\(match.account)' is the one '\(options.find)' finds)")
                }
                return try act(action, options: options, account: match.account, seller: seller, service: service, catalog: catalog, context: context)
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

    /// `grant`, `extend` or `refund` on `account`, recorded in the audit log as the operator's.
    static func act(
        _ action: (name: String, argument: String), options: Options, account: String, seller: SellerService, service: AccountService, catalog: Catalog,
        context: CommandContext
    ) throws -> ExitCode {
        let support: SupportAction
        switch action.name {
        case "grant": support = .grant(try ProductName(typed: action.argument).resolve(in: catalog), quantity: options.quantity)
        case "extend":
            guard let days = Int(action.argument), (1...90).contains(days) else { throw CommandFailure.usage("'extend' gives 1 to 90 days, not '\(action.argument.prefix(20))'") }
            support = .extend(days: days)
        default: support = .refund(try TransactionName(action.argument).resolve(in: try service.transactions()))
        }
        let key = options.key ?? UUID().uuidString.lowercased()
        let admin = "cli:" + (context.environment["USER"].flatMap { $0.isEmpty ? nil : String($0.prefix(60)) } ?? "operator")
        let outcome = try seller.act(support, on: account, reason: options.reason ?? "", by: admin, requestKey: key, service: service, now: context.clock.now())
        context.out(TerminalText(escaping: outcome.prefix(1).uppercased() + outcome.dropFirst() + "."))
        if case .grant = support, options.key == nil { context.error(TerminalText(escaping: "Its key is \(key): the same command with --key \(key) is the same grant.")) }
        return .ok
    }

    /// `--audit`: the actions taken, newest first (of the customer `FIND` names, when it names one).
    static func audit(_ options: Options, seller: SellerService, context: CommandContext) throws -> ExitCode {
        var account: String?
        if !options.find.isEmpty {
            let matches = try seller.findCustomers(options.find)
            guard matches.count == 1, let match = matches.first else { throw CommandFailure.usage("'\(options.find)' names \(matches.count) customers: name one by account id") }
            account = match.account
        }
        let actions = try seller.directory.actions(account: account, before: nil, limit: 200)
        if options.json {
            context.out(JSONText.encode(actions))
            return .ok
        }
        if actions.isEmpty { context.out(TerminalText(escaping: "No action was taken on \(account.map { "customer " + $0 } ?? "any customer").")) }
        for action in actions {
            context.out(TerminalText(escaping: "\(StoreText.date(action.date))  \(action.admin)  \(action.action) \(action.subject) for \(action.account): \(action.reason) -> \(action.outcome)"))
        }
        return .ok
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
            // A pack a subscription opens is held while it lasts, from no date of its own.
            let since = held.grantedDate > 0 ? "since \(StoreText.date(held.grantedDate))" : "while the subscription lasts"
            let state = held.revokedDate.map { "taken back \(StoreText.date($0))" } ?? since
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
