import Synchronization
import SystemCalls
import Testing

@Suite struct ParallelTests {
    @Test func bothReturnsBothResults() {
        let numbers = Array(1...100_000)
        let (low, high) = Parallel.both({ numbers[..<50_000].reduce(0, +) }, { numbers[50_000...].reduce(0, +) })
        #expect(low == 1_250_025_000)
        #expect(high == 3_750_025_000)
    }

    @Test func bothLetsEachHalfWriteItsOwnMemory() {
        var left = [Int](repeating: 0, count: 10_000)
        var right = [Int](repeating: 0, count: 10_000)
        _ = Parallel.both({ for index in left.indices { left[index] = index } }, { for index in right.indices { right[index] = -index } })
        #expect(left == Array(0..<10_000))
        #expect(right == (0..<10_000).map { -$0 })
    }

    /// Bytes arrive whole and in order, whatever the blocks' sizes against the chunks' (a chunk
    /// of 7 bytes, two of them: the producer waits on the consumer over and over).
    @Test(arguments: [(7, 2), (64, 3), (256 * 1024, 4)])
    func aPipelineDeliversEveryByteInOrder(_ chunkSize: Int, _ chunks: Int) {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<200_003).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let pipeline = BlockPipeline(chunkSize: chunkSize, chunks: chunks, state: [UInt8]()) { collected, block in collected.append(contentsOf: block) }
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + Int.random(in: 0...5_000, using: &generator))
            bytes[offset..<end].withUnsafeBytes { pipeline.write($0) }
            offset = end
        }
        #expect(pipeline.finish() == bytes)
    }

    @Test func aPipelineWithNothingWrittenFinishesWithItsFirstState() {
        let pipeline = BlockPipeline(state: 41) { count, block in count += block.count }
        #expect(pipeline.finish() == 41)
    }

    /// A pipeline dropped before `finish` (a read that failed halfway) consumes what it was given
    /// and ends its thread: nothing waits forever.
    @Test func aPipelineDroppedUnfinishedEndsItsThread() {
        let consumed = Atomic<Int>(0)
        do {
            let pipeline = BlockPipeline(chunkSize: 16, chunks: 2, state: ()) { _, block in consumed.add(block.count, ordering: .relaxed) }
            let bytes = [UInt8](repeating: 1, count: 1_000)
            bytes.withUnsafeBytes { pipeline.write($0) }
        }
        #expect(consumed.load(ordering: .relaxed) == 1_000)
    }
}
