import PackServiceAPI

/// The daily word's language when none is given: the reader's (`LC_ALL`, `LC_MESSAGES`, `LANG`)
/// when the service has a base pack in it, else English.
enum DailyLanguage {
    /// `body` with `given`, or else with the reader's language, and with English (`nil`) when the
    /// service has no base pack in the reader's.
    static func choose<T>(_ given: String?, _ body: (String?) async throws(ServiceError) -> T) async throws(ServiceError) -> T {
        if let given { return try await body(given) }
        guard let reader = ReaderLocale.current.language, reader != "en" else { return try await body(nil) }
        do {
            return try await body(reader)
        } catch where error.reason == .noDailyWord {
            return try await body(nil)
        }
    }
}
