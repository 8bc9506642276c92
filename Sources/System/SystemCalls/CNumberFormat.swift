/// Numbers as C's `printf` writes them, for text that must read as it always has.
public enum CNumberFormat {
    /// `value` with `fractionDigits` decimals (0 to 9), rounded as `printf("%.*f")` rounds (the
    /// binary value's nearest: 0.25 -> `0.2`): `12.5`, `-3.0`; `nan` and `inf` as C writes them
    /// (`snprintf(3)`).
    public static func fixed(_ value: Double, fractionDigits: Int) -> String {
        system_format_fixed(value, Int32(min(max(fractionDigits, 0), 9)))
    }
}
