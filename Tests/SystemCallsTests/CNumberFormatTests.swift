import SystemCalls
import Testing

@Suite struct CNumberFormatTests {
    /// As C's printf writes them (`%.1f`, `%.0f`): the binary value's nearest, ties as it lies.
    @Test(arguments: [
        (0.25, 1, "0.2"), (0.35, 1, "0.3"), (12.345, 1, "12.3"), (99.96, 1, "100.0"), (-3, 1, "-3.0"), (0.5, 0, "0"), (1.5, 0, "2"),
        (66.666, 0, "67"), (1e20, 0, "100000000000000000000"), (.nan, 1, "nan"), (-.infinity, 0, "-inf"), (2.5, 12, "2.500000000"),
    ])
    func fixedDecimals(value: Double, digits: Int, text: String) {
        #expect(CNumberFormat.fixed(value, fractionDigits: digits) == text)
    }
}
