import WordPacks

/// Why the device could not do what was asked.
public struct DeviceError: Error, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case notEntitled = "not-entitled"
        case unknownPack = "unknown-pack"
        case invalidPack = "invalid-pack"
        case olderVersion = "older-version"
        case notInstalled = "not-installed"
        /// The pack's archive is missing or damaged at the service: it cannot be installed now.
        case unavailable
        /// Purchases are turned off on this device (`store payments off`).
        case paymentsNotAllowed = "payments-not-allowed"
        case storage
    }

    public var kind: Kind
    public var message: String
    /// The verification problems, for an invalid pack.
    public var problems: [PackProblem]

    public init(_ kind: Kind, _ message: String, problems: [PackProblem] = []) {
        self.kind = kind
        self.message = message
        self.problems = problems
    }

    public var description: String { message }
}
