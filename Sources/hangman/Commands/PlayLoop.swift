import Device
import HangmanGame
import PackServiceAPI
import WordPacks

/// The conversation of `hangman play`: read a line, play it, draw the result; game after game.
struct PlayLoop {
    let deviceContext: DeviceContext
    let screen: GameScreen
    let reader: LineReader
    let packs: [InstalledPack]
    let category: String?
    let lives: Int

    var service: any PackService { deviceContext.store.service }

    /// The consumable the game offers when hints run out.
    var hintProduct: Product? { deviceContext.catalog.hintOffer }

    func run(fresh: Bool, generator: inout SeededGenerator) async throws -> ExitCode {
        var fresh = fresh
        // This process's slot for the whole session: no other process plays (and pays hints for) its games.
        let seat = try deviceContext.device.takeSeat()
        if seat.passedOverSavedGame && !fresh {
            screen.context.error("Your saved game is open in another 'hangman play': this is a new game beside it.")
        }
        while true {
            let started: GameSession?
            do {
                started = try GameSession.start(
                    device: deviceContext.device, service: service, seat: seat, packs: packs, category: category, lives: lives, fresh: fresh,
                    clock: deviceContext.player.clock, using: &generator)
            } catch {
                throw CommandFailure(code: .ioError, message: error.message)
            }
            guard let session = started else {
                if let category { throw CommandFailure.usage("no words in category '\(category)' of the chosen packs") }
                throw CommandFailure(code: .notEntitled, message: "no words installed: run 'hangman restore' or 'hangman install <PRODUCT_ID>'")
            }
            fresh = false
            switch try await play(session, generator: &generator) {
            case .saved(let code): return code
            case .finished:
                screen.end(session)
                try screen.context.checkWrites()
                switch reader.nextLine() {
                case .line(let answer) where ["", "y", "yes"].contains(answer.lowercased().trimmingSpaces):
                    continue
                case .interrupted:
                    screen.say("", plain: "")
                    return .interrupted
                default:
                    return .ok
                }
            }
        }
    }

    enum Ending { case finished, saved(ExitCode) }

    private func play(_ session: GameSession, generator: inout SeededGenerator) async throws -> Ending {
        screen.begin(session, hints: await balance())
        var event: TerminalText? = session.isResumed ? "Resuming your unfinished game (play --new starts over)." : nil
        var eventPlain: TerminalText?
        while session.game.status == .playing {
            screen.show(session, hints: await balance(), event: event, eventPlain: eventPlain)
            screen.prompt()
            // Output that no longer reaches anyone ends the game: no hint is spent unseen.
            try screen.context.checkWrites()
            let input = reader.nextLine()
            let text: String
            switch input {
            case .line(let line): text = line.trimmingSpaces
            case .endOfInput, .interrupted:
                screen.say(input == .interrupted ? "\n  Game saved: run 'hangman play' to resume it." : "Game saved: run 'hangman play' to resume it.", plain: "SAVED")
                return .saved(input == .interrupted ? .interrupted : .ok)
            }
            (event, eventPlain) = try await handle(text, session: session, generator: &generator)
            if text.lowercased() == "quit" {
                screen.say("Game saved: run 'hangman play' to resume it.", plain: "SAVED")
                return .saved(.ok)
            }
        }
        screen.show(session, hints: await balance(), event: event, eventPlain: eventPlain)
        return .finished
    }

    /// Plays one line of input; returns the message for a terminal and the line for plain output.
    private func handle(_ text: String, session: GameSession, generator: inout SeededGenerator) async throws -> (TerminalText?, TerminalText?) {
        switch text.lowercased() {
        case "quit":
            return (nil, nil)
        case "help":
            let help: TerminalText = "Type a letter, or the whole word. ? or hint reveals a letter for one hint; buy buys hints; quit saves and leaves."
            return (help, "HELP \(help)")
        case "?", "hint":
            let outcome: GameSession.HintOutcome
            do {
                outcome = try await session.hint(using: &generator)
            } catch {
                throw CommandFailure(code: .ioError, message: error.message)
            }
            switch outcome {
            case .revealed(let letter, let balance):
                return ("Hint: '\(letter)' revealed. \(balance) hint\(balance == 1 ? "" : "s") left.", "HINT \(letter)")
            case .noHints:
                let offer: TerminalText = hintProduct.map { "Type buy to get \($0.displayName) for \($0.price)." } ?? ""
                return ("No hints left. \(offer)", "NOHINTS \(hintProduct?.id.rawValue ?? "-")")
            case .notNow:
                return ("No hint now: only one letter is left to find.", "INVALID no hint when one letter is left")
            case .serviceUnavailable(let reason):
                return ("A hint needs the pack server, which cannot be reached now (\(reason)). Nothing was spent; play on.", "NOSERVICE")
            }
        case "buy":
            return await buyHints()
        default:
            switch try session.guess(text) {
            case .hit(let letter, let count): return ("Yes! '\(letter)' is there \(count == 1 ? "once" : "\(count) times").", "HIT \(letter) \(count)")
            case .miss(let letter): return ("No '\(letter)'.", "MISS \(letter)")
            case .solved: return ("Solved!", "SOLVED")
            case .wrongWord(let word): return ("'\(word)' is not the word.", "WRONG \(word)")
            case .repeated(let guess): return ("You already tried '\(guess)': it costs nothing.", "REPEAT \(guess)")
            case .invalid(let why): return ("\(why.prefix(1).uppercased() + why.dropFirst()).", "INVALID \(why)")
            case .gameOver: return (nil, nil)
            }
        }
    }

    /// Buys the smallest hint product through the normal purchase flow.
    private func buyHints() async -> (TerminalText?, TerminalText?) {
        guard let product = hintProduct else { return ("This store sells no hints.", "BUYFAILED no hint product") }
        do {
            switch try await service.buy(product.id, quantity: 1) {
            case .purchased(let transaction):
                return ("Bought \(product.displayName) for \(product.price): +\(transaction.hintsCredited) hints.", "BOUGHT \(transaction.hintsCredited)")
            case .failed(let transaction):
                return ("The purchase failed: \(transaction.failureReason ?? "refused").", "BUYFAILED \(transaction.failureReason ?? "refused")")
            case .deferred(let transaction):
                return ("Waiting for approval (transaction \(transaction.id)).", "BUYFAILED waiting for approval \(transaction.id)")
            case .interrupted(let transaction):
                return ("The purchase needs your action: hangman store resolve \(transaction.id).", "BUYFAILED interrupted \(transaction.id)")
            case .alreadyOwned:
                return (nil, nil)
            }
        } catch {
            return ("The purchase failed: \(error.message)", "BUYFAILED \(error.message)")
        }
    }

    private func balance() async -> Int {
        (try? await service.hintBalance()) ?? 0
    }
}

extension String {
    var trimmingSpaces: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
