import Foundation

/// Whether `condition` holds within `seconds`, asked every 20 ms: what a test waits for instead
/// of sleeping a fixed time. `false` once the deadline passes, for the test to fail on.
public func eventually(within seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while true {
        if try condition() { return true }
        if DispatchTime.now().uptimeNanoseconds >= deadline { return false }
        usleep(20_000)
    }
}

/// ``eventually(within:_:)`` without holding a thread of the concurrency pool.
public func eventually(within seconds: Double = 10, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while true {
        if try await condition() { return true }
        if DispatchTime.now().uptimeNanoseconds >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
}
