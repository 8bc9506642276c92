import Device
import PackServiceAPI

/// `hangman store ...`: the test environment's switches and actions, like StoreKit Testing's.
enum StoreCommand: Command {
    static let spec = CommandSpec(
        name: "hangman store",
        overview: "Control the store's test environment: failures, ask to buy, interruptions, refunds.",
        usage: [
            "hangman store [status]",
            "hangman store fail-purchases|ask-to-buy|interrupt-purchases|fail-renewals on|off",
            "hangman store clock [advance <DURATION>]",
            "hangman store approve|decline|resolve|refund <TX>",
            "hangman store refund-decision <TX> grant|decline|reverse",
            "hangman store payments on|off",
            "hangman store notify [<TYPE> [<SUBTYPE>]]",
            "hangman store clear [--yes]",
            "hangman store reset",
        ],
        takesWords: true,
        options: [.init(names: ["--yes", "-y"], value: nil, help: "Clear without asking (needed without a terminal).")] + HomeContext.options,
        subcommands: [
            ("status", "Show the switches."),
            ("fail-purchases on|off", "Every purchase fails (exit 69)."),
            ("ask-to-buy on|off", "Every purchase waits for approval (exit 75)."),
            ("interrupt-purchases on|off", "Every purchase waits for the buyer to act (exit 75)."),
            ("fail-renewals on|off", "Every renewal of a subscription fails: grace period, then billing retry."),
            ("clock", "Print the store's time (subscriptions renew and end by it)."),
            ("clock advance <DURATION>", "Move the store's time forward (ISO 8601: P1D, P3W, P1M, P2M3D, PT1H) and process what fell due, in order."),
            ("approve <TX>", "Approve a deferred purchase: it is charged and delivered."),
            ("decline <TX>", "Decline a deferred purchase: it fails."),
            ("resolve <TX>", "Complete an interrupted purchase: it is charged and delivered."),
            ("refund <TX>", "Refund a purchase: the pack is revoked; refunded hints are taken back. <TX> is an id as 'hangman transactions' shows it, Apple's form of it, or its first digits."),
            (
                "refund-decision <TX> <DECISION>",
                "Decide a refund as the App Store would. <DECISION>: grant a request ('hangman refund request' makes one; REFUND: the pack is revoked, hints taken back), decline it (REFUND_DECLINED), or reverse a granted refund (REFUND_REVERSED: what it took comes back, once)."
            ),
            ("payments on|off", "Allow purchases on this device, or refuse every one (exit 69), like canMakePayments."),
            (
                "notify <TYPE> [<SUBTYPE>]",
                "Cause the App Store Server Notification TYPE (SUBTYPE), in Apple's names, by the change it tells of: a purchase, a renewal, auto-renew turned off, a refund... Alone, lists them. On a pack server with --notification-url the backend hears it."
            ),
            ("clear", "Delete the whole purchase history: transactions, packs owned, hints. Asks first, or needs --yes."),
            ("reset", "Turn every switch off and set the store's clock back to the real time."),
        ])

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        if case .clear(confirmed: false) = options.action, !Question.canAsk(context) {
            throw CommandFailure.usage("'store clear' deletes every purchase, pack owned and hint: confirm with --yes")
        }
        let store = try await HomeContext.open(options.store, context: context)
        let service = store.service
        let catalog = store.catalog
        switch options.action {
        case .status:
            let controls = try await service.controls()
            context.out("fail-purchases       \(controls.failPurchases ? "on" : "off")")
            context.out("ask-to-buy           \(controls.askToBuy ? "on" : "off")")
            context.out("interrupt-purchases  \(controls.interruptPurchases ? "on" : "off")")
            context.out("fail-renewals        \(controls.failRenewals ? "on" : "off")")
            let device = try Home(folder: store.home).openDevice()
            context.out("payments             \(try device.settings().paymentsAllowed ? "on" : "off")")
        case .set(let name, let on):
            var controls = try await service.controls()
            switch name {
            case .failPurchases: controls.failPurchases = on
            case .askToBuy: controls.askToBuy = on
            case .interruptPurchases: controls.interruptPurchases = on
            case .failRenewals: controls.failRenewals = on
            }
            try await service.setControls(controls)
            context.out("\(name.rawValue) is \(on ? "on" : "off")")
        case .act(let action, let name):
            let id = try name.resolve(in: try await service.transactions())
            return try await act(action, id, service: service, catalog: catalog, context: context)
        case .decideRefund(let name, let decision):
            let id = try name.resolve(in: try await service.transactions())
            let outcome = try await service.decideRefund(id, decision)
            context.out(RefundCommand.decided(outcome, catalog: catalog, prices: PriceText(environment: context.environment)))
        case .clock(let advance):
            let before = try await service.storeClock()
            guard let advance else {
                context.out("The store's time is \(StoreText.date(before)).")
                return .ok
            }
            let moved = try await service.moveClock(by: advance)
            let renewals = moved.renewals
            context.out("The store's time is \(StoreText.date(moved.now)) (moved \(advance) from \(StoreText.date(before))).")
            if renewals > 0 { context.out("\(renewals) renewal\(renewals == 1 ? "" : "s") processed: see 'hangman subscriptions' and 'hangman transactions'.") }
        case .payments(let allowed):
            return try SettingsCommand.apply(.payments(allowed: allowed), json: false, device: try Home(folder: store.home).openDevice(), context: context)
        case .clear(let confirmed):
            if !confirmed, !Question.ask("Delete the whole purchase history (transactions, packs owned, hints)?", context: context) {
                context.out("Nothing was deleted.")
                return .declined
            }
            try await service.clear()
            context.out("The purchase history is empty.")
        case .notify(nil, _):
            context.out("'hangman store notify TYPE [SUBTYPE]' causes, by the change it tells of:")
            for cause in NotificationCause.causes { context.outWrapped("- \(cause.name.replacing("/", with: " ")): \(cause.change)") }
            context.out("Caused otherwise (store notify refuses them, exit 65):")
            for (name, how) in NotificationCause.causedElsewhere.sorted(by: { $0.key < $1.key }) {
                context.outWrapped("- \(name.replacing("/", with: " ")): \(how)")
            }
        case .notify(let type?, let subtype):
            let cause = try await service.causeNotification(type, subtype: subtype)
            let told = cause.name.replacing("/", with: " ")
            context.outWrapped("\(told): \(cause.change)\(cause.transactionID.map { " (transaction \($0.number))" } ?? "").")
            // A store that is its own seller (the embedded one) has no backend to tell.
            if await service.ownSharedSecret() != nil {
                context.outWrapped("This store sends no notifications: a pack server with --notification-url tells its backend.")
            }
        case .reset:
            try await service.reset()
            context.out("Every switch is off, and the store's time is the real time again (\(StoreText.date(try await service.storeClock()))).")
        }
        return .ok
    }

    /// What a parent, the buyer or the store does to one transaction, said as done.
    static func act(
        _ action: TransactionAction, _ id: TransactionID, service: any PackService & StoreTestControls, catalog: Catalog, context: CommandContext
    ) async throws -> ExitCode {
        switch action {
        case .approve: context.out("Approved: \(StoreText.transactionLine(try await service.approve(id), catalog: catalog))")
        case .decline: context.out("Declined: \(StoreText.transactionLine(try await service.decline(id), catalog: catalog))")
        case .resolve: context.out("Resolved: \(StoreText.transactionLine(try await service.resolve(id), catalog: catalog))")
        case .refund:
            let refund = try await service.refund(id)
            // The refund is what the purchase charged, in the currency it was charged in.
            let refunded = refund.transaction.price.map { " (\(PriceText(environment: context.environment).format($0)) back)" } ?? ""
            let name = StoreText.productName(refund.transaction.productID, catalog: catalog) + refunded
            if refund.transaction.originalTransactionID != nil {
                let balance = try await service.hintBalance()
                context.out("Refunded \(name): its access ended now; \(refund.hintsTakenBack) hints taken back (of \(refund.transaction.hintsCredited)). Balance: \(balance) hints.")
            } else if refund.transaction.isConsumable {
                let balance = try await service.hintBalance()
                context.out("Refunded \(name): \(refund.hintsTakenBack) hints taken back (of \(refund.transaction.hintsCredited)). Balance: \(balance) hints.")
            } else if catalog.product(refund.transaction.productID)?.feature != nil {
                context.out("Refunded \(name): it is no longer owned.")
            } else {
                context.out("Refunded \(name): the pack is revoked (buy it to play it again).")
            }
        }
        return .ok
    }
}
