import Device
import HangmanGame
@testable import hangman
import Testing
import TestSupport
import WordPacks

/// The game's screen and the progress bar laid out for a width: nothing longer than it.
@Suite struct ScreenLayoutTests {
    static func view(word: String = "extraordinarily", clue: String? = "More than ordinary, in a way that is hard to believe at first") -> GameView {
        var game = Game(word: word, clue: clue, language: "en", lives: 6)
        game.guess("e")
        game.guess("q")
        return GameView(game: game.board, packName: "A Pack With A Rather Long Display Name", category: "Very Long Words Indeed", hints: 12, event: "Yes! 'e' is there once.")
    }

    @Test(arguments: [20, 40, 41, 60, 80, 120, 200, 300])
    func everyLineFits(width: Int) {
        var entry = Self.view()
        entry.entry = String(repeating: "x", count: 60)
        for view in [Self.view(), entry, Self.view(word: String(repeating: "ab", count: 20), clue: nil)] {
            for line in GameLayout.lines(view, width: width) {
                #expect(line.text.count <= width, "\(width): \(line.text)")
            }
        }
    }

    /// Offline, the header marks the balance (the last one the server signed, with its time), at
    /// every width; an unknown balance is a question mark, never 0.
    @Test(arguments: [20, 40, 80, 200])
    func anOfflineBalanceIsMarkedAndFits(width: Int) {
        var view = Self.view()
        view.hintsNote = "14:02 UTC, offline"
        let lines = GameLayout.lines(view, width: width)
        for line in lines { #expect(line.text.count <= width, "\(width): \(line.text)") }
        if width >= 40 { #expect(lines[0].text.hasSuffix("Hints: 12 (14:02 UTC, offline)"), "\(lines[0].text)") }
        view.hints = nil
        view.hintsNote = "offline"
        #expect(GameLayout.lines(view, width: 80)[0].text.hasSuffix("Hints: ? (offline)"))
    }

    /// A pack whose category bears its name says it once ("iOS Words", not "iOS Words · iOS
    /// Words"); the letters used read in alphabetical order.
    @Test func theTitleSaysAPackOnceAndUsedLettersAreSorted() {
        var game = Game(word: "swift", clue: nil, language: "en", lives: 6)
        for letter in ["z", "s", "e", "a"] { game.guess(letter) }
        let same = GameLayout.lines(GameView(game: game.board, packName: "iOS Words", category: "iOS Words", hints: 3, event: nil), width: 80).map(\.text)
        #expect(same[0].contains("HANGMAN  iOS Words ") && !same[0].contains("·"), "\(same[0])")
        #expect(same.contains { $0.contains("Used: a e s z") }, "\(same)")
        let other = GameLayout.lines(GameView(game: game.board, packName: "iOS Words", category: "Frameworks", hints: 3, event: nil), width: 80).map(\.text)
        #expect(other[0].contains("iOS Words · Frameworks"), "\(other[0])")
    }

    /// A short window keeps, in order, the word, the lives and the last message, then the keys,
    /// then the gallows: down to 30x10 the word and the message stay in sight.
    @Test(arguments: [(30, 10), (30, 8), (40, 20), (80, 24), (30, 5)])
    func aShortWindowKeepsWhatMattersMost(_ width: Int, _ height: Int) {
        let view = Self.view(word: "swift", clue: "A quick bird")
        let lines = GameLayout.lines(view, width: width, height: height).map(\.text)
        #expect(lines.count <= height, "\(lines)")
        let text = lines.joined(separator: "\n")
        #expect(text.contains("_ _"), "the word at \(width)x\(height): \(lines)")
        #expect(text.contains("Lives:"), "the lives at \(width)x\(height): \(lines)")
        #expect(text.contains("Yes! 'e' is there once."), "the message at \(width)x\(height): \(lines)")
        if height >= 10 { #expect(text.contains("Esc save and quit"), "the keys before the gallows at \(width)x\(height): \(lines)") }
        if height >= 8 { #expect(text.contains("letter: guess"), "keys before the gallows at \(width)x\(height): \(lines)") }
        if height >= 24 { #expect(text.contains("+---+"), "room for the gallows at \(width)x\(height)") }
        if height <= 10 { #expect(!text.contains("+---+"), "the gallows goes first at \(width)x\(height)") }
    }

    /// The gallows is drawn whole or not at all, at every height: never a pole without its beam;
    /// a window too short for the drawing shows its short version, whole too. At 40x20, a game
    /// with a two-line clue keeps all of it, the beam first.
    @Test func theGallowsIsWholeOrAbsent() {
        let view = Self.view(word: "airdrop", clue: "Wireless sharing of files between nearby Apple devices")
        for height in 5...30 {
            let lines = GameLayout.lines(view, width: 40, height: height).map(\.text)
            #expect(Self.drawing(of: Gallows.classic, view, in: lines) != nil, "40x\(height): \(lines)")
        }
        let full = GameLayout.lines(view, width: 40, height: 20).map(\.text)
        #expect(full.contains { $0.hasSuffix("+---+") } || full.contains { $0.hasSuffix(" +--+") }, "the top beam at 40x20: \(full)")
        #expect(full.contains { $0.contains("Clue: Wireless") })
    }

    /// Which drawing of `theme` the lines show, whole and in order: `"big"`, `"small"` or
    /// `"none"`; `nil` when a part of one is drawn without the rest.
    static func drawing(of theme: ThemeFrames, _ view: GameView, in lines: [String]) -> String? {
        let big = theme.frame(misses: view.game.misses, lives: view.game.lives)
        let small = theme.frame(misses: view.game.misses, lives: view.game.lives, small: true)
        func whole(_ rows: [String]) -> Bool {
            guard let start = lines.firstIndex(where: { $0.hasSuffix("  " + rows[0]) }), start + rows.count <= lines.count else { return false }
            return zip(lines[start...], rows).allSatisfy { $0.hasSuffix("  " + $1) }
        }
        if whole(big) { return "big" }
        if whole(small) { return "small" }
        // Absent: no line is the top of either drawing.
        return lines.contains { $0.hasSuffix("  " + big[0]) || $0.hasSuffix("  " + small[0]) } ? nil : "none"
    }

    /// A theme (ten lines by eighteen columns, a short version of three) at the sizes a game is
    /// played at: whole at 80x24, its short version when the window is shorter, gone (whole)
    /// before the word, the lives or the keys; never wider than the window.
    @Test(arguments: [(80, 24, "big"), (40, 20, "small"), (30, 10, "none"), (30, 18, "small"), (200, 50, "big"), (40, 30, "big")])
    func aThemeIsDrawnAtEverySize(_ width: Int, _ height: Int, _ expected: String) {
        let theme = ThemeFrames(
            name: "Test", frames: (0..<7).map { stage in ["ROBOT \(stage)".padding(toLength: 18, withPad: " ", startingAt: 0)] + (1..<10).map { "|\($0)".padding(toLength: 18, withPad: ".", startingAt: 0) } },
            smallFrames: (0..<7).map { stage in ["bot \(stage)".padding(toLength: 8, withPad: " ", startingAt: 0), "[o_o]   ", "/| |\\   "] })
        var view = Self.view(word: "robots", clue: "Machines")
        view.theme = theme
        let lines = GameLayout.lines(view, width: width, height: height).map(\.text)
        #expect(lines.count <= height && lines.allSatisfy { $0.count <= width }, "\(width)x\(height): \(lines)")
        #expect(Self.drawing(of: theme, view, in: lines) == expected, "\(width)x\(height): \(lines)")
        let text = lines.joined(separator: "\n")
        #expect(text.contains("_ _") && text.contains("Lives:"), "\(width)x\(height): \(lines)")
        // Two misses of six lives (e and q): the drawing of stage 2.
        if expected == "big" { #expect(text.contains("ROBOT 2"), "\(lines)") }
    }

    /// `Packs/theme-classic` is the stick figure the game draws without a theme, drawing for drawing.
    @Test func theClassicThemePackIsTheStickFigure() throws {
        let pack = try #require(PackVerifier().verify(fileAt: HangmanBinary.packageRoot.appendingPathComponent("Packs/theme-classic.wordpack").path).pack?.theme)
        #expect(pack.frames == Gallows.stages.map { $0.map { $0.padding(toLength: 9, withPad: " ", startingAt: 0) } })
        #expect(pack.smallFrames == Gallows.smallStages)
    }

    /// A result longer than the terminal is broken between words, continuations indented as
    /// their line; a line that fits, or has colour in it, is left as it is.
    @Test func aLongLineOnATerminalBreaksBetweenWords() {
        let line = "Purchased Spanische Wörter for 1,99 €: transaction fa366d02ee5edf18."
        let broken = CommandContext.brokenBetweenWords(line, width: 40)
        #expect(broken == "Purchased Spanische Wörter for 1,99 €:\ntransaction fa366d02ee5edf18.", "\(broken)")
        #expect(CommandContext.brokenBetweenWords("  " + line, width: 40).split(separator: "\n").allSatisfy { $0.hasPrefix("  ") && $0.count <= 40 })
        #expect(CommandContext.brokenBetweenWords(line, width: nil) == line)
        #expect(CommandContext.brokenBetweenWords(line, width: 80) == line)
        #expect(CommandContext.brokenBetweenWords("\u{1B}[1m" + line, width: 40) == "\u{1B}[1m" + line)
    }

    @Test func aWideWindowCentresTheBoard() {
        let lines = GameLayout.lines(Self.view(), width: 200)
        let gallows = lines.first { $0.text.contains("+---+") }?.text ?? ""
        #expect(gallows.prefix { $0 == " " }.count == (200 - GameLayout.maxBlock) / 2 + 4)
    }

    @Test func aShortWindowDropsTheGallowsFirst() {
        let lines = GameLayout.lines(Self.view(), width: 80, height: 14)
        #expect(!lines.contains { $0.text.contains("+---+") })
        #expect(lines.contains { $0.text.contains("e _ _ _ _") })
        #expect(lines.contains { $0.text.contains("Esc save and quit") })
    }

    @Test func theScoreIsExplainedInOneLine() {
        var game = Game(word: "zebra", clue: nil, language: "en", lives: 6)
        for letter in ["z", "q", "e", "b", "r", "a"] { game.guess(letter) }
        #expect(game.score == 150)
        #expect(GameLayout.scoreExplanation(game.board) == "Score 150: 5 letters × 10 + 5 lives left × 20.")
    }

    @Test(arguments: [20, 40, 80, 200])
    func theProgressLineFits(width: Int) {
        let label = "A Pack With A Rather Long Display Name That Goes On"
        for progress in [
            InstallProgress(phase: .downloading, wordsDone: 0, wordsTotal: 0, bytesDone: 1_234_567, bytesTotal: 98_765_432),
            InstallProgress(phase: .checking, wordsDone: 0, wordsTotal: 0, bytesDone: 98_765_432, bytesTotal: 98_765_432),
            InstallProgress(phase: .installing, wordsDone: 27_000, wordsTotal: 1_000_000, bytesDone: 1, bytesTotal: 2),
        ] {
            let line = ProgressBar.line(label: label, progress: progress, width: width - 1)
            #expect(line.count <= width - 1, "\(width): \(line)")
            #expect(!line.contains("\u{1B}"))
        }
        let wide = ProgressBar.line(label: "Big Words", progress: InstallProgress(phase: .installing, wordsDone: 30_000, wordsTotal: 60_000, bytesDone: 1, bytesTotal: 2), width: 79)
        #expect(wide == "Installing Big Words [###############---------------]  50% 30,000/60,000 words")
    }
}
