/// Text for HTML and SVG: `<`, `>`, `&`, `"` and `'` escaped, so a name from the catalog
/// (`<script>`) is shown as text.
public func escaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
        switch character {
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "&": out += "&amp;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.append(character)
        }
    }
    return out
}

/// Charts drawn as SVG by the server: no script, no font fetched; sized by their `viewBox`, so a
/// page of 375 pixels shows them whole. Colours come from the page's stylesheet (light and dark).
public enum Charts {
    static let width = 720.0, height = 240.0
    static let left = 116.0, right = 16.0, top = 40.0, bottom = 40.0

    /// A line per day: `values` (one per day, first to last), the axis labelled with `label`
    /// (an amount as the viewer reads it) at 0, half and the top, and the first, middle and last day.
    public static func line(id: String, title: String, days: [String], values: [Int64], label: (Int64) -> String) -> String {
        let top = max(1, values.max() ?? 1)
        // Room on the left for the longest tick label at a narrow screen's large type (15 units a character).
        let longest = [0, top / 2, top].map { label($0).count }.max() ?? 0
        let left = max(self.left, Double(longest) * 15 + 14)
        let plotWidth = width - left - right, plotHeight = height - self.top - bottom
        func x(_ index: Int) -> Double { left + (values.count > 1 ? Double(index) * plotWidth / Double(values.count - 1) : plotWidth / 2) }
        func y(_ value: Int64) -> Double { self.top + (1 - Double(value) / Double(top)) * plotHeight }
        var svg = svgOpen(id: id, title: title)
        for tick in [0, top / 2, top] {
            svg += "<line class=\"grid\" x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(y(tick)))\" y2=\"\(f(y(tick)))\"/>"
            svg += "<text class=\"tick\" x=\"\(f(left - 6))\" y=\"\(f(y(tick) + 4))\" text-anchor=\"end\">\(escaped(label(tick)))</text>"
        }
        for index in Set([0, values.count / 2, values.count - 1]).sorted() where index >= 0 && index < days.count {
            // The first and last labels end inside the chart, whatever the width it is shown at.
            let anchor = values.count > 1 && index == 0 ? "start" : values.count > 1 && index == values.count - 1 ? "end" : "middle"
            svg += "<text class=\"tick\" x=\"\(f(x(index)))\" y=\"\(f(height - 12))\" text-anchor=\"\(anchor)\">\(escaped(days[index]))</text>"
        }
        svg += "<line class=\"axis\" x1=\"\(f(left))\" x2=\"\(f(left))\" y1=\"\(f(self.top))\" y2=\"\(f(height - bottom))\"/>"
        svg += "<line class=\"axis\" x1=\"\(f(left))\" x2=\"\(f(width - right))\" y1=\"\(f(height - bottom))\" y2=\"\(f(height - bottom))\"/>"
        let points = values.indices.map { "\(f(x($0))),\(f(y(values[$0])))" }.joined(separator: " ")
        svg += "<polyline class=\"series s0\" points=\"\(points)\"/>"
        for index in values.indices where values[index] > 0 {
            svg += "<circle class=\"dot s0\" cx=\"\(f(x(index)))\" cy=\"\(f(y(values[index])))\" r=\"3\"><title>\(escaped(days[index])): \(escaped(label(values[index])))</title></circle>"
        }
        return svg + legend([title]) + "</svg>"
    }

    /// Horizontal bars, one per row, longest first as given: each row's name above its bar (the
    /// whole width for it, however narrow the screen), its value at the bar's end.
    public static func bars(id: String, title: String, rows: [(name: String, value: Int)], label: (Int) -> String = { String($0) }) -> String {
        let rowHeight = 62.0
        let chartHeight = max(60, Double(rows.count) * rowHeight + 10)
        let top = max(1, rows.map(\.value).max() ?? 1)
        // Room after the longest bar for the longest value at a narrow screen's large type (14 units a character).
        let longest = rows.map { label($0.value).count }.max() ?? 0
        let barLeft = 10.0, barWidth = width - barLeft - max(90, Double(longest) * 14 + 12)
        var svg = svgOpen(id: id, title: title, height: chartHeight)
        for (index, row) in rows.enumerated() {
            let y = 6 + Double(index) * rowHeight
            let length = max(1, Double(row.value) / Double(top) * barWidth)
            let name = row.name.count > 40 ? String(row.name.prefix(39)) + "…" : row.name
            svg += "<text class=\"tick\" x=\"\(f(barLeft))\" y=\"\(f(y + 24))\">\(escaped(name))</text>"
            svg += "<rect class=\"bar s0\" x=\"\(f(barLeft))\" y=\"\(f(y + 32))\" width=\"\(f(length))\" height=\"20\"><title>\(escaped(row.name)): \(escaped(label(row.value)))</title></rect>"
            svg += "<text class=\"tick\" x=\"\(f(barLeft + length + 6))\" y=\"\(f(y + 50))\">\(escaped(label(row.value)))</text>"
        }
        return svg + "</svg>"
    }

    private static func svgOpen(id: String, title: String, height: Double = height) -> String {
        "<svg id=\"\(escaped(id))\" class=\"chart\" viewBox=\"0 0 \(f(width)) \(f(height))\" role=\"img\" aria-labelledby=\"\(escaped(id))-title\" "
            + "xmlns=\"http://www.w3.org/2000/svg\"><title id=\"\(escaped(id))-title\">\(escaped(title))</title>"
    }

    /// Each series' swatch and name, at the top: a name cut to what fits the drawing at the large
    /// type of a narrow screen (the chart's title and table say it whole).
    private static func legend(_ names: [String]) -> String {
        names.enumerated().map { index, name in
            let x = left, y = 6 + Double(index) * 26
            let shown = name.count > 36 ? String(name.prefix(35)) + "…" : name
            return "<rect class=\"swatch s\(index)\" x=\"\(f(x))\" y=\"\(f(y + 8))\" width=\"12\" height=\"12\"/>"
                + "<text class=\"legend\" x=\"\(f(x + 18))\" y=\"\(f(y + 20))\">\(escaped(shown))</text>"
        }.joined()
    }

    /// A coordinate with one decimal at most.
    static func f(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
