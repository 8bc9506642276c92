/// The process's exit codes, from BSD's sysexits.h; documented in `hangman --help` and the README.
enum ExitCode: Int32 {
    /// Success.
    case ok = 0
    /// A usage error: unknown command or option, missing argument.
    case usage = 64
    /// Invalid data: a pack, plist, key or receipt that fails verification.
    case dataError = 65
    /// A file or folder named on the command line does not exist.
    case noInput = 66
    /// The store refused the payment.
    case storeRefused = 69
    /// An output file cannot be created.
    case cannotCreate = 73
    /// The state directory could not be read or written.
    case ioError = 74
    /// Try again later: the purchase waits for approval or for the buyer.
    case deferred = 75
    /// Not entitled: the pack is not purchased, or there are not enough hints.
    case notEntitled = 77
    /// Ended by Ctrl-C (128 + SIGINT), after saving.
    case interrupted = 130
}

/// Why a command failed, mapped to an exit code in one place (`Hangman.run`).
struct CommandFailure: Error {
    var code: ExitCode
    var message: String

    static func usage(_ message: String) -> CommandFailure { CommandFailure(code: .usage, message: message) }
    static func invalid(_ message: String) -> CommandFailure { CommandFailure(code: .dataError, message: message) }
    static func missing(_ message: String) -> CommandFailure { CommandFailure(code: .noInput, message: message) }
    static func cannotCreate(_ message: String) -> CommandFailure { CommandFailure(code: .cannotCreate, message: message) }
}
