import CivilCalendar
import Messages
import PropertyList
import Signing
import Synchronization
import SystemCalls

/// A batch of offer codes, as App Store Connect's one-time use codes: each code redeemable once,
/// across the service, for one product (free, for a product bought once or a consumable; under
/// one of its offers, for a subscription), until the batch expires.
public struct OfferCodeBatch: Sendable, Equatable {
    /// The batch's reference name, unique in the packs folder: a one-time product's purchase
    /// under one of its codes carries it as its `offerIdentifier`.
    public var name: String
    public var productID: ProductID
    /// A subscription's offer the codes give (its identifier in the catalog's `PromotionalOffers`).
    public var offer: String?
    /// When the batch was made and when its codes stop working (milliseconds since 1970).
    public var created: Int64
    public var expires: Int64
    /// The SHA-256 of each code (``OfferCodes/digest(_:)``), never the code itself.
    public var digests: [String]
}

/// The offer codes a seller made (`hangman catalog offer-codes`), kept beside the catalog in
/// `OfferCodes.plist`: each batch with the SHA-256 of its codes, so that the packs folder never
/// holds a code that works. The codes themselves are written once, to the seller's file.
///
/// A code is 16 letters and digits from an alphabet without look-alikes (80 random bits); a
/// player may type it in either case, with spaces or dashes.
public enum OfferCodes {
    public static let fileName = "OfferCodes.plist"
    /// The letters and digits of a code: no 0, O, 1 or I.
    static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789".utf8)
    public static let length = 16
    /// The most codes one batch makes.
    public static let batchLimit = 10_000
    /// The most days a batch's codes work: six months, as Apple's.
    public static let longestDays = 180
    /// The most the file may weigh: reading it for a redemption stays bounded.
    static let fileSizeLimit = 16 << 20

    /// `text` as a code (upper case, without spaces or dashes), or `nil` when it cannot be one.
    public static func normalized(_ text: String) -> String? {
        guard text.utf8.count <= 64 else { return nil }
        let bytes = text.uppercased().utf8.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "-") }
        guard bytes.count == length, bytes.allSatisfy(alphabet.contains) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The SHA-256 of a normalized code, in hex: what the file keeps and the service claims.
    public static func digest(_ code: String) -> String { SHA256.hash(Array(code.utf8)).hex }

    /// A new code, `length` characters drawn from `alphabet` (32 of them: 5 bits each, no bias).
    public static func newCode(using random: inout some RandomNumberGenerator) -> String {
        String(decoding: (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }, as: UTF8.self)
    }

    /// The batches of `folder`'s file, oldest first; none when it has no file.
    public static func load(folder: String) throws(ServiceError) -> [OfferCodeBatch] {
        let path = folder + "/" + fileName
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(atPath: path, limit: fileSizeLimit)
        } catch .system(.noSuchFile, _, _) {
            return []
        } catch {
            throw ServiceError(.storage, "cannot read the offer codes \(path): \(error)")
        }
        let value: PropertyList
        do { value = try PropertyListDecoding.decode(bytes).value } catch {
            throw ServiceError(.storage, "\(path): not a valid property list: \(error.message)")
        }
        guard case .dictionary(let root) = value, case .array(let entries)? = root["Batches"] else {
            throw ServiceError(.storage, "\(path): expected a dictionary with 'Batches', an array")
        }
        var batches: [OfferCodeBatch] = []
        for (index, entry) in entries.enumerated() {
            guard case .dictionary(let fields) = entry, let name = fields["Name"]?.stringValue, let product = fields["ProductID"]?.stringValue.flatMap(ProductID.init(rawValue:)),
                case .date(let createdSeconds)? = fields["Created"], case .date(let expiresSeconds)? = fields["Expires"],
                let created = milliseconds(createdSeconds), let expires = milliseconds(expiresSeconds), case .array(let codes)? = fields["Codes"]
            else { throw ServiceError(.storage, "\(path): batch \(index + 1) needs Name, ProductID, Created, Expires and Codes") }
            let digests = codes.compactMap(\.stringValue)
            guard digests.count == codes.count, digests.allSatisfy({ $0.utf8.count == 64 }) else {
                throw ServiceError(.storage, "\(path): batch '\(name)': every code is kept as its SHA-256 in hex")
            }
            batches.append(
                OfferCodeBatch(
                    name: name, productID: product, offer: fields["Offer"]?.stringValue, created: created,
                    expires: expires, digests: digests))
        }
        return batches
    }

    /// The batch a code's digest belongs to, if any: the file is read again only when it changed
    /// (a new version of it, ``FileVersion``), so that a redemption costs a `stat` and a lookup.
    public static func batch(of digest: String, folder: String) throws(ServiceError) -> OfferCodeBatch? {
        let path = folder + "/" + fileName
        let version: FileVersion?
        do { version = try FileSystem.version(atPath: path) } catch { throw ServiceError(.storage, "cannot read the offer codes \(path): \(error)") }
        guard let version else { return nil }
        if let held = read.withLock({ $0[path] }), held.version == version { return held.batches[digest].map { held.list[$0] } }
        let list = try load(folder: folder)
        var index: [String: Int] = [:]
        for (position, batch) in list.enumerated() { for code in batch.digests { index[code] = position } }
        read.withLock { held in
            // One file's index per packs folder a process serves (one, or a test's few).
            if held.count > 8 { held.removeAll() }
            held[path] = (version, list, index)
        }
        return index[digest].map { list[$0] }
    }

    /// Each file read, by path: its version, its batches, and each code's batch.
    private static let read = Mutex<[String: (version: FileVersion, list: [OfferCodeBatch], batches: [String: Int])]>([:])

    /// Makes `count` codes for `product` (under `offer`, a subscription's), working for `days`
    /// from `now`, and records their batch in `folder`'s file (rewritten atomically); the batch
    /// and its codes, which are nowhere else. A product the catalog does not sell, an offer that
    /// is not the subscription's, or an offer for anything else is refused, nothing written.
    public static func make(
        count: Int, product: ProductID, offer: String?, days: Int, name: String?, catalog: Catalog, folder: String, now: Int64
    ) throws(ServiceError) -> (batch: OfferCodeBatch, codes: [String]) {
        guard (1...batchLimit).contains(count) else { throw ServiceError(.invalidRequest, L10n.text("--count is 1 to %s, not %s", batchLimit, count)) }
        guard (1...longestDays).contains(days) else { throw ServiceError(.invalidRequest, L10n.text("--days is 1 to %s (six months), not %s", longestDays, days)) }
        guard let sold = catalog.product(product), sold.isForSale, sold.unavailableReason == nil else {
            throw ServiceError(.unknownProduct, L10n.text("the catalog sells no product %s: see 'hangman products'", product))
        }
        if let terms = sold.autoRenewable {
            let offers = (terms.promotionalOffers ?? []).filter { $0.winBack == nil }
            guard let offer, offers.contains(where: { $0.identifier == offer }) else {
                let named = offers.map(\.identifier)
                throw ServiceError(
                    .invalidRequest,
                    "\(product) is a subscription: its codes give one of its offers (--offer "
                        + (named.isEmpty ? "ID; it declares none in PromotionalOffers)" : "\(named.joined(separator: " | ")))"))
            }
        } else if offer != nil {
            throw ServiceError(.invalidRequest, L10n.text("--offer is for a subscription's codes: %s's codes give the product itself, free", product))
        }
        // Batches expired more than 30 days ago leave the file (their codes are then unknown, not expired).
        var batches = try load(folder: folder).filter { $0.expires + 30 * UTCDateTime.millisecondsPerDay > now }
        let batchName = name ?? "\(product.rawValue.split(separator: ".").last ?? "codes")-\(batches.count + 1)"
        guard !batchName.isEmpty, batchName.utf8.count <= 64, !batches.contains(where: { $0.name == batchName }) else {
            throw ServiceError(
                .invalidRequest, L10n.text("a batch name is 1 to 64 characters and new to the folder: '%s' is not", batchName.prefix(64)), reason: .offerCodesFolder)
        }
        var random = SystemRandomNumberGenerator()
        var codes: [String] = []
        var digests: Set<String> = Set(batches.flatMap(\.digests))
        while codes.count < count {
            let code = newCode(using: &random)
            if digests.insert(digest(code)).inserted { codes.append(code) }
        }
        let batch = OfferCodeBatch(
            name: batchName, productID: product, offer: offer, created: now, expires: now + Int64(days) * UTCDateTime.millisecondsPerDay, digests: codes.map(digest))
        batches.append(batch)
        let root: PropertyList = .dictionary([
            "Batches": .array(
                batches.map { batch in
                    var fields: [String: PropertyList] = [
                        "Name": .string(batch.name), "ProductID": .string(batch.productID.rawValue), "Created": .date(plistSeconds(batch.created)),
                        "Expires": .date(plistSeconds(batch.expires)), "Codes": .array(batch.digests.map(PropertyList.string)),
                    ]
                    if let offer = batch.offer { fields["Offer"] = .string(offer) }
                    return .dictionary(fields)
                })
        ])
        let path = folder + "/" + fileName
        let bytes = PropertyListEncoding.xml(root)
        guard bytes.count <= fileSizeLimit else {
            throw ServiceError(
                .invalidRequest,
                L10n.text("the offer codes file would pass %s MB with %s more codes: make fewer, or wait for batches to expire (each leaves it 30 days after)", fileSizeLimit >> 20, count),
                reason: .offerCodesFolder)
        }
        do { try FileSystem.writeAtomically(bytes, toPath: path) } catch {
            throw ServiceError(.storage, "cannot write \(path): \(error)")
        }
        return (batch, codes)
    }

    /// A plist date (seconds since 2001) in milliseconds since 1970, and back.
    /// `nil` for one no clock reaches (a file edited by hand): never a trap.
    private static func milliseconds(_ seconds: Double) -> Int64? {
        seconds.isFinite && abs(seconds) < 1e11 ? Int64(((seconds + 978_307_200) * 1000).rounded()) : nil
    }
    private static func plistSeconds(_ milliseconds: Int64) -> Double { Double(milliseconds) / 1000 - 978_307_200 }
}
