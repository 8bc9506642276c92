import PackServiceAPI
import Messages

/// A transaction as a person names it: its number (as `transactions`, receipts and Apple's shapes
/// show it) or its first digits when only one of the account's transactions starts with them; or
/// a form older versions showed: 16 hex digits (the ledger's), or the 32 Apple's shapes gave
/// (the account's 16, then the transaction's), or their first digits.
struct TransactionName: Sendable, Equatable {
    let typed: String

    /// At least 4 digits (decimal or hex), at most 32: anything else is no transaction's name (64).
    init(_ word: String) throws {
        let lowered = word.lowercased()
        guard (4...32).contains(lowered.utf8.count), lowered.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw CommandFailure.usage(L10n.text("'%s' is not a transaction id (its number, or its first few digits): see 'hangman transactions'", word.prefix(40)))
        }
        typed = lowered
    }

    /// The transaction of `transactions` this names; an id the account does not have is passed
    /// on whole, for the store to say so. Digits alone are read as a number first, then as the
    /// older hex form.
    func resolve(in transactions: [StoreTransaction]) throws -> TransactionID {
        let ids = transactions.map(\.id)
        let isDecimal = typed.utf8.allSatisfy { (0x30...0x39).contains($0) }
        if isDecimal {
            let numbered = ids.filter { $0.number.hasPrefix(typed) }
            if let exact = numbered.first(where: { $0.number == typed }) { return exact }
            if numbered.count > 1 { throw ambiguous(numbered) }
            if let only = numbered.first { return only }
        }
        // The older forms: Apple's 32 (the account's 16 digits, then the transaction's), or the ledger's 16.
        let own = typed.utf8.count == 32 ? String(typed.suffix(16)) : typed
        if let exact = TransactionID(rawValue: own), ids.contains(exact) { return exact }
        let matches = ids.filter { $0.rawValue.hasPrefix(own) }
        switch matches.count {
        case 1: return matches[0]
        case 0:
            // Not the account's: passed on whole when it is an id, for the store to say so.
            if isDecimal, let number = TransactionID(number: typed), typed.utf8.count >= 16 { return number }
            if let exact = TransactionID(rawValue: own) { return exact }
            throw CommandFailure.usage(L10n.text("no transaction of this account starts with '%s': see 'hangman transactions'", typed))
        default: throw ambiguous(matches)
        }
    }

    private func ambiguous(_ matches: [TransactionID]) -> CommandFailure {
        .usage("'\(typed)' starts \(matches.count) transactions' ids (\(matches.prefix(4).map(\.number).joined(separator: ", "))): type more of it")
    }
}
