import PackServiceAPI

/// The hint balance as a player is shown it: current, or the last one the pack server signed
/// when it cannot be reached (with when it signed it). Never a number made up for a failure.
public struct HintCount: Sendable, Equatable {
    public var hints: Int
    /// When the server signed `hints`, if the count is not current.
    public var signedAt: Int64?
    /// Why the count is not current: the pack server cannot be reached.
    public var offline: ServiceError?

    public init(hints: Int, signedAt: Int64? = nil, offline: ServiceError? = nil) {
        self.hints = hints
        self.signedAt = signedAt
        self.offline = offline
    }

    public var isCurrent: Bool { offline == nil }

    /// Asks `service`; when it cannot be reached, the last balance it signed. Throws when there
    /// is none, or for any other failure.
    public static func read(from service: any PackService) async throws(ServiceError) -> HintCount {
        do {
            return HintCount(hints: try await service.hintBalance())
        } catch where error.kind == .unavailable {
            guard let last = service.lastSignedHintBalance() else { throw error }
            return HintCount(hints: last.hints, signedAt: last.issued, offline: error)
        }
    }

    /// The same count, as it was, now that a request found the server gone.
    public func markedOffline(_ error: ServiceError) -> HintCount {
        HintCount(hints: hints, signedAt: signedAt, offline: error)
    }
}
