import Testing
@testable import SystemCalls

/// The read and write loops, driven by scripted calls: short counts, `EINTR`, failures.
@Suite struct ShortTransferTests {
    /// One scripted `read(2)`/`write(2)` result after another.
    final class Script {
        var steps: [Result<Int, Errno>]
        var calls = 0
        init(_ steps: [Result<Int, Errno>]) { self.steps = steps }
        func next() -> Result<Int, Errno> {
            calls += 1
            return steps.isEmpty ? .success(0) : steps.removeFirst()
        }
    }

    @Test func shortReadsAndInterruptionsStillFillTheBuffer() throws {
        let source = Array("abcdefghij".utf8)
        var offset = 0
        let script = Script([.success(3), .failure(.interrupted), .success(4), .failure(.interrupted), .success(3)])
        var buffer = [UInt8](repeating: 0, count: 10)
        let count = try buffer.withUnsafeMutableBytes { destination in
            try fill(destination) { piece in
                let result = script.next()
                if case .success(let count) = result {
                    source.withUnsafeBytes { piece.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count])) }
                    offset += count
                }
                return result
            }
        }
        #expect(count == 10)
        #expect(buffer == source)
        #expect(script.calls == 5)
    }

    @Test func aReadStopsAtTheEndOfInput() throws {
        var buffer = [UInt8](repeating: 0, count: 10)
        let count = try buffer.withUnsafeMutableBytes { try fill($0) { _ in Script([]).next() } }
        #expect(count == 0)
    }

    @Test func aReadFailureOtherThanEINTRIsThrown() {
        var buffer = [UInt8](repeating: 0, count: 10)
        let script = Script([.success(2), .failure(.ioError)])
        #expect(throws: Errno.ioError) {
            try buffer.withUnsafeMutableBytes { buffer in try fill(buffer) { _ in script.next() } }
        }
    }

    @Test func shortWritesAndInterruptionsStillWriteEverything() throws {
        let bytes = Array("abcdefghij".utf8)
        var received: [UInt8] = []
        let script = Script([.success(1), .failure(.interrupted), .success(6), .success(3)])
        try bytes.withUnsafeBytes { buffer in
            try drain(buffer) { piece in
                let result = script.next()
                if case .success(let count) = result { received += piece.prefix(count) }
                return result
            }
        }
        #expect(received == bytes)
        #expect(script.calls == 4)
    }

    @Test func aWriteThatTakesNothingFailsInsteadOfSpinning() {
        let script = Script([.success(0)])
        #expect(throws: Errno.ioError) {
            try [UInt8](repeating: 1, count: 4).withUnsafeBytes { buffer in try drain(buffer) { _ in script.next() } }
        }
        #expect(script.calls == 1)
    }

    @Test func aFullDiskIsThrown() {
        let script = Script([.success(2), .failure(.noSpace)])
        #expect(throws: Errno.noSpace) {
            try [UInt8](repeating: 1, count: 4).withUnsafeBytes { buffer in try drain(buffer) { _ in script.next() } }
        }
    }
}
