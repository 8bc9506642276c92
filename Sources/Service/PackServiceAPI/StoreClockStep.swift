/// How far `store clock advance` moves a sandbox store's clock: an ISO 8601 duration in whole
/// numbers, with date and time parts (`P1Y2M10DT2H30M`, `PT1H`, `P2M3D`, `P1M`), or weeks alone
/// (`P3W`), as ISO 8601 writes them. Years and months move by the calendar (a month from 31
/// January is 28 or 29 February, as a subscription renews), then days, then the time.
public struct StoreClockStep: Sendable, Equatable, ISODurationText {
    /// Years to move.
    public private(set) var years: Int64 = 0
    /// Months to move (calendar months: the same day of a later month).
    public private(set) var months: Int64 = 0
    /// Weeks to move.
    public private(set) var weeks: Int64 = 0
    /// Days to move.
    public private(set) var days: Int64 = 0
    /// Hours to move.
    public private(set) var hours: Int64 = 0
    /// Minutes to move.
    public private(set) var minutes: Int64 = 0
    /// Seconds to move.
    public private(set) var seconds: Int64 = 0

    /// The largest number a part may have: far past the store's last date, never an overflow.
    static let largestPart: Int64 = 99_999_999

    /// What an accepted duration looks like, for a message about one that is not.
    public static let examples = "P1D, P3W, P1M, P2M3D, PT1H, P1Y2M10DT2H30M (whole numbers; weeks stand alone)"

    /// A step of `duration` (a subscription's period).
    public init(_ duration: StoreDuration) {
        switch duration.unit {
        case .day: days = Int64(duration.count)
        case .week: weeks = Int64(duration.count)
        case .month: months = Int64(duration.count)
        case .year: years = Int64(duration.count)
        }
    }

    /// `P[nY][nM][nD][T[nH][nM][nS]]` or `PnW`, each part at most once and in that order, at least
    /// one of them, not all zero; `nil` for anything else.
    public init?(iso text: String) {
        var bytes = Array(text.utf8)[...]
        guard bytes.popFirst() == UInt8(ascii: "P"), !bytes.isEmpty else { return nil }
        var inTime = false
        var order = 0
        var parts = 0
        while !bytes.isEmpty {
            if bytes.first == UInt8(ascii: "T") {
                guard !inTime else { return nil }
                inTime = true
                order = 0
                bytes = bytes.dropFirst()
                guard !bytes.isEmpty else { return nil }
                continue
            }
            let digits = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard !digits.isEmpty, digits.count <= 8, let designator = bytes.dropFirst(digits.count).first,
                let value = Int64(String(decoding: digits, as: UTF8.self)), value <= Self.largestPart
            else { return nil }
            bytes = bytes.dropFirst(digits.count + 1)
            // Each designator's place: date Y M W D, time H M S.
            let place: Int
            switch (inTime, designator) {
            case (false, UInt8(ascii: "Y")): (place, years) = (1, value)
            case (false, UInt8(ascii: "M")): (place, months) = (2, value)
            case (false, UInt8(ascii: "W")): (place, weeks) = (3, value)
            case (false, UInt8(ascii: "D")): (place, days) = (4, value)
            case (true, UInt8(ascii: "H")): (place, hours) = (1, value)
            case (true, UInt8(ascii: "M")): (place, minutes) = (2, value)
            case (true, UInt8(ascii: "S")): (place, seconds) = (3, value)
            default: return nil
            }
            guard place > order else { return nil }
            order = place
            parts += 1
        }
        // Weeks stand alone; something must move.
        guard parts > 0, weeks == 0 || parts == 1 else { return nil }
        guard years + months + weeks + days + hours + minutes + seconds > 0 else { return nil }
    }

    /// The duration as ISO 8601 writes it: `P2M3D`, `PT1H`.
    public var description: String {
        var text = "P"
        for (value, designator) in [(years, "Y"), (months, "M"), (weeks, "W"), (days, "D")] where value > 0 { text += "\(value)\(designator)" }
        if hours + minutes + seconds > 0 {
            text += "T"
            for (value, designator) in [(hours, "H"), (minutes, "M"), (seconds, "S")] where value > 0 { text += "\(value)\(designator)" }
        }
        return text
    }

    /// `date` (milliseconds since 1970, UTC) plus this step; `nil` past ``StoreDuration/latestDate``.
    public func adding(to date: Int64) -> Int64? {
        var moved = date
        let calendarMonths = years * 12 + months
        if calendarMonths > 0 {
            guard calendarMonths <= Int64(Int32.max), let next = StoreDuration(Int(calendarMonths), .month).adding(to: moved) else { return nil }
            moved = next
        }
        let milliseconds = ((weeks * 7 + days) * 24 + hours) * 3_600_000 + minutes * 60_000 + seconds * 1000
        guard moved <= StoreDuration.latestDate, milliseconds <= StoreDuration.latestDate * 2 else { return nil }
        moved += milliseconds
        return moved <= StoreDuration.latestDate ? moved : nil
    }
}
