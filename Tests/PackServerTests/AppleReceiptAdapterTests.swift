import AppStore
import PackServiceWire
import Testing

/// Apple's verifyReceipt shapes both ways, from one adapter: what the server writes, a client
/// reads back as it was (a refund and an upgrade came back as 'other').
@Suite struct AppleReceiptAdapterTests {
    private let monthly = "com.hangmanpacks.pass.monthly", yearly = "com.hangmanpacks.pass.yearly"

    /// Four subscriptions, each ended (or not) another way: every end reason survives the round trip.
    @Test func everyEndReasonSurvivesTheRoundTrip() throws {
        let day: Int64 = 86_400_000
        func period(_ id: String, _ product: String, start: Int64, revoked: Int64? = nil, original: String? = nil) -> ReceiptPayload.Transaction {
            ReceiptPayload.Transaction(
                id: id, productID: product, quantity: 1, state: "finished", purchaseDate: start, revocationDate: revoked,
                originalTransactionID: original ?? id, expiresDate: start + 30 * day, isTrial: false, price: "2.99", currency: "USD", storefront: "USA")
        }
        let transactions = [
            period("00000000000000a1", monthly, start: 1 * day),
            period("00000000000000b1", monthly, start: 2 * day),
            period("00000000000000c1", monthly, start: 3 * day, revoked: 4 * day),
            period("00000000000000d1", monthly, start: 5 * day, revoked: 9 * day),
            period("00000000000000e1", yearly, start: 9 * day),
        ]
        let reasons = ["00000000000000a1": "expired", "00000000000000b1": "billing", "00000000000000c1": "refunded", "00000000000000d1": "upgraded"]
        let renewals = reasons.sorted { $0.key < $1.key }.map { id, reason in
            ReceiptPayload.Renewal(
                originalTransactionID: id, productID: monthly, autoRenewStatus: false, autoRenewProductID: monthly, isInBillingRetryPeriod: false,
                gracePeriodExpiresDate: nil, expirationIntent: reason)
        }
        let payload = ReceiptPayload(bundleIdentifier: "com.hangmanpacks.hangman", creationDate: 10 * day, transactions: transactions, renewals: renewals)
        let answer = AppleVerifyResponse(
            valid: payload, latest: ([1, 2, 3], payload), excludeOld: false, environment: .production, catalogVersion: 1, now: 10 * day,
            isAutoRenewable: { [monthly, yearly].contains($0) })
        #expect(answer.environment == "Production")
        #expect(answer.pendingRenewalInfo?.map(\.expirationIntent) == ["1", "2", "5", "5"], "Apple's codes")
        let read = ReceiptPayload(
            apple: try #require(answer.receipt), environment: answer.environment, renewals: answer.pendingRenewalInfo ?? [],
            latest: answer.latestReceiptInfo ?? [])
        #expect(read.environment == .production)
        for renewal in read.renewals {
            #expect(renewal.expirationIntent == reasons[renewal.originalTransactionID], "\(renewal.originalTransactionID)")
        }
    }
}
