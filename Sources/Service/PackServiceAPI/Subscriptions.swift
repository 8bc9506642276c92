import CivilCalendar

/// Subscriptions: what the catalog says of them, and what an account's look like.

/// An ISO 8601 duration of one unit: `P1W`, `P1M`, `P1Y`, `P30D`. Months and years add calendar
/// months in UTC, clamped to the month's last day (Jan 31 + P1M is Feb 28 or 29), as the App
/// Store renews.
public struct StoreDuration: Sendable, Equatable, Hashable, ISODurationText {
    /// A period's unit.
    public enum Unit: String, Sendable, CaseIterable {
        /// `D`.
        case day = "D"
        /// `W`.
        case week = "W"
        /// `M`: the same day of a later month.
        case month = "M"
        /// `Y`.
        case year = "Y"
    }

    /// How many units.
    public var count: Int
    /// Days, weeks, months or years.
    public var unit: Unit

    /// `count` of `unit` (`1 month`).
    public init(_ count: Int, _ unit: Unit) {
        self.count = count
        self.unit = unit
    }

    /// `P<n><D|W|M|Y>`, n from 1 to 9999; `nil` for anything else.
    public init?(iso text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3, bytes.count <= 6, bytes[0] == UInt8(ascii: "P"),
            let unit = Unit(rawValue: String(UnicodeScalar(bytes[bytes.count - 1]))),
            bytes[1..<(bytes.count - 1)].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            bytes[1] != UInt8(ascii: "0"),
            let count = Int(String(decoding: bytes[1..<(bytes.count - 1)], as: UTF8.self))
        else { return nil }
        self.init(count, unit)
    }

    /// `P1M`.
    public var description: String { "P\(count)\(unit.rawValue)" }

    /// In words: `month`, `year`, `30 days`, `1 week`.
    public var words: String {
        let name: String =
            switch unit {
            case .day: "day"
            case .week: "week"
            case .month: "month"
            case .year: "year"
            }
        if count == 1, unit == .month || unit == .year { return name }
        return "\(count) \(name)" + (count == 1 ? "" : "s")
    }

    /// With its count always: `1 month`, `1 week`, `30 days`.
    public var counted: String { words.first?.isNumber == true ? words : "1 \(words)" }

    /// The latest moment the store's time may reach: the end of year 9999 (UTC). A date past it
    /// is refused before anything is added to it, so no date arithmetic can overflow.
    public static let latestDate: Int64 = 253_402_300_799_999

    /// `date` (milliseconds since 1970, UTC) plus this duration; `nil` past ``latestDate``.
    public func adding(to date: Int64) -> Int64? {
        guard date <= Self.latestDate, date >= -Self.latestDate else { return nil }
        let sum = added(to: date)
        return sum <= Self.latestDate ? sum : nil
    }

    /// `date` (milliseconds since 1970, UTC) plus this duration. For a date within
    /// ±``latestDate`` (what a ledger holds) nothing overflows; beyond, the result saturates.
    public func added(to date: Int64) -> Int64 {
        let dayMilliseconds = UTCDateTime.millisecondsPerDay
        guard date <= Self.latestDate, date >= -Self.latestDate else { return date < 0 ? Int64.min : Int64.max }
        switch unit {
        case .day: return date + Int64(count) * dayMilliseconds
        case .week: return date + Int64(count) * 7 * dayMilliseconds
        case .month, .year:
            let months = unit == .month ? count : count * 12
            let days = UTCDateTime.day(ofMilliseconds: date)
            let timeOfDay = date - days * dayMilliseconds
            let (year, month, day) = CivilDate.civil(fromDays: days)
            let total = year * 12 + (month - 1) + Int64(months)
            let newYear = total >= 0 ? total / 12 : (total - 11) / 12
            let newMonth = total - newYear * 12 + 1
            let clamped = min(day, CivilDate.daysIn(month: newMonth, year: newYear))
            return CivilDate.days(fromCivil: newYear, newMonth, clamped) * dayMilliseconds + timeOfDay
        }
    }

    public static let examples = "P1M"
}

/// A duration written as ISO 8601 text (`StoreDuration`, `StoreClockStep`): in JSON, that text,
/// and a text it does not read is refused naming what it takes.
public protocol ISODurationText: Codable, CustomStringConvertible {
    /// The duration an ISO 8601 text names (`P1M`, `P7D`), or `nil`.
    init?(iso text: String)
    /// What an accepted text looks like, for the refusal.
    static var examples: String { get }
}

extension ISODurationText {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = Self(iso: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not an ISO 8601 duration like \(Self.examples)"))
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// The packs a pass opens while it lasts.
public enum PassUnlocks: Sendable, Equatable, Codable {
    /// Every word pack the catalog sells (`AllPacks`).
    case allPacks
    /// These packs' products.
    case packs([ProductID])
}

/// What the catalog says of an auto-renewable subscription.
public struct AutoRenewableTerms: Sendable, Equatable, Codable {
    /// The subscription group (`SubscriptionGroup`): an account has at most one live subscription
    /// per group, and a free trial once per group.
    public var group: String
    /// 1 is the highest level (`GroupLevel`, as App Store Connect numbers them): moving to a
    /// higher one is an upgrade.
    public var groupLevel: Int
    /// How long one paid period lasts (`Period`).
    public var period: StoreDuration
    /// A free trial the account gets once per group (`IntroductoryOffer` `{Type FreeTrial, Period}`).
    public var freeTrial: StoreDuration?
    /// How long access lasts after a renewal fails (`GracePeriod`, default `P6D`).
    public var gracePeriod: StoreDuration
    /// What a live subscription opens: every word pack, or some, and hints each period.
    public var unlocks: PassUnlocks
    /// Hints credited once per paid period (`HintsPerPeriod`; none in a trial).
    public var hintsPerPeriod: Int
    /// The promotional offers a developer's server may sign for it (`PromotionalOffers`); `nil`
    /// in a catalog from before them.
    public var promotionalOffers: [PromotionalOffer]?

    /// The promotional offer `identifier`, if the catalog declares it.
    public func promotionalOffer(_ identifier: String) -> PromotionalOffer? {
        promotionalOffers?.first { $0.identifier == identifier }
    }

    /// An auto-renewable subscription's terms.
    public init(
        group: String, groupLevel: Int, period: StoreDuration, freeTrial: StoreDuration?, gracePeriod: StoreDuration, unlocks: PassUnlocks,
        hintsPerPeriod: Int, promotionalOffers: [PromotionalOffer]? = nil
    ) {
        self.promotionalOffers = promotionalOffers
        self.group = group
        self.groupLevel = groupLevel
        self.period = period
        self.freeTrial = freeTrial
        self.gracePeriod = gracePeriod
        self.unlocks = unlocks
        self.hintsPerPeriod = hintsPerPeriod
    }

    /// How long a renewal may keep failing before the subscription expires: 60 days.
    public static let billingRetryLimit = StoreDuration(60, .day)
}

/// A promotional offer of an auto-renewable subscription, as App Store Connect declares one: its
/// identifier (what the developer's server signs), how it discounts, for how many periods, and its
/// price per storefront.
public struct PromotionalOffer: Sendable, Equatable, Codable {
    /// How an offer discounts, in Apple's words (`offerDiscountType`).
    public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        /// `periods` periods free.
        case freeTrial = "FREE_TRIAL"
        /// `periods` periods, each charged the offer's price.
        case payAsYouGo = "PAY_AS_YOU_GO"
        /// `periods` periods charged once, the offer's price, up front.
        case payUpFront = "PAY_UP_FRONT"

        /// The catalog's name for it (`FreeTrial`, `PayAsYouGo`, `PayUpFront`).
        public var catalogName: String {
            switch self {
            case .freeTrial: "FreeTrial"
            case .payAsYouGo: "PayAsYouGo"
            case .payUpFront: "PayUpFront"
            }
        }
    }

    /// Who a win-back offer is for (`WinBackOffers`): a customer whose subscription in the group
    /// lapsed at least `minimumDaysLapsed` days ago, after lasting at least `minimumDaysPaid`.
    public struct WinBack: Sendable, Equatable, Codable {
        public var minimumDaysLapsed: Int
        public var minimumDaysPaid: Int

        public init(minimumDaysLapsed: Int, minimumDaysPaid: Int) {
            self.minimumDaysLapsed = minimumDaysLapsed
            self.minimumDaysPaid = minimumDaysPaid
        }

        /// Whether a subscription that lapsed at `lapsed` after `paidDays` paid days is eligible at `now`.
        public func admits(lapsed: Int64, paidDays: Int, now: Int64) -> Bool {
            now - lapsed >= Int64(minimumDaysLapsed) * 86_400_000 && paidDays >= minimumDaysPaid
        }
    }

    public var identifier: String
    public var kind: Kind
    /// How many of the subscription's periods it covers (1 to 12).
    public var periods: Int
    /// A win-back offer's eligibility: the App Store offers it to eligible customers, unsigned
    /// (`nil`: a promotional offer, which the developer's server signs).
    public var winBack: WinBack?
    /// Per storefront (none for a free trial): a pay-as-you-go offer's price per period, a pay-up-front offer's for all of them.
    public var prices: [String: Money]

    /// What its first transaction charges in `storefront`, where the plan costs `plan`: nothing
    /// for a free offer, else the offer's price there; `nil` when it has none there.
    public func firstCharge(in storefront: String, plan: Money) -> Money? {
        kind == .freeTrial ? Money(minorUnits: 0, currency: plan.currency) : prices[storefront]
    }

    /// How long the offer lasts, given the subscription's `period`: `periods` of them.
    public func duration(of period: StoreDuration) -> StoreDuration { StoreDuration(period.count * periods, period.unit) }

    public init(identifier: String, kind: Kind, periods: Int, prices: [String: Money], winBack: WinBack? = nil) {
        self.winBack = winBack
        self.identifier = identifier
        self.kind = kind
        self.periods = periods
        self.prices = prices
    }
}

/// What the catalog says of a non-renewing subscription: access for `duration` from the purchase
/// (or from the end of the access already bought).
public struct NonRenewingTerms: Sendable, Equatable, Codable {
    /// How long one purchase lasts.
    public var duration: StoreDuration
    /// What it opens meanwhile.
    public var unlocks: PassUnlocks

    /// A pass of `duration` that opens `unlocks`.
    public init(duration: StoreDuration, unlocks: PassUnlocks) {
        self.duration = duration
        self.unlocks = unlocks
    }
}

/// Where a subscription stands, as the App Store says it.
public enum SubscriptionState: String, Sendable, Codable, CaseIterable {
    /// In its free trial.
    case trial
    /// Paid for the current period.
    case active
    /// A renewal failed; access continues until the grace period ends.
    case gracePeriod = "grace period"
    /// A renewal failed and the grace period is over: no access while the store keeps trying.
    case billingRetry = "billing retry"
    /// Over: cancelled and past its end, upgraded, or never recovered from billing retry.
    case expired
    /// Refunded: access ended at once.
    case revoked

    /// Whether the subscription opens its packs in this state.
    public var hasAccess: Bool { self == .trial || self == .active || self == .gracePeriod }
}

/// One subscription of the account: an auto-renewable one (all its periods share the original
/// transaction), or the access a non-renewing one bought (all its purchases together).
public struct SubscriptionStatus: Sendable, Equatable, Codable {
    /// The subscription's product now (after an upgrade or a downgrade, the new one).
    public var productID: ProductID
    /// Trial, active, in grace, in billing retry, or expired.
    public var state: SubscriptionState
    /// When access ends (or ended); for a subscription in billing retry, when its last paid
    /// period ended.
    public var expiresDate: Int64
    /// Auto-renewable: it renews at `expiresDate` unless cancelled. Non-renewing: always false.
    public var willAutoRenew: Bool
    /// A lower level chosen for the next period (a downgrade), if any.
    public var renewsToProductID: ProductID?
    /// The first transaction of the subscription (all its renewals carry it).
    public var originalTransactionID: TransactionID
    /// When the grace period ends, while a renewal is failing.
    public var gracePeriodExpiresDate: Int64?
    /// Why it ended: `expired`, `upgraded`, `billing`, `refunded`, `price-increase` (a higher price not consented to).
    public var endReason: String?
    /// It renews by itself (not a pass bought for a fixed time).
    public var isAutoRenewable: Bool
    /// When the current period (or the access bought) began.
    public var periodStartDate: Int64?
    /// A rise of the plan's price on what the subscriber agreed to (Apple's `PRICE_INCREASE`):
    /// `nil` when there is none.
    public var priceIncrease: PriceIncrease?

    /// A subscription's status, as the service answers it.
    public init(
        productID: ProductID, state: SubscriptionState, expiresDate: Int64, willAutoRenew: Bool, renewsToProductID: ProductID?,
        originalTransactionID: TransactionID, gracePeriodExpiresDate: Int64?, endReason: String?, isAutoRenewable: Bool,
        periodStartDate: Int64? = nil
    ) {
        self.periodStartDate = periodStartDate
        self.productID = productID
        self.state = state
        self.expiresDate = expiresDate
        self.willAutoRenew = willAutoRenew
        self.renewsToProductID = renewsToProductID
        self.originalTransactionID = originalTransactionID
        self.gracePeriodExpiresDate = gracePeriodExpiresDate
        self.endReason = endReason
        self.isAutoRenewable = isAutoRenewable
    }

    /// The date access lasts to: the grace period's end while in it.
    public var accessEnds: Int64 { state == .gracePeriod ? (gracePeriodExpiresDate ?? expiresDate) : expiresDate }
}

/// A subscription's plan priced above what its subscriber agreed to: it renews at the new
/// price once consented to (`hangman subscriptions consent`); without consent, the renewal after
/// the subscriber is told of it (the next one) is charged the old price, and the one after ends it.
public struct PriceIncrease: Sendable, Equatable, Codable {
    /// The plan's price now, in the account's storefront.
    public var price: Money
    /// The subscriber consented to it (Apple's `priceIncreaseStatus` 1; 0 before).
    public var consented: Bool
    /// The subscriber was told of it (`PRICE_INCREASE` `PENDING`, at a renewal charged the old
    /// price): without consent, the next renewal ends the subscription.
    public var told: Bool

    public init(price: Money, consented: Bool, told: Bool = false) {
        self.price = price
        self.consented = consented
        self.told = told
    }

    /// `told` may be absent (a document from before it): not told.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        price = try container.decode(Money.self, forKey: .price)
        consented = try container.decode(Bool.self, forKey: .consented)
        told = try container.decodeIfPresent(Bool.self, forKey: .told) ?? false
    }

    private enum CodingKeys: String, CodingKey { case price, consented, told }
}

/// What buying an auto-renewable would do to the account's subscription in its group.
public struct SubscriptionChange: Sendable, Equatable, Codable {
    /// What buying the product would do to the account's subscription.
    public enum Kind: String, Sendable, Codable {
        /// No live subscription in the group: a new one starts.
        case new
        /// The same product, live: nothing is charged.
        case same
        /// A higher level: it starts now, and the unused part of the current period is refunded.
        case upgrade
        /// A lower level: it takes over at the next renewal.
        case downgrade
    }

    /// A new subscription, the same one, an upgrade or a downgrade.
    public var kind: Kind
    /// The live subscription it changes.
    public var current: SubscriptionStatus?
    /// An upgrade's refund for the unused part of the current period, in the currency it was
    /// charged in (0 for a trial).
    public var refund: Money?
    /// A new subscription's free trial, when the account may have one (once per group).
    public var freeTrial: StoreDuration?
    /// An upgrade: the current period's hints taken back with its refund (the same share of
    /// them as of its time, as far as the balance allows).
    public var hintsTakenBack: Int?

    /// A change of `kind` from `current`, with the refund of its unused part.
    public init(kind: Kind, current: SubscriptionStatus?, refund: Money?, freeTrial: StoreDuration? = nil) {
        self.kind = kind
        self.current = current
        self.refund = refund
        self.freeTrial = freeTrial
    }
}

/// The share of a period's price not used at `now`, in exact minor units of its currency (half a
/// unit rounds up).
public enum ProRata {
    /// `price` paid for the period from `start` to `end`; `nil` when the period is empty or the
    /// amount too large. Nothing is owed past the end, the whole price before the start.
    public static func refund(of price: Money, start: Int64, end: Int64, now: Int64) -> Money? {
        guard end > start, price.minorUnits >= 0 else { return nil }
        let unused = min(max(end - now, 0), end - start)
        // units × unused / length, rounded half up (units < 10^9 × 10^3, unused < 2^40).
        let numerator = price.minorUnits.multipliedReportingOverflow(by: unused)
        guard !numerator.overflow else { return nil }
        return Money(minorUnits: (numerator.partialValue * 2 + (end - start)) / ((end - start) * 2), currency: price.currency)
    }
}
