import AppStore
import Seller
import Testing
import TestSupport

/// A transaction's offer in Apple's fields: 1 the introductory free trial, 2 a promotional offer,
/// 4 a win-back offer, with the offer's discount type and period.
@Suite struct OfferTypeTests {
    @Test(arguments: [
        (nil as String?, true, 1 as Int?, "FREE_TRIAL" as String?, "P1W" as String?),
        ("comeback-3-months", false, 2, "PAY_AS_YOU_GO", "P3M"),
        ("welcome-back-free-month", true, 4, "FREE_TRIAL", "P1M"),
        (nil, false, nil, nil, nil),
    ])
    func anOfferIsToldAsApplesFields(_ offer: String?, _ isTrial: Bool, _ type: Int?, _ discount: String?, _ period: String?) throws {
        let catalog = try Catalog.load(folder: HangmanBinary.packageRoot.appendingPathComponent("Packs").path)
        let id = TransactionID(rawValue: "0001020304050607")!
        let transaction = StoreTransaction(
            id: id, productID: ProductID(rawValue: "com.hangmanpacks.pass.monthly")!, isConsumable: false, quantity: 1, state: .finished, failureReason: nil,
            purchaseDate: 0, updatedDate: 0, revocationDate: nil, hintsCredited: 0, originalTransactionID: id, expiresDate: 1, isTrial: isTrial,
            promotionalOffer: offer)
        let signed = AppStoreTransaction(transaction, appTransactionID: nil, catalog: catalog, environment: .sandbox, signedDate: 0)
        #expect(signed.offerType == type && signed.offerIdentifier == offer && signed.offerDiscountType == discount && signed.offerPeriod == period)
    }
}
