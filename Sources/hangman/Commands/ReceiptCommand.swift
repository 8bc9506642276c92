import AppStore
import Base64
import CivilCalendar
import Device
import Messages
import PackServiceAPI
import PackServiceClient
import PackServiceWire
import SystemCalls
import TerminalText

/// `hangman receipt`, `hangman receipt verify FILE`
enum ReceiptCommand: Command {
    static let spec = CommandSpec(
        name: "hangman receipt",
        overview: "Write the account's signed receipt, or verify one.",
        usage: [
            "hangman receipt [--output <FILE>] [--json]",
            "hangman receipt verify <FILE> [--service <URL>] [--shared-secret-file <FILE>] [--json]",
            "hangman receipt app-transaction [--json]",
        ],
        takesWords: true,
        options: [
            .init(names: ["--output", "-o"], value: "FILE", help: "Write the receipt to FILE (a regular file, replaced atomically; - for standard output)."),
            .init(names: ["--json"], value: nil, help: "Print the receipt's contents (or the verification) as JSON."),
            .init(names: ["--shared-secret-file"], value: "FILE", help: "The pack server's shared secret, which a receipt with an auto-renewable subscription needs (first line); on the embedded store, its own is used."),
        ] + HomeContext.options,
        subcommands: [
            ("verify", "Check a receipt's signature, bundle, products and transaction ids."),
            (
                "app-transaction",
                "Print the account's app transaction as StoreKit's AppTransaction.shared gives it: Apple's AppTransaction, signed by the pack server's chain (a JWS; --json: its fields too)."
            ),
        ],
        discussion: """
            'receipt verify' checks a receipt with the home's store, or, with --service, at any pack
            server's Apple-compatible /verifyReceipt (no account needed), as a game's backend does.
            It prints a status as Apple's verifyReceipt does: 0 valid, 21002 malformed,
            21003 not authenticated (changed, signed by another key, or for another game), 21004 (a
            receipt with an auto-renewable subscription, without the server's shared secret), 21007 and
            21008 (a sandbox receipt sent to production, and the reverse), 21010 (the receipt's
            account is not the pack server's), 21005 (the pack server cannot check it now).
            Exit status: 0 only for status 0, 69 for 21005, 65 otherwise (or the file is not a regular file), 66 no such file;
            73 the output is not a regular file (a device, FIFO, socket or link) or cannot be written.
            """)

    /// The largest receipt file read: a receipt of thousands of transactions is well under it.
    static let receiptSizeLimit = 16 << 20

    enum Action {
        /// Write the account's receipt: to a file, or to standard output (`nil` or `-`).
        case write(output: String?)
        case verify(file: String, secretFile: String?)
        /// Print the signed app transaction.
        case appTransaction
    }

    static func options(_ parsed: ParsedArguments) throws -> ActionOptions<Action> {
        let action: Action
        switch parsed.positionals {
        case []: action = .write(output: parsed.value("--output"))
        case ["app-transaction"]: action = .appTransaction
        case let words where words.count == 2 && words[0] == "verify":
            guard !words[1].isEmpty else { throw CommandFailure.usage(L10n.text("'receipt verify' needs a <FILE>, not an empty path")) }
            action = .verify(file: words[1], secretFile: parsed.value("--shared-secret-file"))
        default: throw CommandFailure.usage(L10n.text("'receipt' takes no arguments, 'verify <FILE>' or 'app-transaction'"))
        }
        return ActionOptions(action, parsed)
    }

    static func run(_ options: ActionOptions<Action>, context: CommandContext) async throws -> ExitCode {
        // A receipt checked at a named server, as a backend does: no home, no account.
        if case .verify(let path, let secretFile) = options.action,
            let result = try await Home(folder: HomeContext.homeFolder(options.store, context: context)).verifyReceipt(
                try readReceipt(path), atNamedService: options.store.service ?? context.environment["HANGMAN_SERVICE"],
                password: try SharedSecretFile.read(secretFile)?.text, caFile: options.store.authorities(context))
        {
            return report(result, catalog: nil, json: options.json, context: context)
        }
        let store = try await HomeContext.open(options.store, context: context)
        let service = store.service
        switch options.action {
        case .write(let output):
            let receipt = try await service.receipt()
            if let path = output, path != "-" {
                try OutputFile.write(receipt.bytes, to: path, what: "the receipt")
                let count = receipt.payload.transactions.count
                context.out(TerminalText(escaping: L10n.plural("wrote %2$s: %1$d transaction, signed", "wrote %2$s: %1$d transactions, signed", count, path)))
            } else if options.json {
                context.out(JSONText.encode(ReceiptJSON(receipt.payload)))
            } else {
                context.outBytes(receipt.bytes)
            }
            return .ok
        case .appTransaction:
            let signed = try await service.signedAppTransaction()
            guard options.json else {
                context.out(TerminalText(escaping: signed))
                return .ok
            }
            // Its fields, as the JWS's payload holds them (read as Apple's AppTransaction, nothing else).
            let parts = signed.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let bytes = Base64.decodeURL(parts[1]), let fields = try? Wire.decode(AppStoreAppTransaction.self, from: bytes) else {
                throw ServiceError(.unavailable, "the pack server answered a signed app transaction that is not Apple's AppTransaction")
            }
            context.out(JSONText.encode(SignedAppTransactionJSON(signedAppTransactionInfo: signed, appTransaction: fields)))
            return .ok
        case .verify(let path, let secretFile):
            // Without a secret file, the embedded store's own secret (it is the home's to use).
            let given = try SharedSecretFile.read(secretFile)?.text
            let password: String? = if let given { given } else { await service.ownSharedSecret()?.text }
            let result = await service.verifyReceipt(try readReceipt(path), password: password)
            return report(result, catalog: store.catalog, json: options.json, context: context)
        }
    }

    private static func readReceipt(_ path: String) throws -> [UInt8] {
        do {
            return try FileSystem.readFile(atPath: path, limit: receiptSizeLimit)
        } catch .system(.noSuchFile, _, _) {
            throw CommandFailure.missing(L10n.text("no such receipt file '%s'", path))
        } catch {
            throw CommandFailure.invalid(L10n.text("cannot read the receipt: %s", error))
        }
    }

    /// The status in words and each purchase, or the JSON; the exit status it means.
    private static func report(_ result: ReceiptVerification, catalog: Catalog?, json: Bool, context: CommandContext) -> ExitCode {
        if json {
            context.out(JSONText.encode(VerificationJSON(status: result.status.rawValue, message: result.message, receipt: result.payload.map(ReceiptJSON.init))))
        } else {
            context.out(TerminalText(escaping: "status \(result.status.rawValue): \(result.message)"))
            for transaction in result.status == .valid ? result.payload?.transactions ?? [] : [] {
                context.out(TerminalText(escaping: "  " + Self.fact(transaction, catalog: catalog, prices: PriceText(environment: context.environment))))
            }
        }
        switch result.status {
        case .valid: return .ok
        case .temporarilyUnavailable: return .storeRefused
        default: return .dataError
        }
    }
}

extension ReceiptCommand {
    /// One purchase of a verified receipt: `TX  date  product  (until ..., trial, refunded ...)`.
    static func fact(_ transaction: ReceiptPayload.Transaction, catalog: Catalog?, prices: PriceText) -> String {
        let name = ProductID(rawValue: transaction.productID).flatMap { id in catalog.map { StoreText.productName(id, catalog: $0) } } ?? transaction.productID
        var notes: [String] = []
        if transaction.quantity > 1 { notes.append("x\(transaction.quantity)") }
        if let price = transaction.price, let currency = transaction.currency, let money = Money(decimal: price, currency: currency) {
            notes.append(prices.format(money) + (transaction.storefront.map { " in \($0)" } ?? ""))
        }
        if transaction.isTrial == true { notes.append("free trial") }
        if let expires = transaction.expiresDate { notes.append("until \(StoreText.date(expires))") }
        if let revoked = transaction.revocationDate { notes.append("cancelled \(StoreText.date(revoked))") }
        return "\(TransactionID.number(ofRawValue: transaction.id))  \(StoreText.date(transaction.purchaseDate))  \(name)" + (notes.isEmpty ? "" : "  (" + notes.joined(separator: ", ") + ")")
    }
}

/// `receipt app-transaction --json`: the JWS, and its fields.
struct SignedAppTransactionJSON: Encodable {
    var signedAppTransactionInfo: String
    var appTransaction: AppStoreAppTransaction
}
