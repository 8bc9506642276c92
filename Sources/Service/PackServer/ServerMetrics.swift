import Synchronization
import SystemCalls

/// What an operator scrapes (Prometheus' text format, version 0.0.4): requests by route and
/// status, their latency, the HTTP layer's own events, purchases and spends by outcome, errors of
/// the store, the catalog served, connections, and the database pool. Counted in memory, per
/// process; a scrape reads them all at once.
public final class ServerMetrics: Sendable {
    /// Upper bounds of the latency histogram, in seconds.
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    private struct Histogram {
        var counts = [Int](repeating: 0, count: ServerMetrics.buckets.count)
        var sum = 0.0
        var count = 0

        /// Counts one observation in place (no copy of the buckets).
        mutating func record(_ seconds: Double) {
            for index in ServerMetrics.buckets.indices where seconds <= ServerMetrics.buckets[index] { counts[index] += 1 }
            sum += seconds
            count += 1
        }
    }

    private struct State {
        var requests: [String: [Int: Int]] = [:]
        var latency: [String: Histogram] = [:]
        var events = 0
        var purchases: [String: Int] = [:]
        var spends: [String: Int] = [:]
        var storeErrors: [String: Int] = [:]
        var notifications: [String: Int] = [:]
    }

    /// One part of the counts per group of threads: a request locks only its thread's shard, so
    /// the server's threads do not queue on one lock; a scrape adds the shards up.
    private final class Shard: Sendable {
        let state = Mutex(State())
    }

    private let shards = (0..<16).map { _ in Shard() }

    public init() {}

    /// The calling thread's shard.
    private func shard() -> Shard {
        shards[Int((CurrentThread.number >> 12) % UInt(shards.count))]
    }

    /// One request answered: its route (`PackServer.routeName`), status and time.
    public func request(route: String, status: Int, seconds: Double) {
        shard().state.withLock { state in
            state.requests[route, default: [:]][status, default: 0] += 1
            state.latency[route, default: Histogram()].record(seconds)
        }
    }

    /// Something the HTTP layer refused or cut itself.
    public func event() { shard().state.withLock { $0.events += 1 } }

    func purchase(_ outcome: String) { shard().state.withLock { $0.purchases[outcome, default: 0] += 1 } }
    func spend(_ outcome: String) { shard().state.withLock { $0.spends[outcome, default: 0] += 1 } }
    func notification(_ outcome: String) { shard().state.withLock { $0.notifications[outcome, default: 0] += 1 } }
    func storeError(_ kind: String) { shard().state.withLock { $0.storeErrors[kind, default: 0] += 1 } }

    /// Every metric in Prometheus' text format; `gauges` are the values read at the scrape
    /// (name, help, value).
    public func render(gauges: [(name: String, help: String, value: Double)]) -> String {
        var state = State()
        for shard in shards {
            let part = shard.state.withLock { $0 }
            for (route, statuses) in part.requests {
                for (status, count) in statuses { state.requests[route, default: [:]][status, default: 0] += count }
            }
            for (route, histogram) in part.latency {
                var total = state.latency[route] ?? Histogram()
                for index in total.counts.indices { total.counts[index] += histogram.counts[index] }
                total.sum += histogram.sum
                total.count += histogram.count
                state.latency[route] = total
            }
            state.events += part.events
            for (key, count) in part.purchases { state.purchases[key, default: 0] += count }
            for (key, count) in part.spends { state.spends[key, default: 0] += count }
            for (key, count) in part.storeErrors { state.storeErrors[key, default: 0] += count }
            for (key, count) in part.notifications { state.notifications[key, default: 0] += count }
        }
        var lines: [String] = []
        func family(_ name: String, _ type: String, _ help: String) {
            lines.append("# HELP \(name) \(help)")
            lines.append("# TYPE \(name) \(type)")
        }
        family("hangman_http_requests_total", "counter", "Requests answered, by route and status.")
        for (route, statuses) in state.requests.sorted(by: { $0.key < $1.key }) {
            for (status, count) in statuses.sorted(by: { $0.key < $1.key }) {
                lines.append("hangman_http_requests_total{route=\"\(Self.escaped(route))\",status=\"\(status)\"} \(count)")
            }
        }
        family("hangman_http_request_duration_seconds", "histogram", "Time from a whole request to its answer, by route.")
        for (route, histogram) in state.latency.sorted(by: { $0.key < $1.key }) {
            let label = "route=\"\(Self.escaped(route))\""
            for (index, bound) in Self.buckets.enumerated() {
                lines.append("hangman_http_request_duration_seconds_bucket{\(label),le=\"\(bound)\"} \(histogram.counts[index])")
            }
            lines.append("hangman_http_request_duration_seconds_bucket{\(label),le=\"+Inf\"} \(histogram.count)")
            lines.append("hangman_http_request_duration_seconds_sum{\(label)} \(histogram.sum)")
            lines.append("hangman_http_request_duration_seconds_count{\(label)} \(histogram.count)")
        }
        family("hangman_http_layer_events_total", "counter", "Requests the HTTP layer refused or cut itself (malformed, timed out, client gone).")
        lines.append("hangman_http_layer_events_total \(state.events)")
        family("hangman_purchases_total", "counter", "Purchase requests by outcome.")
        for (outcome, count) in state.purchases.sorted(by: { $0.key < $1.key }) { lines.append("hangman_purchases_total{outcome=\"\(outcome)\"} \(count)") }
        family("hangman_hint_spends_total", "counter", "Hint spends by outcome.")
        for (outcome, count) in state.spends.sorted(by: { $0.key < $1.key }) { lines.append("hangman_hint_spends_total{outcome=\"\(outcome)\"} \(count)") }
        family("hangman_store_errors_total", "counter", "Requests that failed in the store, by kind (storage: the database failed; unavailable: it was away).")
        for (kind, count) in state.storeErrors.sorted(by: { $0.key < $1.key }) { lines.append("hangman_store_errors_total{kind=\"\(kind)\"} \(count)") }
        if !state.notifications.isEmpty {
            family("hangman_notification_attempts_total", "counter", "Server Notifications V2 delivery attempts by outcome (delivered: answered 2xx).")
            for (outcome, count) in state.notifications.sorted(by: { $0.key < $1.key }) {
                lines.append("hangman_notification_attempts_total{outcome=\"\(outcome)\"} \(count)")
            }
        }
        for gauge in gauges {
            family(gauge.name, "gauge", gauge.help)
            lines.append("\(gauge.name) \(gauge.value == gauge.value.rounded() ? String(Int(gauge.value)) : String(gauge.value))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A label value as the text format writes it: backslash, quote and newline escaped.
    static func escaped(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }
}
