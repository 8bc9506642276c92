import Foundation
import PropertyList
import Seller
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
        unlocks: String = "<string>AllPacks</string>", trial: String? = nil, offers: String? = nil
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
        \(offers.map { "<key>PromotionalOffers</key>\($0)" } ?? "")
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

    /// The store clock's steps: every ISO 8601 duration in whole numbers, date and time parts,
    /// weeks alone; calendar months first, then days, then the time.
    @Test(arguments: [
        ("PT1H", (2026, 12, 31), 3_600_000 as Int64, "PT1H"), ("P2M3D", (2026, 12, 29), 0, "P2M3D"), ("P1Y2M10DT2H30M", (2026, 1, 1), 0, "P1Y2M10DT2H30M"),
        ("P3W", (2026, 12, 1), 0, "P3W"), ("PT90M", (2026, 12, 1), 0, "PT90M"), ("P1DT1S", (2026, 12, 1), 0, "P1DT1S"),
    ])
    func clockStepsTakeEveryISODuration(_ text: String, _ from: (Int64, Int64, Int64), _ extra: Int64, _ written: String) throws {
        let step = try #require(StoreClockStep(iso: text))
        #expect(step.description == written)
        let start = utc(from.0, from.1, from.2)
        let expected: Int64 =
            switch text {
            case "PT1H": start + 3_600_000
            case "P2M3D": utc(2027, 3, 3)  // 29 Feb 2027 does not exist: 28 Feb, then 3 days
            case "P1Y2M10DT2H30M": utc(2027, 3, 11) + 9_000_000
            case "P3W": utc(2026, 12, 22)
            case "PT90M": start + 5_400_000
            default: start + 86_400_000 + 1000
            }
        _ = extra
        #expect(step.adding(to: start) == expected)
    }

    @Test(arguments: ["P", "PT", "P0D", "PT0S", "P1W2D", "P1D1M", "PT1H1H", "P1H", "PT1D", "P1DT", "P-1D", "P1.5D", "1D", "", "P123456789D", "P1dT1h"])
    func aClockStepThatIsNotAnISODurationIsRefused(_ text: String) {
        #expect(StoreClockStep(iso: text) == nil, "\(text)")
    }

    @Test func aClockStepPastTheLastDateIsNil() throws {
        let step = try #require(StoreClockStep(iso: "P99999999Y"))
        #expect(step.adding(to: utc(2026, 12, 1)) == nil)
        #expect(try #require(StoreClockStep(iso: "PT99999999S")).adding(to: StoreDuration.latestDate) == nil)
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

    /// Promotional offers load as declared; a malformed one keeps the catalog from loading, naming
    /// the product and the offer.
    @Test(arguments: [
        ("<dict/>", "must be an array"),
        ("<array><dict><key>Identifier</key><string>x</string><key>Type</key><string>Half</string><key>Periods</key><integer>1</integer></dict></array>", "must be an array of"),
        ("<array><dict><key>Identifier</key><string>x</string><key>Type</key><string>FreeTrial</string><key>Periods</key><integer>13</integer></dict></array>", "Periods 1 to 12"),
        ("<array><dict><key>Identifier</key><string>has space</string><key>Type</key><string>FreeTrial</string><key>Periods</key><integer>1</integer></dict></array>", "Identifier"),
        ("<array><dict><key>Identifier</key><string>x</string><key>Type</key><string>PayAsYouGo</string><key>Periods</key><integer>2</integer></dict></array>", "'x'"),
        ("<array><dict><key>Identifier</key><string>x</string><key>Type</key><string>FreeTrial</string><key>Periods</key><integer>1</integer></dict>"
            + "<dict><key>Identifier</key><string>x</string><key>Type</key><string>FreeTrial</string><key>Periods</key><integer>2</integer></dict></array>", "declared twice"),
    ])
    func aMalformedPromotionalOfferDoesNotLoad(_ offers: String, _ says: String) throws {
        let found = try problems([pass("com.example.pass", offers: offers)])
        #expect(found.contains { $0.contains("com.example.pass") && $0.contains(says) }, "\(found)")
    }

    @Test func promotionalOffersLoadAsDeclared() throws {
        let offers = "<array><dict><key>Identifier</key><string>back</string><key>Type</key><string>PayUpFront</string><key>Periods</key><integer>6</integer>"
            + "<key>Price</key><string>9.99</string></dict></array>"
        #expect(try problems([pass("com.example.pass", offers: offers)]).isEmpty)
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
        let usd = Money(minorUnits: 299, currency: "USD")
        #expect(ProRata.refund(of: usd, start: 0, end: 31 * day, now: 10 * day) == Money(minorUnits: 203, currency: "USD"))
        #expect(ProRata.refund(of: usd, start: 0, end: 31 * day, now: 0)?.minorUnits == 299)
        #expect(ProRata.refund(of: usd, start: 0, end: 31 * day, now: 40 * day)?.minorUnits == 0)
        #expect(ProRata.refund(of: Money(minorUnits: 2490, currency: "USD"), start: 0, end: 2, now: 1)?.minorUnits == 1245)
        #expect(ProRata.refund(of: usd, start: 2, end: 2, now: 1) == nil)
        // Yen have no minor unit: 370 JPY for 31 days, 21 unused -> 250.6 -> 251 JPY.
        #expect(ProRata.refund(of: Money(minorUnits: 370, currency: "JPY"), start: 0, end: 31 * day, now: 10 * day) == Money(minorUnits: 251, currency: "JPY"))
        #expect(Money(minorUnits: 203, currency: "USD").decimal == "2.03" && Money(minorUnits: 5, currency: "USD").decimal == "0.05")
        #expect(Money(minorUnits: 1200, currency: "USD").decimal == "12.00" && Money(minorUnits: 120, currency: "JPY").decimal == "120")
    }
}

/// Exact amounts in each currency's minor units, and the storefront of a locale's region.
@Suite struct MoneyTests {
    @Test(arguments: [
        ("0.99", "USD", Int64?.some(99)), ("1", "USD", 100), ("1.5", "USD", 150), ("1.999", "USD", nil), ("120", "JPY", 120),
        ("120.5", "JPY", nil), ("120.", "JPY", nil), ("1.500", "KWD", 1500), ("-1", "USD", nil), ("1e3", "USD", nil), ("", "USD", nil),
        (".5", "USD", nil), ("0.99", "XXX", nil), ("1234567890", "USD", nil), ("١٢", "USD", nil),
    ])
    func decimalsAreReadWithinTheCurrencysMinorUnits(_ text: String, _ currency: String, _ expected: Int64?) {
        #expect(Money(decimal: text, currency: currency)?.minorUnits == expected, "\(text) \(currency)")
    }

    @Test func amountsAreWrittenWithTheCurrencysMinorUnits() {
        #expect(Money(minorUnits: 99, currency: "USD").decimal == "0.99")
        #expect(Money(minorUnits: 120, currency: "JPY").decimal == "120")
        #expect(Money(minorUnits: 1500, currency: "KWD").decimal == "1.500")
        #expect(Money(minorUnits: 1900, currency: "MXN").description == "19.00 MXN")
        #expect(Money(minorUnits: 99, currency: "USD").times(3) == Money(minorUnits: 297, currency: "USD"))
        #expect(Money(minorUnits: .max, currency: "USD").times(2) == nil)
    }

    @Test(arguments: [
        ("de_DE.UTF-8", String?.some("DEU")), ("ja_JP", "JPN"), ("en_GB.UTF-8@euro", "GBR"), ("pt_BR.utf8", "BRA"), ("C", nil), ("POSIX", nil),
        ("en", nil), ("xx_QQ.UTF-8", nil), ("C.UTF-8", nil),
    ])
    func aLocalesRegionIsItsStorefront(_ locale: String, _ expected: String?) {
        #expect(Storefront.code(forLocale: locale) == expected, "\(locale)")
    }
}
