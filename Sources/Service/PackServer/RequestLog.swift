import CivilCalendar
import HTTPServer
import PackServiceWire
import Synchronization
import SystemCalls
import TerminalText

/// The server's log (standard error): one line per request (text or JSON), and the HTTP layer's
/// own events, at most `eventsPerSecond` lines a second so that a flood cannot fill a disk.
/// Its time is the server's clock; what came from a client is escaped in the text lines (JSON
/// escapes it itself).
public final class RequestLog: Sendable {
    let json: Bool
    /// Where each line goes, with its line break.
    let output: @Sendable ([UInt8]) -> Void
    let clock: Clock
    public static let eventsPerSecond = 20
    /// The second being counted, the events written in it, and those left out.
    private let window = Mutex<(second: Int64, written: Int, suppressed: Int)>((0, 0, 0))
    /// Whether some events are left out and not yet said: read by every request without a lock.
    private let owing = Atomic<Bool>(false)

    public init(json: Bool, clock: Clock = .system, output: @escaping @Sendable ([UInt8]) -> Void) {
        self.json = json
        self.clock = clock
        self.output = output
    }

    /// This process's ids: a random prefix, then a count (no system call per request).
    private static let idPrefix = Array((String(UInt32.random(in: .min ... .max), radix: 16) + "-").utf8)
    private static let idCount = Atomic<UInt64>(0)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The client's request id when it is one (1 to 64 of letters, digits, `-`, `_`, `.`), else a new one.
    public static func requestID(_ given: String?) -> String {
        if let given, (1...64).contains(given.utf8.count),
            given.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E })
        {
            return given
        }
        // The prefix, then the count in hexadecimal, written in place.
        let count = idCount.add(1, ordering: .relaxed).newValue
        let digits = max(1, (UInt64.bitWidth - count.leadingZeroBitCount + 3) / 4)
        return String(unsafeUninitializedCapacity: idPrefix.count + digits) { buffer in
            _ = buffer.initialize(from: idPrefix)
            var rest = count
            for index in (idPrefix.count..<idPrefix.count + digits).reversed() {
                buffer[index] = hexDigits[Int(rest & 15)]
                rest >>= 4
            }
            return idPrefix.count + digits
        }
    }

    /// One request's line; `route` is ``PackServer/routeName(_:)`` of its path.
    public func request(_ request: HTTPRequest, route: String, response: HTTPResponse, id: String, milliseconds: Double) {
        // A second that left events out says how many, at the first line after it (the lock
        // only when there is something to say).
        let left = !owing.load(ordering: .relaxed) ? 0 : window.withLock { state -> Int in
            guard state.second != clock.now() / 1000, state.suppressed > 0 else { return 0 }
            defer {
                state.suppressed = 0
                owing.store(false, ordering: .relaxed)
            }
            return state.suppressed
        }
        if left > 0 { line("\(left) more events of the HTTP layer were not logged (over \(Self.eventsPerSecond) a second)") }
        if json {
            let milliseconds = (milliseconds * 10).rounded() / 10
            write(LogLine(
                time: ISO8601.string(clock.now()), client: request.clientAddress, requestID: id, method: request.method, route: route,
                status: response.status, bytes: response.bodyLength, ms: milliseconds, account: response.logAccount, detail: response.logDetail))
        } else {
            // Written as bytes, one line a request: what came from the client (its method, a
            // detail quoting it) escaped for a terminal; the rest is the server's own.
            var line: [UInt8] = []
            line.reserveCapacity(160)
            ISO8601.append(clock.now(), to: &line)
            line.append(0x20)
            line.append(contentsOf: request.clientAddress.utf8)
            line.append(0x20)
            line.append(contentsOf: id.utf8)
            line.append(0x20)
            line.append(contentsOf: TerminalText.escaped(request.method).utf8)
            line.append(0x20)
            line.append(contentsOf: route.utf8)
            line.append(0x20)
            DecimalText.append(UInt64(max(0, response.status)), to: &line)
            line.append(0x20)
            DecimalText.append(response.bodyLength, to: &line)
            line.append(contentsOf: "B ".utf8)
            DecimalText.append(UInt64(max(0, milliseconds.rounded())), to: &line)
            line.append(contentsOf: " ms".utf8)
            if let account = response.logAccount { line.append(contentsOf: " account=\(TerminalText.escaped(account))".utf8) }
            if let detail = response.logDetail { line.append(contentsOf: ": \(TerminalText.escaped(detail))".utf8) }
            line.append(0x0A)
            output(line)
        }
    }

    /// An event of the HTTP layer, unless this second had its share already (then counted, and
    /// said in one line when the next second comes).
    public func event(_ text: String) {
        let second = clock.now() / 1000
        let (write, suppressedBefore) = window.withLock { state -> (Bool, Int) in
            var earlier = 0
            if state.second != second {
                earlier = state.suppressed
                state = (second, 0, 0)
                owing.store(false, ordering: .relaxed)
            }
            guard state.written < Self.eventsPerSecond else {
                state.suppressed += 1
                owing.store(true, ordering: .relaxed)
                return (false, earlier)
            }
            state.written += 1
            return (true, earlier)
        }
        if suppressedBefore > 0 { line("\(suppressedBefore) more events of the HTTP layer were not logged (over \(Self.eventsPerSecond) a second)") }
        if write { line(text) }
    }

    /// One line of the server's own (a notification's delivery attempt), never held back.
    public func note(_ text: String) {
        line(text)
    }

    private func line(_ text: String) {
        if json {
            write(LogLine(time: ISO8601.string(clock.now()), event: text))
        } else {
            output(Array((TerminalText(escaping: "\(ISO8601.string(clock.now())) \(text)").description + "\n").utf8))
        }
    }

    /// One JSON line, by the wire's writer (sorted keys, no field for what is absent).
    private func write(_ line: LogLine) {
        guard var bytes = try? Wire.encode(line) else { return }
        bytes.append(0x0A)
        output(bytes)
    }

    /// A JSON log line: a request's fields, or an event.
    struct LogLine: Encodable {
        var time: String
        var client: String?
        var requestID: String?
        var method: String?
        var route: String?
        var status: Int?
        var bytes: UInt64?
        var ms: Double?
        var account: String?
        var detail: String?
        var event: String?
    }
}
