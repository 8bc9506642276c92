import CivilCalendar
import Testing

/// The one calendar: UTC fields, the day a moment is on, and ISO 8601, for any moment.
@Suite struct UTCDateTimeTests {
    @Test(arguments: [
        (Int64(0), [1970, 1, 1, 0, 0, 0]),
        (Int64(1_764_460_502_999), [2025, 11, 29, 23, 55, 2]),
        (Int64(951_782_400_000), [2000, 2, 29, 0, 0, 0]),
        (Int64(-1), [1969, 12, 31, 23, 59, 59]),
    ])
    func momentsReadAsUTCFields(milliseconds: Int64, fields: [Int]) {
        let time = UTCDateTime(millisecondsSince1970: milliseconds)
        #expect([time.year, time.month, time.day, time.hour, time.minute, time.second] == fields)
    }

    @Test func theFirstAndLastMillisecondsHaveAYear() {
        #expect(UTCDateTime(millisecondsSince1970: .max).year == 292_278_994)
        #expect(UTCDateTime(millisecondsSince1970: .min).year == -292_275_055)
        #expect(ISO8601.string(.min) == "-292275055-05-16T16:47:04.192Z")
    }

    /// A moment before 1970 is on the day before, not the day after (a truncating division gave
    /// the day after, and near New Year the year after).
    @Test(arguments: [(Int64(-1), Int64(-1)), (-86_400_000, -1), (-86_400_001, -2), (0, 0), (86_399_999, 0)])
    func theDayOfAMoment(milliseconds: Int64, day: Int64) {
        #expect(UTCDateTime.day(ofMilliseconds: milliseconds) == day)
    }

    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z", "1970-01-01T00:00:00Z"),
        (Int64(-1), "1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59Z"),
        (Int64(-62_135_596_800_000), "0001-01-01T00:00:00.000Z", "0001-01-01T00:00:00Z"),
        (Int64(253_402_300_800_000), "10000-01-01T00:00:00.000Z", "10000-01-01T00:00:00Z"),
        (Int64(1_764_597_791_057), "2025-12-01T14:03:11.057Z", "2025-12-01T14:03:11Z"),
    ])
    func iso8601(milliseconds: Int64, withFraction: String, withoutFraction: String) {
        #expect(ISO8601.string(milliseconds) == withFraction)
        #expect(ISO8601.string(milliseconds, fractionalSeconds: false) == withoutFraction)
    }

    @Test func textsOfADate() {
        let time = UTCDateTime(millisecondsSince1970: 1_764_597_791_057)
        #expect(time.dateText == "2025-12-01")
        #expect(time.dateTimeText == "2025-12-01 14:03:11")
        #expect(time.hourMinuteText == "14:03")
        #expect(time.isSameDay(as: UTCDateTime(millisecondsSince1970: 1_764_547_200_000)))
        #expect(!time.isSameDay(as: UTCDateTime(millisecondsSince1970: 1_764_547_199_999)))
    }

    @Test(arguments: [(UInt64(0), 1, "0"), (7, 3, "007"), (12_345, 2, "12345"), (.max, 1, "18446744073709551615")])
    func decimalDigits(value: UInt64, width: Int, text: String) {
        var bytes: [UInt8] = []
        DecimalText.append(value, width: width, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == text)
    }

    @Test func rightAlignedCountsAsCDoes() {
        #expect(DecimalText.rightAligned(42, width: 6) == "    42")
        #expect(DecimalText.rightAligned(-7, width: 3) == " -7")
        #expect(DecimalText.rightAligned(1_234_567, width: 3) == "1234567")
    }
}
