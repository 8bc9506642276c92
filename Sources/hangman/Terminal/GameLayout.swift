import Device
import HangmanGame
import Messages
import TerminalText
import WordPacks

/// A line of the game's screen: text already escaped and cut to fit, and how to paint it.
struct ScreenLine: Equatable {
    var text: String
    /// An SGR code (`1;32`) for the whole line, or `nil`.
    var style: String? = nil
}

/// What the screen shows at one moment: everything `GameLayout` needs, nothing it must fetch.
struct GameView {
    var game: GameBoard
    var packName: String
    var category: String
    /// The hint balance; `nil` when it cannot be known (the pack server cannot be reached).
    var hints: Int?
    /// Beside the balance when it is not current: `offline`, `as of 14:02 UTC, offline`.
    var hintsNote: String? = nil
    /// The last move's message.
    var event: String?
    /// The word being typed after `!`, when it is.
    var entry: String?
    /// After the game: the question asked.
    var question: String?
    /// The theme the gallows is drawn in; `nil` for the classic stick figure.
    var theme: ThemeFrames? = nil
    /// The colours of hits and misses (`hangman settings palette`).
    var palette = DeviceSettings.Palette.standard
}

/// The game's screen laid out for a width (40 to 200+ columns) and, when known, a height: no line
/// is longer than the width (lines wrap at words, names are cut with "…"), and on a wide terminal
/// the board is centred in a column of at most `maxBlock` characters.
enum GameLayout {
    static let maxBlock = 72

    /// The keys, in the order shown.
    static var legend: [String] {
        [
            L10n.text("letter: guess"), L10n.text("! or Enter: the whole word"), L10n.text("? hint"), L10n.text("$ buy hints"), L10n.text("Tab help"),
            L10n.text("Esc save and quit"),
        ]
    }

    /// The lines, each with the left margin already in its text.
    /// The smallest window the game fits (a short one keeps the word, the lives and the message;
    /// a narrower one would break its lines into fragments): below it, the screen says so (`tooSmall`).
    static let smallest = (columns: 30, rows: 5)

    /// A window below ``smallest``: one line that says so and what to do, the word and the lives,
    /// each cut to the width, as many as there are rows. The keys still play.
    static func tooSmall(_ view: GameView, width: Int, height: Int) -> [ScreenLine] {
        let game = view.game
        let message = wrap("Window too small (\(width)x\(height)): the game needs \(smallest.columns)x\(smallest.rows). Resize it, or play with --plain.", width: width)
        let lines = [game.masked + "  " + "\(game.livesLeft)/\(game.lives)"] + message
        return lines.prefix(max(1, height)).map { line in
            ScreenLine(text: line.count > width ? String(line.prefix(max(1, width - 1))) + "…" : line, style: nil)
        }
    }

    /// `smallArt`: the gallows in its short windows' version (chosen when the window is too short
    /// for the whole drawing, before the drawing goes).
    static func lines(_ view: GameView, width: Int, height: Int? = nil, keys: Bool = true, smallArt: Bool = false) -> [ScreenLine] {
        if keys, width < smallest.columns || (height ?? smallest.rows) < smallest.rows {
            return tooSmall(view, width: max(1, width), height: height ?? smallest.rows)
        }
        let width = max(width, 20)
        let block = min(width, maxBlock)
        let margin = String(repeating: " ", count: (width - block) / 2)
        let game = view.game
        var lines: [ScreenLine] = []
        // How long each line stays as the window gets shorter: the word, the question and the
        // lives last, then the message, the title, the clue and the letters used, then the keys,
        // then the pack's name on lines of its own; the gallows (whole) and blank lines go first.
        var ranks: [Int] = []
        var rank = 0
        func add(_ text: String, _ style: String? = nil) {
            lines.append(ScreenLine(text: text, style: style))
            ranks.append(text.isEmpty ? 0 : rank)
        }
        func addWrapped(_ text: String, _ style: String? = nil, indent: String = "") {
            for line in wrap(text, width: block - indent.count) { add(indent + line, style) }
        }

        let hints = L10n.text("Hints: %s", view.hints.map(String.init) ?? "?") + (view.hintsNote.map { " (\($0))" } ?? "")
        // A pack whose one category bears its name says it once.
        let source = view.packName == view.category
            ? TerminalText.escaped(view.packName) : TerminalText.escaped(view.packName) + " · " + TerminalText.escaped(view.category)
        let title = "HANGMAN  " + source
        rank = 6
        if title.count + 2 + hints.count <= block {
            add(title + String(repeating: " ", count: block - title.count - hints.count) + hints, "1")
        } else if 7 + 2 + hints.count <= block {
            add("HANGMAN" + String(repeating: " ", count: block - 7 - hints.count) + hints, "1")
            rank = 2
            addWrapped(source)
        } else {
            // Too narrow for the balance beside the title (an offline note is long): a line of its own.
            add("HANGMAN", "1")
            addWrapped(hints, "1")
            rank = 2
            addWrapped(source)
        }
        add("")
        let gallowsStyle = game.status == .lost ? view.palette.miss : nil
        rank = 1
        for row in (view.theme ?? Gallows.classic).frame(misses: game.misses, lives: game.lives, small: smallArt) { add("  " + row, gallowsStyle) }
        add("")
        rank = 10
        add(wordLine(game.masked, width: block), game.status == .lost ? "1;" + view.palette.miss : game.status == .won ? "1;" + view.palette.hit : "1")
        if let clue = game.clue, !clue.isEmpty {
            rank = 5
            addWrapped(L10n.text("Clue: %s", TerminalText.escaped(clue)), "3")
        }
        let hearts = String(repeating: "♥", count: game.livesLeft) + String(repeating: "♡", count: game.lives - game.livesLeft)
        let lives = L10n.text("Lives: %s %d/%d", hearts, game.livesLeft, game.lives)
        rank = 9
        add(lives.count <= block ? lives : L10n.text("Lives: %d/%d", game.livesLeft, game.lives), view.palette.miss)
        rank = 4
        let used = game.usedLetters.map(TerminalText.escaped).joined(separator: " ")
        addWrapped(L10n.text("Used: %s", used.isEmpty ? "-" : used))
        add("")
        rank = 8
        for paragraph in view.event?.split(separator: "\n") ?? [] { addWrapped(String(paragraph)) }
        if let question = view.question {
            rank = 10
            addWrapped(question, "1")
        } else if game.status == .playing {
            add("")
            rank = 3
            if let entry = view.entry {
                rank = 10
                // The end of a long word stays in sight as it is typed.
                let shown = TerminalText.escaped(entry)
                let label = L10n.text("Word: %s", "")
                let room = block - label.count - 1
                add(label + (shown.count > room ? "…" + shown.suffix(room - 1) : shown) + "_", "1")
                rank = 3
                addWrapped(L10n.text("Enter: guess it · Esc: back to letters"))
            } else if keys {
                for line in joinItems(legend, width: block) { add(line, "2") }
            } else {
                addWrapped(L10n.text("Type a letter or the whole word; ? or hint, buy, help, quit (=WORD guesses a word like quit)."))
            }
        }
        if let height {
            // Too short for the drawing even without blank lines: its short version first.
            if !smallArt, lines.count - ranks.filter({ $0 == 0 }).count > height {
                return Self.lines(view, width: width, height: height, keys: keys, smallArt: true)
            }
            // Too short: the line that matters least goes, the lowest one first among equals.
            while lines.count > max(1, height), let index = ranks.indices.min(by: { ranks[$0] < ranks[$1] || ranks[$0] == ranks[$1] && $0 > $1 }) {
                // The gallows goes whole: half a gallows says nothing.
                let gone = ranks[index] == 1 ? ranks.indices.filter { ranks[$0] == 1 } : [index]
                for position in gone.reversed() {
                    lines.remove(at: position)
                    ranks.remove(at: position)
                }
            }
        }
        return lines.map { ScreenLine(text: $0.text.isEmpty ? "" : margin + $0.text, style: $0.style) }
    }

    /// The lines after a game: the verdict, the score explained, the clue.
    static func verdict(_ game: GameBoard) -> [String] {
        var lines: [String] = []
        let word = TerminalText.escaped(game.word ?? "")
        if game.status == .won {
            lines.append(L10n.text("You won! The word was %s.", word))
            lines.append(scoreExplanation(game))
        } else {
            lines.append(L10n.text("You lost. The word was %s.", word))
        }
        return lines
    }

    /// `Score 150: 5 letters x 10 + 5 lives left x 20 - 0 hints x 15.`
    static func scoreExplanation(_ game: GameBoard) -> String {
        let parts = game.scoreParts
        var text = L10n.text("Score %d: ", game.score) + L10n.plural("%d letter × %d", "%d letters × %d", parts.letters, Game.pointsPerLetter)
            + " + " + L10n.plural("%d life left × %d", "%d lives left × %d", parts.livesLeft, Game.pointsPerLife)
        if parts.hints > 0 { text += " − " + L10n.plural("%d hint × %d", "%d hints × %d", parts.hints, Game.pointsPerHint) }
        return text + "."
    }

    /// The masked word: spaced cells when they fit, else packed.
    static func wordLine(_ masked: String, width: Int) -> String {
        let spaced = "  " + TerminalText.escaped(masked)
        if spaced.count <= width { return spaced }
        let packed = TerminalText.escaped(masked.split(separator: " ", omittingEmptySubsequences: false).map { $0.isEmpty ? " " : String($0) }.joined())
        return packed.count <= width ? packed : cut(packed, width: width)
    }

    /// `text` cut to `width` characters, ending in "…" when cut.
    static func cut(_ text: String, width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a longer word is split).
    static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(width, 1)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            var word = Substring(word)
            while word.count > width {
                if !line.isEmpty { lines.append(line); line = "" }
                lines.append(String(word.prefix(width)))
                word = word.dropFirst(width)
            }
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Items joined by " · ", as many to a line as fit.
    static func joinItems(_ items: [String], width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for item in items {
            if line.isEmpty {
                line = cut(item, width: width)
            } else if line.count + 3 + item.count <= width {
                line += " · " + item
            } else {
                lines.append(line)
                line = cut(item, width: width)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension DeviceSettings.Palette {
    /// The SGR colour of a miss, the lives and a game lost: red, or blue.
    var miss: String { self == .highContrast ? "34" : "31" }
    /// The SGR colour of a game won: green, or orange (of the 256 colours).
    var hit: String { self == .highContrast ? "38;5;208" : "32" }
    /// A hit's square in the share line, and a miss's.
    var hitSquare: String { self == .highContrast ? "🟧" : "🟩" }
    var missSquare: String { self == .highContrast ? "🟦" : "⬛" }
}
