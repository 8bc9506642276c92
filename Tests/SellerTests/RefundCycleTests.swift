import Seller
import Testing
import TestSupport

/// A subscription's refund from request to reversal, on both engines: access ends when the refund
/// is granted and comes back when it is reversed (its period not over), hints with it, once.
@Suite struct RefundCycleTests {
    @Test(arguments: Engine.allCases) func aReversedSubscriptionRefundGivesTheSubscriptionBack(engine: Engine) throws {
        let account = try StoreAccount(shipped: true, engine: engine)
        let service = try account.service()
        let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
        guard case .purchased(let first) = try service.buy(monthly, quantity: 1) else {
            Issue.record("the pass was not bought")
            return
        }
        // Past the trial: a paid period, which credited its hints.
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(10, .day)))
        let paid = try #require(try service.transactions().last { $0.originalTransactionID == first.id && $0.id != first.id })
        let balance = try service.hintBalance()
        #expect(paid.hintsCredited > 0 && balance == paid.hintsCredited)
        #expect(try service.requestRefund(paid.id, reason: .unsatisfiedWithPurchase).state == .requested)
        #expect(throws: ServiceError.self) { try service.decideRefund(paid.id, .reverse) }
        let granted = try service.decideRefund(paid.id, .grant)
        #expect(granted.hints == balance && granted.refundCase.state == .granted)
        #expect(try service.subscriptions().first?.state == .revoked)
        #expect(try service.hintBalance() == 0)
        let reversed = try service.decideRefund(paid.id, .reverse)
        #expect(reversed.hints == balance && reversed.transaction.revocationDate == nil)
        #expect(try service.subscriptions().first?.state == .active)
        #expect(try service.hintBalance() == balance)
        #expect(try service.decideRefund(paid.id, .reverse).hints == 0)
        #expect(try service.hintBalance() == balance)
        // It renews again as it did before the refund.
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(31, .day)))
        #expect(try service.transactions().filter { $0.originalTransactionID == first.id }.count == 3)
    }

    /// A plan an upgrade ended has a revocation date and a prorated refund, and no refund case:
    /// it is no refund to reverse.
    @Test(arguments: Engine.allCases) func anUpgradedPlanIsNoRefundToReverse(engine: Engine) throws {
        let account = try StoreAccount(shipped: true, engine: engine)
        let service = try account.service()
        _ = try service.buy(ProductID(rawValue: "com.hangmanpacks.pass.monthly")!, quantity: 1)
        _ = try service.moveClock(by: StoreClockStep(StoreDuration(10, .day)))
        let paid = try #require(try service.transactions().last)
        guard case .purchased = try service.buy(ProductID(rawValue: "com.hangmanpacks.pass.yearly")!, quantity: 1) else {
            Issue.record("no upgrade")
            return
        }
        let upgraded = try #require(try service.transactions().first { $0.id == paid.id })
        #expect(upgraded.revocationDate != nil && upgraded.refundAmount != nil, "\(upgraded)")
        #expect(throws: ServiceError.self) { try service.decideRefund(paid.id, .reverse) }
        #expect(try service.transactions().first { $0.id == paid.id }?.revocationDate != nil)
    }
}
