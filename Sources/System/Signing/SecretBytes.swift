internal import SystemCalls

/// Secret key material in memory this module owns: locked out of swap where the system allows
/// (`SecretMemory.lock`), wiped (`SecretMemory.wipe`) and unlocked when released.
///
/// `@unchecked Sendable`: the bytes are written only inside `init` and only read afterwards.
final class SecretBytes: @unchecked Sendable {
    private let pointer: UnsafeMutablePointer<UInt8>
    private let count: Int
    private let isLocked: Bool

    /// Allocates `count` zeroed bytes and lets `initialize` fill them.
    init(count: Int, _ initialize: (UnsafeMutablePointer<UInt8>) -> Void) {
        pointer = .allocate(capacity: count)
        pointer.initialize(repeating: 0, count: count)
        self.count = count
        // Best effort: a low RLIMIT_MEMLOCK makes this fail, and the key still works.
        isLocked = SecretMemory.lock(UnsafeMutableRawPointer(pointer), count: count)
        initialize(pointer)
    }

    deinit {
        SecretMemory.wipe(UnsafeMutableRawPointer(pointer), count: count)
        if isLocked { SecretMemory.unlock(UnsafeMutableRawPointer(pointer), count: count) }
        pointer.deallocate()
    }

    /// Calls `body` with a pointer to the bytes, valid only during the call.
    func withBytes<R>(_ body: (UnsafePointer<UInt8>) -> R) -> R {
        body(pointer)
    }
}
