import FoundationEssentials
import PropertyList
import Signing
import WordPacks

/// What the store sells: `Packs/Catalog.plist`, checked against the pack archives beside it.
public struct Catalog: Sendable {
    /// The game's identifier, bound into every receipt.
    public var bundleIdentifier: String
    /// The packs every player has, free.
    public var basePacks: [BasePack]
    public var products: [Product]
    /// The folder the catalog and its archives are in.
    public var folder: String

    /// A free pack every player has.
    public struct BasePack: Sendable, Equatable {
        public var file: String
        public var productID: ProductID
        public var displayName: String
        /// Words, as the manifest's `WordCount` says (0 when it has none).
        public var wordCount: Int
        public var contentVersion: ContentVersion
        var archivePath: String

        /// SHA-256 of the archive file, read and hashed now.
        public var sha256: String { Catalog.digest(of: archivePath) ?? "" }
    }

    /// SHA-256 of a file, hex; `nil` when it cannot be read.
    static func digest(of path: String) -> String? {
        FileManager.default.contents(atPath: path).map { SHA256.hash([UInt8]($0)).hex }
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
        products.filter(\.isConsumable).min { lhs, rhs in
            if case .consumable(let a) = lhs.kind, case .consumable(let b) = rhs.kind { return a < b }
            return false
        }
    }

    /// The product with `id`, if the catalog sells it.
    public func product(_ id: ProductID) -> Product? {
        products.first { $0.id == id }
    }

    /// The catalog file's name inside a packs folder.
    public static let fileName = "Catalog.plist"

    /// Reads and checks `folder/Catalog.plist` and every pack it names.
    ///
    /// Every problem is reported: an unknown product type, a repeated product id, a consumable
    /// without `HintCount`, a non-consumable whose pack is missing, invalid, or made for another product.
    public static func load(folder: String, verifier: PackVerifier = PackVerifier()) throws(CatalogError) -> Catalog {
        let path = folder + "/" + fileName
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CatalogError(missing: true, ["\(path): no catalog (a packs folder has Catalog.plist beside its .wordpack archives)"])
        }
        let value: PropertyList
        do {
            value = try PropertyListDecoding.decode([UInt8](data)).value
        } catch {
            throw CatalogError(["\(path): not a valid property list: \(error.message)"])
        }
        var problems: [String] = []
        guard case .dictionary(let root) = value else {
            throw CatalogError(["\(path): root is \(value.typeName), expected a dictionary"])
        }
        guard case .string(let bundle)? = root["BundleIdentifier"], !bundle.isEmpty else {
            throw CatalogError(["\(path): 'BundleIdentifier' (a string) is missing"])
        }
        var baseFiles: [String] = []
        if case .array(let names)? = root["BasePacks"] {
            for name in names {
                guard case .string(let file) = name, isPlainFileName(file) else {
                    problems.append("\(path): BasePacks: every entry must be an archive file name in the packs folder")
                    continue
                }
                baseFiles.append(file)
            }
        } else if root["BasePacks"] != nil {
            problems.append("\(path): 'BasePacks' must be an array of archive file names")
        }
        guard case .array(let items)? = root["Products"] else {
            throw CatalogError(problems + ["\(path): 'Products' (an array) is missing"])
        }
        var products: [Product] = []
        var seen: Set<ProductID> = []
        for (index, item) in items.enumerated() {
            switch Product.parse(item) {
            case .failure(let message):
                problems.append("\(path): product \(index + 1): \(message.text)")
            case .success(let product):
                if !seen.insert(product.id).inserted {
                    problems.append("\(path): product \(index + 1): '\(product.id)' is listed twice")
                    continue
                }
                products.append(product)
            }
        }
        // Only each pack's manifest is read here (a peek, not a verification): listing a catalog
        // stays fast whatever the packs' size. Installing verifies a pack in full.
        var basePacks: [BasePack] = []
        for file in baseFiles {
            switch verifier.peekManifest(fileAt: folder + "/" + file) {
            case .failure(let problem):
                problems.append("\(path): base pack \(file): \(problem)")
            case .success(let manifest):
                basePacks.append(BasePack(
                    file: file, productID: manifest.productIdentifier, displayName: manifest.displayName,
                    wordCount: manifest.wordCount ?? 0, contentVersion: manifest.contentVersion, archivePath: folder + "/" + file))
            }
        }
        var catalog = Catalog(bundleIdentifier: bundle, basePacks: basePacks, products: products, folder: folder)
        for index in catalog.products.indices {
            guard case .nonConsumable(let file) = catalog.products[index].kind else { continue }
            let product = catalog.products[index]
            switch verifier.peekManifest(fileAt: folder + "/" + file) {
            case .failure(let problem):
                problems.append("\(path): '\(product.id)': pack \(file): \(problem)")
            case .success(let manifest):
                if manifest.productIdentifier != product.id {
                    problems.append("\(path): '\(product.id)': pack \(file) is for '\(manifest.productIdentifier)'")
                    continue
                }
                catalog.products[index].wordCount = manifest.wordCount
                catalog.products[index].contentVersion = manifest.contentVersion
                catalog.products[index].archivePath = folder + "/" + file
            }
        }
        if !problems.isEmpty { throw CatalogError(problems) }
        return catalog
    }

    /// A name without folders, so that a catalog cannot point outside its own folder.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.contains("\\") && name != "." && name != ".." && !name.hasPrefix(".")
    }
}

/// One product for sale.
public struct Product: Sendable, Equatable {
    /// What buying it gives.
    public enum Kind: Sendable, Equatable {
        /// Hints, credited on every purchase.
        case consumable(hints: Int)
        /// A word pack, unlocked once and for good (until a refund).
        case nonConsumable(pack: String)
    }

    public var id: ProductID
    public var kind: Kind
    public var displayName: String
    public var description: String
    /// The price as written in the catalog, a decimal string (`0.99`).
    public var price: String
    /// Words in the pack, for a non-consumable.
    public var wordCount: Int?
    /// The pack archive's path, for a non-consumable.
    var archivePath: String?
    /// SHA-256 of the pack archive, for a non-consumable: read and hashed now.
    public var packSHA256: String? { archivePath.flatMap(Catalog.digest(of:)) }
    /// The pack's content version, for a non-consumable.
    public var contentVersion: ContentVersion?

    public var isConsumable: Bool {
        if case .consumable = kind { true } else { false }
    }

    /// `Consumable` or `NonConsumable`, as the catalog spells it.
    public var typeName: String { isConsumable ? "Consumable" : "NonConsumable" }

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
        switch type {
        case "Consumable":
            guard case .integer(let hints)? = dict["HintCount"], hints > 0, hints <= 1_000_000 else {
                return .failure("'\(id)': a Consumable needs 'HintCount', a positive integer")
            }
            kind = .consumable(hints: Int(hints))
        case "NonConsumable":
            guard let pack = string("Pack"), Catalog.isPlainFileName(pack) else {
                return .failure("'\(id)': a NonConsumable needs 'Pack', the archive's file name in the packs folder")
            }
            kind = .nonConsumable(pack: pack)
        default:
            return .failure("'\(id)': unknown product type '\(type)' (Consumable or NonConsumable)")
        }
        return .success(Product(id: id, kind: kind, displayName: name, description: string("Description") ?? "", price: price))
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

/// Why a catalog could not be loaded: every problem, one line each.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    public var problems: [String]
    /// The catalog file does not exist.
    public var isMissing: Bool

    init(missing: Bool = false, _ problems: [String]) {
        self.problems = problems
        self.isMissing = missing
    }

    public var description: String { problems.joined(separator: "\n") }
}
