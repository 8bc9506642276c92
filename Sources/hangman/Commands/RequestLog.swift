import Foundation
import HTTPServer
import PackServer
import Synchronization
import SystemCalls

/// The server's log on standard error: one line per request (text or JSON), and the HTTP layer's
/// own events, at most `eventsPerSecond` lines a second so that a flood cannot fill a disk.
final class RequestLog: Sendable {
    let json: Bool
    let output: OutputStream
    static let eventsPerSecond = 20
    /// The second being counted, the events written in it, and those left out.
    private let window = Mutex<(second: Int64, written: Int, suppressed: Int)>((0, 0, 0))
    /// Whether some events are left out and not yet said: read by every request without a lock.
    private let owing = Atomic<Bool>(false)

    init(json: Bool, output: OutputStream) {
        self.json = json
        self.output = output
    }

    /// This process's ids: a random prefix, then a count (no system call per request).
    private static let idPrefix = Array((String(UInt32.random(in: .min ... .max), radix: 16) + "-").utf8)
    private static let idCount = Atomic<UInt64>(0)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The client's request id when it is one (1 to 64 of letters, digits, `-`, `_`, `.`), else a new one.
    static func requestID(_ given: String?) -> String {
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
    func request(_ request: HTTPRequest, route: String, response: HTTPResponse, id: String, milliseconds: Double) {
        // A second that left events out says how many, at the first line after it (the lock
        // only when there is something to say).
        let left = !owing.load(ordering: .relaxed) ? 0 : window.withLock { state -> Int in
            guard state.second != Int64(Date().timeIntervalSince1970), state.suppressed > 0 else { return 0 }
            defer {
                state.suppressed = 0
                owing.store(false, ordering: .relaxed)
            }
            return state.suppressed
        }
        if left > 0 { line("\(left) more events of the HTTP layer were not logged (over \(Self.eventsPerSecond) a second)") }
        if json {
            let time = Self.now()
            var fields: [String: Any] = [
                "time": time, "client": request.clientAddress, "requestID": id, "method": request.method, "route": route,
                "status": response.status, "bytes": response.bodyLength, "ms": (milliseconds * 10).rounded() / 10,
            ]
            if let account = response.logAccount { fields["account"] = account }
            if let detail = response.logDetail { fields["detail"] = detail }
            write(fields)
        } else {
            // Written as bytes, one line a request: what came from the client (its method, a
            // detail quoting it) escaped for a terminal; the rest is the server's own.
            var line: [UInt8] = []
            line.reserveCapacity(160)
            StoreText.appendISODate(Self.nowMilliseconds(), to: &line)
            line.append(0x20)
            line.append(contentsOf: request.clientAddress.utf8)
            line.append(0x20)
            line.append(contentsOf: id.utf8)
            line.append(0x20)
            line.append(contentsOf: TerminalText.escaped(request.method).utf8)
            line.append(0x20)
            line.append(contentsOf: route.utf8)
            line.append(0x20)
            StoreText.appendDigits(UInt64(max(0, response.status)), to: &line)
            line.append(0x20)
            StoreText.appendDigits(response.bodyLength, to: &line)
            line.append(contentsOf: "B ".utf8)
            StoreText.appendDigits(UInt64(max(0, milliseconds.rounded())), to: &line)
            line.append(contentsOf: " ms".utf8)
            if let account = response.logAccount { line.append(contentsOf: " account=\(TerminalText.escaped(account))".utf8) }
            if let detail = response.logDetail { line.append(contentsOf: ": \(TerminalText.escaped(detail))".utf8) }
            line.append(0x0A)
            output.write(line)
        }
    }

    /// An event of the HTTP layer, unless this second had its share already (then counted, and
    /// said in one line when the next second comes).
    func event(_ text: String) {
        let second = Int64(Date().timeIntervalSince1970)
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

    private func line(_ text: String) {
        if json {
            write(["time": Self.now(), "event": text])
        } else {
            output.write(TerminalText(escaping: "\(Self.now()) \(text)").description + "\n")
        }
    }

    private func write(_ fields: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        output.write(String(decoding: data, as: UTF8.self) + "\n")
    }

    /// `2026-12-01T20:15:02.123Z`
    static func now() -> String {
        StoreText.isoDate(nowMilliseconds())
    }

    static func nowMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
