import Seller
import Testing
import TestSupport

/// A subscription's renewal date is extended as Apple extends it: never in a free trial, at most
/// twice in 365 days, on both engines.
@Suite struct RenewalExtensionTests {
    @Test(arguments: Engine.allCases) func extensionsAreCappedAndNeverInATrial(engine: Engine) throws {
        let account = try StoreAccount(shipped: true, engine: engine)
        let service = try account.service()
        let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
        guard case .purchased(let first) = try service.buy(monthly, quantity: 1) else {
            Issue.record("the pass was not bought")
            return
        }
        let original = first.originalTransactionID ?? first.id
        // The monthly pass starts with a free trial: no extension then.
        #expect(try service.extendRenewal(original, days: 7) == .failure(.ineligible("a free trial's date is not extended")))
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(40, .day)))
        guard case .success(let once) = try service.extendRenewal(original, days: 7) else {
            Issue.record("the first extension was refused")
            return
        }
        guard case .success(let twice) = try service.extendRenewal(original, days: 7) else {
            Issue.record("the second extension was refused")
            return
        }
        #expect(twice.expiresDate == once.expiresDate + 7 * 86_400_000)
        #expect(try service.extendRenewal(original, days: 7) == .failure(.tooMany))
        // A year after the first two, extensions are allowed again.
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(366, .day)))
        let later = try service.extendRenewal(original, days: 1)
        if case .failure(let refusal) = later, refusal != .ineligible("the subscription is not active") {
            Issue.record("a year later: \(refusal)")
        }
    }
}
