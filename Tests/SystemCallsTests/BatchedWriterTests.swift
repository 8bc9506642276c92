import Synchronization
import SystemCalls
import Testing

/// The server's log in batches: nothing written until a flush or the limit, every byte once and in
/// order, from many threads at once.
@Suite struct BatchedWriterTests {
    final class Sink: Sendable {
        let writes = Mutex<[[UInt8]]>([])
        func write(_ bytes: [UInt8]) { writes.withLock { $0.append(bytes) } }
        var all: [UInt8] { writes.withLock { $0.flatMap { $0 } } }
        var count: Int { writes.withLock { $0.count } }
    }

    @Test func linesWaitForAFlushOrTheLimit() {
        let sink = Sink()
        let writer = BatchedWriter(limit: 10) { sink.write($0) }
        writer.append(Array("abc\n".utf8))
        writer.append(Array("def\n".utf8))
        #expect(sink.count == 0)
        writer.flush()
        #expect(sink.count == 1 && sink.all == Array("abc\ndef\n".utf8))
        writer.flush()
        #expect(sink.count == 1)
        // The limit writes at once, what waited first.
        writer.append(Array("0123456789".utf8))
        #expect(sink.count == 2 && sink.all == Array("abc\ndef\n0123456789".utf8))
    }

    @Test func manyThreadsLoseNoLineAndSplitNone() async {
        let sink = Sink()
        let writer = BatchedWriter(limit: 512) { sink.write($0) }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    for line in 0..<500 {
                        writer.append(Array("\(thread) \(line)\n".utf8))
                        if line % 97 == 0 { writer.flush() }
                    }
                }
            }
        }
        writer.flush()
        let lines = String(decoding: sink.all, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 8 * 500 && Set(lines).count == 8 * 500)
        // Each thread's lines in the order it wrote them.
        for thread in 0..<8 {
            let own = lines.filter { $0.hasPrefix("\(thread) ") }.map { Int($0.split(separator: " ")[1])! }
            #expect(own == Array(0..<500))
        }
    }
}
