import Dashboard
import XCTest

/// Amounts and the charts' dates as the viewer's first language writes them.
final class ViewerLocaleTests: XCTestCase {
    func testDatesFollowTheViewersLanguage() {
        let cases: [(String?, String, String)] = [
            (nil, "en", "12/4/2026"), ("en-US,en;q=0.9", "en-US", "12/4/2026"), ("en-GB", "en-GB", "04/12/2026"),
            ("de-DE,de;q=0.9,en;q=0.8", "de-DE", "4.12.2026"), ("fr", "fr", "04/12/2026"), ("es-MX", "es-MX", "04/12/2026"),
            ("pt-BR", "pt-BR", "04/12/2026"), ("ja", "ja", "2026/12/04"), ("nl", "nl", "4-12-2026"), ("sv-SE", "sv-SE", "2026-12-04"),
            ("*", "en", "12/4/2026"), ("<script>", "en", "12/4/2026"),
        ]
        for (header, language, day) in cases {
            let locale = ViewerLocale(acceptLanguage: header)
            XCTAssertEqual(locale.language, language, "\(header ?? "none")")
            XCTAssertEqual(locale.day("2026-12-04"), day, "\(header ?? "none")")
        }
        XCTAssertEqual(ViewerLocale(acceptLanguage: "de").day("not a day"), "not a day")
    }

    func testAmountsKeepTheirCurrencyAndTheLanguagesDecimalSign() {
        XCTAssertEqual(ViewerLocale(acceptLanguage: "de-DE").format(1296, "EUR"), "12,96 EUR")
        XCTAssertEqual(ViewerLocale(acceptLanguage: "en-US").format(1296, "EUR"), "12.96 EUR")
        XCTAssertEqual(ViewerLocale(acceptLanguage: "fr").format(480, "JPY"), "480 JPY")
    }

    func testThePageSaysItsLanguage() {
        let html = DashboardPages.document(title: "T", body: "", language: ViewerLocale(acceptLanguage: "de-DE").language)
        XCTAssertTrue(html.contains("<html lang=\"de-DE\">"), html)
    }
}
