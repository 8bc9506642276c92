import Device
import PackServiceAPI

/// `hangman redeem CODE`: StoreKit's offer code redemption sheet.
enum RedeemCommand: Command {
    static let spec = CommandSpec(
        name: "hangman redeem",
        overview: "Redeem an offer code the seller gave you: its pack, hints or feature free, or its subscription offer.",
        usage: ["hangman redeem <CODE>"],
        arguments: [.init(name: "<CODE>", help: "The code as the seller gave it: 16 letters and digits, in either case, spaces or dashes allowed.")],
        options: HomeContext.options,
        discussion: """
            Each code is redeemed once, by one account; redeeming it again on the same account
            says what it gave. A code for a subscription starts it under the code's offer (a free
            or a cheaper first period, as 'hangman subscriptions' then says) and renews at the
            plan's price. A code that has expired, is for a pack you own already, or for a
            subscription group you have live is refused and stays good for later.
            Exit status: 0 redeemed (or redeemed before by this account); 64 not a code, or no
            such code at this store; 65 expired, redeemed by another account, or not for this
            account now; 69 the code's product is no longer sold, or purchases are off.
            """)

    static func options(_ parsed: ParsedArguments) throws -> (code: String, store: HomeOptions) {
        (try parsed.required(parsed.value("<CODE>"), "<CODE>", of: "redeem"), HomeOptions(parsed))
    }

    static func run(_ options: (code: String, store: HomeOptions), context: CommandContext) async throws -> ExitCode {
        let session = try await PlayerContext.open(options.store, context: context, starting: false)
        let catalog = session.catalog
        let result = try await session.player.redeem(offerCode: options.code) { id in ProgressBar.forInstall(of: id, catalog: catalog, context: context) }
        if !session.started { try await session.start(context: context) }
        switch result {
        case .purchased(let transaction, _), .failed(let transaction), .deferred(let transaction), .interrupted(let transaction):
            return try await BuyCommand.tell(result, of: transaction.productID, asking: false, redeemed: true, session: session, context: context)
        case .alreadyOwned(let entitlement, _):
            return try await BuyCommand.tell(result, of: entitlement.productID, asking: false, redeemed: true, session: session, context: context)
        case .alreadySubscribed(let status), .changeScheduled(let status):
            return try await BuyCommand.tell(result, of: status.productID, asking: false, redeemed: true, session: session, context: context)
        }
    }
}
