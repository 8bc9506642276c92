import SystemCalls

/// Reads a terminal in raw mode one key at a time. An escape sequence (an arrow, a function key,
/// a mouse report) is read whole and comes back as one `.ignored` key, so none of its bytes is
/// ever taken for a guess; a lone Esc is `.escape`. Signals come back as keys too: Ctrl-C,
/// a resized window, a continue after Ctrl-Z.
final class KeyReader {
    enum Key: Equatable {
        case character(Character)
        case enter
        case backspace
        case escape
        case tab
        /// Ctrl-D.
        case endOfInput
        /// Ctrl-C (SIGINT).
        case interrupted
        /// SIGWINCH: the window changed size.
        case resized
        /// SIGCONT after Ctrl-Z: raw mode and the screen must be set up again.
        case continued
        /// A whole escape sequence or a control key that means nothing here.
        case ignored
    }

    private var buffer: [UInt8] = []
    private var atEnd = false
    private let source: InputSource

    /// Keys from the process's terminal, or from bytes given by a test (as if typed at once).
    init(_ source: InputSource) {
        self.source = source
        switch source {
        case .standardInput:
            InterruptSignal.catchIntoFlag()
        case .bytes(let bytes):
            buffer = bytes
            atEnd = true
        }
    }

    func next() -> Key {
        while true {
            if source == .standardInput {
                if InterruptSignal.wasRaised { return .interrupted }
                if RawTerminal.takeContinued() { return .continued }
                if RawTerminal.takeResized() { return .resized }
            }
            if let key = parse() { return key }
            if atEnd { return .endOfInput }
            fill(timeoutMilliseconds: 100)
        }
    }

    private func fill(timeoutMilliseconds: Int32) {
        guard !atEnd else { return }
        switch StandardStream.input.read(upTo: 256, timeoutMilliseconds: timeoutMilliseconds) {
        case .bytes(let chunk): buffer.append(contentsOf: chunk)
        case .endOfInput, .failed: atEnd = true
        case .interrupted, .timedOut: break
        }
    }

    /// The first key in the buffer, consuming its bytes; `nil` when more bytes are needed.
    private func parse() -> Key? {
        guard let first = buffer.first else { return nil }
        switch first {
        case 0x1B:
            // Esc alone, or the start of a sequence: the rest of a sequence arrives together.
            if buffer.count == 1 {
                fill(timeoutMilliseconds: 30)
                if buffer.count == 1 {
                    buffer.removeFirst()
                    return .escape
                }
            }
            return consumeSequence()
        case 0x0D, 0x0A:
            buffer.removeFirst()
            return .enter
        case 0x7F, 0x08:
            buffer.removeFirst()
            return .backspace
        case 0x04:
            buffer.removeFirst()
            return .endOfInput
        case 0x09:
            buffer.removeFirst()
            return .tab
        case 0x00..<0x20:
            buffer.removeFirst()
            return .ignored
        default:
            return consumeCharacter()
        }
    }

    /// `ESC [ ... final`, `ESC O x`, or `ESC x` (Alt+key): all one ignored key.
    private func consumeSequence() -> Key? {
        let introducer = buffer[1]
        if introducer == UInt8(ascii: "[") {
            // CSI: parameter and intermediate bytes, then one final byte in 0x40...0x7E.
            var index = 2
            while true {
                if index >= buffer.count {
                    let before = buffer.count
                    fill(timeoutMilliseconds: 30)
                    if buffer.count == before {
                        buffer.removeAll()  // a cut sequence: drop it rather than guess with its bytes
                        return .ignored
                    }
                    continue
                }
                if (0x40...0x7E).contains(buffer[index]) {
                    buffer.removeSubrange(...index)
                    return .ignored
                }
                index += 1
            }
        }
        if introducer == UInt8(ascii: "O") {
            if buffer.count < 3 { fill(timeoutMilliseconds: 30) }
            buffer.removeFirst(min(3, buffer.count))
            return .ignored
        }
        buffer.removeFirst(2)
        return .ignored
    }

    /// One UTF-8 character (a letter like é comes as two bytes).
    private func consumeCharacter() -> Key? {
        let first = buffer[0]
        let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 1
        if buffer.count < length {
            fill(timeoutMilliseconds: 30)
            if buffer.count < length {
                buffer.removeAll()
                return .ignored
            }
        }
        let text = String(decoding: buffer[..<length], as: UTF8.self)
        buffer.removeFirst(length)
        guard let character = text.first, text != "\u{FFFD}" else { return .ignored }
        return .character(character)
    }
}
