internal import CSodium

/// Secret key material in memory this module owns: locked out of swap where the system allows
/// (`sodium_mlock`), wiped when released (`sodium_munlock` zeroes before unlocking).
///
/// `@unchecked Sendable`: the bytes are written only inside `init` and only read afterwards.
final class SecretBytes: @unchecked Sendable {
    private let pointer: UnsafeMutablePointer<UInt8>
    private let count: Int

    /// Allocates `count` zeroed bytes and lets `initialize` fill them.
    init(count: Int, _ initialize: (UnsafeMutablePointer<UInt8>) -> Void) {
        pointer = .allocate(capacity: count)
        pointer.initialize(repeating: 0, count: count)
        self.count = count
        // Best effort: a low RLIMIT_MEMLOCK makes this fail, and the key still works.
        _ = sodium_mlock(pointer, count)
        initialize(pointer)
    }

    deinit {
        sodium_munlock(pointer, count)
        pointer.deallocate()
    }

    /// Calls `body` with a pointer to the bytes, valid only during the call.
    func withBytes<R>(_ body: (UnsafePointer<UInt8>) -> R) -> R {
        body(pointer)
    }
}
