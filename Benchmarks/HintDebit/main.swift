// Times durable hint debits through the Store library: each `spendHint` is its own
// BEGIN IMMEDIATE ... COMMIT with synchronous=FULL. Prints one JSON line of per-debit times.
//
// Usage: hint-debit-bench PACKS_DIR STATE_DIR [COUNT]
#if canImport(Glibc)
import Glibc
#endif
import Seller
import WordPacks

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    complain("usage: hint-debit-bench PACKS_DIR STATE_DIR [COUNT]")
    exit(64)
}
let count = arguments.count > 3 ? Int(arguments[3]) ?? 1000 : 1000

/// Writes to standard error without touching C's `stderr` global (not concurrency-safe in Swift 6).
func complain(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func nowNanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}

do {
    let catalog = try Catalog.load(folder: arguments[1])
    let service = try AccountService(catalog: catalog, packsFolder: arguments[1], accountFolder: arguments[2] + "/account")
    guard let product = catalog.products.filter(\.isConsumable).max(by: { a, b in
        if case .consumable(let x) = a.kind, case .consumable(let y) = b.kind { return x < y }
        return false
    }), case .consumable(let each) = product.kind else {
        complain("the catalog sells no hints")
        exit(65)
    }
    while try service.hintBalance() < count {
        _ = try service.buy(product.id, quantity: min(10, max(1, (count - (try service.hintBalance())) / each + 1)))
    }
    var times: [Int64] = []
    times.reserveCapacity(count)
    for index in 0..<count {
        let start = nowNanoseconds()
        _ = try service.spendHint(idempotencyKey: "bench-\(index)")
        times.append(nowNanoseconds() - start)
    }
    times.sort()
    let median = times[times.count / 2]
    let p90 = times[times.count * 9 / 10]
    print("{\"count\": \(count), \"median_us\": \(Double(median) / 1000), \"p90_us\": \(Double(p90) / 1000), \"total_s\": \(Double(times.reduce(0, +)) / 1e9)}")
} catch {
    complain("error: \(error)")
    exit(70)
}
