/// The process's environment, read through the module's one choke point.
public enum ProcessEnvironment {
    /// The variable's value (`getenv(3)`), or `nil` when it is not set.
    public static func value(_ name: String) -> String? { system_getenv(name) }
}

/// C strings handed over by a C library.
public enum CString {
    /// Its length in bytes, up to its NUL (`strlen(3)`).
    public static func length(_ text: UnsafePointer<CChar>) -> Int { system_strlen(text) }
}
