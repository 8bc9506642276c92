import Foundation
import Synchronization
import SystemCalls
import Testing

@Suite struct ThreadPoolTests {
    /// 10,000 jobs given from four threads at once over 3 pool threads: each runs exactly once.
    @Test func everyJobGivenRunsOnce() {
        let pool = ThreadPool(threads: 3)!
        let runs = Mutex([Int](repeating: 0, count: 10_000))
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.concurrentPerform(iterations: 4) { part in
            for index in stride(from: part, to: 10_000, by: 4) {
                pool.submit(ThreadPool.Job(
                    run: {
                        runs.withLock { $0[index] += 1 }
                        done.signal()
                    },
                    cancel: { Issue.record("job \(index) was cancelled") }))
            }
        }
        for _ in 0..<10_000 { #expect(done.wait(timeout: .now() + 30) == .success) }
        pool.stop()
        #expect(runs.withLock { $0 } == [Int](repeating: 1, count: 10_000))
        #expect(pool.queued == 0)
    }

    /// A stop while its one thread is held: the job running finishes, the ones waiting are
    /// cancelled, and a job given after the stop is cancelled at once.
    @Test func stopCancelsWhatHasNotStartedAndWaitsForWhatRuns() {
        let pool = ThreadPool(threads: 1)!
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let outcomes = Mutex<[String]>([])
        pool.submit(ThreadPool.Job(
            run: {
                entered.signal()
                _ = release.wait(timeout: .now() + 20)
                outcomes.withLock { $0.append("ran first") }
            },
            cancel: { outcomes.withLock { $0.append("cancelled first") } }))
        #expect(entered.wait(timeout: .now() + 10) == .success)
        for name in ["second", "third"] {
            pool.submit(ThreadPool.Job(run: { outcomes.withLock { $0.append("ran \(name)") } }, cancel: { outcomes.withLock { $0.append("cancelled \(name)") } }))
        }
        #expect(pool.queued == 2)
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            pool.stop()
            stopped.signal()
        }.start()
        // The stop waits for the job running: not returned while it is held.
        #expect(stopped.wait(timeout: .now() + 0.3) == .timedOut)
        release.signal()
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        pool.submit(ThreadPool.Job(run: { outcomes.withLock { $0.append("ran late") } }, cancel: { outcomes.withLock { $0.append("cancelled late") } }))
        #expect(outcomes.withLock { $0 }.sorted() == ["cancelled late", "cancelled second", "cancelled third", "ran first"])
    }
}
