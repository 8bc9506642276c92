import TerminalText

/// A cell of an export a seller opens in a spreadsheet or a terminal (the CSVs, App Store
/// Connect's TSV): control characters escaped as the terminal's text is (an author's OSC or CSI
/// sequence reaches nobody's terminal), and a cell that a spreadsheet would read as a formula
/// (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) prefixed with `'`, as OWASP's
/// rule for CSV injection says. A number is written as it is: only text is quoted.
enum SpreadsheetCell {
    static func text(_ value: String) -> String {
        let escaped = TerminalText.escaped(value)
        guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first), Double(value) == nil else { return escaped }
        return "'" + escaped
    }
}
