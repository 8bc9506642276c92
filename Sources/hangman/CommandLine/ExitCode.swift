import Device
import Messages
import PackServiceAPI
import Signing
import SystemCalls
import WordPacks

/// The process's exit codes, from BSD's sysexits.h; documented in `hangman --help`, the manual page and docs/exit-codes.md.
enum ExitCode: Int32 {
    /// Success.
    case ok = 0
    /// The question was answered no (`buy` on a terminal, `store clear`): nothing was done.
    case declined = 1
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
    /// Standard output is a pipe whose reader has gone (128 + SIGPIPE): a quiet end, as `git log | head`'s.
    case closedPipe = 141
}

extension ExitCode {
    /// The one table of exit codes and what each means: `hangman --help` and the manual page are
    /// made from it, and a test holds docs/exit-codes.md's table to it.
    static let table: [(code: ExitCode, meaning: String)] = [
        (.ok, #"success"#),
        (.declined, #"a question was answered no (`buy`, `store clear`, or `account create` and `account login` on a home that plays on the embedded store, on a terminal): nothing was done"#),
        (.usage, #"usage error: unknown command, option, product, pack or transaction; cancelling a subscription the account does not have; an empty path (`--home ""`, `HANGMAN_HOME=`); a command that names another store than the home's (`--service` on a home that plays on the embedded store, `--packs` on a home bound to a pack server); an offer the store refuses to read (`invalidOfferSignature`, `invalidOfferIdentifier`, `invalidOfferPrice`)"#),
        (.dataError, #"invalid data: a pack, catalog, property list, key or receipt that fails verification, an archive that is not the one the catalog records, a pack server whose answers are not signed with the home's pinned key, or a file named to be read that is not a regular file; a step the purchase's state refuses (a refund of what is refunded, declined before or charged nothing; an offer the account is not eligible for, `ineligibleForOffer`)"#),
        (.noInput, #"missing input: a file or folder named on the command line does not exist (or the packs folder is not a folder)"#),
        (.storeRefused, #"the store refused the payment, purchases are turned off on this device (`store payments off`), the product is unavailable (its pack is missing or damaged; also `install`, and `restore` when a pack could not be restored), or the pack server (or, for `serve`, its database) cannot be reached: `hints` then prints the last balance the server signed, with its time; also a server that asks to wait (too many requests, with when to try again) or does not offer what was asked (test controls on a server without them); the daily word already played today, a display name another player has, and the daily word, leaderboards, a name or a signed app transaction on a home without a pack server at hand"#),
        (.cannotCreate, #"an output file cannot be created, or is not a regular file: a device, FIFO, socket, folder or link is left as it is (`-o -` writes to standard output); `account create` on a home that already has an account"#),
        (.ioError, #"the state directory cannot be read or written, a state database is damaged, or a write to standard output or standard error failed"#),
        (.deferred, #"try again later: the purchase waits for approval or for the buyer, a purchase of the same pack is already in progress, or a storefront move waits for a subscription's end or for the days between two moves"#),
        (.notEntitled, #"not entitled: the pack is not purchased (or the subscription that opened it ended), not enough hints, or this device's token was revoked (or its account closed): `account login` signs it in again"#),
        (.interrupted, #"a game ended by Ctrl-C (it is saved)"#),
        (.closedPipe, #"standard output is a pipe whose reader has gone (`hangman transactions` read by `head -1`): the command stops writing, and says nothing"#),
    ]

    /// The `EXIT CODES:` section of `hangman --help`: each row wrapped at `width`, continued
    /// under its meaning; the documentation's backquotes dropped.
    static func helpSection(width: Int = 100) -> String {
        var lines = ["EXIT CODES:"]
        for (code, meaning) in table {
            let label = "  " + String(code.rawValue).padded(to: 4)
            var line = label
            var atStart = true
            for word in meaning.replacing("`", with: "").split(separator: " ") {
                if !atStart, line.count + 1 + word.count > width {
                    lines.append(line)
                    line = String(repeating: " ", count: label.count + 2)
                } else if !atStart {
                    line += " "
                }
                line += word
                atStart = false
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

/// Why a command failed: an exit code and the words for standard error.
struct CommandFailure: Error {
    var code: ExitCode
    var message: String
    /// Lines printed under the message, one each (the problems of a pack).
    var details: [String] = []
    /// A usage error of the command line, which names the command's help; a value the store
    /// refused (an unknown product, a duration past its clock's end) is said by the store's message alone.
    var namesHelp = true

    /// What a device whose token the service no longer accepts does next.
    static let signedOutAdvice = [
        "This device is signed out. On a device still on the account, 'hangman account token' prints its token;",
        "then here: HANGMAN_TOKEN=<that token> hangman account login --service URL (or type it when asked).",
        "If the account was closed, 'hangman account create --service URL --home DIR' makes a new one in another home.",
    ]

    static func usage(_ message: String) -> CommandFailure { CommandFailure(code: .usage, message: message) }
    static func invalid(_ message: String) -> CommandFailure { CommandFailure(code: .dataError, message: message) }
    static func missing(_ message: String) -> CommandFailure { CommandFailure(code: .noInput, message: message) }
    static func cannotCreate(_ message: String) -> CommandFailure { CommandFailure(code: .cannotCreate, message: message) }
    static func storage(_ message: String) -> CommandFailure { CommandFailure(code: .ioError, message: message) }

    /// A failure to read or write state, when the home cannot be written by this user, said as
    /// that: which folder, why, and what to do, with what failed after it.
    func explainingHome(_ home: String?) -> CommandFailure {
        guard code == .ioError, let home, let refusal = Home(folder: home).writeRefusal() else { return self }
        return .unwritableHome(home, refusal, failed: message)
    }

    private static func unwritableHome(_ home: String, _ refusal: (path: String, errno: Errno), failed: String) -> CommandFailure {
        let why = refusal.errno == .readOnlyFileSystem
            ? L10n.text("%s is on a read-only file system", refusal.path)
            : L10n.text("this user may not write to %s (%s)", refusal.path, refusal.errno)
        let exists = FileSystem.exists(atPath: home)
        let advice = exists
            ? [L10n.text("Give this user write access to it ('chown', or 'chmod -R u+w %s'), or choose another home with --home DIR or HANGMAN_HOME.", home),
               L10n.text("What only reads still works here: 'hangman packs', 'products', 'transactions'.")]
            : [L10n.text("Let this user write to %s, or choose another home with --home DIR or HANGMAN_HOME.", refusal.path)]
        return CommandFailure(code: .ioError, message: L10n.text("cannot write to the home %s: %s", home, why), details: advice + ["(\(failed))"])
    }

    /// A write to standard output or standard error failed.
    static func writeFailed(_ stream: String, _ errno: Errno) -> CommandFailure {
        // The reader of a pipe went away (`| head -1`): nothing is wrong, and nothing is said.
        if errno == .brokenPipe, stream == "standard output" { return CommandFailure(code: .closedPipe, message: "") }
        return .storage("cannot write to \(stream): \(errno)")
    }
}

extension CommandFailure {
    /// The one mapping from what a command can throw to an exit code and a message.
    init(_ error: any Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure
        case let error as SigningError:
            self.init(signing: error)
        case let error as PackBuildError:
            self.init(packSource: error)
        case let error as PlayerError:
            switch error {
            case .store(let store): self.init(store)
            case .device(let device): self.init(device)
            }
        case let error as ServiceError:
            switch error.kind {
            case .unknownProduct, .notFound, .invalidRequest, .unknownTransaction:
                self = CommandFailure(code: .usage, message: error.message, namesHelp: false)
            case .wrongState: self = .invalid(error.message)
            case .notEnoughHints, .notEntitled: self.init(code: .notEntitled, message: error.message)
            case .productUnavailable: self.init(code: .storeRefused, message: error.message)
            case .purchaseInProgress, .notYet: self.init(code: .deferred, message: error.message)
            case .storage: self.init(code: .ioError, message: error.message)
            case .unavailable, .rateLimited, .notOffered: self.init(code: .storeRefused, message: error.message)
            case .unauthorized: self.init(code: .notEntitled, message: error.message, details: Self.signedOutAdvice)
            case .untrusted: self = .invalid(error.message)
            }
        case let error as DeviceError:
            switch error.kind {
            case .notEntitled: self.init(code: .notEntitled, message: error.message)
            case .unavailable, .paymentsNotAllowed: self.init(code: .storeRefused, message: error.message)
            case .unknownPack, .notInstalled: self = .usage(error.message)
            case .invalidPack:
                self = CommandFailure(code: .dataError, message: error.message, details: error.problems.prefix(10).map(\.description))
            case .olderVersion: self = .invalid(error.message)
            case .storage: self.init(code: .ioError, message: error.message)
            }
        default:
            self.init(code: .ioError, message: "\(error)")
        }
    }
}
