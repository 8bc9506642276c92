import FoundationEssentials
import SQLite
import SystemCalls
import WordPacks

/// What a device keeps: the installed packs and their words, in `device.sqlite`.
///
/// Every change is one immediate transaction: an install, update or uninstall killed at any point
/// leaves the state before or the state after. During an update, readers keep playing the old
/// words until the new ones commit (WAL).
public final class DeviceStore {
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
        if let error = error as? SQLiteError, error.code.primary == .corrupt || error.code.primary == .notADatabase {
            return DeviceError(
                .storage,
                "the device database \(path) is damaged (\(error.message)); it was left as it is. It holds only what this "
                    + "device keeps (installed packs, the saved game, statistics): 'hangman reset --yes' deletes it, then "
                    + "'hangman restore' brings back every pack the account owns")
        }
        if let error = error as? SQLiteError {
            return DeviceError(.storage, opening ? "cannot open the device database \(path): \(error.message)" : "the device database \(path) failed: \(error.message)")
        }
        return DeviceError(.storage, "the device database \(path) failed: \(error)")
    }

    /// Deletes the device's state, as deleting the app would. The account is elsewhere and stays.
    public static func erase(folder: String) throws(DeviceError) {
        do {
            if FileManager.default.fileExists(atPath: folder) { try FileManager.default.removeItem(atPath: folder) }
        } catch {
            throw DeviceError(.storage, "cannot delete \(folder): \(error)")
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
            for row in try db.query("SELECT pack, name, first_word, word_count FROM categories ORDER BY id") {
                categories[try row.string(0), default: []].append(
                    InstalledPack.Category(name: try row.string(1), firstWord: try row.int64(2), wordCount: try row.int(3)))
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
            let insertWord = try db.prepare("INSERT INTO words (word, clue) VALUES (?, ?)")
            let total = pack.wordCount
            var done = 0
            let step = max(1, total / 100)
            let bytesTotal = progress == nil ? 0 : pack.lists.reduce(0) { sum, list in
                list.words.reduce(sum) { $0 + $1.text.utf8.count + ($1.clue?.utf8.count ?? 0) }
            }
            var bytesDone = 0
            for list in pack.lists where !list.words.isEmpty {
                let first = (try db.int64("SELECT coalesce(max(id), 0) FROM words") ?? 0) + 1
                for word in list.words {
                    try insertWord.execute(.text(word.text), word.clue.map(SQLValue.text) ?? .null)
                    done += 1
                    if let progress {
                        bytesDone += word.text.utf8.count + (word.clue?.utf8.count ?? 0)
                        if done % step == 0 { progress(InstallProgress(wordsDone: done, wordsTotal: total, bytesDone: bytesDone, bytesTotal: bytesTotal)) }
                    }
                }
                try db.execute(
                    "INSERT INTO categories (pack, name, first_word, word_count) VALUES (?, ?, ?, ?)",
                    .text(manifest.productIdentifier.rawValue), .text(list.name), .integer(first), .integer(Int64(list.words.count)))
            }
            progress?(InstallProgress(wordsDone: total, wordsTotal: total, bytesDone: bytesTotal, bytesTotal: bytesTotal))
            if let previous { return .updated(from: previous, to: manifest.contentVersion) }
            return .installed(manifest.contentVersion)
        }
    }

    // MARK: - Deliveries

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

    /// Removes a pack and its words; `false` when it was not installed.
    public func uninstall(_ id: ProductID) throws(DeviceError) -> Bool {
        try run(.immediate) { db in
            guard try db.int64("SELECT count(*) FROM packs WHERE product_id = ?", .text(id.rawValue)) == 1 else { return false }
            try Self.deleteWords(db, pack: id.rawValue)
            try db.execute("DELETE FROM packs WHERE product_id = ?", .text(id.rawValue))
            return true
        }
    }

    private static func deleteWords(_ db: Database, pack: String) throws {
        for row in try db.query("SELECT first_word, word_count FROM categories WHERE pack = ?", .text(pack)) {
            let first = try row.int64(0)
            try db.execute("DELETE FROM words WHERE id BETWEEN ? AND ?", .integer(first), .integer(first + Int64(try row.int(1)) - 1))
        }
        try db.execute("DELETE FROM categories WHERE pack = ?", .text(pack))
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
                    guard let row = try db.query("SELECT word, clue FROM words WHERE id = ?", .integer(id)).first else {
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
