import Device
import Messages
import PackServiceAPI
import SystemCalls
import TerminalText

/// A one-line progress bar on standard error, for an install that takes a while: downloading,
/// checking, then writing the words.
///
/// It appears once the install has run for `delay` (a second; `HANGMAN_PROGRESS_AFTER_MS` sets
/// another, for tests), whatever the pack's size, redraws its line in place with `\r` and never
/// wraps: it is cut to the window's width less one column (the label is shortened first, then the
/// bar, then the detail is dropped). It writes no escape sequence: a shorter line is padded with
/// spaces, and the line is blanked when the install ends.
final class ProgressBar {
    let label: String
    let output: OutputStream
    let width: () -> Int
    let delay: Int64
    private let started: Int64
    private var drawnLength = 0
    private var lastDraw: Int64 = 0
    private var lastPhase: InstallProgress.Phase?

    init(label: String, output: OutputStream, width: @escaping () -> Int, delay: Int64) {
        self.label = label
        self.output = output
        self.width = width
        self.delay = delay
        started = MonotonicClock.milliseconds()
    }

    func update(_ progress: InstallProgress) {
        let now = MonotonicClock.milliseconds()
        let done = progress.phase == .installing && progress.wordsDone >= progress.wordsTotal
        if done {
            finish()
            return
        }
        guard now - started >= delay else { return }
        // At most 20 redraws a second, but every change of phase.
        guard now - lastDraw >= 50 || progress.phase != lastPhase else { return }
        lastDraw = now
        lastPhase = progress.phase
        let line = Self.line(label: label, progress: progress, width: width() - 1)
        let padding = String(repeating: " ", count: max(0, drawnLength - line.count))
        output.write("\r" + line + padding)
        drawnLength = line.count
    }

    /// Blanks the line, once the install is done.
    func finish() {
        guard drawnLength > 0 else { return }
        output.write("\r" + String(repeating: " ", count: drawnLength) + "\r")
        drawnLength = 0
    }

    /// `Installing Big Words [#######-------]  45%  27,000/60,000 words`, at most `width` characters.
    static func line(label: String, progress: InstallProgress, width: Int) -> String {
        let width = max(width, 10)
        let title: String
        let fraction: Double?
        let detail: String
        switch progress.phase {
        case .downloading:
            title = L10n.text("Downloading %s", TerminalText.escaped(label))
            fraction = progress.bytesTotal > 0 ? Double(progress.bytesDone) / Double(progress.bytesTotal) : nil
            detail = L10n.text("%s/%s bytes", PackText.grouped(progress.bytesDone), PackText.grouped(progress.bytesTotal))
        case .checking:
            title = L10n.text("Checking %s", TerminalText.escaped(label))
            fraction = nil
            detail = L10n.text("%s bytes", PackText.grouped(progress.bytesTotal))
        case .installing:
            title = L10n.text("Installing %s", TerminalText.escaped(label))
            fraction = progress.wordsTotal > 0 ? Double(progress.wordsDone) / Double(progress.wordsTotal) : nil
            detail = L10n.text("%s/%s words", PackText.grouped(progress.wordsDone), PackText.grouped(progress.wordsTotal))
        }
        let percent = fraction.map { String(Int(min(1, $0) * 100)) + "%" } ?? ""
        func bar(_ cells: Int) -> String {
            guard let fraction else { return "" }
            let filled = min(cells, Int(fraction * Double(cells)))
            return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: cells - filled) + "]"
        }
        func compose(_ title: String, _ cells: Int, _ detail: String?) -> String {
            [title, bar(cells), percent.isEmpty ? nil : (percent.count < 4 ? String(repeating: " ", count: 4 - percent.count) + percent : percent), detail]
                .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        }
        // The title's words without the name, in the reader's language.
        let verbLength = max(0, title.count - TerminalText.escaped(label).count)
        // The whole line; then a narrower bar; then a shorter name; then no detail; then the name alone.
        for cells in [30, 20, 10] {
            let full = compose(title, cells, detail)
            if full.count <= width { return full }
        }
        let room = width - compose("", 10, detail).count - 1
        if room >= verbLength + 6 { return compose(GameLayout.cut(title, width: room), 10, detail) }
        let roomWithoutDetail = width - compose("", 10, nil).count - 1
        if roomWithoutDetail >= verbLength + 4 { return compose(GameLayout.cut(title, width: roomWithoutDetail), 10, nil) }
        return GameLayout.cut(title + " " + percent, width: width)
    }

    /// A progress callback for installing `id` on a terminal, `nil` otherwise.
    static func forInstall(of id: ProductID, catalog: Catalog, context: CommandContext) -> ((InstallProgress) -> Void)? {
        guard context.errorIsTerminal else { return nil }
        let delay = context.environment["HANGMAN_PROGRESS_AFTER_MS"].flatMap { Int64($0) } ?? 1000
        let environment = context.environment
        let bar = ProgressBar(
            label: catalog.product(id).map(ReaderLocale.current.name) ?? catalog.basePack(id)?.displayName ?? id.rawValue, output: context.errorOutput,
            width: { RawTerminal.windowSize(of: .error)?.columns ?? environment["COLUMNS"].flatMap { Int($0) } ?? 80 }, delay: delay)
        return { progress in bar.update(progress) }
    }
}
