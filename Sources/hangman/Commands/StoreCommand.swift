import Device
import PackServiceAPI

/// `hangman store ...`: the test environment's switches and actions, like StoreKit Testing's.
enum StoreCommand: Command {
    static let spec = CommandSpec(
        name: "hangman store",
        overview: "Control the store's test environment: failures, ask to buy, interruptions, refunds.",
        usage: [
            "hangman store [status]",
            "hangman store fail-purchases|ask-to-buy|interrupt-purchases on|off",
            "hangman store approve|decline|resolve|refund <TX>",
            "hangman store payments on|off",
            "hangman store clear [--yes]",
            "hangman store reset",
        ],
        takesWords: true,
        options: [.init(names: ["--yes", "-y"], value: nil, help: "Clear without asking (needed without a terminal).")] + StoreContext.options,
        subcommands: [
            ("status", "Show the switches."),
            ("fail-purchases on|off", "Every purchase fails (exit 69)."),
            ("ask-to-buy on|off", "Every purchase waits for approval (exit 75)."),
            ("interrupt-purchases on|off", "Every purchase waits for the buyer to act (exit 75)."),
            ("approve <TX>", "Approve a deferred purchase: it is charged and delivered."),
            ("decline <TX>", "Decline a deferred purchase: it fails."),
            ("resolve <TX>", "Complete an interrupted purchase: it is charged and delivered."),
            ("refund <TX>", "Refund a purchase: the pack is revoked; refunded hints are taken back."),
            ("payments on|off", "Allow purchases on this device, or refuse every one (exit 69), like canMakePayments."),
            ("clear", "Delete the whole purchase history: transactions, packs owned, hints. Asks first, or needs --yes."),
            ("reset", "Turn every switch off."),
        ])

    static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
        let store = try await StoreContext.open(arguments, context: context)
        let service = store.service
        let catalog = store.catalog
        let words = arguments.positionals
        let switches = ["fail-purchases", "ask-to-buy", "interrupt-purchases"]
        if words.isEmpty || words == ["status"] {
            let controls = try await service.controls()
            context.out("fail-purchases       \(controls.failPurchases ? "on" : "off")")
            context.out("ask-to-buy           \(controls.askToBuy ? "on" : "off")")
            context.out("interrupt-purchases  \(controls.interruptPurchases ? "on" : "off")")
            let device = try Home(folder: store.home).openDevice()
            context.out("payments             \(try device.settings().paymentsAllowed ? "on" : "off")")
        } else if words.count == 2, switches.contains(words[0]) {
            let (name, value) = (words[0], words[1])
            guard value == "on" || value == "off" else { throw CommandFailure.usage("'store \(name)' takes on or off, not '\(value)'") }
            var controls = try await service.controls()
            switch name {
            case "fail-purchases": controls.failPurchases = value == "on"
            case "ask-to-buy": controls.askToBuy = value == "on"
            default: controls.interruptPurchases = value == "on"
            }
            try await service.setControls(controls)
            context.out("\(name) is \(value)")
        } else if words.count == 2, ["approve", "decline", "resolve", "refund"].contains(words[0]) {
            let (action, text) = (words[0], words[1])
            guard case .transactionID(let id) = try ValueKind.transactionID.convert(text, for: "<TX>") else { return .usage }
            switch action {
            case "approve":
                let transaction = try await service.approve(id)
                context.out("Approved: \(StoreText.transactionLine(transaction, catalog: catalog))")
            case "decline":
                let transaction = try await service.decline(id)
                context.out("Declined: \(StoreText.transactionLine(transaction, catalog: catalog))")
            case "resolve":
                let transaction = try await service.resolve(id)
                context.out("Resolved: \(StoreText.transactionLine(transaction, catalog: catalog))")
            default:
                let refund = try await service.refund(id)
                let name = StoreText.productName(refund.transaction.productID, catalog: catalog)
                if refund.transaction.isConsumable {
                    let balance = try await service.hintBalance()
                    context.out("Refunded \(name): \(refund.hintsTakenBack) hints taken back (of \(refund.transaction.hintsCredited)). Balance: \(balance) hints.")
                } else if catalog.product(refund.transaction.productID)?.feature != nil {
                    context.out("Refunded \(name): it is no longer owned.")
                } else {
                    context.out("Refunded \(name): the pack is revoked (buy it to play it again).")
                }
            }
        } else if words.first == "payments" {
            try SettingsCommand.setPayments(words.dropFirst(), device: try Home(folder: store.home).openDevice(), command: "store payments", context: context)
        } else if words == ["clear"] {
            if !arguments.has("--yes") {
                guard Question.canAsk(context) else {
                    throw CommandFailure.usage("'store clear' deletes every purchase, pack owned and hint: confirm with --yes")
                }
                guard Question.ask("Delete the whole purchase history (transactions, packs owned, hints)?", context: context) else {
                    context.out("Nothing was deleted.")
                    return .declined
                }
            }
            try await service.clear()
            context.out("The purchase history is empty.")
        } else if words == ["reset"] {
            try await service.reset()
            context.out("Every switch is off.")
        } else {
            throw CommandFailure.usage("unknown 'store' arguments: \(arguments.positionals.joined(separator: " ")) (see 'hangman store --help')")
        }
        return .ok
    }
}
