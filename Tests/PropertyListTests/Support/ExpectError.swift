import PropertyList
import Testing

/// Records an issue unless `body` throws a `PropertyListError` of `kind` whose message holds `text`.
func expectError(
    _ kind: PropertyListError.Kind,
    containing text: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws(PropertyListError) -> Void
) {
    do {
        try body()
        Issue.record("expected a .\(kind) error, but decoding succeeded", sourceLocation: sourceLocation)
    } catch {
        #expect(error.kind == kind, "\(error.message)", sourceLocation: sourceLocation)
        if let text {
            #expect(error.message.contains(text), "\(error.message)", sourceLocation: sourceLocation)
        }
    }
}

/// Decodes bytes and discards the value, for `expectError`.
func decodeIgnoringValue(_ bytes: [UInt8], limits: PropertyListLimits = .default) throws(PropertyListError) {
    _ = try PropertyListDecoding.decode(bytes, limits: limits)
}

/// Decodes text and discards the value, for `expectError`.
func decodeIgnoringValue(_ text: String, limits: PropertyListLimits = .default) throws(PropertyListError) {
    _ = try PropertyListDecoding.decode(Array(text.utf8), limits: limits)
}
