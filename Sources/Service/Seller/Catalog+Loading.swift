import PropertyList
import SystemCalls
import WordPacks

extension Catalog {
    /// The storefront a price given without one is in, for the catalog file's `Price` and for
    /// `catalog add --price 1.99` alike: the catalog's only storefront, else `USA` when the
    /// catalog sells there; `nil` otherwise (a price must then name its storefront).
    public static func barePriceStorefront(_ storefronts: [String: String]) -> String? {
        if storefronts.count == 1 { return storefronts.keys.first }
        return storefronts[Storefront.defaultCode] == nil ? nil : Storefront.defaultCode
    }

    /// The catalog file's name inside a packs folder.
    public static let fileName = "Catalog.plist"

    /// Reads and checks `folder/Catalog.plist`, and the manifest of every pack whose facts it does
    /// not record.
    ///
    /// Every problem of the catalog itself is reported, and it does not load: an unknown product
    /// type, a product listed twice, a pack sold by two products, a base pack listed twice or also
    /// sold, a consumable without `HintCount`, a pack without its recorded `SHA256` and `Size`.
    ///
    /// A pack archive that is missing, damaged, or made for another product does not stop the
    /// catalog: its product is *unavailable* (``Product/unavailableReason``), a base pack is listed
    /// in ``Catalog/unavailableBasePacks``, and everything else is sold and played as usual.
    public static func load(folder: String, verifier: PackVerifier = PackVerifier()) throws(CatalogError) -> Catalog {
        let path = folder + "/" + fileName
        let data = try readCatalogFile(path)
        let value: PropertyList
        do {
            value = try PropertyListDecoding.decode(data).value
        } catch {
            throw CatalogError(["\(path): not a valid property list: \(error.message)"])
        }
        return try parse(value, folder: folder, verifier: verifier)
    }

    /// The largest catalog file read.
    static let fileSizeLimit = 16 << 20

    /// The bytes of the catalog file: a regular file (a FIFO or device is refused before it is
    /// opened), at most `fileSizeLimit` bytes.
    static func readCatalogFile(_ path: String) throws(CatalogError) -> [UInt8] {
        do {
            return try FileSystem.readFile(atPath: path, limit: fileSizeLimit)
        } catch .system(.noSuchFile, _, _) {
            throw CatalogError(missing: true, ["\(path): no catalog (a packs folder has Catalog.plist beside its .wordpack archives)"])
        } catch .system(let errno, _, _) {
            throw CatalogError(["\(path): cannot read the catalog: \(errno)"])
        } catch {
            throw CatalogError(["cannot read the catalog: \(error)"])
        }
    }

    /// Checks a catalog's property list, as if it were `folder/Catalog.plist`.
    static func parse(_ value: PropertyList, folder: String, verifier: PackVerifier) throws(CatalogError) -> Catalog {
        let path = folder + "/" + fileName
        var problems: [String] = []
        guard case .dictionary(let root) = value else {
            throw CatalogError(["\(path): root is \(value.typeName), expected a dictionary"])
        }
        guard case .string(let bundle)? = root["BundleIdentifier"], !bundle.isEmpty else {
            throw CatalogError(["\(path): 'BundleIdentifier' (a string) is missing"])
        }
        var version = 0
        switch root["CatalogVersion"] {
        case .integer(let number)? where number > 0 && number <= Int64(Int32.max):
            version = Int(number)
        case nil:
            problems.append("\(path): 'CatalogVersion' is missing: run 'hangman catalog update' to publish the catalog")
        default:
            problems.append("\(path): 'CatalogVersion' must be a positive integer (raised by 'hangman catalog update')")
        }
        var storefronts: [String: String] = [:]
        switch root["Storefronts"] {
        case nil:
            // One storefront, the United States, in `Currency` (a catalog from before storefronts).
            switch root["Currency"] {
            case .string(let code)? where Currency.minorUnits[code] != nil:
                storefronts[Storefront.defaultCode] = code
            case nil:
                storefronts[Storefront.defaultCode] = defaultCurrency
            default:
                problems.append("\(path): 'Currency' must be an ISO 4217 code of a currency, like \"USD\"")
                storefronts[Storefront.defaultCode] = defaultCurrency  // the products are still checked
            }
        case .dictionary(let entries)?:
            if root["Currency"] != nil {
                problems.append("\(path): 'Currency' and 'Storefronts' both given: each storefront names its currency, so remove 'Currency'")
            }
            for (code, value) in entries.sorted(by: { $0.key < $1.key }) {
                guard Storefront.isKnown(code) else {
                    problems.append("\(path): Storefronts: '\(code)' is not an App Store storefront (an ISO 3166 alpha-3 code, like USA or DEU)")
                    continue
                }
                guard case .string(let currency) = value, Currency.minorUnits[currency] != nil else {
                    problems.append("\(path): Storefronts: \(code)'s currency must be an ISO 4217 code, like \"EUR\"")
                    continue
                }
                storefronts[code] = currency
            }
            if entries.isEmpty { problems.append("\(path): 'Storefronts' is empty: list at least one, like {USA USD}") }
        default:
            problems.append("\(path): 'Storefronts' must be a dictionary of storefront code -> currency code, like {USA USD, DEU EUR}")
        }
        var baseEntries: [BaseEntry] = []
        if case .array(let entries)? = root["BasePacks"] {
            for entry in entries {
                switch BaseEntry.parse(entry) {
                case .success(let base) where baseEntries.contains { $0.file == base.file }:
                    problems.append("\(path): BasePacks: \(base.file) is listed twice")
                case .success(let base): baseEntries.append(base)
                case .failure(let message): problems.append("\(path): BasePacks: \(message.text)")
                }
            }
        } else if root["BasePacks"] != nil {
            problems.append("\(path): 'BasePacks' must be an array of {Pack, SHA256, Size} entries")
        }
        guard case .array(let items)? = root["Products"] else {
            throw CatalogError(problems + ["\(path): 'Products' (an array) is missing"])
        }
        var products: [Product] = []
        var seen: Set<ProductID> = []
        var sellers: [String: ProductID] = [:]
        var recordedFacts: [ProductID: PackFacts] = [:]
        for (index, item) in items.enumerated() {
            switch Product.parse(item, storefronts: storefronts) {
            case .failure(let message):
                problems.append("\(path): product \(index + 1): \(message.text)")
            case .success(let product):
                if !seen.insert(product.id).inserted {
                    problems.append("\(path): product \(index + 1): '\(product.id)' is listed twice")
                    continue
                }
                if case .nonConsumable(let file) = product.kind {
                    if let seller = sellers[file] {
                        problems.append("\(path): product \(index + 1): '\(product.id)' sells \(file), which '\(seller)' sells already: a pack is sold once")
                        continue
                    }
                    if baseEntries.contains(where: { $0.file == file }) {
                        problems.append("\(path): product \(index + 1): '\(product.id)' sells \(file), a base pack: base packs are free, never sold")
                        seen.remove(product.id)  // said once, here
                        continue
                    }
                    sellers[file] = product.id
                }
                products.append(product)
                if !product.isConsumable, case .dictionary(let entry) = item { recordedFacts[product.id] = PackFacts(entry, isBase: false) }
            }
        }
        // A subscription group's products hold together: one level each, the same grace period,
        // and packs they unlock that the catalog sells.
        var groups: [String: [Product]] = [:]
        for product in products {
            if let terms = product.autoRenewable { groups[terms.group, default: []].append(product) }
        }
        for (group, members) in groups.sorted(by: { $0.key < $1.key }) {
            var levels: [Int: ProductID] = [:]
            for member in members {
                guard let terms = member.autoRenewable else { continue }
                if let other = levels[terms.groupLevel] {
                    problems.append("\(path): '\(member.id)' has GroupLevel \(terms.groupLevel) in group '\(group)', as '\(other)' has: each level of a group is one product")
                }
                levels[terms.groupLevel] = member.id
                if let first = members.first?.autoRenewable, terms.gracePeriod != first.gracePeriod {
                    problems.append("\(path): '\(member.id)' has GracePeriod \(terms.gracePeriod) in group '\(group)', but '\(members[0].id)' has \(first.gracePeriod): a group has one")
                }
            }
        }
        for product in products {
            if case .packs(let ids)? = product.unlocks {
                for pack in ids where !products.contains(where: { $0.id == pack && $0.packFile != nil }) {
                    problems.append("\(path): '\(product.id)' unlocks '\(pack)', which is not a pack the catalog sells")
                }
            }
        }
        // No archive is read when the catalog records each pack's manifest facts (`hangman catalog
        // update` writes them beside the digest); for a catalog without them, only each pack's
        // manifest is read (a peek, not a verification, and no hashing). Installing checks the
        // recorded digest, then verifies the pack in full.
        /// Whether the archive in the folder still has the size the catalog records (one `stat`):
        /// an archive replaced without publishing has its manifest read, as if no facts were
        /// recorded, and an install then refuses it by its digest.
        func isPublished(_ file: String, size: Int) -> Bool {
            guard let found = try? FileSystem.status(atPath: folder + "/" + file, followingLinks: false) else { return false }
            return found.kind == .regular && found.size == size
        }
        var basePacks: [BasePack] = []
        var unavailableBasePacks: [UnavailableBasePack] = []
        for entry in baseEntries {
            let manifest: (productID: ProductID, displayName: String, wordCount: Int?, contentVersion: ContentVersion, language: String?, kind: PackKind)
            if let facts = entry.facts, let productID = facts.productID, let displayName = facts.displayName,
                isPublished(entry.file, size: entry.record.size)
            {
                manifest = (productID, displayName, facts.wordCount, facts.contentVersion, facts.language, facts.kind)
            } else {
                switch verifier.peekManifest(fileAt: folder + "/" + entry.file) {
                case .failure(let problem):
                    unavailableBasePacks.append(UnavailableBasePack(file: entry.file, reason: "\(entry.file) \(Self.unusable(problem))"))
                    continue
                case .success(let peeked):
                    manifest = (peeked.productIdentifier, peeked.displayName, peeked.wordCount, peeked.contentVersion, peeked.language, peeked.kind)
                }
            }
            if basePacks.contains(where: { $0.productID == manifest.productID }) {
                problems.append("\(path): base pack \(entry.file) is '\(manifest.productID)' again: a pack is listed once")
                continue
            }
            if seen.contains(manifest.productID) {
                problems.append("\(path): base pack \(entry.file) is '\(manifest.productID)', which is also a product: base packs are free, never sold")
                continue
            }
            if manifest.kind != .words {
                problems.append("\(path): base pack \(entry.file) is a \(manifest.kind.rawValue.lowercased()) pack: base packs hold words (the stick figure is the free theme)")
                continue
            }
            basePacks.append(BasePack(
                file: entry.file, productID: manifest.productID, displayName: manifest.displayName,
                wordCount: manifest.wordCount ?? 0, contentVersion: manifest.contentVersion,
                sha256: entry.record.sha256, size: entry.record.size))
            basePacks[basePacks.count - 1].language = manifest.language
        }
        var catalog = Catalog(
            bundleIdentifier: bundle, catalogVersion: version, storefronts: storefronts, basePacks: basePacks, products: products,
            unavailableBasePacks: unavailableBasePacks)
        switch root["AppAppleID"] {
        case nil: break
        case .integer(let id)? where id > 0: catalog.appAppleID = id
        default: problems.append("\(path): 'AppAppleID' must be a positive integer (the app's Apple ID)")
        }
        switch root["StorefrontMoveDays"] {
        case nil: break
        case .integer(let days)? where days >= 0 && days <= 3660: catalog.storefrontMoveDays = Int(days)
        default: problems.append("\(path): 'StorefrontMoveDays' must be a whole number of days from 0 to 3660 (the wait between two storefront moves of an account)")
        }
        for index in catalog.products.indices {
            guard case .nonConsumable(let file) = catalog.products[index].kind else { continue }
            let product = catalog.products[index]
            if let facts = recordedFacts[product.id], let size = product.packSize, isPublished(file, size: size) {
                catalog.products[index].wordCount = facts.wordCount
                catalog.products[index].contentVersion = facts.contentVersion
                catalog.products[index].packKind = facts.kind
                catalog.products[index].language = facts.language
                continue
            }
            switch verifier.peekManifest(fileAt: folder + "/" + file) {
            case .failure(let problem):
                catalog.products[index].unavailableReason = "its pack \(file) \(Self.unusable(problem))"
            case .success(let manifest):
                if manifest.productIdentifier != product.id {
                    catalog.products[index].unavailableReason = "its pack \(file) is for '\(manifest.productIdentifier)'"
                    continue
                }
                catalog.products[index].wordCount = manifest.wordCount
                catalog.products[index].contentVersion = manifest.contentVersion
                catalog.products[index].packKind = manifest.kind
                catalog.products[index].language = manifest.kind == .words ? manifest.language : nil
            }
        }
        if !problems.isEmpty { throw CatalogError(problems) }
        return catalog
    }

    /// The catalog with every pack archive checked byte for byte against what it records
    /// (`SHA256`, `Size`), as a server does when it starts and at SIGHUP; loading checks only
    /// each archive's size. A product whose archive differs is unavailable (nobody is charged
    /// for it, nobody downloads it); a base pack whose archive differs is listed unavailable.
    /// `differing` has a sentence for each, for the operator.
    public func checkingArchives(in folder: String) -> (catalog: Catalog, differing: [String]) {
        var checked = self
        var differing: [String] = []
        for index in checked.products.indices where checked.products[index].isAvailable {
            let product = checked.products[index]
            guard let file = product.packFile, let reason = ArchiveRecord.publishedProblem(of: file, in: folder, sha256: product.packSHA256, size: product.packSize)
            else { continue }
            checked.products[index].unavailableReason = reason
            differing.append("\(product.id) is unavailable: \(reason)")
        }
        checked.basePacks = checked.basePacks.filter { base in
            guard let reason = ArchiveRecord.publishedProblem(of: base.file, in: folder, sha256: base.sha256, size: base.size) else { return true }
            checked.unavailableBasePacks.append(UnavailableBasePack(file: base.file, reason: reason))
            differing.append("the base pack \(base.productID) is unavailable: \(reason)")
            return false
        }
        return (checked, differing)
    }

    /// "is missing", "is damaged (...)": why an archive cannot be used, for an unavailable product.
    static func unusable(_ problem: PackProblem) -> String {
        problem.kind == .missingFile ? "is missing from the packs folder" : "cannot be used: \(problem)"
    }

    /// A name without folders, so that a catalog cannot point outside its own folder.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.contains("\\") && name != "." && name != ".." && !name.hasPrefix(".")
    }
}

extension Product {
    /// Reads one product; its prices must be in `storefronts`' currencies (storefront -> currency).
    static func parse(_ value: PropertyList, storefronts: [String: String]) -> Result<Product, CatalogMessage> {
        guard case .dictionary(let dict) = value else { return .failure("is \(value.typeName), expected a dictionary") }
        func string(_ key: String) -> String? {
            if case .string(let text)? = dict[key], !text.isEmpty { text } else { nil }
        }
        guard let idText = string("ProductIdentifier") else { return .failure("'ProductIdentifier' (a string) is missing") }
        guard let id = ProductID(rawValue: idText) else { return .failure("'\(idText)' is not a reverse-DNS product identifier") }
        guard let type = string("Type") else {
            return .failure("'\(id)': 'Type' is missing (Consumable, NonConsumable, AutoRenewable or NonRenewing)")
        }
        guard let name = string("DisplayName") else { return .failure("'\(id)': 'DisplayName' is missing") }
        let prices: [String: Money]
        switch parsePrices(dict, id: id, storefronts: storefronts) {
        case .success(let parsed): prices = parsed
        case .failure(let message): return .failure(message)
        }
        var localizations: [String: LocalizedText] = [:]
        switch dict["Localizations"] {
        case nil: break
        case .dictionary(let entries)?:
            for (language, entry) in entries {
                guard isLanguageCode(language) else {
                    return .failure("'\(id)': Localizations: '\(language)' is not a language code (two or three lowercase letters, like de)")
                }
                guard case .dictionary(let text) = entry, case .string(let localName)? = text["DisplayName"], !localName.isEmpty else {
                    return .failure("'\(id)': Localizations: \(language) needs 'DisplayName' (and may have 'Description')")
                }
                var localDescription = ""
                if case .string(let given)? = text["Description"] { localDescription = given }
                localizations[language] = LocalizedText(displayName: localName, description: localDescription)
            }
        default:
            return .failure("'\(id)': 'Localizations' must be a dictionary of language -> {DisplayName, Description}")
        }
        let kind: Kind
        var record: ArchiveRecord?
        switch type {
        case "Consumable" where dict["StreakFreezes"] != nil:
            guard dict["HintCount"] == nil else { return .failure("'\(id)': a Consumable has either 'HintCount' or 'StreakFreezes', not both") }
            guard case .integer(let freezes)? = dict["StreakFreezes"], freezes > 0, freezes <= 1_000 else {
                return .failure("'\(id)': 'StreakFreezes' is a positive integer (at most 1,000)")
            }
            kind = .streakFreezes(Int(freezes))
        case "Consumable":
            guard case .integer(let hints)? = dict["HintCount"], hints > 0, hints <= 1_000_000 else {
                return .failure("'\(id)': a Consumable needs 'HintCount' (or 'StreakFreezes'), a positive integer")
            }
            kind = .consumable(hints: Int(hints))
        case "NonConsumable" where dict["Feature"] != nil:
            guard dict["Pack"] == nil else {
                return .failure("'\(id)': a NonConsumable has either 'Pack' or 'Feature', not both")
            }
            guard let feature = string("Feature"), !feature.isEmpty, feature.utf8.count <= 64,
                feature.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D })
            else {
                return .failure("'\(id)': 'Feature' must be a name of lowercase letters, digits and '-' (like remove-ads)")
            }
            kind = .feature(feature)
        case "NonConsumable":
            guard let pack = string("Pack"), Catalog.isPlainFileName(pack) else {
                return .failure("'\(id)': a NonConsumable needs 'Pack', the archive's file name in the packs folder (or 'Feature', like remove-ads)")
            }
            switch ArchiveRecord.parse(dict) {
            case .success(let recorded): record = recorded
            case .failure(let message): return .failure("'\(id)': pack \(pack): \(message.text)")
            }
            kind = .nonConsumable(pack: pack)
        case "AutoRenewable":
            switch AutoRenewableTerms.parse(dict, id: id, storefronts: storefronts) {
            case .success(let terms): kind = .autoRenewable(terms)
            case .failure(let message): return .failure(message)
            }
        case "NonRenewing":
            guard case .string(let text)? = dict["Duration"], let duration = StoreDuration(iso: text) else {
                return .failure("'\(id)': a NonRenewing needs 'Duration', an ISO 8601 duration like P30D")
            }
            switch PassUnlocks.parse(dict["Unlocks"], id: id) {
            case .success(let unlocks): kind = .nonRenewing(NonRenewingTerms(duration: duration, unlocks: unlocks))
            case .failure(let message): return .failure(message)
            }
        default:
            return .failure("'\(id)': unknown product type '\(type)' (Consumable, NonConsumable, AutoRenewable or NonRenewing)")
        }
        let removedFromSale: Bool
        switch dict["RemovedFromSale"] {
        case nil: removedFromSale = false
        case .boolean(let value)?: removedFromSale = value
        default: return .failure("'\(id)': 'RemovedFromSale' must be <true/> or <false/>")
        }
        return .success(Product(
            id: id, kind: kind, displayName: name, description: string("Description") ?? "", prices: prices, localizations: localizations,
            packSHA256: record?.sha256, packSize: record?.size, removedFromSale: removedFromSale))
    }

    /// `Prices` (storefront -> decimal string in its currency), or `Price` (in
    /// ``Catalog/barePriceStorefront(_:)``): each storefront listed, each amount within its currency's
    /// minor units.
    static func parsePrices(_ dict: [String: PropertyList], id: ProductID, storefronts: [String: String]) -> Result<[String: Money], CatalogMessage> {
        var given: [String: PropertyList] = [:]
        switch (dict["Prices"], dict["Price"]) {
        case (.dictionary(let entries)?, nil):
            given = entries
        case (nil, let single?):
            guard let storefront = Catalog.barePriceStorefront(storefronts) else {
                return .failure("'\(id)': the catalog sells in \(storefronts.count) storefronts, none of them \(Storefront.defaultCode): give 'Prices' (storefront -> price), not 'Price'")
            }
            given = [storefront: single]
        case (nil, nil):
            return .failure("'\(id)': 'Prices' is missing: a price per storefront, like {USA 0.99, DEU 0.99, JPN 120}")
        case (_?, _?):
            return .failure("'\(id)': 'Price' and 'Prices' both given: keep 'Prices'")
        default:
            return .failure("'\(id)': 'Prices' must be a dictionary of storefront -> decimal string, like {USA 0.99, JPN 120}")
        }
        var prices: [String: Money] = [:]
        for (storefront, value) in given.sorted(by: { $0.key < $1.key }) {
            guard let currency = storefronts[storefront] else {
                return .failure("'\(id)': Prices: '\(storefront)' is not one of the catalog's Storefronts (\(storefronts.keys.sorted().joined(separator: ", ")))")
            }
            guard case .string(let text) = value, let money = Money(decimal: text, currency: currency) else {
                let digits = Currency.minorUnits[currency] ?? 2
                let shape = digits == 0 ? "a whole number (\(currency) has no minor unit)" : "a decimal string with at most \(digits) decimals"
                return .failure("'\(id)': Prices: \(storefront)'s price must be \(shape), in \(currency)")
            }
            prices[storefront] = money
        }
        return .success(prices)
    }

    /// `de`, `es`, `fra`: two or three lowercase ASCII letters (ISO 639).
    static func isLanguageCode(_ text: String) -> Bool {
        (2...3).contains(text.utf8.count) && text.utf8.allSatisfy { (0x61...0x7A).contains($0) }
    }
}

extension AutoRenewableTerms {
    static func parse(_ dict: [String: PropertyList], id: ProductID, storefronts: [String: String]) -> Result<AutoRenewableTerms, CatalogMessage> {
        guard case .string(let group)? = dict["SubscriptionGroup"], !group.isEmpty, group.utf8.count <= 64 else {
            return .failure("'\(id)': an AutoRenewable needs 'SubscriptionGroup', a name")
        }
        guard case .string(let periodText)? = dict["Period"], let period = StoreDuration(iso: periodText) else {
            return .failure("'\(id)': an AutoRenewable needs 'Period', an ISO 8601 duration like P1M")
        }
        var level = 1
        if let value = dict["GroupLevel"] {
            guard case .integer(let number) = value, (1...100).contains(number) else {
                return .failure("'\(id)': 'GroupLevel' must be an integer from 1 (the highest) to 100")
            }
            level = Int(number)
        }
        var trial: StoreDuration?
        if let value = dict["IntroductoryOffer"] {
            guard case .dictionary(let offer) = value, case .string("FreeTrial")? = offer["Type"], case .string(let text)? = offer["Period"],
                let duration = StoreDuration(iso: text)
            else {
                return .failure("'\(id)': 'IntroductoryOffer' must be {Type FreeTrial, Period <ISO 8601 duration>}")
            }
            trial = duration
        }
        var grace = StoreDuration(6, .day)
        if let value = dict["GracePeriod"] {
            guard case .string(let text) = value, let duration = StoreDuration(iso: text) else {
                return .failure("'\(id)': 'GracePeriod' must be an ISO 8601 duration like P6D")
            }
            grace = duration
        }
        var hints = 0
        if let value = dict["HintsPerPeriod"] {
            guard case .integer(let number) = value, (0...1_000_000).contains(number) else {
                return .failure("'\(id)': 'HintsPerPeriod' must be an integer from 0")
            }
            hints = Int(number)
        }
        let unlocks: PassUnlocks
        switch PassUnlocks.parse(dict["Unlocks"], id: id) {
        case .success(let parsed): unlocks = parsed
        case .failure(let message): return .failure(message)
        }
        var offers: [PromotionalOffer]?
        for (key, winBack) in [("PromotionalOffers", false), ("WinBackOffers", true)] {
            guard let value = dict[key] else { continue }
            switch PromotionalOffer.parseAll(value, id: id, storefronts: storefronts, winBack: winBack) {
            case .success(let parsed):
                let all = (offers ?? []) + parsed
                guard Set(all.map(\.identifier)).count == all.count else { return .failure("'\(id)': \(key): an offer identifier is declared twice") }
                offers = all
            case .failure(let message): return .failure(message)
            }
        }
        return .success(AutoRenewableTerms(
            group: group, groupLevel: level, period: period, freeTrial: trial, gracePeriod: grace, unlocks: unlocks, hintsPerPeriod: hints,
            promotionalOffers: offers))
    }
}

extension PromotionalOffer {
    /// `PromotionalOffers`: an array of `{Identifier, Type FreeTrial|PayAsYouGo|PayUpFront,
    /// Periods 1...12, Prices}` (no prices for a free trial), each identifier once.
    static func parseAll(_ value: PropertyList, id: ProductID, storefronts: [String: String], winBack: Bool) -> Result<[PromotionalOffer], CatalogMessage> {
        let shape =
            winBack
            ? "'\(id)': 'WinBackOffers' must be an array of {Identifier, Type FreeTrial|PayAsYouGo|PayUpFront, Periods 1 to 12, Prices, MinimumDaysLapsed, MinimumDaysPaid}"
            : "'\(id)': 'PromotionalOffers' must be an array of {Identifier, Type FreeTrial|PayAsYouGo|PayUpFront, Periods 1 to 12, Prices}"
        guard case .array(let items) = value, items.count <= 50 else { return .failure(shape) }
        var offers: [PromotionalOffer] = []
        for item in items {
            guard case .dictionary(let dict) = item, case .string(let identifier)? = dict["Identifier"], (1...64).contains(identifier.utf8.count),
                identifier.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
                case .string(let typeName)? = dict["Type"], let kind = Kind.allCases.first(where: { $0.catalogName == typeName }),
                case .integer(let periods)? = dict["Periods"], (1...12).contains(periods)
            else { return .failure(shape) }
            guard !offers.contains(where: { $0.identifier == identifier }) else {
                return .failure("'\(id)': PromotionalOffers: '\(identifier)' is declared twice")
            }
            var prices: [String: Money] = [:]
            if kind != .freeTrial {
                switch Product.parsePrices(dict, id: id, storefronts: storefronts) {
                case .success(let parsed): prices = parsed
                case .failure(let message): return .failure("PromotionalOffers: '\(identifier)': \(message.text)")
                }
            }
            var eligibility: PromotionalOffer.WinBack?
            if winBack {
                guard case .integer(let lapsed)? = dict["MinimumDaysLapsed"], (0...3650).contains(lapsed), case .integer(let paid)? = dict["MinimumDaysPaid"],
                    (0...3650).contains(paid)
                else { return .failure(shape) }
                eligibility = PromotionalOffer.WinBack(minimumDaysLapsed: Int(lapsed), minimumDaysPaid: Int(paid))
            }
            offers.append(PromotionalOffer(identifier: identifier, kind: kind, periods: Int(periods), prices: prices, winBack: eligibility))
        }
        return .success(offers)
    }
}

extension PassUnlocks {
    /// `AllPacks`, or an array of pack product identifiers.
    static func parse(_ value: PropertyList?, id: ProductID) -> Result<PassUnlocks, CatalogMessage> {
        switch value {
        case .string("AllPacks")?:
            return .success(.allPacks)
        case .array(let items)?:
            var ids: [ProductID] = []
            for item in items {
                guard case .string(let text) = item, let pack = ProductID(rawValue: text) else {
                    return .failure("'\(id)': 'Unlocks' lists something that is not a product identifier")
                }
                ids.append(pack)
            }
            return .success(.packs(ids))
        default:
            return .failure("'\(id)': a subscription needs 'Unlocks': AllPacks, or an array of pack product identifiers")
        }
    }
}

/// A message carried by a `Result` while parsing.
struct CatalogMessage: Error, ExpressibleByStringInterpolation {
    var text: String
    init(stringLiteral value: String) { text = value }
    init(stringInterpolation: DefaultStringInterpolation) { text = String(stringInterpolation: stringInterpolation) }
}

extension Result where Failure == CatalogMessage {
    static func failure(_ text: String) -> Self { .failure(CatalogMessage(stringLiteral: text)) }
}

/// Why a catalog could not be loaded or published: every problem, one line each.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for the exit code.
    public enum Kind: Sendable {
        /// The catalog file does not exist.
        case missing
        /// The catalog, or an archive it names, is not what it should be.
        case invalid
        /// The updated catalog could not be written.
        case cannotWrite
    }

    public var kind: Kind
    public var problems: [String]
    /// The catalog file does not exist.
    public var isMissing: Bool { kind == .missing }

    init(missing: Bool = false, _ problems: [String]) {
        self.init(missing ? .missing : .invalid, problems)
    }

    init(_ kind: Kind, _ problems: [String]) {
        self.kind = kind
        self.problems = problems
    }

    public var description: String { problems.joined(separator: "\n") }
}
