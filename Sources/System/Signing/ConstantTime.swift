/// Comparisons whose time tells nothing of where two secrets differ.
public enum ConstantTime {
    /// Whether `a` and `b` are equal, compared without stopping at the first difference (a length
    /// that differs is told at once: lengths are not secret here).
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
