/// The process's environment, read through the module's one choke point.
public enum ProcessEnvironment {
    /// The variable's value (`getenv(3)`), or `nil` when it is not set.
    public static func value(_ name: String) -> String? { system_getenv(name) }

    /// Every variable (`environ(7)`), the first of a name given twice; an entry without `=` is
    /// left out. Read once at start, without Foundation's `ProcessInfo` (which the start of every
    /// command would pay for).
    public static func all() -> [String: String] {
        let entries = system_environment()
        var variables: [String: String] = [:]
        variables.reserveCapacity(entries.count)
        for entry in entries {
            let bytes = UnsafeRawBufferPointer(start: entry, count: system_strlen(entry))
            guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = String(decoding: bytes[..<equals], as: UTF8.self)
            if variables[name] == nil { variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self) }
        }
        return variables
    }
}

/// C strings handed over by a C library.
public enum CString {
    /// Its length in bytes, up to its NUL (`strlen(3)`).
    public static func length(_ text: UnsafePointer<CChar>) -> Int { system_strlen(text) }
}
