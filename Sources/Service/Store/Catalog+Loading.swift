import PropertyList
import SystemCalls
import WordPacks

extension Catalog {
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
        var currency = defaultCurrency
        switch root["Currency"] {
        case .string(let code)? where isCurrencyCode(code):
            currency = code
        case nil:
            break
        default:
            problems.append("\(path): 'Currency' must be an ISO 4217 code of three capital letters, like \"USD\"")
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
            switch Product.parse(item) {
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
            let manifest: (productID: ProductID, displayName: String, wordCount: Int?, contentVersion: ContentVersion)
            if let facts = entry.facts, let productID = facts.productID, let displayName = facts.displayName,
                isPublished(entry.file, size: entry.record.size)
            {
                manifest = (productID, displayName, facts.wordCount, facts.contentVersion)
            } else {
                switch verifier.peekManifest(fileAt: folder + "/" + entry.file) {
                case .failure(let problem):
                    unavailableBasePacks.append(UnavailableBasePack(file: entry.file, reason: "\(entry.file) \(Self.unusable(problem))"))
                    continue
                case .success(let peeked):
                    manifest = (peeked.productIdentifier, peeked.displayName, peeked.wordCount, peeked.contentVersion)
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
            basePacks.append(BasePack(
                file: entry.file, productID: manifest.productID, displayName: manifest.displayName,
                wordCount: manifest.wordCount ?? 0, contentVersion: manifest.contentVersion,
                sha256: entry.record.sha256, size: entry.record.size))
        }
        var catalog = Catalog(
            bundleIdentifier: bundle, catalogVersion: version, currency: currency, basePacks: basePacks, products: products,
            unavailableBasePacks: unavailableBasePacks)
        for index in catalog.products.indices {
            guard case .nonConsumable(let file) = catalog.products[index].kind else { continue }
            let product = catalog.products[index]
            if let facts = recordedFacts[product.id], let size = product.packSize, isPublished(file, size: size) {
                catalog.products[index].wordCount = facts.wordCount
                catalog.products[index].contentVersion = facts.contentVersion
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
            }
        }
        if !problems.isEmpty { throw CatalogError(problems) }
        return catalog
    }

    /// "is missing", "is damaged (...)": why an archive cannot be used, for an unavailable product.
    static func unusable(_ problem: PackProblem) -> String {
        problem.kind == .missingFile ? "is missing from the packs folder" : "cannot be used: \(problem)"
    }

    /// Three capital ASCII letters, the shape of an ISO 4217 code.
    static func isCurrencyCode(_ code: String) -> Bool {
        code.utf8.count == 3 && code.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }

    /// A name without folders, so that a catalog cannot point outside its own folder.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.contains("\\") && name != "." && name != ".." && !name.hasPrefix(".")
    }
}

extension Product {
    static func parse(_ value: PropertyList) -> Result<Product, CatalogMessage> {
        guard case .dictionary(let dict) = value else { return .failure("is \(value.typeName), expected a dictionary") }
        func string(_ key: String) -> String? {
            if case .string(let text)? = dict[key], !text.isEmpty { text } else { nil }
        }
        guard let idText = string("ProductIdentifier") else { return .failure("'ProductIdentifier' (a string) is missing") }
        guard let id = ProductID(rawValue: idText) else { return .failure("'\(idText)' is not a reverse-DNS product identifier") }
        guard let type = string("Type") else { return .failure("'\(id)': 'Type' is missing (Consumable or NonConsumable)") }
        guard let name = string("DisplayName") else { return .failure("'\(id)': 'DisplayName' is missing") }
        guard let price = string("Price"), isPrice(price) else {
            return .failure("'\(id)': 'Price' must be a decimal string like \"0.99\"")
        }
        let kind: Kind
        var record: ArchiveRecord?
        switch type {
        case "Consumable":
            guard case .integer(let hints)? = dict["HintCount"], hints > 0, hints <= 1_000_000 else {
                return .failure("'\(id)': a Consumable needs 'HintCount', a positive integer")
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
        default:
            return .failure("'\(id)': unknown product type '\(type)' (Consumable or NonConsumable)")
        }
        return .success(Product(
            id: id, kind: kind, displayName: name, description: string("Description") ?? "", price: price,
            packSHA256: record?.sha256, packSize: record?.size))
    }

    static func isPrice(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.count <= 7,
            whole.allSatisfy(\.isASCII), whole.allSatisfy(\.isNumber)
        else { return false }
        if parts.count == 2 {
            let cents = parts[1]
            return (1...2).contains(cents.count) && cents.allSatisfy { $0.isASCII && $0.isNumber }
        }
        return true
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
