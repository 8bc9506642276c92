import Foundation
import PropertyList
import Store
import Testing
import TestSupport

/// Subscriptions in the catalog: ISO 8601 periods added as the App Store renews, and a catalog
/// whose subscriptions do not hold together does not load, naming the product.
@Suite struct SubscriptionCatalogTests {
    private func problems(_ products: [String]) throws -> [String] {
        let folder = try TemporaryDirectory()
        try StoreFixture.catalogXML(products: products).write(toFile: folder.file("Catalog.plist"), atomically: true, encoding: .utf8)
        do {
            _ = try Catalog.load(folder: folder.path)
            return []
        } catch {
            return error.problems
        }
    }

    private func pass(
        _ id: String, type: String = "AutoRenewable", group: String = "pass", level: Int = 1, period: String = "P1M", grace: String? = nil,
        unlocks: String = "<string>AllPacks</string>", trial: String? = nil
    ) -> String {
        """
        <dict>
        <key>ProductIdentifier</key><string>\(id)</string>
        <key>Type</key><string>\(type)</string>
        <key>DisplayName</key><string>Pass \(id)</string>
        <key>Price</key><string>2.99</string>
        <key>SubscriptionGroup</key><string>\(group)</string>
        <key>GroupLevel</key><integer>\(level)</integer>
        <key>Period</key><string>\(period)</string>
        <key>Duration</key><string>\(period)</string>
        \(grace.map { "<key>GracePeriod</key><string>\($0)</string>" } ?? "")
        \(trial.map { "<key>IntroductoryOffer</key><dict><key>Type</key><string>FreeTrial</string><key>Period</key><string>\($0)</string></dict>" } ?? "")
        <key>HintsPerPeriod</key><integer>20</integer>
        <key>Unlocks</key>\(unlocks)
        </dict>
        """
    }

    /// Milliseconds of a UTC date.
    private func utc(_ year: Int64, _ month: Int64, _ day: Int64, hour: Int64 = 12) -> Int64 {
        let days = try! #require(Self.days(year, month, day))
        return days * 86_400_000 + hour * 3_600_000
    }

    private static func days(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64? {
        // Counted by hand: days from 1970 to the year, then to the month, then the day.
        var total: Int64 = 0
        for y in 1970..<year { total += (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 366 : 365 }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        for m in 0..<Int(month - 1) { total += lengths[m] }
        return total + day - 1
    }

    @Test(arguments: [
        ("P1M", (2027, 1, 31), (2027, 2, 28)), ("P1M", (2028, 1, 31), (2028, 2, 29)), ("P1M", (2026, 12, 15), (2027, 1, 15)),
        ("P1Y", (2028, 2, 29), (2029, 2, 28)), ("P1W", (2026, 12, 29), (2027, 1, 5)), ("P30D", (2026, 12, 1), (2026, 12, 31)),
        ("P3M", (2026, 11, 30), (2027, 2, 28)), ("P12M", (2026, 5, 31), (2027, 5, 31)),
    ])
    func periodsAddCalendarMonthsInUTC(_ period: String, _ from: (Int64, Int64, Int64), _ to: (Int64, Int64, Int64)) throws {
        let duration = try #require(StoreDuration(iso: period))
        #expect(duration.added(to: utc(from.0, from.1, from.2)) == utc(to.0, to.1, to.2))
    }

    @Test(arguments: ["P", "P0M", "1M", "P1H", "PT1M", "P-1D", "P1.5M", "P1m", "P99999D", ""])
    func aDurationThatIsNotOneISOUnitIsRefused(_ text: String) {
        #expect(StoreDuration(iso: text) == nil)
    }

    @Test func subscriptionsLoadWithTheirTerms() throws {
        #expect(try problems([pass("com.example.pass.monthly", level: 2, trial: "P1W"), pass("com.example.pass.yearly", level: 1, period: "P1Y")]) == [])
    }

    @Test(arguments: [
        ("AutoRenewable", "P1Q", "'com.example.pass.a': an AutoRenewable needs 'Period'"),
        ("NonRenewing", "P0D", "'com.example.pass.a': a NonRenewing needs 'Duration'"),
        ("Renewable", "P1M", "'com.example.pass.a': unknown product type 'Renewable'"),
    ])
    func aBadTypeOrPeriodDoesNotLoad(_ type: String, _ period: String, _ says: String) throws {
        let found = try problems([pass("com.example.pass.a", type: type, period: period)])
        #expect(found.count == 1 && found[0].contains(says), "\(found)")
    }

    @Test func aGroupWhoseProductsDisagreeDoesNotLoad() throws {
        let sameLevel = try problems([pass("com.example.pass.a", level: 1), pass("com.example.pass.b", level: 1)])
        #expect(sameLevel.contains { $0.contains("'com.example.pass.b' has GroupLevel 1 in group 'pass', as 'com.example.pass.a' has") }, "\(sameLevel)")
        let grace = try problems([pass("com.example.pass.a", level: 1, grace: "P3D"), pass("com.example.pass.b", level: 2)])
        #expect(grace.contains { $0.contains("'com.example.pass.b' has GracePeriod P6D in group 'pass', but 'com.example.pass.a' has P3D") }, "\(grace)")
        let unlocks = try problems([pass("com.example.pass.a", unlocks: "<array><string>com.example.words.nowhere</string></array>")])
        #expect(unlocks.contains { $0.contains("'com.example.pass.a' unlocks 'com.example.words.nowhere', which is not a pack the catalog sells") }, "\(unlocks)")
    }

    @Test func theRefundOfAnUpgradeIsExactCents() {
        // 2.99 for 31 days, 21 unused: 2.99 x 21 / 31 = 2.0255 -> 2.03.
        let day: Int64 = 86_400_000
        #expect(ProRata.refundCents(price: "2.99", start: 0, end: 31 * day, now: 10 * day) == 203)
        #expect(ProRata.refundCents(price: "2.99", start: 0, end: 31 * day, now: 0) == 299)
        #expect(ProRata.refundCents(price: "2.99", start: 0, end: 31 * day, now: 40 * day) == 0)
        #expect(ProRata.refundCents(price: "24.9", start: 0, end: 2, now: 1) == 1245)
        #expect(ProRata.refundCents(price: "abc", start: 0, end: 2, now: 1) == nil)
        #expect(ProRata.decimal(203) == "2.03" && ProRata.decimal(5) == "0.05" && ProRata.decimal(1200) == "12.00")
    }
}
