import FoundationEssentials
import PropertyList
import Signing
import SystemCalls
import WordPacks

/// The publishing step: records in `Catalog.plist` the SHA-256 and size of every pack archive it
/// names, with its manifest's facts (`PackFacts`: content version, word count, and a base pack's
/// identifier and name), and raises `CatalogVersion` when anything changed: an archive, or
/// anything else in the catalog (a price, a new product), which `PublishedSHA256` (the SHA-256 of
/// the catalog as published, without those two keys) tells from the last publish.
///
/// ```swift
/// let update = try CatalogPublisher(folder: "Packs").update()
/// print(update.changes.count, update.version)
/// ```
public struct CatalogPublisher {
    /// The packs folder: `Catalog.plist` beside its archives.
    public var folder: String
    public var verifier: PackVerifier

    public init(folder: String, verifier: PackVerifier = PackVerifier()) {
        self.folder = folder
        self.verifier = verifier
    }

    /// Hashes every archive the catalog names (base packs and non-consumables), writes each one's
    /// `SHA256` and `Size`, and rewrites the catalog atomically with `CatalogVersion` raised by one
    /// (`1` for a catalog that had none). A catalog already up to date is left untouched.
    ///
    /// Nothing is written when an archive cannot be read or the updated catalog would not load;
    /// every problem is reported. A bare file name in `BasePacks` becomes a `{Pack, SHA256, Size}` entry.
    public func update() throws(CatalogError) -> CatalogUpdate {
        let path = folder + "/" + Catalog.fileName
        let data = try Catalog.readCatalogFile(path)
        let value: PropertyList
        do {
            value = try PropertyListDecoding.decode(data).value
        } catch {
            throw CatalogError(["\(path): not a valid property list: \(error.message)"])
        }
        guard case .dictionary(let original) = value else {
            throw CatalogError(["\(path): root is \(value.typeName), expected a dictionary"])
        }
        var previousVersion: Int?
        switch original["CatalogVersion"] {
        case nil: break
        case .integer(let number)? where number > 0 && number < Int64(Int32.max): previousVersion = Int(number)
        default: throw CatalogError(["\(path): 'CatalogVersion' must be a positive integer: correct it by hand, then run 'hangman catalog update' again"])
        }

        var measured: [String: Result<ArchiveRecord, CatalogMessage>] = [:]
        var problems: [String] = []
        var changes: [CatalogUpdate.Change] = []
        /// The entry with the archive's record written in, or `nil` when the archive cannot be read.
        func recorded(_ entry: [String: PropertyList], file: String, label: String) -> [String: PropertyList]? {
            let result = measured[file] ?? ArchiveRecord.measure(fileAt: folder + "/" + file)
            let firstTime = measured[file] == nil
            measured[file] = result
            switch result {
            case .failure(let message):
                if firstTime { problems.append("\(path): \(label): \(message.text)") }
                return nil
            case .success(let record):
                let before = (entry["SHA256"]?.stringValue, entry["Size"]?.integerValue.map(Int.init))
                if firstTime, before.0 != record.sha256 || before.1 != record.size {
                    changes.append(CatalogUpdate.Change(file: file, previousSHA256: before.0, previousSize: before.1, record: record))
                }
                return entry.merging(record.entryValues) { _, new in new }
            }
        }
        /// The entry with the manifest's facts written in (`PackFacts`), when the archive's manifest
        /// reads and, for a product, is that product's; otherwise without them, so that loading the
        /// catalog reads the manifest and reports what is wrong.
        /// `published` is the entry as the last publish wrote it.
        func withFacts(_ entry: [String: PropertyList], published: [String: PropertyList], file: String, product: String?) -> [String: PropertyList] {
            var entry = entry
            let published = (sha256: published["SHA256"]?.stringValue, version: published["ContentVersion"]?.stringValue)
            for key in PackFacts.keys { entry[key] = nil }
            if product == nil { for key in PackFacts.baseKeys { entry[key] = nil } }
            guard case .success(let manifest) = verifier.peekManifest(fileAt: folder + "/" + file),
                product == nil || product == manifest.productIdentifier.rawValue
            else { return entry }
            // Other words under the same version: a player who has that version would be told
            // "up to date" and keep the old words. The author raises the version, never the tool.
            if let oldDigest = published.sha256, let oldVersion = published.version, oldVersion == manifest.contentVersion.text,
                let record = measured[file], case .success(let now) = record, now.sha256 != oldDigest
            {
                problems.append(
                    "\(path): \(product.map { "'\($0)': " } ?? "base ")pack \(file) changed since it was published, but its ContentVersion is still \(oldVersion): "
                        + "players who have \(oldVersion) would keep the old words. Raise ContentVersion in the pack's manifest, rebuild it, then run 'hangman catalog update' again")
            }
            return entry.merging(PackFacts(manifest, isBase: product == nil).entryValues) { _, new in new }
        }

        var root = original
        if case .array(let entries)? = root["BasePacks"] {
            root["BasePacks"] = .array(entries.map { value in
                var entry: [String: PropertyList]
                switch value {
                case .string(let file): entry = ["Pack": .string(file)]
                case .dictionary(let dictionary): entry = dictionary
                default: return value
                }
                // A misplaced name is left for the catalog's own checks to report.
                guard case .string(let file)? = entry["Pack"], Catalog.isPlainFileName(file) else { return value }
                return recorded(entry, file: file, label: "base pack \(file)").map { .dictionary(withFacts($0, published: entry, file: file, product: nil)) } ?? value
            })
        }
        if case .array(let items)? = root["Products"] {
            root["Products"] = .array(items.map { value in
                guard case .dictionary(let entry) = value, entry["Type"] == .string("NonConsumable"),
                    case .string(let file)? = entry["Pack"], Catalog.isPlainFileName(file)
                else { return value }
                let id = entry["ProductIdentifier"]?.stringValue ?? "?"
                return recorded(entry, file: file, label: "'\(id)': pack \(file)").map { .dictionary(withFacts($0, published: entry, file: file, product: id)) } ?? value
            })
        }
        if !problems.isEmpty { throw CatalogError(problems + ["\(path): nothing was written"]) }

        let published = Self.contentDigest(root)
        let changed = root != original || previousVersion == nil || original["PublishedSHA256"]?.stringValue != published
        let version = changed ? (previousVersion ?? 0) + 1 : previousVersion ?? 1
        root["CatalogVersion"] = .integer(Int64(version))
        root["PublishedSHA256"] = .string(published)
        let catalog: Catalog
        do {
            catalog = try Catalog.parse(.dictionary(root), folder: folder, verifier: verifier)
        } catch {
            throw CatalogError(error.problems + ["\(path): nothing was written"])
        }
        // A player's store lists such a product as unavailable; a publisher does not publish one.
        let unusable = catalog.unavailableBasePacks.map { "\(path): base pack \($0.reason)" }
            + catalog.products.compactMap { product in product.unavailableReason.map { "\(path): '\(product.id)': \($0)" } }
        if !unusable.isEmpty { throw CatalogError(unusable + ["\(path): nothing was written"]) }
        if changed {
            do {
                try FileSystem.writeAtomically(PropertyListEncoding.xml(.dictionary(root)), toPath: path)
            } catch {
                throw CatalogError(.cannotWrite, ["\(error); \(path) is unchanged"])
            }
        }
        return CatalogUpdate(catalog: catalog, changes: changes, previousVersion: previousVersion)
    }
}

extension CatalogPublisher {
    /// The SHA-256 of the catalog's content as published: its XML without `CatalogVersion` and
    /// `PublishedSHA256` (keys are written sorted, so the same content has the same digest).
    static func contentDigest(_ root: [String: PropertyList]) -> String {
        var content = root
        content["CatalogVersion"] = nil
        content["PublishedSHA256"] = nil
        return SHA256.hash(PropertyListEncoding.xml(.dictionary(content))).hex
    }
}

/// What `CatalogPublisher.update()` did.
extension CatalogPublisher {
    /// Copies every archive `catalog` records into `downloads` under its content address,
    /// `<SHA-256>.wordpack`, for a static file server to serve (`hangman serve --downloads-url`).
    /// A name that is there already is left as it is: its bytes are the same, and a player may be
    /// downloading them; a new one is written whole, then renamed into place. The archive's bytes
    /// are checked against the record first. Returns how many are published, and how many of
    /// them are new.
    public func publishArchives(of catalog: Catalog, to downloads: String) throws(CatalogError) -> (published: Int, new: Int) {
        do {
            try FileSystem.createFolder(atPath: downloads, permissions: 0o755)
        } catch {
            throw CatalogError(.cannotWrite, ["cannot make the downloads folder \(downloads): \(error)"])
        }
        var records: [(file: String, sha256: String)] = catalog.basePacks.map { ($0.file, $0.sha256) }
        for product in catalog.products {
            if let file = product.packFile, let sha256 = product.packSHA256 { records.append((file, sha256)) }
        }
        var seen = Set<String>()
        var new = 0
        for record in records where seen.insert(record.sha256).inserted {
            let target = downloads + "/" + record.sha256 + ".wordpack"
            if (try? FileSystem.status(atPath: target, followingLinks: false))??.kind == .regular { continue }
            let bytes: [UInt8]
            do {
                bytes = try FileSystem.readFile(atPath: folder + "/" + record.file, limit: 1 << 30)
            } catch {
                throw CatalogError(["\(folder)/\(record.file): \(error)"])
            }
            guard SHA256.hash(bytes).description == record.sha256 else {
                throw CatalogError(["\(folder)/\(record.file) is not the archive the catalog records (SHA-256 \(record.sha256)): run 'hangman catalog update' first"])
            }
            do {
                try FileSystem.writeAtomically(bytes, toPath: target, permissions: 0o644)
            } catch {
                throw CatalogError(.cannotWrite, ["cannot write \(target): \(error)"])
            }
            new += 1
        }
        return (seen.count, new)
    }
}

public struct CatalogUpdate: Sendable {
    /// An archive whose recorded SHA-256 or size was written or changed.
    public struct Change: Sendable, Equatable {
        /// The archive's file name in the packs folder.
        public var file: String
        /// What the catalog recorded before (`nil` when nothing was).
        public var previousSHA256: String?
        public var previousSize: Int?
        /// What it records now.
        public var record: ArchiveRecord
    }

    /// The catalog as written (or as it already was).
    public var catalog: Catalog
    /// Archives whose record changed, in catalog order.
    public var changes: [Change]
    /// `CatalogVersion` before the update; `nil` when the catalog had none.
    public var previousVersion: Int?

    /// `CatalogVersion` now.
    public var version: Int { catalog.catalogVersion }
    /// Whether the catalog file was rewritten.
    public var wroteCatalog: Bool { previousVersion != version }
}

/// An author's way in: a built pack added to the catalog as a product (the archive verified and
/// copied beside the others, its entry written from its manifest, then published as `update()`
/// does), or a product taken out. Either the whole change is published, or the packs folder is
/// left as it was.
extension CatalogPublisher {
    /// What `add` did.
    public struct Addition: Sendable {
        public var productID: ProductID
        /// The archive's file name in the packs folder.
        public var file: String
        public var update: CatalogUpdate
    }

    /// Adds the pack at `source` as a non-consumable, named as its manifest names it, at `prices`:
    /// each a storefront's (`DEU`, `1.99`), or with no storefront, the price in the catalog's only
    /// storefront, else in `USA`. Each amount is checked against its storefront's currency.
    public func add(
        archiveAt source: String, prices: [(storefront: String?, amount: String)], productID asked: ProductID? = nil, description: String? = nil
    ) throws(CatalogError) -> Addition {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(atPath: source, limit: verifier.archiveLimits.maxArchiveSize)
        } catch .system(.noSuchFile, _, _) {
            throw CatalogError(missing: true, ["\(source): no such pack archive"])
        } catch {
            throw CatalogError(["\(source): cannot read the pack: \(error)"])
        }
        var verification = verifier.verify(bytes)
        // What players would be shown is held to the authors' rule: no control or format character.
        if let pack = verification.pack { verification.problems += PackTextRule.problems(in: pack) }
        guard verification.isValid, let pack = verification.pack else {
            throw CatalogError(["\(source) is not a valid pack:"] + verification.problems.prefix(10).map { "  \($0)" })
        }
        let manifest = pack.manifest
        let id = asked ?? manifest.productIdentifier
        guard id == manifest.productIdentifier else {
            throw CatalogError(["\(source) is the pack \(manifest.productIdentifier), not \(id): a product sells the pack its manifest names"])
        }
        let file = String(source.split(separator: "/").last ?? "")
        guard Catalog.isPlainFileName(file), file.hasSuffix(".wordpack") else {
            throw CatalogError(["\(source): a pack archive's name ends in .wordpack"])
        }
        let path = folder + "/" + Catalog.fileName
        let original = try Catalog.readCatalogFile(path)
        guard case .dictionary(var root)? = try? PropertyListDecoding.decode(original).value else {
            throw CatalogError(["\(path): not a valid catalog: run 'hangman catalog update' to see why"])
        }
        let catalog: Catalog
        do { catalog = try Catalog.load(folder: folder, verifier: verifier) } catch { throw CatalogError(error.problems) }
        if catalog.product(id) != nil || catalog.basePack(id) != nil {
            throw CatalogError(["\(path): the catalog has \(id) already ('hangman catalog remove \(id)' takes it out)"])
        }
        var priceEntries: [String: PropertyList] = [:]
        for price in prices {
            guard let storefront = price.storefront ?? Catalog.barePriceStorefront(catalog.storefronts) else {
                throw CatalogError(["a price without its storefront is in the catalog's only storefront, or in \(Storefront.defaultCode): this catalog sells in \(catalog.storefrontCodes.joined(separator: ", ")); give STOREFRONT=PRICE"])
            }
            guard let currency = catalog.currency(of: storefront) else {
                throw CatalogError(["\(storefront) is not one of the catalog's storefronts (\(catalog.storefrontCodes.joined(separator: ", ")))"])
            }
            guard let money = Money(decimal: price.amount, currency: currency) else {
                let digits = Currency.minorUnits[currency] ?? 2
                let shape = digits == 0 ? "a whole number (\(currency) has no minor unit)" : "a decimal with at most \(digits) decimal\(digits == 1 ? "" : "s")"
                throw CatalogError(["'\(price.amount)' is not a price in \(currency) (\(storefront)): \(shape), like \(Money(minorUnits: digits == 0 ? 250 : 199, currency: currency).decimal)"])
            }
            // A pack sold for nothing is a base pack, not a product: every player has it.
            guard money.minorUnits > 0 else {
                throw CatalogError(["a pack is not sold for \(money.decimal) \(currency) (\(storefront)): give it a price, or list it under BasePacks in Catalog.plist to give it to every player"])
            }
            priceEntries[storefront] = .string(money.decimal)
        }
        guard !priceEntries.isEmpty else { throw CatalogError(["a product needs a price: --price 1.99, or one per storefront (--price DEU=1.99)"]) }
        let target = folder + "/" + file
        var created = false
        if let existing = try? FileSystem.readFile(atPath: target, limit: verifier.archiveLimits.maxArchiveSize) {
            guard existing == bytes else {
                throw CatalogError(["\(target) exists and is another archive: rename the pack, or take the old one out first"])
            }
        } else {
            do { try FileSystem.writeAtomically(bytes, toPath: target) } catch {
                throw CatalogError(.cannotWrite, ["cannot copy the pack to \(target): \(error)"])
            }
            created = true
        }
        var entry: [String: PropertyList] = [
            "ProductIdentifier": .string(id.rawValue), "Type": .string("NonConsumable"), "DisplayName": .string(manifest.displayName),
            "Prices": .dictionary(priceEntries), "Pack": .string(file),
        ]
        if let text = description ?? manifest.summary, !text.isEmpty { entry["Description"] = .string(text) }
        guard case .array(let products)? = root["Products"] else { throw CatalogError(["\(path): 'Products' (an array) is missing"]) }
        root["Products"] = .array(products + [.dictionary(entry)])
        do {
            return Addition(productID: id, file: file, update: try publish(root, replacing: original))
        } catch {
            if created { try? FileSystem.removeFile(atPath: target) }
            throw error
        }
    }

    /// Takes the product `id` off sale and publishes (`RemovedFromSale`): nobody may buy it any
    /// more, and it stays in the catalog for those who own it, so that they keep it, restore it,
    /// download its archive (which stays in the folder, and is still checked at each publish),
    /// and find it in their receipts. Refused for a product already off sale.
    public func remove(_ id: ProductID) throws(CatalogError) -> CatalogUpdate {
        let path = folder + "/" + Catalog.fileName
        let original = try Catalog.readCatalogFile(path)
        guard case .dictionary(var root)? = try? PropertyListDecoding.decode(original).value, case .array(var products)? = root["Products"] else {
            throw CatalogError(["\(path): not a valid catalog: run 'hangman catalog update' to see why"])
        }
        guard let index = products.firstIndex(where: { item in
            if case .dictionary(let entry) = item { entry["ProductIdentifier"]?.stringValue == id.rawValue } else { false }
        }), case .dictionary(var entry) = products[index] else {
            throw CatalogError(["\(path): no product \(id) to take off sale"])
        }
        guard entry["RemovedFromSale"] != .boolean(true) else {
            throw CatalogError(["\(path): \(id) is already off sale (its owners keep it)"])
        }
        entry["RemovedFromSale"] = .boolean(true)
        products[index] = .dictionary(entry)
        root["Products"] = .array(products)
        return try publish(root, replacing: original)
    }

    /// Writes `root` and publishes it; when publishing refuses, the catalog's bytes as they were
    /// are put back.
    private func publish(_ root: [String: PropertyList], replacing original: [UInt8]) throws(CatalogError) -> CatalogUpdate {
        let path = folder + "/" + Catalog.fileName
        do { try FileSystem.writeAtomically(PropertyListEncoding.xml(.dictionary(root)), toPath: path) } catch {
            throw CatalogError(.cannotWrite, ["\(error); \(path) is unchanged"])
        }
        do {
            return try update()
        } catch {
            try? FileSystem.writeAtomically(original, toPath: path)
            throw CatalogError(error.kind, error.problems + ["\(path) is as it was"])
        }
    }
}
