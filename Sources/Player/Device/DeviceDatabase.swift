import FoundationEssentials
import SQLite
import SystemCalls
import WordPacks

/// What a device keeps: the installed packs and their words, in `device.sqlite`.
///
/// Every change is one immediate transaction: an install, update or uninstall killed at any point
/// leaves the state before or the state after. During an update, readers keep playing the old
/// words until the new ones commit (WAL).
public final class DeviceDatabase {
    /// The database file inside the device folder.
    public static let databaseName = "device.sqlite"

    let db: Database
    public let folder: String

    public init(folder: String) throws(DeviceError) {
        self.folder = folder
        do {
            try FileSystem.createFolder(atPath: folder, permissions: 0o700)
        } catch {
            throw DeviceError(.storage, "cannot make the device folder \(folder): \(error)")
        }
        let path = folder + "/" + Self.databaseName
        do {
            db = try Database.openState(path: path, migrator: DeviceSchema.migrator)
        } catch {
            throw Self.failure(error, path: path, opening: true)
        }
    }

    /// What a failure of the device database means: a damaged file is named, kept, and what to do
    /// is said; it is never replaced by an empty one.
    static func failure(_ error: any Error, path: String, opening: Bool = false) -> DeviceError {
        if let error = error as? DeviceError { return error }
        return DeviceError(.storage, SQLiteError.sentence(
            for: error, "the device database", at: path, opening: opening,
            whenDamaged: "It holds only what this device keeps (installed packs, the saved game, statistics): 'hangman reset --yes' "
                + "deletes it, then 'hangman restore' brings back every pack the account owns"))
    }

    /// Deletes the device's state, as deleting the app would. The account is elsewhere and stays.
    public static func erase(folder: String) throws(DeviceError) {
        do {
            if FileManager.default.fileExists(atPath: folder) { try FileManager.default.removeItem(atPath: folder) }
        } catch {
            // Foundation's words ("You don't have permission.") say less than the C library's.
            let posix = ((error as? CocoaError)?.underlying as? POSIXError).map { Errno(rawValue: $0.code.rawValue) }
            let reason = posix.map { "\($0)" } ?? "\(error)"
            throw DeviceError(.storage, "cannot delete \(folder): \(reason)")
        }
    }

    func run<T>(_ kind: TransactionKind, _ body: (Database) throws -> T) throws(DeviceError) -> T {
        do {
            return try db.transaction(kind, body)
        } catch {
            throw Self.failure(error, path: db.path)
        }
    }

    /// Every installed pack, with its categories.
    public func installedPacks() throws(DeviceError) -> [InstalledPack] {
        try run(.deferred) { db in
            var categories: [String: [InstalledPack.Category]] = [:]
            for row in try db.query("SELECT pack, name, first_word, word_count, first_chunk FROM categories ORDER BY id") {
                categories[try row.string(0), default: []].append(InstalledPack.Category(
                    name: try row.string(1), firstWord: try row.int64(2), wordCount: try row.int(3), firstChunk: try row[4].int64Value))
            }
            return try db.query(
                "SELECT product_id, content_version, display_name, language, archive_sha256, installed_date, is_base, word_count FROM packs ORDER BY is_base DESC, product_id"
            ).compactMap { row in
                guard let id = ProductID(rawValue: try row.string(0)), let version = ContentVersion(try row.string(1)) else { return nil }
                return InstalledPack(
                    productID: id, contentVersion: version, displayName: try row.string(2), language: try row.string(3),
                    archiveSHA256: try row.string(4), installedDate: try row.int64(5), isBase: try row.bool(6), wordCount: try row.int(7),
                    categories: categories[id.rawValue] ?? [])
            }
        }
    }

    /// Installs a verified pack in one transaction, replacing an older version of it.
    /// The same version is left as it is; an older one is refused.
    public func install(
        _ pack: WordPack, archiveSHA256: String, isBase: Bool, now: Int64, progress: ((InstallProgress) -> Void)? = nil
    ) throws(DeviceError) -> InstallOutcome {
        let manifest = pack.manifest
        return try run(.immediate) { db in
            // Installed again on purpose: no longer an uninstalled base pack.
            try db.execute("DELETE FROM device_facts WHERE name = ?", .text("uninstalled-base:" + manifest.productIdentifier.rawValue))
            var previous: ContentVersion?
            if let text = try db.string("SELECT content_version FROM packs WHERE product_id = ?", .text(manifest.productIdentifier.rawValue)) {
                previous = ContentVersion(text)
                if let previous, previous == manifest.contentVersion {
                    return .alreadyInstalled(previous)
                }
                if let previous, manifest.contentVersion < previous {
                    throw DeviceError(.olderVersion, "\(manifest.productIdentifier) \(previous) is installed; \(manifest.contentVersion) is older")
                }
                try Self.deleteWords(db, pack: manifest.productIdentifier.rawValue)
                try db.execute("DELETE FROM packs WHERE product_id = ?", .text(manifest.productIdentifier.rawValue))
            }
            try db.execute(
                "INSERT INTO packs (product_id, content_version, display_name, language, archive_sha256, installed_date, is_base, word_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                .text(manifest.productIdentifier.rawValue), .text(manifest.contentVersion.text), .text(manifest.displayName), .text(manifest.language),
                .text(archiveSHA256), .integer(now), .integer(isBase ? 1 : 0), .integer(Int64(pack.wordCount)))
            // One statement for every row of 64 words, built in one reused buffer and bound in place.
            let insertChunk = try db.prepare("INSERT INTO word_chunks (words, clues) VALUES (?, ?)")
            let total = pack.wordCount
            var done = 0
            let step = max(1, total / 100)
            var bytesTotal = 0
            if progress != nil {
                for list in pack.lists {
                    list.forEachWord { word, clue in bytesTotal += word.count + (clue?.utf8.count ?? 0) }
                }
            }
            var bytesDone = 0
            var nextWord = try Self.nextWordNumber(db)
            var nextChunk = (try db.int64("SELECT coalesce(max(id), 0) FROM word_chunks") ?? 0) + 1
            var chunk = WordChunk()
            for list in pack.lists where list.wordCount > 0 {
                let firstChunk = nextChunk
                try list.forEachWord { word, clue in
                    chunk.append(word, clue: clue)
                    if chunk.count == DeviceSchema.wordsPerChunk {
                        try chunk.insert(with: insertChunk)
                        nextChunk += 1
                    }
                    done += 1
                    if let progress {
                        bytesDone += word.count + (clue?.utf8.count ?? 0)
                        if done % step == 0 { progress(InstallProgress(wordsDone: done, wordsTotal: total, bytesDone: bytesDone, bytesTotal: bytesTotal)) }
                    }
                }
                if chunk.count > 0 {
                    try chunk.insert(with: insertChunk)
                    nextChunk += 1
                }
                try db.execute(
                    "INSERT INTO categories (pack, name, first_word, word_count, first_chunk) VALUES (?, ?, ?, ?, ?)",
                    .text(manifest.productIdentifier.rawValue), .text(list.name), .integer(nextWord), .integer(Int64(list.wordCount)),
                    .integer(firstChunk))
                nextWord += Int64(list.wordCount)
            }
            progress?(InstallProgress(wordsDone: total, wordsTotal: total, bytesDone: bytesTotal, bytesTotal: bytesTotal))
            if let previous { return .updated(from: previous, to: manifest.contentVersion) }
            return .installed(manifest.contentVersion)
        }
    }

    // MARK: - Deliveries

    /// Whether a start has nothing to do, in one query: every base pack in `basePacks` is installed,
    /// the delivery baseline is taken, and every purchase in `transactions` was delivered or taken
    /// stock of. `false` sends the start through its full checks.
    public func isUpToDate(basePacks: [ProductID], transactions: [String]) throws(DeviceError) -> Bool {
        do {
            // A base pack is up to date when installed, or uninstalled by the player (it stays so).
            let statement = try db.prepareCached("""
                SELECT NOT EXISTS (SELECT 1 FROM json_each(?1) AS base
                        WHERE base.value NOT IN (SELECT product_id FROM packs)
                        AND 'uninstalled-base:' || base.value NOT IN (SELECT name FROM device_facts))
                    AND EXISTS (SELECT 1 FROM device_facts WHERE name = 'delivery-baseline')
                    AND (SELECT count(*) FROM deliveries WHERE transaction_id IN (SELECT value FROM json_each(?2))) = json_array_length(?2)
                """)
            return try statement.int64 { values in
                values.bind(Self.jsonArray(basePacks.map(\.rawValue)), at: 1)
                values.bind(Self.jsonArray(transactions), at: 2)
            } == 1
        } catch {
            throw DeviceError(.storage, "the device database failed: \(error)")
        }
    }

    /// `strings` as a JSON array.
    private static func jsonArray(_ strings: [String]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (index, string) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            var text = string
            text.withUTF8 { WordChunk.appendJSONString($0, to: &bytes) }
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether this device has taken stock of what the account owned when it was created.
    public func hasDeliveryBaseline() throws(DeviceError) -> Bool {
        try run(.deferred) { db in
            try db.int64("SELECT count(*) FROM device_facts WHERE name = 'delivery-baseline'") == 1
        }
    }

    /// Records, once, the purchases (transaction id, product) the account already owned: they are
    /// not delivered unasked, `restore` brings them. A second call changes nothing.
    public func recordDeliveryBaseline(_ owned: [(transaction: String, product: ProductID)], now: Int64) throws(DeviceError) {
        try run(.immediate) { db in
            guard try db.int64("SELECT count(*) FROM device_facts WHERE name = 'delivery-baseline'") == 0 else { return }
            for item in owned {
                try db.execute(
                    "INSERT INTO deliveries (transaction_id, product_id, how, recorded_date) VALUES (?, ?, 'owned-before', ?) ON CONFLICT(transaction_id) DO NOTHING",
                    .text(item.transaction), .text(item.product.rawValue), .integer(now))
            }
            try db.execute("INSERT INTO device_facts (name, value) VALUES ('delivery-baseline', ?)", .text(String(now)))
        }
    }

    /// Transaction ids this device has delivered or took stock of.
    public func knownDeliveries() throws(DeviceError) -> Set<String> {
        try run(.deferred) { db in
            Set(try db.query("SELECT transaction_id FROM deliveries").map { row in try row.string(0) })
        }
    }

    /// Records that the purchase `transaction` of `product` is installed on this device.
    public func recordDelivery(transaction: String, product: ProductID, now: Int64) throws(DeviceError) {
        try run(.immediate) { db in
            try db.execute(
                """
                INSERT INTO deliveries (transaction_id, product_id, how, recorded_date) VALUES (?, ?, 'installed', ?)
                ON CONFLICT(transaction_id) DO UPDATE SET how = 'installed', recorded_date = excluded.recorded_date
                """,
                .text(transaction), .text(product.rawValue), .integer(now))
        }
    }

    /// Removes a pack and its words; `false` when it was not installed. A base pack (`isBase`)
    /// is remembered as uninstalled, so that the next start does not bring it back unasked.
    public func uninstall(_ id: ProductID, isBase: Bool = false) throws(DeviceError) -> Bool {
        if try uninstallTheme(id) { return true }
        return try run(.immediate) { db in
            guard try db.int64("SELECT count(*) FROM packs WHERE product_id = ?", .text(id.rawValue)) == 1 else { return false }
            try Self.deleteWords(db, pack: id.rawValue)
            try db.execute("DELETE FROM packs WHERE product_id = ?", .text(id.rawValue))
            if isBase {
                try db.execute(
                    "INSERT INTO device_facts (name, value) VALUES (?, '1') ON CONFLICT(name) DO NOTHING", .text("uninstalled-base:" + id.rawValue))
            }
            return true
        }
    }

    /// The base packs the player uninstalled (an explicit install brings one back).
    public func uninstalledBasePacks() throws(DeviceError) -> Set<ProductID> {
        try run(.deferred) { db in
            Set(try db.query("SELECT substr(name, 18) FROM device_facts WHERE name LIKE 'uninstalled-base:%'").compactMap { row in
                ProductID(rawValue: try row.string(0))
            })
        }
    }

    private static func deleteWords(_ db: Database, pack: String) throws {
        for row in try db.query("SELECT first_word, word_count, first_chunk FROM categories WHERE pack = ?", .text(pack)) {
            let count = Int64(try row.int(1))
            if let firstChunk = try row[2].int64Value {
                let chunks = (count + Int64(DeviceSchema.wordsPerChunk) - 1) / Int64(DeviceSchema.wordsPerChunk)
                try db.execute("DELETE FROM word_chunks WHERE id BETWEEN ? AND ?", .integer(firstChunk), .integer(firstChunk + chunks - 1))
            } else {
                let first = try row.int64(0)
                try db.execute("DELETE FROM word_rows WHERE id BETWEEN ? AND ?", .integer(first), .integer(first + count - 1))
            }
        }
        try db.execute("DELETE FROM categories WHERE pack = ?", .text(pack))
    }

    /// The number of the next word installed: after every word of every category, and every row
    /// an install before chunks left.
    private static func nextWordNumber(_ db: Database) throws -> Int64 {
        let rows = try db.int64("SELECT coalesce(max(id), 0) FROM word_rows") ?? 0
        let categories = try db.int64("SELECT coalesce(max(first_word + word_count - 1), 0) FROM categories") ?? 0
        return max(rows, categories) + 1
    }

    /// A random word from `packs` (optionally one category): one lookup by id, whatever the size.
    public func randomWord<G: RandomNumberGenerator>(
        from packs: [InstalledPack], category: String? = nil, using generator: inout G
    ) throws(DeviceError) -> DeviceWord? {
        var ranges: [(pack: InstalledPack, category: InstalledPack.Category)] = []
        for pack in packs {
            for item in pack.categories where category == nil || item.name.lowercased() == category?.lowercased() {
                ranges.append((pack, item))
            }
        }
        let total = ranges.reduce(0) { $0 + $1.category.wordCount }
        guard total > 0 else { return nil }
        var offset = Int.random(in: 0..<total, using: &generator)
        for (pack, item) in ranges {
            if offset < item.wordCount {
                let id = item.firstWord + Int64(offset)
                return try run(.deferred) { db in
                    let found: Row?
                    if let firstChunk = item.firstChunk {
                        let path = "$[\(offset % DeviceSchema.wordsPerChunk)]"
                        found = try db.query(
                            "SELECT json_extract(words, ?), json_extract(clues, ?) FROM word_chunks WHERE id = ?",
                            .text(path), .text(path), .integer(firstChunk + Int64(offset / DeviceSchema.wordsPerChunk))
                        ).first.flatMap { row in try row.isNull(0) ? nil : row }
                    } else {
                        found = try db.query("SELECT word, clue FROM word_rows WHERE id = ?", .integer(id)).first
                    }
                    guard let row = found else {
                        throw DeviceError(.storage, "the device database lost word \(id) of \(pack.productID): run 'hangman install \(pack.productID)' again")
                    }
                    return DeviceWord(
                        word: try row.string(0), clue: try row[1].stringValue, pack: pack.productID,
                        packName: pack.displayName, category: item.name, language: pack.language)
                }
            }
            offset -= item.wordCount
        }
        return nil
    }

    /// `PRAGMA integrity_check`: empty when the database is sound.
    public func integrityProblems() throws(DeviceError) -> [String] {
        do {
            return try db.integrityCheck()
        } catch {
            throw Self.failure(error, path: db.path)
        }
    }
}

/// Up to 64 words of one category as the JSON arrays a row of `word_chunks` holds, built in
/// buffers reused from row to row.
struct WordChunk {
    private var words: [UInt8] = []
    private var clues: [UInt8] = []
    private var hasClue = false
    private(set) var count = 0

    init() {
        words.reserveCapacity(4096)
        clues.reserveCapacity(256)
    }

    mutating func append(_ word: UnsafeBufferPointer<UInt8>, clue: String?) {
        words.append(count == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
        Self.appendJSONString(word, to: &words)
        clues.append(count == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
        if var clue {
            hasClue = true
            clue.withUTF8 { Self.appendJSONString($0, to: &clues) }
        } else {
            clues.append(contentsOf: "null".utf8)
        }
        count += 1
    }

    /// Inserts the row and starts the next one.
    mutating func insert(with statement: Statement) throws(SQLiteError) {
        words.append(UInt8(ascii: "]"))
        clues.append(UInt8(ascii: "]"))
        try words.withUnsafeBufferPointer { words throws(SQLiteError) in
            try clues.withUnsafeBufferPointer { clues throws(SQLiteError) in
                try statement.execute { values in
                    values.bind(text: words, at: 1)
                    if hasClue { values.bind(text: clues, at: 2) } else { values.bindNull(at: 2) }
                }
            }
        }
        words.removeAll(keepingCapacity: true)
        clues.removeAll(keepingCapacity: true)
        hasClue = false
        count = 0
    }

    /// `bytes` (valid UTF-8) as a JSON string: quotes, backslashes and control characters escaped.
    static func appendJSONString(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: bytes)
        } else {
            let hex = Array("0123456789abcdef".utf8)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    out.append(UInt8(ascii: "\\"))
                    out.append(byte)
                case 0..<0x20:
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0x0F)])
                default:
                    out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
