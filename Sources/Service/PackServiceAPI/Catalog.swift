/// What the service sells, as data: the catalog's products and base packs, each pack with the
/// SHA-256, size and content version recorded when the catalog was published.

/// What the store sells: `Packs/Catalog.plist`, with each pack archive's SHA-256 and size as
/// recorded when the catalog was published (`hangman catalog update`).
///
/// Loading reads each pack's manifest but never hashes an archive: the recorded digest is what an
/// installer checks the downloaded bytes against.
public struct Catalog: Sendable, Equatable, Codable {
    /// The game's identifier, bound into every receipt.
    public var bundleIdentifier: String
    /// Raised by every publish (`CatalogVersion`).
    public var catalogVersion: Int
    /// Where the products are sold: storefront code (ISO 3166 alpha-3, `DEU`) -> its currency
    /// (ISO 4217, `EUR`). A catalog without `Storefronts` sells in `USA` only, in `Currency`.
    public var storefronts: [String: String]
    /// The packs every player has, free.
    public var basePacks: [BasePack]
    /// Base packs whose archive is missing or damaged: nobody gets them until it is fixed, and
    /// everything else works meanwhile.
    public var unavailableBasePacks: [UnavailableBasePack]
    /// What is for sale: consumables, packs, themes, features and subscriptions.
    public var products: [Product]
    /// `StorefrontMoveDays`: at least this many days between two moves of an account's
    /// storefront (`nil`: ``defaultStorefrontMoveDays``; 0: no wait).
    public var storefrontMoveDays: Int?
    /// `AppAppleID`: the app's Apple ID, which Apple's signed notifications and answers carry
    /// (`appAppleId`) and a production backend's verifier checks; `nil` when the catalog has none.
    public var appAppleID: Int64?

    /// The wait between two storefront moves of an account when the catalog names none.
    public static let defaultStorefrontMoveDays = 30

    /// The currency of a catalog without `Storefronts` or `Currency`.
    public static let defaultCurrency = "USD"

    /// The currency of a storefront the catalog lists.
    public func currency(of storefront: String) -> String? { storefronts[storefront] }

    /// The storefront of an account that chose none the catalog lists: `USA` when it is one, else
    /// the first by code.
    public var defaultStorefront: String {
        storefronts[Storefront.defaultCode] != nil ? Storefront.defaultCode : storefrontCodes.first ?? Storefront.defaultCode
    }

    /// The storefront a player in `preferred` (their region's) gets: it, when the catalog sells
    /// there, else the default.
    public func storefront(preferring preferred: String?) -> String {
        preferred.flatMap { storefronts[$0] == nil ? nil : $0 } ?? defaultStorefront
    }

    /// The storefronts, in order of their codes.
    public var storefrontCodes: [String] { storefronts.keys.sorted() }

    /// A free pack every player has.
    public struct BasePack: Sendable, Equatable, Codable {
        /// The archive's file name in the packs folder.
        public var file: String
        /// The product identifier of the pack (its manifest's).
        public var productID: ProductID
        /// The pack's name, as players read it.
        public var displayName: String
        /// Words, as the manifest's `WordCount` says (0 when it has none).
        public var wordCount: Int
        /// The version the catalog offers: a device updates to it.
        public var contentVersion: ContentVersion
        /// The words' language (BCP 47, as the manifest's `Language`; loading reads the manifest
        /// when the catalog does not record it); `nil` only in a catalog made by hand in code
        /// (English).
        public var language: String?
        /// SHA-256 of the archive as recorded at publishing time: 64 lowercase hex digits.
        public var sha256: String
        /// Size of the archive in bytes, as recorded at publishing time.
        public var size: Int

        /// A base pack of `file`, as its manifest and its archive describe it.
        public init(file: String, productID: ProductID, displayName: String, wordCount: Int, contentVersion: ContentVersion, sha256: String, size: Int) {
            self.file = file
            self.productID = productID
            self.displayName = displayName
            self.wordCount = wordCount
            self.contentVersion = contentVersion
            self.sha256 = sha256
            self.size = size
        }
    }

    /// A base pack listed in the catalog whose archive cannot be used.
    public struct UnavailableBasePack: Sendable, Equatable, Codable {
        /// The archive's file name in the packs folder.
        public var file: String
        /// What is wrong with it: "no such file", "not a valid pack: ...".
        public var reason: String

        /// A base pack of `file` that cannot be used, and why.
        public init(file: String, reason: String) {
            self.file = file
            self.reason = reason
        }
    }

    /// A catalog of `products` and `basePacks`, sold in `storefronts` (code -> currency).
    public init(
        bundleIdentifier: String, catalogVersion: Int, storefronts: [String: String], basePacks: [BasePack], products: [Product],
        unavailableBasePacks: [UnavailableBasePack] = []
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.catalogVersion = catalogVersion
        self.storefronts = storefronts
        self.basePacks = basePacks
        self.products = products
        self.unavailableBasePacks = unavailableBasePacks
    }

    /// The base pack with `id`.
    public func basePack(_ id: ProductID) -> BasePack? {
        basePacks.first { $0.productID == id }
    }

    /// The content version the catalog offers for a pack (base or paid).
    public func contentVersion(of id: ProductID) -> ContentVersion? {
        basePack(id)?.contentVersion ?? product(id)?.contentVersion
    }

    /// The hint product offered when hints run out: the consumable with the fewest hints.
    public var hintOffer: Product? {
        products.filter { $0.hintCount != nil }.min { lhs, rhs in (lhs.hintCount ?? 0) < (rhs.hintCount ?? 0) }
    }

    /// The product with `id`, if the catalog sells it.
    public func product(_ id: ProductID) -> Product? {
        products.first { $0.id == id }
    }

    /// The packs a subscription product opens while it lasts: all of them opens every word pack
    /// (themes are bought, not lent).
    public func packs(unlockedBy product: Product) -> [ProductID] {
        switch product.unlocks {
        case .allPacks?: products.filter { $0.packFile != nil && !$0.isTheme }.map(\.id)
        case .packs(let ids)?: ids
        case nil: []
        }
    }

    /// The auto-renewable plan a typed name stands for: a group's name is its highest level
    /// (`pass`: the yearly plan), else the product of that identifier; `nil` for anything else.
    public func subscriptionPlan(named name: String) -> ProductID? {
        if let highest = subscriptionGroup(name.lowercased()).first { return highest.id }
        return ProductID(rawValue: name).flatMap { product($0)?.autoRenewable == nil ? nil : $0 }
    }

    /// The auto-renewable products of a group, highest level first.
    public func subscriptionGroup(_ group: String) -> [Product] {
        products.filter { $0.autoRenewable?.group == group }.sorted { ($0.autoRenewable?.groupLevel ?? 0) < ($1.autoRenewable?.groupLevel ?? 0) }
    }
}

/// One product for sale.
public struct Product: Sendable, Equatable, Codable {
    /// What buying it gives.
    public enum Kind: Sendable, Equatable, Codable {
        /// Hints, credited on every purchase.
        case consumable(hints: Int)
        /// Streak freezes, credited on every purchase: each covers one missed day of a daily
        /// word's streak (`StreakFreezes`).
        case streakFreezes(Int)
        /// A word pack, unlocked once and for good (until a refund).
        case nonConsumable(pack: String)
        /// A feature, unlocked once and for good (until a refund), with no pack to download:
        /// `remove-ads` (the catalog's `Feature`).
        case feature(String)
        /// A subscription that renews each period until cancelled (`AutoRenewable`).
        case autoRenewable(AutoRenewableTerms)
        /// A pass for a fixed time, bought again to extend it (`NonRenewing`).
        case nonRenewing(NonRenewingTerms)
    }

    /// The feature that turns off the suggestion shown after each game on the free tier.
    public static let removeAdsFeature = "remove-ads"


    /// The product's identifier (`com.hangmanpacks.words.ios`).
    public var id: ProductID
    /// What buying it gives: hints, a pack, a feature or a subscription.
    public var kind: Kind
    /// Its name, as players read it (in the catalog's language; ``localizations`` holds the others).
    public var displayName: String
    /// A sentence on what it gives, as the store lists it.
    public var description: String
    /// The price in each storefront that sells it, in the storefront's currency (`Prices`). A
    /// storefront without a price does not sell the product.
    public var prices: [String: Money]
    /// The name and description in other languages (`Localizations`): language code (`de`) -> text.
    public var localizations: [String: LocalizedText]
    /// Words in the pack, for a non-consumable.
    public var wordCount: Int?
    /// SHA-256 of the pack archive as recorded at publishing time, for a non-consumable.
    public var packSHA256: String?
    /// Size of the pack archive in bytes as recorded at publishing time, for a non-consumable.
    public var packSize: Int?
    /// The pack's content version, for a non-consumable.
    public var contentVersion: ContentVersion?
    /// What its pack holds (words, or a theme: the gallows as art), for a product that sells a
    /// pack; `nil` for one without a pack (and from a catalog that did not say: words).
    public var packKind: PackKind?
    /// The words' language (BCP 47), for a product that sells a word pack and a catalog that
    /// records it (`Language`, written by `catalog update`).
    public var language: String?

    /// The product sells a theme pack.
    public var isTheme: Bool { packKind == .theme }
    /// Why the product cannot be sold now (its pack archive is missing, damaged or for another
    /// product), as StoreKit answers an invalid product identifier; `nil` when it can.
    public var unavailableReason: String?

    /// `true` once the seller took it off sale (`RemovedFromSale`, which `hangman catalog remove`
    /// writes): nobody may buy it any more, and whoever owns it keeps it, restores it, downloads
    /// its pack, renews it, and finds it in their receipts. Absent (`nil`) while it is sold.
    public var removedFromSale: Bool?

    /// The product can be bought and its pack downloaded.
    public var isAvailable: Bool { unavailableReason == nil }

    /// Nobody may buy it now: see ``removedFromSale``.
    public var isForSale: Bool { removedFromSale != true }

    /// The list price in `storefront`, which renewals of a subscription already bought go on
    /// paying after it is removed from sale; `nil` when the product is not sold there.
    public func price(in storefront: String) -> Money? { prices[storefront] }

    /// What a buyer in `storefront` pays for it now: `nil` when it is not sold there or has been
    /// removed from sale.
    public func salePrice(in storefront: String) -> Money? { isForSale ? prices[storefront] : nil }

    /// The name and description for a reader of `language` (`de`): its localization, else the
    /// catalog's own.
    public func text(language: String?) -> LocalizedText {
        language.flatMap { localizations[$0] } ?? LocalizedText(displayName: displayName, description: description)
    }

    /// A product bought again and again (hints, streak freezes).
    public var isConsumable: Bool {
        switch kind {
        case .consumable, .streakFreezes: true
        default: false
        }
    }

    /// The hints one purchase credits, for a product of hints.
    public var hintCount: Int? {
        if case .consumable(let hints) = kind { hints } else { nil }
    }

    /// The streak freezes one purchase credits, for a product of them.
    public var streakFreezeCount: Int? {
        if case .streakFreezes(let count) = kind { count } else { nil }
    }

    /// The pack archive's file name, for a product that sells a pack.
    public var packFile: String? {
        if case .nonConsumable(let file) = kind { file } else { nil }
    }

    /// The feature a non-consumable without a pack unlocks.
    public var feature: String? {
        if case .feature(let name) = kind { name } else { nil }
    }

    /// `Consumable`, `NonConsumable`, `AutoRenewable` or `NonRenewing`, as the catalog spells it.
    public var typeName: String {
        switch kind {
        case .consumable, .streakFreezes: "Consumable"
        case .nonConsumable, .feature: "NonConsumable"
        case .autoRenewable: "AutoRenewable"
        case .nonRenewing: "NonRenewing"
        }
    }

    /// The terms of an auto-renewable subscription.
    public var autoRenewable: AutoRenewableTerms? {
        if case .autoRenewable(let terms) = kind { terms } else { nil }
    }

    /// The terms of a non-renewing subscription.
    public var nonRenewing: NonRenewingTerms? {
        if case .nonRenewing(let terms) = kind { terms } else { nil }
    }

    /// An auto-renewable or non-renewing subscription.
    public var isSubscription: Bool { autoRenewable != nil || nonRenewing != nil }

    /// What a subscription opens while it lasts.
    public var unlocks: PassUnlocks? { autoRenewable?.unlocks ?? nonRenewing?.unlocks }

    /// A product of `kind`, named and priced per storefront.
    public init(
        id: ProductID, kind: Kind, displayName: String, description: String, prices: [String: Money],
        localizations: [String: LocalizedText] = [:], wordCount: Int? = nil,
        packSHA256: String? = nil, packSize: Int? = nil, contentVersion: ContentVersion? = nil, unavailableReason: String? = nil,
        removedFromSale: Bool = false
    ) {
        self.id = id
        self.kind = kind
        self.displayName = displayName
        self.description = description
        self.prices = prices
        self.localizations = localizations
        self.wordCount = wordCount
        self.packSHA256 = packSHA256
        self.packSize = packSize
        self.contentVersion = contentVersion
        self.unavailableReason = unavailableReason
        self.removedFromSale = removedFromSale ? true : nil
    }
}

/// A product's name and description in one language.
public struct LocalizedText: Sendable, Equatable, Codable {
    /// The name in that language.
    public var displayName: String
    /// The description in that language.
    public var description: String

    /// A name and a description in one language.
    public init(displayName: String, description: String) {
        self.displayName = displayName
        self.description = description
    }
}
