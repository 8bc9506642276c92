import Foundation
import PackServer
import PackServiceClient
import Seller
import Testing
import TestSupport

private let monthly = ProductID(rawValue: "com.hangmanpacks.pass.monthly")!
private let yearly = ProductID(rawValue: "com.hangmanpacks.pass.yearly")!
private let thirtyDays = ProductID(rawValue: "com.hangmanpacks.pass.30days")!
private let hard = ProductID(rawValue: "com.hangmanpacks.words.hard")!
private let ios = ProductID(rawValue: "com.hangmanpacks.words.ios")!
private let day: Int64 = 86_400_000

/// The subscription rules through the `PackService` protocol, on every backend (in-process, a
/// server on SQLite, a server on PostgreSQL), driven by the store clock.
@Suite struct SubscriptionContractTests {
    private func purchased(_ outcome: PurchaseOutcome) throws -> StoreTransaction {
        guard case .purchased(let transaction) = outcome else { throw ServiceError(.wrongState, "expected a purchase, got \(outcome)") }
        return transaction
    }

    private func only(_ store: any PackService, _ product: ProductID) async throws -> SubscriptionStatus {
        let found = try await store.subscriptions().filter { $0.productID == product }
        try #require(found.count == 1, "\(found)")
        return found[0]
    }

    /// The packs a pass opens, as the account's entitlements say: open, or locked since when.
    private func passPacks(_ store: any PackService) async throws -> [ProductID: Entitlement] {
        Dictionary(uniqueKeysWithValues: try await store.entitlements().filter { $0.subscriptionProductID != nil }.map { ($0.productID, $0) })
    }

    @Test(arguments: StoreBackend.allCases)
    func aTrialThenTheFirstRenewalWithItsHints(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        let start = try await store.storeClock()
        let first = try purchased(try await store.buy(monthly, quantity: 1))
        #expect(first.isTrial && first.hintsCredited == 0 && first.originalTransactionID == first.id)
        let trial = try await only(store, monthly)
        #expect(trial.state == .trial && trial.willAutoRenew && trial.originalTransactionID == first.id)
        #expect(trial.expiresDate >= start + 7 * day && trial.expiresDate < start + 7 * day + 60_000)
        #expect(try await store.hintBalance() == 0)
        // The pass opens every word pack, bought outright or not.
        let open = try await passPacks(store)
        #expect(Set(open.keys) == [ios, hard, ProductID(rawValue: "com.hangmanpacks.words.es")!])
        #expect(open.values.allSatisfy { $0.isActive && $0.expiresDate == trial.expiresDate })
        #expect(try await store.packArchive(hard).count > 0)
        // Buying it again while it lasts charges nothing.
        guard case .alreadySubscribed(let again) = try await store.buy(monthly, quantity: 1) else { throw ServiceError(.wrongState, "bought twice") }
        #expect(again.originalTransactionID == first.id)
        // The week passes: the first paid month, 20 hints, the same original transaction.
        _ = try await store.advanceClock(by: StoreDuration(1, .week))
        let paid = try await only(store, monthly)
        #expect(paid.state == .active && paid.expiresDate == StoreDuration(1, .month).added(to: trial.expiresDate))
        #expect(try await store.hintBalance() == 20)
        let renewals = try await store.transactions().filter { $0.originalTransactionID == first.id && $0.id != first.id }
        #expect(renewals.count == 1 && renewals[0].purchaseDate == trial.expiresDate && renewals[0].hintsCredited == 20 && !renewals[0].isTrial)
        #expect(renewals[0].state == .finished && renewals[0].expiresDate == paid.expiresDate)
    }

    /// The store's clock stops at the end of year 9999: an advance past it is refused with a
    /// sentence, and the store answers after it (28,000 advances of P9999Y overflowed the date
    /// arithmetic and killed a server, again after each restart). A far advance settles its
    /// renewals in bounded batches, the rest on the next requests, never all under one lock.
    @Test(arguments: StoreBackend.allCases)
    func theClockStopsAtYear9999AndFarAdvancesSettleInBatches(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        _ = try purchased(try await store.buy(monthly, quantity: 1))
        let far = try await store.moveClock(by: StoreClockStep(StoreDuration(90, .year)))
        #expect(far.renewals == 1_000, "one request settles at most a thousand renewals")
        _ = try await store.transactions()
        _ = try await store.transactions()
        let periods = try await store.transactions().filter { $0.productID == monthly }.count
        #expect(periods == 1 + 90 * 12, "the rest settled by the next requests: \(periods)")
        _ = try await store.setAutoRenew(monthly, on: false)  // no more renewals to settle on the way
        _ = try await store.moveClock(by: StoreClockStep(StoreDuration(7000, .year)))
        let refused = await refusal { () async throws(ServiceError) in try await store.moveClock(by: StoreClockStep(StoreDuration(9999, .year))) }
        #expect(refused?.kind == .invalidRequest, "\(String(describing: refused))")
        #expect(refused?.message.contains("goes no further than 9999-12-31") == true, "\(refused?.message ?? "")")
        #expect(try await store.storeClock() >= far.now, "the store still answers, its clock where it was")
    }

    @Test(arguments: StoreBackend.allCases)
    func twelveMonthlyRenewalsCreditTwelveTimesTwentyHints(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        let first = try purchased(try await store.buy(monthly, quantity: 1))
        // The seller says how many renewals a move of the clock charged (the command inferred it).
        #expect(try await store.moveClock(by: StoreClockStep(StoreDuration(1, .week))).renewals == 1)  // the trial ends: the first paid month
        #expect(try await store.moveClock(by: StoreClockStep(StoreDuration(11, .month))).renewals == 11)  // eleven more, processed in order
        #expect(try await store.moveClock(by: StoreClockStep(StoreDuration(1, .day))).renewals == 0)
        let periods = try await store.transactions().filter { $0.originalTransactionID == first.id }.sorted { $0.purchaseDate < $1.purchaseDate }
        #expect(periods.count == 13)
        #expect(periods.dropFirst().map(\.hintsCredited) == Array(repeating: 20, count: 12))
        #expect(try await store.hintBalance() == 240)
        // Each period starts where the last one ended, a calendar month later.
        for (previous, next) in zip(periods, periods.dropFirst()) {
            #expect(next.purchaseDate == previous.expiresDate)
            #expect(next.expiresDate == StoreDuration(1, .month).added(to: next.purchaseDate))
        }
        // Looking again changes nothing.
        _ = try await store.subscriptions()
        #expect(try await store.hintBalance() == 240)
        #expect(try await store.transactions().count == 13)
    }

    @Test(arguments: StoreBackend.allCases)
    func failedRenewalsGoThroughGraceAndBillingRetryThenRecoverOrExpire(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        _ = try purchased(try await store.buy(monthly, quantity: 1))
        let trialEnds = try await only(store, monthly).expiresDate
        try await store.setControls(StoreControls(failRenewals: true))
        _ = try await store.advanceClock(by: StoreDuration(1, .week))
        let grace = try await only(store, monthly)
        #expect(grace.state == .gracePeriod && grace.gracePeriodExpiresDate == StoreDuration(6, .day).added(to: trialEnds))
        #expect(try await passPacks(store)[hard]?.isActive == true, "the grace period keeps access")
        _ = try await store.advanceClock(by: StoreDuration(6, .day))
        #expect(try await only(store, monthly).state == .billingRetry)
        #expect(try await passPacks(store)[hard]?.isActive == false, "billing retry has no access")
        #expect(try await store.hintBalance() == 0)
        // The payment works again: the first look renews, dated then, a new month from there.
        try await store.setControls(StoreControls())
        let recovered = try await store.storeClock()
        let active = try await only(store, monthly)
        #expect(active.state == .active && active.expiresDate == StoreDuration(1, .month).added(to: recovered))
        let renewal = try await store.transactions().last
        #expect(renewal?.purchaseDate == recovered && renewal?.hintsCredited == 20)
        #expect(try await store.hintBalance() == 20)
        #expect(try await passPacks(store)[hard]?.isActive == true)
        // Failing for 60 days ends it.
        try await store.setControls(StoreControls(failRenewals: true))
        _ = try await store.advanceClock(by: StoreDuration(1, .month))
        #expect(try await only(store, monthly).state == .gracePeriod)
        _ = try await store.advanceClock(by: StoreDuration(7, .day))
        #expect(try await only(store, monthly).state == .billingRetry)
        _ = try await store.advanceClock(by: StoreDuration(60, .day))
        let expired = try await only(store, monthly)
        #expect(expired.state == .expired && expired.endReason == "billing" && !expired.willAutoRenew)
        #expect(try await store.hintBalance() == 20)
    }

    @Test(arguments: StoreBackend.allCases)
    func cancelKeepsAccessToTheEndAndResumeTurnsItBackOn(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        _ = try purchased(try await store.buy(monthly, quantity: 1))
        #expect(try await store.setAutoRenew(yearly, on: false).willAutoRenew == false, "any product of the group names it")
        #expect(try await store.setAutoRenew(monthly, on: true).willAutoRenew)
        let cancelled = try await store.setAutoRenew(monthly, on: false)
        #expect(cancelled.state == .trial && !cancelled.willAutoRenew)
        _ = try await store.advanceClock(by: StoreDuration(6, .day))
        #expect(try await passPacks(store)[hard]?.isActive == true, "access stays until the end")
        _ = try await store.advanceClock(by: StoreDuration(1, .day))
        let ended = try await only(store, monthly)
        #expect(ended.state == .expired && ended.endReason == "expired" && ended.expiresDate == cancelled.expiresDate)
        let locked = try #require(try await passPacks(store)[hard])
        #expect(!locked.isActive && locked.revokedDate == cancelled.expiresDate && locked.subscriptionProductID == monthly)
        #expect(try await store.transactions().count == 1, "no renewal")
        do {
            _ = try await store.packArchive(hard)
            Issue.record("an ended pass still downloads")
        } catch {
            #expect(error.kind == .notEntitled)
        }
        // Nothing left to cancel.
        do {
            _ = try await store.setAutoRenew(monthly, on: false)
            Issue.record("cancelled what the account does not have")
        } catch {
            #expect(error.kind == .invalidRequest)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anUpgradeRefundsTheUnusedPartAndADowngradeWaitsForTheRenewal(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        let first = try purchased(try await store.buy(monthly, quantity: 1))
        _ = try await store.advanceClock(by: StoreDuration(1, .week))
        _ = try await store.advanceClock(by: StoreDuration(10, .day))
        let quote = try await store.subscriptionChange(to: yearly)
        #expect(quote.kind == .upgrade && quote.current?.productID == monthly)
        let upgrade = try purchased(try await store.buy(yearly, quantity: 1))
        #expect(!upgrade.isTrial, "one trial per group")
        let statuses = try await store.subscriptions()
        let old = try #require(statuses.first { $0.originalTransactionID == first.id })
        #expect(old.state == .expired && old.endReason == "upgraded")
        let new = try #require(statuses.first { $0.productID == yearly })
        #expect(new.state == .active && new.expiresDate == StoreDuration(1, .year).added(to: upgrade.purchaseDate))
        // The paid month's unused part, in exact cents: 2.99 x unused / the month.
        let month = try #require(try await store.transactions().first { $0.originalTransactionID == first.id && $0.refundAmount != nil })
        #expect(month.price == Money(minorUnits: 299, currency: "USD") && month.storefront == "USA", "the month charged, and where")
        let expected = ProRata.refund(of: Money(minorUnits: 299, currency: "USD"), start: month.purchaseDate, end: try #require(month.expiresDate), now: upgrade.purchaseDate)
        #expect(month.refundAmount == expected?.decimal && month.revocationDate == upgrade.purchaseDate)
        #expect(expected.map { $0.minorUnits > 150 && $0.minorUnits < 250 } == true, "about two thirds of 2.99: \(String(describing: expected))")
        #expect(quote.refund?.decimal == month.refundAmount, "the question showed what was refunded")
        // The same share of the month's 20 hints goes back with the refund.
        let length = try #require(month.expiresDate) - month.purchaseDate
        let owed = Int((20 * (try #require(month.expiresDate) - upgrade.purchaseDate) * 2 + length) / (length * 2))
        #expect(owed > 10 && owed < 17 && quote.hintsTakenBack == owed, "\(owed) \(String(describing: quote.hintsTakenBack))")
        #expect(try await store.hintBalance() == 40 - owed)
        // A downgrade waits for the renewal.
        guard case .changeScheduled(let scheduled) = try await store.buy(monthly, quantity: 1) else { throw ServiceError(.wrongState, "not scheduled") }
        #expect(scheduled.productID == yearly && scheduled.renewsToProductID == monthly)
        _ = try await store.advanceClock(by: StoreDuration(1, .year))
        let renewed = try await store.subscriptions().first { $0.originalTransactionID == new.originalTransactionID }
        #expect(renewed?.productID == monthly && renewed?.state == .active && renewed?.renewsToProductID == nil, "\(String(describing: renewed))")
        #expect(try await store.hintBalance() == 60 - owed)
    }

    /// An upgrade right after a paid renewal refunds the month only as far as its 20 hints come
    /// back: kept (spent) hints are taken off the refund at 2.99 / 20 each. Before, the whole
    /// month was refunded and its hints kept: 40 hints for one paid period.
    @Test(arguments: StoreBackend.allCases, [(0, 20, 299), (10, 10, 149), (20, 0, 0)] as [(Int, Int, Int64)])
    func anUpgradeAfterARenewalNeverRefundsHintsThatAreKept(_ backend: StoreBackend, _ expected: (spent: Int, back: Int, refund: Int64)) async throws {
        let (spent, back, refund) = expected
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        let first = try purchased(try await store.buy(monthly, quantity: 1))
        _ = try await store.advanceClock(by: StoreDuration(1, .week))
        #expect(try await store.hintBalance() == 20)
        for index in 0..<spent { _ = try await store.spendHint(idempotencyKey: "spent-\(index)") }
        let quote = try await store.subscriptionChange(to: yearly)
        #expect(quote.hintsTakenBack == back && quote.refund?.minorUnits == refund, "\(quote)")
        _ = try purchased(try await store.buy(yearly, quantity: 1))
        let month = try #require(try await store.transactions().first { $0.originalTransactionID == first.id && $0.refundAmount != nil })
        #expect(month.refundAmount == Money(minorUnits: refund, currency: "USD").decimal, "\(String(describing: month.refundAmount))")
        // What is left of the month's hints, and the year's 20.
        #expect(try await store.hintBalance() == 20 - spent - back + 20)
    }

    @Test(arguments: StoreBackend.allCases)
    func aRefundEndsAccessAndTakesBackThePeriodsHints(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        let first = try purchased(try await store.buy(monthly, quantity: 1))
        _ = try await store.advanceClock(by: StoreDuration(1, .week))
        for index in 0..<5 { _ = try await store.spendHint(idempotencyKey: "spent-\(index)") }
        let renewal = try #require(try await store.transactions().first { $0.originalTransactionID == first.id && $0.id != first.id })
        let refund = try await store.refund(renewal.id)
        #expect(refund.hintsTakenBack == 15)
        #expect(try await store.hintBalance() == 0)
        let revoked = try await only(store, monthly)
        #expect(revoked.state == .revoked && !revoked.willAutoRenew)
        #expect(try await passPacks(store)[hard]?.isActive == false)
        // Nothing renews after a refund.
        _ = try await store.advanceClock(by: StoreDuration(2, .month))
        #expect(try await store.transactions().count == 2)
    }

    @Test(arguments: StoreBackend.allCases)
    func aNonRenewingPassStacksAndEnds(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        let one = try purchased(try await store.buy(thirtyDays, quantity: 1))
        let two = try purchased(try await store.buy(thirtyDays, quantity: 1))
        let firstEnds = try #require(one.expiresDate)
        #expect(two.expiresDate == firstEnds + 30 * day, "the second starts where the first ends")
        let pass = try await only(store, thirtyDays)
        #expect(pass.state == .active && !pass.willAutoRenew && !pass.isAutoRenewable && pass.expiresDate == two.expiresDate)
        #expect(try await store.hintBalance() == 0)
        #expect(try await store.restore().contains { $0.productID == hard }, "restore brings the pass's packs")
        _ = try await store.advanceClock(by: StoreDuration(59, .day))
        #expect(try await only(store, thirtyDays).state == .active)
        _ = try await store.advanceClock(by: StoreDuration(2, .day))
        #expect(try await only(store, thirtyDays).state == .expired)
        #expect(try await passPacks(store)[hard]?.isActive == false)
    }

    /// A refunded pass leaves the stack: the passes after it end earlier (before, two 30-day
    /// passes with the first refunded still ran to day 60); one refunded ahead of its turn takes
    /// nothing from the one running.
    @Test(arguments: StoreBackend.allCases)
    func aRefundedStackedPassShortensWhatFollows(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        let one = try purchased(try await store.buy(thirtyDays, quantity: 1))
        let two = try purchased(try await store.buy(thirtyDays, quantity: 1))
        let three = try purchased(try await store.buy(thirtyDays, quantity: 1))
        let firstEnds = try #require(one.expiresDate)
        #expect(try await only(store, thirtyDays).expiresDate == firstEnds + 60 * day)
        // The third, not yet begun, refunded: the first two keep their dates.
        _ = try await store.refund(three.id)
        #expect(try await only(store, thirtyDays).expiresDate == two.expiresDate)
        // The running first refunded: the second starts now, not after the refunded month.
        _ = try await store.refund(one.id)
        let now = try await store.storeClock()
        let shortened = try await only(store, thirtyDays)
        #expect(shortened.state == .active && shortened.expiresDate >= now + 30 * day - 60_000 && shortened.expiresDate <= now + 30 * day, "\(shortened)")
        _ = try await store.advanceClock(by: StoreDuration(31, .day))
        #expect(try await only(store, thirtyDays).state == .expired)
        #expect(try await passPacks(store)[hard]?.isActive == false)
    }

    /// A receipt holds each period with its end, and the renewal state.
    @Test(arguments: StoreBackend.allCases)
    func theReceiptHoldsPeriodsAndTheRenewalState(_ backend: StoreBackend) async throws {
        let world = try await ContractWorld(backend)
        defer { withExtendedLifetime(world) {} }
        let store = world.service
        let first = try purchased(try await store.buy(monthly, quantity: 1))
        _ = try await store.advanceClock(by: StoreDuration(1, .week))
        _ = try await store.buy(yearly, quantity: 1)
        _ = try await store.buy(monthly, quantity: 1)
        let receipt = try await store.receipt()
        #expect(await store.verifyReceipt(receipt.bytes, password: ContractWorld.sharedSecret).status == .valid)
        // The same policy at every door: the embedded store's too.
        #expect(await store.verifyReceipt(receipt.bytes).status == .sharedSecretMismatch, "a subscription's receipt needs the secret")
        #expect(await store.verifyReceipt(receipt.bytes, password: "another").status == .sharedSecretMismatch)
        let periods = receipt.payload.transactions.filter { $0.originalTransactionID == first.id.rawValue }
        #expect(periods.count == 2 && periods.allSatisfy { $0.expiresDate != nil } && periods.first?.isTrial == true)
        let renewal = try #require(receipt.payload.renewals.first { $0.productID == yearly.rawValue })
        #expect(renewal.autoRenewStatus && renewal.autoRenewProductID == monthly.rawValue && !renewal.isInBillingRetryPeriod)
        #expect(receipt.payload.renewals.first { $0.originalTransactionID == first.id.rawValue }?.expirationIntent == "upgraded")
    }
}
