import SQLite

/// The player's choices on this device, kept in the device database beside what it installed
/// (deleting the device folder is deleting the app: its settings go with it).
public struct DeviceSettings: Sendable, Equatable {
    /// Whether this device may buy (StoreKit's `canMakePayments`): off, every purchase is refused
    /// before the store is asked, and nothing is charged.
    public var paymentsAllowed = true
    /// The languages a game without `--pack` draws its words from (BCP 47 tags); `nil` for every
    /// installed pack. Set when a pack in a second language is bought, so that games do not
    /// silently change language.
    public var gameLanguages: [String]?
    /// The colours of hits and misses on the board and in the share line.
    public var palette = Palette.standard

    public init(paymentsAllowed: Bool = true, gameLanguages: [String]? = nil, palette: Palette = .standard) {
        self.paymentsAllowed = paymentsAllowed
        self.gameLanguages = gameLanguages
        self.palette = palette
    }

    /// The colours of hits and misses: green and red, or, for players who tell those apart
    /// badly, orange and blue (Wordle's high-contrast mode).
    public enum Palette: String, Sendable, CaseIterable {
        case standard
        case highContrast = "high-contrast"
    }
}

extension DeviceDatabase {
    private static let paymentsName = "setting.payments"
    private static let languagesName = "setting.game-languages"
    private static let paletteName = "setting.palette"

    /// The settings as stored; the defaults for what was never set.
    public func settings() throws(DeviceError) -> DeviceSettings {
        try run(.deferred) { db in
            var settings = DeviceSettings()
            for row in try db.query("SELECT name, value FROM device_facts WHERE name LIKE 'setting.%'") {
                let (name, value) = (try row.string(0), try row.string(1))
                switch name {
                case Self.paymentsName: settings.paymentsAllowed = value != "off"
                case Self.languagesName: settings.gameLanguages = value.isEmpty ? nil : value.split(separator: " ").map(String.init)
                case Self.paletteName: settings.palette = DeviceSettings.Palette(rawValue: value) ?? .standard
                default: break
                }
            }
            return settings
        }
    }

    /// Stores `settings`, in one transaction.
    public func save(_ settings: DeviceSettings) throws(DeviceError) {
        try run(.immediate) { db in
            let upsert = "INSERT INTO device_facts (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value"
            try db.execute(upsert, .text(Self.paymentsName), .text(settings.paymentsAllowed ? "on" : "off"))
            try db.execute(upsert, .text(Self.paletteName), .text(settings.palette.rawValue))
            if let languages = settings.gameLanguages {
                try db.execute(upsert, .text(Self.languagesName), .text(languages.joined(separator: " ")))
            } else {
                try db.execute("DELETE FROM device_facts WHERE name = ?", .text(Self.languagesName))
            }
        }
    }
}
