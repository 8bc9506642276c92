@testable import Dashboard
import Testing

/// What the seller's exports write of catalog text: nothing a spreadsheet runs, nothing a terminal obeys.
@Suite struct SpreadsheetCellTests {
    @Test(arguments: [
        ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
        ("+1 hint", "'+1 hint"), ("-sale", "'-sale"), ("@SUM(A1)", "'@SUM(A1)"), ("\tTab", "'\\tTab"),
        ("Space\u{1B}]0;owned\u{07}Words", "Space\\u{1B}]0;owned\\u{7}Words"),
        ("iOS Words", "iOS Words"), ("-1", "-1"), ("9.99", "9.99"), ("Zoë", "Zoë"),
    ])
    func aCellIsWrittenSafely(value: String, written: String) {
        #expect(SpreadsheetCell.text(value) == written)
    }
}
