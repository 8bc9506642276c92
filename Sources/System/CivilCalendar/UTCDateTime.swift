/// A moment as UTC calendar fields, from milliseconds since 1970 in the proleptic Gregorian
/// calendar (``CivilDate``): the one calendar of the project, whatever the year (before 1970,
/// year 1, past 9999). A day is ``day(ofMilliseconds:)``: the UTC day, from midnight to midnight.
public struct UTCDateTime: Sendable, Equatable {
    public var year: Int
    /// 1 to 12.
    public var month: Int
    /// 1 to 31.
    public var day: Int
    public var hour: Int
    public var minute: Int
    public var second: Int
    /// 0 to 999.
    public var millisecond: Int

    public static let millisecondsPerDay: Int64 = 86_400_000

    /// The UTC day a moment falls on, as days since 1970-01-01 (rounded toward the past, so a
    /// moment before 1970 is on the day before, not the day after).
    public static func day(ofMilliseconds milliseconds: Int64) -> Int64 {
        split(milliseconds).day
    }

    /// The day and the milliseconds into it, for any `Int64` (no arithmetic that can overflow).
    static func split(_ milliseconds: Int64) -> (day: Int64, ofDay: Int64) {
        let (quotient, remainder) = milliseconds.quotientAndRemainder(dividingBy: millisecondsPerDay)
        return remainder < 0 ? (quotient - 1, remainder + millisecondsPerDay) : (quotient, remainder)
    }

    public init(millisecondsSince1970 milliseconds: Int64) {
        let (days, ofDay) = Self.split(milliseconds)
        let (year, month, day) = CivilDate.civil(fromDays: days)
        self.year = Int(year)
        self.month = Int(month)
        self.day = Int(day)
        hour = Int(ofDay / 3_600_000)
        minute = Int(ofDay / 60_000 % 60)
        second = Int(ofDay / 1000 % 60)
        millisecond = Int(ofDay % 1000)
    }

    /// Whether two moments are on the same UTC day.
    public func isSameDay(as other: UTCDateTime) -> Bool {
        year == other.year && month == other.month && day == other.day
    }

    /// `2026-12-29`.
    public var dateText: String { text { $0.appendDate(self) } }

    /// `2026-12-29 23:15:02`.
    public var dateTimeText: String {
        text { bytes in
            bytes.appendDate(self)
            bytes.append(UInt8(ascii: " "))
            bytes.appendTime(self)
        }
    }

    /// `23:15`.
    public var hourMinuteText: String {
        text { bytes in
            DecimalText.append(UInt64(hour), width: 2, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            DecimalText.append(UInt64(minute), width: 2, to: &bytes)
        }
    }

    private func text(_ write: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        write(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// ISO 8601 in UTC, as every `--json`, the server's log and property lists write moments:
/// `2026-11-30T17:40:11.057Z`, or without the fraction `2026-11-30T17:40:11Z`.
public enum ISO8601 {
    public static func string(_ milliseconds: Int64, fractionalSeconds: Bool = true) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(milliseconds, fractionalSeconds: fractionalSeconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text appended to `bytes`, digit by digit (the server's log writes one a request).
    public static func append(_ milliseconds: Int64, fractionalSeconds: Bool = true, to bytes: inout [UInt8]) {
        let time = UTCDateTime(millisecondsSince1970: milliseconds)
        bytes.appendDate(time)
        bytes.append(UInt8(ascii: "T"))
        bytes.appendTime(time)
        if fractionalSeconds {
            bytes.append(UInt8(ascii: "."))
            DecimalText.append(UInt64(time.millisecond), width: 3, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
    }
}

/// Decimal digits written as bytes.
public enum DecimalText {
    /// `value`'s digits appended to `bytes`, zero-padded to at least `width`.
    public static func append(_ value: UInt64, width: Int = 1, to bytes: inout [UInt8]) {
        var divisor: UInt64 = 1
        var count = 1
        while count < width || divisor <= value / 10 {
            divisor *= 10
            count += 1
        }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// `value` right-aligned in `width` characters with spaces (C's `%*d`): `"    42"`.
    public static func rightAligned(_ value: Int, width: Int) -> String {
        let digits = String(value)
        return String(repeating: " ", count: max(0, width - digits.count)) + digits
    }
}

extension [UInt8] {
    /// `2026-12-29`; a year before 0 with its sign, a year past 9999 with all its digits.
    fileprivate mutating func appendDate(_ time: UTCDateTime) {
        if time.year < 0 { append(UInt8(ascii: "-")) }
        DecimalText.append(UInt64(time.year.magnitude), width: 4, to: &self)
        append(UInt8(ascii: "-"))
        DecimalText.append(UInt64(time.month), width: 2, to: &self)
        append(UInt8(ascii: "-"))
        DecimalText.append(UInt64(time.day), width: 2, to: &self)
    }

    /// `23:15:02`.
    fileprivate mutating func appendTime(_ time: UTCDateTime) {
        DecimalText.append(UInt64(time.hour), width: 2, to: &self)
        append(UInt8(ascii: ":"))
        DecimalText.append(UInt64(time.minute), width: 2, to: &self)
        append(UInt8(ascii: ":"))
        DecimalText.append(UInt64(time.second), width: 2, to: &self)
    }
}
