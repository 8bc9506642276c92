import PackServiceWire
import Base64
import CivilCalendar

/// Apple's verifyReceipt in this project's terms, both ways: the server's answer made from a
/// valid receipt, and a client's reading of Apple's answer back into a ``ReceiptPayload``.
extension AppleVerifyResponse {
    /// The response of a valid receipt: its purchases in `in_app`, and for one with subscriptions
    /// the latest receipt, every subscription transaction newest first, and the renewal state.
    /// `isAutoRenewable` tells a product identifier of the catalog's auto-renewables; `latest` is
    /// the account's receipt as it stands now (its bytes and payload), for one with subscriptions.
    public init(
        valid payload: ReceiptPayload, latest: (bytes: [UInt8], payload: ReceiptPayload)?, excludeOld: Bool, environment: ReceiptEnvironment,
        catalogVersion: Int, now: Int64, isAutoRenewable: @escaping (String) -> Bool
    ) {
        let inApp = { (transactions: [ReceiptPayload.Transaction]) in Self.inApp(transactions, isAutoRenewable: isAutoRenewable) }
        let receipt = AppleReceipt(
            receiptType: environment == .sandbox ? "ProductionSandbox" : "Production", bundleID: payload.bundleIdentifier,
            applicationVersion: String(catalogVersion), originalApplicationVersion: "1.0", created: AppleDate(payload.creationDate),
            requested: AppleDate(now), originalPurchase: AppleDate(payload.transactions.map(\.purchaseDate).min() ?? payload.creationDate),
            inApp: inApp(payload.transactions))
        guard let latest, latest.payload.transactions.contains(where: { isAutoRenewable($0.productID) }) else {
            self.init(status: ReceiptVerification.Status.valid.rawValue, environment: environment.rawValue, receipt: receipt)
            return
        }
        var periods = inApp(latest.payload.transactions.filter { isAutoRenewable($0.productID) }).sorted { Int64($0.purchaseDateMs) ?? 0 > Int64($1.purchaseDateMs) ?? 0 }
        if excludeOld {
            var seen: Set<String> = []
            periods = periods.filter { seen.insert($0.originalTransactionID).inserted }
        }
        let renewals = latest.payload.renewals.map { renewal in
            ApplePendingRenewal(
                productID: renewal.productID, originalTransactionID: TransactionID.number(ofRawValue: renewal.originalTransactionID), autoRenewProductID: renewal.autoRenewProductID,
                autoRenew: renewal.autoRenewStatus, inBillingRetry: renewal.isInBillingRetryPeriod, graceEnds: renewal.gracePeriodExpiresDate.map(AppleDate.init),
                expirationIntent: renewal.expirationIntent.map(AppleExpirationIntent.code(forEndReason:)))
        }
        self.init(
            status: ReceiptVerification.Status.valid.rawValue, environment: environment.rawValue, receipt: receipt, latestReceipt: Base64.encode(latest.bytes), latestReceiptInfo: periods,
            pendingRenewalInfo: renewals)
    }

    /// Each completed purchase as an `in_app` entry (failed and waiting ones are not purchases yet).
    static func inApp(_ transactions: [ReceiptPayload.Transaction], isAutoRenewable: (String) -> Bool) -> [AppleInApp] {
        let firstPurchase = Dictionary(transactions.map { ($0.id, $0.purchaseDate) }, uniquingKeysWith: { first, _ in first })
        let started = Set(transactions.filter { $0.originalTransactionID == $0.id }.map(\.purchaseDate))
        return transactions.filter { ["purchased", "delivered", "finished"].contains($0.state) }.map { transaction in
            let original = transaction.originalTransactionID ?? transaction.id
            let subscription = transaction.originalTransactionID != nil
            // An upgraded period ends when the next level's subscription starts.
            let upgraded = isAutoRenewable(transaction.productID)
                && transaction.revocationDate.map { started.contains($0) && $0 != transaction.purchaseDate } == true
            return AppleInApp(
                productID: transaction.productID, transactionID: TransactionID.number(ofRawValue: transaction.id), originalTransactionID: TransactionID.number(ofRawValue: original), quantity: transaction.quantity,
                purchased: AppleDate(transaction.purchaseDate), originalPurchase: AppleDate(firstPurchase[original] ?? transaction.purchaseDate),
                expires: transaction.expiresDate.map(AppleDate.init), cancelled: transaction.revocationDate.map(AppleDate.init),
                cancellationReason: upgraded ? nil : "0", isTrial: subscription ? (transaction.isTrial ?? false) : nil,
                webOrderLineItemID: isAutoRenewable(transaction.productID) ? TransactionID.number(ofRawValue: transaction.id) : nil,
                isUpgraded: upgraded)
        }
    }
}

/// Apple's `expiration_intent` and a subscription's end reason in the ledger, one table both
/// ways: `expired` (auto-renew was turned off) is 1, `billing` (a renewal could not be charged)
/// is 2. Apple has no code for a refund or an upgrade (5, "unknown"): a reader tells those from
/// the periods Apple lists (a cancellation date, `is_upgraded`).
public enum AppleExpirationIntent {
    static let codes: [(reason: String, code: String)] = [("expired", "1"), ("billing", "2")]
    /// Apple's "unknown error".
    static let unknown = "5"

    public static func code(forEndReason reason: String) -> String {
        codes.first { $0.reason == reason }?.code ?? unknown
    }

    /// The end reason a code stands for; for Apple's "unknown", read from the subscription's
    /// periods: the last one upgraded, or cancelled (a refund); `other` when neither tells.
    public static func endReason(forCode code: String, periods: [AppleInApp]) -> String {
        if let known = codes.first(where: { $0.code == code }) { return known.reason }
        let last = periods.max { (Int64($0.purchaseDateMs) ?? 0) < (Int64($1.purchaseDateMs) ?? 0) }
        if periods.contains(where: { $0.isUpgraded == "true" }) { return "upgraded" }
        if last?.cancellationDateMs != nil { return "refunded" }
        return "other"
    }
}

extension ReceiptPayload {
    /// The facts of Apple's `receipt` read back: each `in_app` purchase, with a subscription's
    /// original transaction, end and trial, and the renewal state of `pending_renewal_info`; each
    /// id in the form the ledger keeps it (Apple's shapes write its number).
    public init(apple receipt: AppleReceipt, environment: String?, renewals: [ApplePendingRenewal], latest: [AppleInApp] = []) {
        let transactions = receipt.inApp.map { entry in
            ReceiptPayload.Transaction(
                id: TransactionID.rawValue(ofNumber: entry.transactionID), productID: entry.productID, quantity: Int(entry.quantity) ?? 1, state: "finished",
                purchaseDate: Int64(entry.purchaseDateMs) ?? 0, revocationDate: entry.cancellationDateMs.flatMap { Int64($0) },
                originalTransactionID: entry.isTrialPeriod == nil ? nil : TransactionID.rawValue(ofNumber: entry.originalTransactionID), expiresDate: entry.expiresDateMs.flatMap { Int64($0) },
                isTrial: entry.isTrialPeriod.map { $0 == "true" })
        }
        self.init(
            bundleIdentifier: receipt.bundleID, creationDate: Int64(receipt.receiptCreationDateMs) ?? 0, transactions: transactions,
            environment: environment.flatMap(ReceiptEnvironment.init(rawValue:)) ?? .sandbox,
            renewals: renewals.map { renewal in
                ReceiptPayload.Renewal(
                    originalTransactionID: TransactionID.rawValue(ofNumber: renewal.originalTransactionID), productID: renewal.productID, autoRenewStatus: renewal.autoRenewStatus == "1",
                    autoRenewProductID: renewal.autoRenewProductID, isInBillingRetryPeriod: renewal.isInBillingRetryPeriod == "1",
                    gracePeriodExpiresDate: renewal.gracePeriodExpiresDateMs.flatMap { Int64($0) },
                    expirationIntent: renewal.expirationIntent.map { code in
                        AppleExpirationIntent.endReason(forCode: code, periods: (receipt.inApp + latest).filter { $0.originalTransactionID == renewal.originalTransactionID })
                    })
            })
    }
}
