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

    public init(paymentsAllowed: Bool = true, gameLanguages: [String]? = nil) {
        self.paymentsAllowed = paymentsAllowed
        self.gameLanguages = gameLanguages
    }
}

extension DeviceDatabase {
    private static let paymentsName = "setting.payments"
    private static let languagesName = "setting.game-languages"

    /// The settings as stored; the defaults for what was never set.
    public func settings() throws(DeviceError) -> DeviceSettings {
        try run(.deferred) { db in
            var settings = DeviceSettings()
            for row in try db.query("SELECT name, value FROM device_facts WHERE name LIKE 'setting.%'") {
                let (name, value) = (try row.string(0), try row.string(1))
                switch name {
                case Self.paymentsName: settings.paymentsAllowed = value != "off"
                case Self.languagesName: settings.gameLanguages = value.isEmpty ? nil : value.split(separator: " ").map(String.init)
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
            if let languages = settings.gameLanguages {
                try db.execute(upsert, .text(Self.languagesName), .text(languages.joined(separator: " ")))
            } else {
                try db.execute("DELETE FROM device_facts WHERE name = ?", .text(Self.languagesName))
            }
        }
    }
}
