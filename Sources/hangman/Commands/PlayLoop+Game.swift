import Device
import Messages
import PackServiceAPI
import TerminalText

/// One game on the screen: its moves until it ends or is saved.
extension PlayLoop {
    /// How a game ended: finished (with the free tier's suggestion, if any), or saved.
    enum Ending { case finished(GameView, suggestion: PackSuggestion.Line?), saved(ExitCode) }

    func play(_ session: any PlayedGame, generator: inout SeededGenerator) async throws -> Ending {
        await readHints()
        screen.begin(session, hints: hints?.hints, offline: hints.map { !$0.isCurrent } ?? true)
        var opening: [String] = []
        if session.isResumed {
            opening.append(
                daily ? L10n.text("Resuming today's word.") : challenge != nil ? L10n.text("Resuming your game of the challenge.")
                    : session.servedID != nil ? L10n.text("Resuming your unfinished game, kept on the server (play --new starts over).")
                    : L10n.text("Resuming your unfinished game (play --new starts over)."))
        }
        if let offline = hints?.offline ?? hintsFailure { opening.append(Self.offlineLine(offline)) }
        let day = (session as? ServedSession)?.game.daily
        let hard = (session as? ServedSession)?.game.hard == true
        let challenged = (session as? ServedSession)?.game.challenge != nil
        var view = GameView(
            game: session.board, packName: day.map { L10n.text("Daily word %s", $0) } ?? session.packName,
            category: (day == nil ? session.category + (challenged ? " · " + L10n.text("challenge") : "") : session.packName)
                + (hard ? " · " + L10n.text("hard mode") : ""),
            hints: nil,
            event: opening.isEmpty ? nil : opening.joined(separator: " "), theme: theme, palette: palette)
        var eventPlain: TerminalText?
        showWaitsOnBoard()
        while session.board.status == .playing {
            view.game = session.board
            showHints(in: &view)
            screen.show(view, eventPlain: eventPlain)
            shownView = view
            screen.prompt()
            // Output that no longer reaches anyone ends the game: no hint is spent unseen.
            try screen.context.checkWrites()
            let move = nextMove(view)
            switch move {
            case .endOfInput, .interrupted, .quit:
                if screen.style == .plain { screen.context.out("SAVED") }
                leaveScreen()
                if screen.style == .text && move != .quit { screen.context.out("") }
                if screen.style != .plain {
                    screen.context.out(
                        TerminalText(
                            escaping: daily ? L10n.text("Today's word is kept on the server: 'hangman play --daily' resumes it, on any device of the account.")
                                : challenge != nil
                                    ? L10n.text("Your game of the challenge is kept on the server: 'hangman play --challenge %s' resumes it.", challenge?.prefix(8) ?? "")
                                : session.servedID != nil ? L10n.text("Game kept on the server: 'hangman play' resumes it, on any device of the account.")
                                : L10n.text("Game saved: run 'hangman play' to resume it.")))
                }
                return .saved(move == .interrupted ? .interrupted : .ok)
            default:
                let (event, plainLine) = try await handle(move, session: session, view: view, generator: &generator)
                view.event = event?.text
                eventPlain = plainLine
            }
        }
        view.game = session.board
        showHints(in: &view)
        let suggestion = await PackSuggestion(player: playerContext.player, prices: PriceText(environment: screen.context.environment))
            .line(afterGame: tally.played)
        if screen.isFullScreen {
            view.event = ([view.event].compactMap { $0 } + GameLayout.verdict(session.board) + [suggestion?.text.text].compactMap { $0 })
                .joined(separator: "\n")
        }
        screen.show(view, eventPlain: eventPlain)
        return .finished(view, suggestion: suggestion)
    }

    /// The session's games, on the shell's screen after it.
    func summarize() {
        if tally.played > 0 {
            let games = L10n.plural("%d game", "%d games", tally.played)
            screen.context.out(TerminalText(escaping: L10n.text("This session: %s, %d won, %d lost, %d points.", games, tally.won, tally.lost, tally.score)))
        }
    }

    /// A hint (or a purchase) that waits because the pack server asks for it says so on the
    /// board, not on standard error under it; plain output says nothing there (its readers parse it).
    func showWaitsOnBoard() {
        guard screen.style != .plain else { return }
        let client = playerContext.store.service
        let board = BoardNotice(loop: self)
        client.observe { event in
            guard case .waiting(let seconds, _, let reason) = event else { return }
            board.say("Waiting \(seconds) s for the pack server: \(reason)")
        }
    }
}

/// The loop's board, for a notice from the pack server's client. The client calls it only from
/// inside a request the loop is awaiting, never beside the loop's own drawing.
private final class BoardNotice: @unchecked Sendable {
    unowned let loop: PlayLoop

    init(loop: PlayLoop) { self.loop = loop }

    func say(_ text: String) {
        guard var view = loop.shownView else { return }
        view.event = text
        loop.screen.show(view, eventPlain: nil)
    }
}
