import PackServiceAPI

/// A value's JSON object with one more key beside its own: `{...base's keys, "<key>": extra}`
/// (a purchase's outcome and the statement after it; the seller's overview and its players).
public struct WithKey<Base: Encodable, Extra: Encodable>: Encodable {
    public var base: Base
    public var key: String
    public var extra: Extra

    public init(_ base: Base, _ key: String, _ extra: Extra) {
        self.base = base
        self.key = key
        self.extra = extra
    }

    public func encode(to encoder: any Encoder) throws {
        try base.encode(to: encoder)
        var container = encoder.container(keyedBy: NamedCodingKey.self)
        try container.encode(extra, forKey: NamedCodingKey(stringValue: key))
    }
}
