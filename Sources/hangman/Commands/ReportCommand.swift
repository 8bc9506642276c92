import CivilCalendar
import PackServer
import PackServiceAPI
import PackServiceWire
import SalesReports
import Seller
import SystemCalls
import TerminalText

/// `hangman report`: the seller's overview in the terminal.
enum ReportCommand: Command {
    static let spec = CommandSpec(
        name: "hangman report",
        overview: "The seller's overview: revenue, refunds and net per currency with a line per day, units per product, the subscriptions and the players, from a pack server's ledgers.",
        usage: [
            "hangman report --data <DIR> [--database <URL>] [--days <N>] [--storefront <CODE>] [--json]",
            "hangman report --data <DIR> [--database <URL>] --check | --rebuild",
        ],
        options: [
            .init(names: ["--data"], value: "DIR", help: "The pack server's data folder ('serve --data'): its SQLite ledgers, unless --database names others."),
            .init(names: ["--database"], value: "URL", help: "The ledgers 'serve --database' uses: postgresql://... (or libpq's key=value), or a folder of SQLite ledgers."),
            .init(names: ["--days"], value: "N", help: "The days reported, up to today (UTC) included: 1 to 3660 (default 30).", kind: .integer(1...3660)),
            .init(names: ["--storefront"], value: "CODE", help: "One storefront's sales only (USA, DEU, JPN, ...); default every one."),
            .init(names: ["--json"], value: nil, help: "Print one JSON document (amounts in minor units)."),
            .init(names: ["--check"], value: nil, help: "Compare the numbers the ledgers keep with a sum of every transaction; 65 when they differ."),
            .init(names: ["--rebuild"], value: nil, help: "Make the kept numbers again from every transaction (after --check found a difference)."),
            HomeContext.packsOption,
        ],
        discussion: """
            Amounts are never converted between currencies: each currency has its own line. Revenue
            is what purchases charged on each day (free trials charge nothing), refunds what came back
            on each day (the unused part of an upgraded plan, or the whole), net the difference. The
            line per day is a sparkline (plain digits 0-7 under TERM=dumb), a column per day, or per
            a few days when the range is longer than 30. Products are named from the packs folder's
            catalog. Read only: the server may keep running.

            The numbers are kept per day and product in each ledger, changed in the same database
            transaction as every purchase and refund, so a report reads the days it shows and never
            every transaction. --check sums every transaction again and names the kept rows that
            differ (at most 20 per ledger); --rebuild makes them again, while servers run (on
            PostgreSQL, purchases wait for it; on SQLite, one ledger at a time). Exit status: 0,
            64 a wrong option, 65 --check found a difference, 66 no such data folder, 69 the
            database cannot be reached, 74 a ledger cannot be read.
            """)

    struct Options {
        var data: String?
        var database: String?
        var days: Int
        var storefront: String?
        var json: Bool
        var packs: String?
        var check = false
        var rebuild = false
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        let options = Options(
            data: parsed.value("--data"), database: parsed.value("--database"), days: parsed.integer("--days") ?? 30,
            storefront: parsed.value("--storefront").map { $0.uppercased() }, json: parsed.has("--json"), packs: parsed.value("--packs"),
            check: parsed.has("--check"), rebuild: parsed.has("--rebuild"))
        if options.check && options.rebuild { throw CommandFailure.usage("--check and --rebuild are two runs: check first, then rebuild") }
        if options.data == nil && options.database == nil {
            throw CommandFailure.usage("'report' needs --data <DIR> (or --database <URL>): the pack server's ledgers")
        }
        return options
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        if options.check || options.rebuild { return try maintain(options, context: context) }
        let catalog: Catalog
        do {
            catalog = try Catalog.load(folder: try EmbeddedStore.packsFolder(options.packs, context: context))
        } catch let error as CatalogError {
            throw error.isMissing ? CommandFailure.missing(error.description) : CommandFailure.invalid(error.description)
        }
        do {
            try SellerNumbers.check(storefront: options.storefront, in: catalog)
        } catch {
            throw CommandFailure.usage("--storefront: " + error.message)
        }
        let now = context.clock.now()
        let today = UTCDateTime.day(ofMilliseconds: now)
        let ledgers = try ledgers(options)
        let firstDay = today - Int64(options.days) + 1
        let report: WithKey<SalesOverview, PlayersOverview>
        do {
            let numbers = try SellerNumbers(ledgers, catalog: catalog, firstDay: firstDay, lastDay: today, storefront: options.storefront, now: now, players: true)
            report = WithKey(numbers.sales, "players", numbers.players ?? PlayersOverview([], accountsMade: [:], firstDay: firstDay, lastDay: today))
        } catch {
            throw error.kind == .unavailable ? CommandFailure(code: .storeRefused, message: error.message) : CommandFailure.storage(error.message)
        }
        if options.json {
            context.out(JSONText.encode(report))
            return .ok
        }
        for line in ReportText.lines(report, days: options.days, prices: PriceText(environment: context.environment), dumb: context.environment["TERM"] == "dumb") {
            context.out(TerminalText(escaping: line))
        }
        return .ok
    }

    /// `--check` or `--rebuild`: the kept numbers against a sum of every transaction.
    static func maintain(_ options: Options, context: CommandContext) throws -> ExitCode {
        let ledgers = try ledgers(options)
        do {
            if options.rebuild {
                try ledgers.rebuildSalesAggregates()
                context.out(TerminalText(escaping: "The kept numbers were made again from every transaction."))
                return .ok
            }
            let differences = try ledgers.salesAggregateDifferences()
            guard !differences.isEmpty else {
                context.out(TerminalText(escaping: "The kept numbers are a sum of every transaction."))
                return .ok
            }
            context.error(TerminalText(escaping: "These kept rows differ from a sum of every transaction (\(SalesAggregates.keys.joined(separator: " ")) \(SalesAggregates.sums.joined(separator: " "))):"))
            for line in differences { context.error(TerminalText(escaping: "  " + line)) }
            context.error(TerminalText(escaping: "Run 'hangman report --rebuild' with the same options to make them again."))
            return .dataError
        } catch {
            throw error.kind == .unavailable ? CommandFailure(code: .storeRefused, message: error.message) : CommandFailure.storage(error.message)
        }
    }

    /// The ledgers the options name.
    static func ledgers(_ options: Options) throws -> SalesLedgers {
        let ledgers: SalesLedgers
        switch options.database.map({ LedgerDatabase(argument: $0) }) {
        case .some(nil):
            throw CommandFailure.usage("--database takes postgresql://..., a libpq 'key=value' string or a folder of SQLite ledgers, not '\(options.database ?? "")'")
        case .some(.postgreSQL(let connection)):
            do {
                ledgers = .postgreSQL(try PostgreSQLLedgers(connectionString: connection, connections: 1))
            } catch {
                throw CommandFailure(code: .storeRefused, message: "the ledger database is unavailable: \(error.message)")
            }
        case .some(.sqlite(let folder)):
            ledgers = .sqlite(folder: folder ?? options.data ?? ".")
        case nil:
            let data = options.data ?? "."
            guard FileSystem.exists(atPath: data) else { throw CommandFailure.missing("no such data folder '\(data)' (--data)") }
            ledgers = .sqlite(folder: data)
        }
        return ledgers
    }
}
