import Device
import PackServiceAPI

/// What `hangman store` is asked: a switch, an action on a transaction, the clock, clear, reset.
extension StoreCommand {
    /// A switch of the test environment.
    enum Switch: String, CaseIterable {
        case failPurchases = "fail-purchases", askToBuy = "ask-to-buy", interruptPurchases = "interrupt-purchases"
        case failRenewals = "fail-renewals"
    }

    /// What a parent, the buyer or the store does to one transaction.
    enum TransactionAction: String, CaseIterable {
        case approve, decline, resolve, refund
    }

    enum Action {
        case status
        case set(Switch, Bool)
        case act(TransactionAction, TransactionName)
        case decideRefund(TransactionName, RefundDecision)
        case payments(allowed: Bool)
        case clock(advance: StoreClockStep?)
        case clear(confirmed: Bool)
        case reset
        /// `store notify` alone lists what it causes.
        case notify(type: String?, subtype: String?)
    }

    struct Options {
        var action: Action
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        let words = parsed.positionals
        let action: Action
        if words.isEmpty || words == ["status"] {
            action = .status
        } else if words.count == 2, let name = Switch(rawValue: words[0]) {
            guard case .toggle(let on) = try ValueKind.toggle.convert(words[1], for: "'store \(name.rawValue)'") else { throw CommandFailure.usage("'store \(name.rawValue)' takes on or off") }
            action = .set(name, on)
        } else if words.count == 2, let act = TransactionAction(rawValue: words[0]) {
            action = .act(act, try TransactionName(words[1]))
        } else if words.first == "refund-decision" {
            guard words.count == 3, let decision = RefundDecision(rawValue: words[2]) else {
                throw CommandFailure.usage("'store refund-decision' takes a transaction and grant, decline or reverse (see 'hangman store --help')")
            }
            action = .decideRefund(try TransactionName(words[1]), decision)
        } else if words.first == "payments" {
            guard case .payments(let allowed) = try SettingsCommand.action(words[...], command: "store") else { throw CommandFailure.usage("'store payments' takes on or off") }
            action = .payments(allowed: allowed)
        } else if words == ["clock"] {
            action = .clock(advance: nil)
        } else if words.count == 3, words[0] == "clock", words[1] == "advance" {
            guard let duration = StoreClockStep(iso: words[2].uppercased()) else {
                throw CommandFailure.usage("'store clock advance' takes an ISO 8601 duration (\(StoreClockStep.examples)), not '\(words[2])'")
            }
            action = .clock(advance: duration)
        } else if words == ["clear"] {
            action = .clear(confirmed: parsed.has("--yes"))
        } else if words == ["reset"] {
            action = .reset
        } else if words.first == "notify", words.count <= 3 {
            action = .notify(type: words.dropFirst().first, subtype: words.count == 3 ? words[2] : nil)
        } else {
            throw CommandFailure.usage("unknown 'store' arguments: \(words.joined(separator: " ")) (see 'hangman store --help')")
        }
        return Options(action: action, store: HomeOptions(parsed))
    }
}
