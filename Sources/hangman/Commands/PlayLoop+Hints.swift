import Device
import Messages
import PackServiceAPI
import TerminalText

/// The game's hints: the balance in the header, and buying more with `$` during a game.
extension PlayLoop {
    /// A product's price in the account's storefront, as the player's locale writes it; when the
    /// storefront cannot be read, the price is said to be unknown (never another storefront's).
    func price(of product: Product) async -> String {
        guard let storefront = try? await playerContext.player.storefront() else { return "a price the store cannot tell now" }
        return PriceText(environment: screen.context.environment).format(product, storefront: storefront) ?? "-"
    }

    /// Buys the smallest hint product through the player's purchase flow (which refuses when
    /// purchases are turned off), after asking on a terminal: the price, then y to buy.
    func buyHints(asking view: GameView, confirmed: Bool) async -> (TerminalText?, TerminalText?) {
        // An answer given without a question is dismissed by a key of its own (`dismiss`).
        func unasked(_ message: TerminalText, _ plain: TerminalText) -> (TerminalText?, TerminalText?) {
            dismiss(message, view)
            return (message, plain)
        }
        guard let product = hintProduct else { return unasked("This store sells no hints.", "BUYFAILED no hint product") }
        let price = await price(of: product)
        // Offline, or purchases turned off: the player session says so before anything is asked.
        do {
            _ = try await playerContext.player.offer(product.id)
        } catch .store(let error) where error.kind == .unavailable {
            return unasked(TerminalText(escaping: L10n.text("Not bought: %s.", error.message)), "BUYFAILED offline")
        } catch {
            return unasked(TerminalText(escaping: L10n.text("Not bought: %s.", error.description)), "BUYFAILED \(error.description)")
        }
        if !confirmed {
            switch confirmBuying(L10n.text("Buy %s for %s? [y/N]", ReaderLocale.current.name(of: product), price), view) {
            case true?: break
            case false?: return (TerminalText(escaping: L10n.text("Not bought: nothing was charged.")), "BUYFAILED declined")
            case nil:
                return (
                    TerminalText(escaping: L10n.text("Not bought: nothing asks through a pipe. Type buy! to buy, or run 'hangman play --yes'.")),
                    "BUYFAILED unconfirmed: type buy! or run 'hangman play --yes'")
            }
        }
        do {
            switch try await playerContext.player.buy(product.id, quantity: 1) {
            case .purchased(let transaction, _):
                await readHints()
                return (
                    TerminalText(escaping: L10n.text("Bought %s for %s:", ReaderLocale.current.name(of: product), price) + " " + L10n.plural("+%d hint.", "+%d hints.", transaction.hintsCredited)),
                    "BOUGHT \(transaction.hintsCredited)"
                )
            case .failed(let transaction):
                return (TerminalText(escaping: L10n.text("The purchase failed: %s.", transaction.failureReason ?? L10n.text("refused"))), "BUYFAILED \(transaction.failureReason ?? "refused")")
            case .deferred(let transaction):
                return (TerminalText(escaping: L10n.text("Waiting for approval (transaction %s).", transaction.id.number)), "BUYFAILED waiting for approval \(transaction.id.number)")
            case .interrupted(let transaction):
                return (TerminalText(escaping: L10n.text("The purchase needs your action: hangman store resolve %s.", transaction.id.number)), "BUYFAILED interrupted \(transaction.id.number)")
            case .alreadyOwned, .alreadySubscribed, .changeScheduled:
                return (nil, nil)
            }
        } catch {
            return (TerminalText(escaping: L10n.text("The purchase failed: %s", error.description)), "BUYFAILED \(error.description)")
        }
    }

    func readHints() async {
        do {
            hints = try await player.hintCount()
            hintsFailure = nil
        } catch .store(let error) {
            hintsFailure = error
        } catch {
            hintsFailure = ServiceError(.storage, error.description)
        }
    }

    func showHints(in view: inout GameView) {
        view.hints = hints?.hints
        guard let hints, hints.isCurrent else {
            // The time fits the header when it is today's: `Hints: 99 (14:02 UTC, offline)`.
            let time = hints?.signedAt.map { StoreText.shortTime($0, now: playerContext.player.clock.now()) }
            let offline = L10n.text("offline")
            view.hintsNote = time.map { $0.count <= 9 ? L10n.text("%s, offline", $0) : offline } ?? offline
            return
        }
        view.hintsNote = nil
    }

    /// The board's line when a game opens without the pack server.
    static func offlineLine(_ error: ServiceError) -> String {
        switch error.kind {
        case .unavailable: L10n.text("The pack server cannot be reached: hints and purchases wait for it, and the packs installed here play.")
        case .unauthorized:
            L10n.text(
                "This device is signed out (its token revoked, or the account closed): the free packs installed here play, without hints; 'hangman hints' says what to do.")
        default: L10n.text("The hint balance cannot be read: %s.", error.message)
        }
    }
}
