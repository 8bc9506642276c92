import SQLite
import WordPacks

/// A theme pack installed on the device.
public struct InstalledTheme: Sendable, Equatable {
    public var productID: ProductID
    public var contentVersion: ContentVersion
    public var displayName: String
    public var frames: ThemeFrames
}

extension DeviceDatabase {
    private static let themeName = "setting.theme"
    private static let separator: Character = "\u{1E}"

    /// Installs a verified theme pack in one transaction, replacing an older version; the same
    /// version is left as it is, an older one refused.
    func installTheme(_ pack: WordPack, archiveSHA256: String, now: Int64) throws(DeviceError) -> InstallOutcome {
        let manifest = pack.manifest
        guard let theme = pack.theme else { throw DeviceError(.invalidPack, "\(manifest.productIdentifier) is no theme") }
        return try run(.immediate) { db in
            let previous = try db.string("SELECT content_version FROM themes WHERE product_id = ?", .text(manifest.productIdentifier.rawValue))
                .flatMap(ContentVersion.init)
            if let previous {
                if previous == manifest.contentVersion { return .alreadyInstalled(previous) }
                if manifest.contentVersion < previous {
                    throw DeviceError(.olderVersion, "\(manifest.productIdentifier) \(previous) is installed; \(manifest.contentVersion) is older")
                }
            }
            func joined(_ drawings: [[String]]) -> String { drawings.map { $0.joined(separator: "\n") }.joined(separator: String(Self.separator)) }
            try db.execute(
                """
                INSERT INTO themes (product_id, content_version, display_name, archive_sha256, installed_date, frames, small_frames) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT(product_id) DO UPDATE SET content_version = excluded.content_version, display_name = excluded.display_name,
                    archive_sha256 = excluded.archive_sha256, installed_date = excluded.installed_date, frames = excluded.frames, small_frames = excluded.small_frames
                """,
                .text(manifest.productIdentifier.rawValue), .text(manifest.contentVersion.text), .text(manifest.displayName), .text(archiveSHA256),
                .integer(now), .text(joined(theme.frames)), .text(joined(theme.smallFrames)))
            return previous.map { .updated(from: $0, to: manifest.contentVersion) } ?? .installed(manifest.contentVersion)
        }
    }

    /// The themes installed here, by product identifier.
    public func installedThemes() throws(DeviceError) -> [InstalledTheme] {
        try run(.deferred) { db in
            try db.query("SELECT product_id, content_version, display_name, frames, small_frames FROM themes ORDER BY product_id").compactMap { row in
                guard let id = ProductID(rawValue: try row.string(0)), let version = ContentVersion(try row.string(1)) else { return nil }
                func drawings(_ text: String) -> [[String]] {
                    text.split(separator: Self.separator, omittingEmptySubsequences: false).map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
                }
                let frames = drawings(try row.string(3)), small = drawings(try row.string(4))
                guard frames.count == ThemeFrames.stages, small.count == ThemeFrames.stages else { return nil }
                return InstalledTheme(
                    productID: id, contentVersion: version, displayName: try row.string(2),
                    frames: ThemeFrames(name: try row.string(2), frames: frames, smallFrames: small))
            }
        }
    }

    /// Removes an installed theme; `false` when it was not installed. A chosen theme is unchosen.
    func uninstallTheme(_ id: ProductID) throws(DeviceError) -> Bool {
        try run(.immediate) { db in
            guard try db.int64("SELECT count(*) FROM themes WHERE product_id = ?", .text(id.rawValue)) == 1 else { return false }
            try db.execute("DELETE FROM themes WHERE product_id = ?", .text(id.rawValue))
            try db.execute("DELETE FROM device_facts WHERE name = ? AND value = ?", .text(Self.themeName), .text(id.rawValue))
            return true
        }
    }

    /// The theme the game draws (`settings theme`): a product identifier, `nil` for the stick figure.
    public func chosenTheme() throws(DeviceError) -> ProductID? {
        try run(.deferred) { db in try db.string("SELECT value FROM device_facts WHERE name = ?", .text(Self.themeName)).flatMap(ProductID.init(rawValue:)) }
    }

    /// Chooses the theme the game draws; `nil` for the stick figure.
    public func chooseTheme(_ id: ProductID?) throws(DeviceError) {
        try run(.immediate) { db in
            if let id {
                try db.execute(
                    "INSERT INTO device_facts (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value", .text(Self.themeName), .text(id.rawValue))
            } else {
                try db.execute("DELETE FROM device_facts WHERE name = ?", .text(Self.themeName))
            }
        }
    }
}
