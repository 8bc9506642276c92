import CivilCalendar
/// Converts plist dates (seconds since 2001-01-01T00:00:00Z) to and from ISO 8601 text, in UTC,
/// on the proleptic Gregorian calendar.
enum PropertyListDate {
    /// Seconds from 1970-01-01 to 2001-01-01.
    static let referenceOffset: Int64 = 978_307_200
    /// XML dates are clamped to about ±3 million years, far beyond any real use.
    private static let maxMagnitude: Double = 1e14

    /// Parses `[-]YYYY-MM-DDTHH:MM:SS[.fraction]Z`.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        func number(maxDigits: Int, exactly: Int? = nil) -> Int64? {
            let start = index
            var value: Int64 = 0
            while index < text.count, index - start < maxDigits, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[index]) {
                value = value * 10 + Int64(text[index] - UInt8(ascii: "0"))
                index += 1
            }
            let digits = index - start
            guard digits > 0, exactly.map({ $0 == digits }) ?? true else { return nil }
            return value
        }
        func expect(_ character: Unicode.Scalar) -> Bool {
            guard index < text.count, text[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }
        let negative = expect("-")
        guard let yearDigits = number(maxDigits: 9), expect("-"),
              let month = number(maxDigits: 2, exactly: 2), expect("-"),
              let day = number(maxDigits: 2, exactly: 2), expect("T"),
              let hour = number(maxDigits: 2, exactly: 2), expect(":"),
              let minute = number(maxDigits: 2, exactly: 2), expect(":"),
              let second = number(maxDigits: 2, exactly: 2)
        else { return nil }
        var fraction = 0.0
        if expect(".") {
            var scale = 0.1
            let start = index
            while index < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[index]) {
                fraction += Double(text[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard expect("Z"), index == text.count else { return nil }
        let year = negative ? -yearDigits : yearDigits
        guard (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        let days = CivilDate.days(fromCivil: year, month, day)
        let unix = days * 86_400 + hour * 3_600 + minute * 60 + second
        return Double(unix - referenceOffset) + fraction
    }

    /// Formats whole seconds (rounded down, as Apple does) as `YYYY-MM-DDTHH:MM:SSZ`.
    static func format(_ seconds: Double) -> String {
        let clamped = seconds.isNaN ? 0 : min(max(seconds, -maxMagnitude), maxMagnitude)
        let unix = Int64(clamped.rounded(.down)) + referenceOffset
        return ISO8601.string(unix * 1000, fractionalSeconds: false)
    }
}
