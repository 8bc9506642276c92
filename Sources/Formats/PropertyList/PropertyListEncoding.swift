/// Encodes property lists as Apple's XML or binary (`bplist00`) format, deterministically.
public enum PropertyListEncoding {
    /// Apple's XML layout: declaration, DOCTYPE, tab indentation, keys sorted by UTF-8 bytes.
    ///
    /// Dates are written in whole seconds (rounded down), as Apple does, clamped to about ±3
    /// million years (NaN as the reference date); reals as `nan`, `+infinity`, `-infinity` or the
    /// shortest text that reads back exactly.
    public static func xml(_ value: PropertyList) -> [UInt8] {
        var writer = XMLPropertyListWriter()
        writer.writeDocument(value)
        return writer.output
    }

    /// A `bplist00` document; keys sorted by UTF-8 bytes, equal strings stored once.
    public static func binary(_ value: PropertyList) -> [UInt8] {
        var writer = BinaryPropertyListWriter()
        return writer.writeDocument(value)
    }
}
