import PackServiceAPI

/// A transaction as a person names it: its whole id (16 hex digits, as `transactions` shows
/// it), the id Apple's shapes give it (the account's id and then the transaction's, 32 digits),
/// or the first digits of either that only one of the account's transactions starts with.
struct TransactionName: Sendable, Equatable {
    let typed: String

    /// At least 4 hex digits, at most 32: anything else is no transaction's name (64).
    init(_ word: String) throws {
        let lowered = word.lowercased()
        guard (4...32).contains(lowered.utf8.count), lowered.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw CommandFailure.usage("'\(word.prefix(40))' is not a transaction id (16 hex digits, or its first few): see 'hangman transactions'")
        }
        typed = lowered
    }

    /// The transaction of `transactions` this names; an id the account does not have is passed
    /// on whole, for the store to say so.
    func resolve(in transactions: [StoreTransaction]) throws -> TransactionID {
        // Apple's form: the account's 16 digits, then the transaction's.
        let own = typed.utf8.count == 32 ? String(typed.suffix(16)) : typed
        if let exact = TransactionID(rawValue: own) { return exact }
        let matches = transactions.map(\.id).filter { $0.rawValue.hasPrefix(own) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw CommandFailure.usage("no transaction of this account starts with '\(typed)': see 'hangman transactions'")
        default:
            throw CommandFailure.usage("'\(typed)' starts \(matches.count) transactions' ids (\(matches.prefix(4).map(\.rawValue).joined(separator: ", "))): type more of it")
        }
    }
}
