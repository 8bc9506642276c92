import CivilCalendar
import Messages
import PackServiceAPI
import TerminalText

/// `hangman refund request|status <TX>`: the customer's side of a refund (StoreKit's
/// `beginRefundRequest`); the App Store's side is `hangman store refund-decision`.
enum RefundCommand: Command {
    static let spec = CommandSpec(
        name: "hangman refund",
        overview: "Ask the App Store for a refund of a purchase, and see where the request stands.",
        usage: ["hangman refund request <TX> [--reason <REASON>]", "hangman refund [status] <TX> [--json]"],
        takesWords: true,
        options: [
            .init(
                names: ["--reason"], value: "REASON",
                help: "Why: unintended-purchase, fulfillment-issue, unsatisfied, legal or other (the default). The developer's server reads it in CONSUMPTION_REQUEST.",
                kind: .choice(RefundReason.allCases.map(\.argument))),
            .init(names: ["--json"], value: nil, help: "Print the request as one JSON document."),
        ] + HomeContext.options,
        subcommands: [
            ("request <TX>", "Ask for a refund of a delivered purchase. The developer's server hears CONSUMPTION_REQUEST and may say how the purchase was used; then the App Store decides (in the sandbox: 'hangman store refund-decision')."),
            ("status <TX>", "Where the purchase's refund stands: requested, granted, declined or reversed."),
        ],
        discussion: """
            <TX> is a transaction's id as 'hangman transactions' shows it, or its first digits.
            Asking again while a request is open answers the same request. Exit status: 0 asked
            (or answered), 64 an unknown transaction or reason, 65 a purchase that cannot be
            refunded (not delivered, refunded already, or declined before).
            """)

    struct Options {
        var request: Bool
        var transaction: TransactionName
        var reason: RefundReason
        var json: Bool
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        var words = parsed.positionals[...]
        var request = false
        if words.first == "request" {
            request = true
            words = words.dropFirst()
        } else if words.first == "status" {
            words = words.dropFirst()
        }
        guard words.count == 1, let word = words.first else {
            throw CommandFailure.usage(L10n.text("'refund' takes request or status and one transaction (see 'hangman refund --help')"))
        }
        let reason = try parsed.value("--reason").map { (given: String) throws -> RefundReason in
            guard let reason = RefundReason(argument: given) else { throw CommandFailure.usage(L10n.text("--reason '%s' is not a refund reason", given.prefix(40))) }
            return reason
        }
        if !request, reason != nil { throw CommandFailure.usage(L10n.text("--reason goes with 'refund request'")) }
        return Options(request: request, transaction: try TransactionName(word), reason: reason ?? .other, json: parsed.has("--json"), store: HomeOptions(parsed))
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let store = try await HomeContext.open(options.store, context: context)
        let service = store.service
        let id = try options.transaction.resolve(in: try await service.transactions())
        let refundCase: RefundCase
        if options.request {
            refundCase = try await service.requestRefund(id, reason: options.reason)
        } else if let known = try await service.refundCase(id) {
            refundCase = known
        } else {
            context.out(TerminalText(escaping: L10n.text("Transaction %s has no refund: 'hangman refund request %s' asks for one.", id.number, id.number)))
            return .ok
        }
        if options.json {
            context.out(JSONText.encode(RefundCaseJSON(refundCase)))
            return .ok
        }
        let transaction = try await service.transactions().first { $0.id == id }
        let name = transaction.map { StoreText.productName($0.productID, catalog: store.catalog) } ?? "transaction \(id.number)"
        context.out(describe(refundCase, name: name, asked: options.request))
        return .ok
    }

    /// One line of where a refund stands.
    static func describe(_ refundCase: RefundCase, name: String, asked: Bool) -> TerminalText {
        let id = refundCase.transactionID.number
        switch refundCase.state {
        case .requested:
            let when = refundCase.requestedDate.map { " on \(StoreText.date($0))" } ?? ""
            return asked
                ? "Refund of \(name) (transaction \(id)) requested\(when): the App Store decides (in the sandbox: 'hangman store refund-decision \(id) grant|decline')."
                : "Refund of \(name) (transaction \(id)) requested\(when), not decided yet."
        case .granted: return "Refund of \(name) (transaction \(id)) granted\(on(refundCase.decidedDate))."
        case .declined: return "Refund of \(name) (transaction \(id)) declined\(on(refundCase.decidedDate))."
        case .reversed: return "Refund of \(name) (transaction \(id)) reversed\(on(refundCase.reversedDate)): the purchase counts again."
        }
    }

    private static func on(_ date: Int64?) -> String { date.map { " on \(StoreText.date($0))" } ?? "" }

    /// What a decision did, said as done.
    static func decided(_ outcome: RefundOutcome, catalog: Catalog, prices: PriceText) -> TerminalText {
        let transaction = outcome.transaction
        let name = StoreText.productName(transaction.productID, catalog: catalog)
        let price = transaction.price.map { prices.format($0) }
        switch outcome.refundCase.state {
        case .granted:
            let back = price.map { " (\($0) back)" } ?? ""
            let hints = outcome.hints > 0 ? "; \(outcome.hints) hints taken back" : ""
            return "Refund granted: \(name)\(back), transaction \(transaction.id.number)\(hints). (REFUND)"
        case .declined:
            return "Refund declined: \(name), transaction \(transaction.id.number) is unchanged. (REFUND_DECLINED)"
        case .reversed:
            let hints = outcome.hints > 0 ? "; \(outcome.hints) hints given back" : ""
            return "Refund reversed: \(name), transaction \(transaction.id.number) counts again\(hints). (REFUND_REVERSED)"
        case .requested:
            return describe(outcome.refundCase, name: name, asked: false)
        }
    }
}

/// A refund as `--json` prints it: the transaction by its number, dates in ISO 8601.
struct RefundCaseJSON: Encodable {
    var transactionID: String
    var state: String
    var reason: String?
    var requestedDate: String?
    var decidedDate: String?
    var reversedDate: String?
    var consumption: String?

    init(_ refundCase: RefundCase) {
        transactionID = refundCase.transactionID.number
        state = refundCase.state.rawValue
        reason = refundCase.reason?.rawValue
        requestedDate = refundCase.requestedDate.map { ISO8601.string($0) }
        decidedDate = refundCase.decidedDate.map { ISO8601.string($0) }
        reversedDate = refundCase.reversedDate.map { ISO8601.string($0) }
        consumption = refundCase.consumption
    }
}
