// swift-tools-version:6.0
import PackageDescription

/// A library target in its layer's folder, `Sources/<layer>/<name>` (DESIGN.md: System, Formats,
/// Game, Service, Player; the executable is `Sources/hangman`).
func layer(_ layer: String, _ name: String, _ dependencies: [Target.Dependency] = []) -> Target {
    .target(name: name, dependencies: dependencies, path: "Sources/\(layer)/\(name)")
}

let package = Package(
    name: "HangmanPacks",
    products: [
        .executable(name: "hangman", targets: ["hangman"]),
        .library(name: "WordPacks", targets: ["WordPacks"]),
    ],
    targets: [
        // System: C libraries from Debian's -dev packages behind module maps, and the safe Swift
        // over them. They know nothing of words or money; only their wrapper sees the C module.
        .systemLibrary(name: "CArchive", path: "Sources/System/CArchive"),
        .systemLibrary(name: "CSQLite", path: "Sources/System/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CGnuTLS", path: "Sources/System/CGnuTLS"),
        .systemLibrary(name: "CNettle", path: "Sources/System/CNettle", pkgConfig: "hogweed", providers: [.apt(["nettle-dev"])]),
        .systemLibrary(name: "CSodium", path: "Sources/System/CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        // A C target, not a module map over ICU's headers: Foundation carries its own ICU module,
        // whose types would clash with the system's in one compilation (CICU.h has plain C types).
        // ICU is loaded when first used (CICU.c), not linked.
        .target(name: "CICU", path: "Sources/System/CICU"),
        .systemLibrary(name: "CCurl", path: "Sources/System/CCurl"),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/System/CMicroHTTPD"),
        .systemLibrary(name: "CLibPQ", path: "Sources/System/CLibPQ"),
        // libarchive, libpq, libmicrohttpd, libcurl and GnuTLS (above: headers only, not linked)
        // loaded when first used, so that a game maps no TLS stack, database client or archive reader.
        .target(name: "CLateLibraries", path: "Sources/System/CLateLibraries"),
        // The C library's calls (files, descriptors, signals, clocks), with a typed errno.
        layer("System", "SystemCalls"),
        layer("System", "Archive", ["CArchive", "CLateLibraries"]),
        layer("System", "SQLite", ["CSQLite", "SystemCalls"]),
        // PostgreSQL through libpq: connections, bound parameters, SQLSTATE errors, a small pool, migrations.
        layer("System", "PostgreSQL", ["CLibPQ", "CLateLibraries"]),
        // Base64: the standard alphabet (key files, signed payloads, plist <data>) and the URL one (tokens).
        layer("System", "Base64"),
        // Calendar dates from days since 1970 and back, without a calendar library.
        layer("System", "CivilCalendar"),
        layer("System", "Signing", ["CNettle", "CSodium", "SystemCalls", "Base64"]),
        layer("System", "Confusables", ["CICU"]),
        // X.509 certificate chains and ES256 (JWS) signatures, through GnuTLS (on Nettle).
        layer("System", "CertificateChain", ["CGnuTLS", "CLateLibraries", "Base64", "SystemCalls"]),
        // HTTP/1.1 on libmicrohttpd: requests in, responses out, limits enforced.
        layer("System", "HTTPServer", ["CMicroHTTPD", "CLateLibraries", "SystemCalls"]),
        // HTTP and HTTPS requests through libcurl.
        layer("System", "HTTPClient", ["CCurl", "CLateLibraries", "SystemCalls"]),

        // Formats: property lists, how a language compares letters, typed identifiers, the pack format.
        layer("Formats", "PropertyList", ["Base64", "CivilCalendar"]),
        layer("Formats", "LetterFolding", ["PackIdentifiers"]),
        layer("Formats", "PackIdentifiers"),
        // Text from outside (a pack, a client, a file name) made safe to write to a terminal.
        layer("Formats", "TerminalText"),
        // The program's own sentences in the reader's language, from gettext message catalogs.
        layer("Formats", "Messages"),
        layer("Formats", "WordPacks", ["PackIdentifiers", "Archive", "Signing", "PropertyList", "LetterFolding", "SystemCalls"]),

        // Game: pure rules, no I/O, randomness passed in.
        layer("Game", "HangmanGame", ["LetterFolding", "TerminalText"]),

        // Service: the boundary (the PackService protocol and its values; the JSON on the wire),
        // the seller's store (catalog, ledger rules, receipts, test controls), and its HTTP server.
        layer("Service", "PackServiceAPI", ["PackIdentifiers", "CivilCalendar", "HangmanGame", "LetterFolding", "Messages"]),
        layer("Service", "PackServiceWire", ["PackServiceAPI", "Messages", "Signing", "Base64", "CivilCalendar", "CertificateChain"]),
        // Apple's shapes at the seller's edge: verifyReceipt, the App Store Server API's signed
        // transactions, its bearer tokens, Server Notifications V2, named as Apple names them.
        // Values and codecs only (no ledger, no I/O), so the client reads Apple's answers with them.
        layer("Service", "AppStore", ["PackServiceWire", "Base64", "CivilCalendar", "CertificateChain"]),
        layer("Service", "Seller", ["PackServiceAPI", "Messages", "PackServiceWire", "Base64", "WordPacks", "HangmanGame", "SQLite", "PostgreSQL", "Signing", "PropertyList", "SystemCalls", "CivilCalendar", "Confusables"]),
        layer("Service", "SalesReports", ["PackServiceAPI", "Seller", "CivilCalendar"]),
        layer("Service", "Dashboard", ["PackServiceAPI", "SalesReports", "Seller", "CivilCalendar", "TerminalText", "SystemCalls"]),
        layer("Service", "PackServer", ["Messages", "Dashboard", "SalesReports", "HTTPServer", "HTTPClient", "PackServiceWire", "AppStore", "Seller", "Signing", "CertificateChain", "Base64", "SystemCalls", "CivilCalendar", "TerminalText"]),

        // Player: the boundary's HTTP client, and the home and the player session (installed
        // packs, games), which see only the boundary, never the seller's store.
        layer("Player", "PackServiceClient", ["Messages", "HTTPClient", "PackServiceWire", "AppStore", "Signing", "Base64", "SystemCalls"]),
        layer("Player", "Device", ["PackServiceAPI", "Messages", "PackServiceClient", "WordPacks", "SQLite", "Signing", "SystemCalls", "HangmanGame", "CivilCalendar"]),

        // The one executable: parses, calls the libraries, renders, maps errors to exit codes.
        .executableTarget(name: "hangman", dependencies: ["CICU", "Messages", "PackServiceAPI", "PackServiceWire", "PackServiceClient", "PackServer", "SalesReports", "HTTPServer", "SystemCalls", "WordPacks", "Seller", "Device", "HangmanGame", "Signing", "CivilCalendar", "TerminalText", "CertificateChain", "AppStore", "Base64"]),

        // Benchmarks (make bench): durable hint debits through the library.
        .executableTarget(name: "hint-debit-bench", dependencies: ["Seller", "WordPacks"], path: "Benchmarks/HintDebit"),

        // What several test targets share: fixtures made by hand.
        .target(name: "TestSupport", path: "Tests/TestSupport"),

        .testTarget(name: "PackServerTests", dependencies: ["PackServer", "Messages", "Dashboard", "AppStore", "CertificateChain", "Seller", "PostgreSQL", "PackServiceClient", "PackServiceWire", "HTTPServer", "HTTPClient", "Signing", "SystemCalls", "TestSupport"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "ArchiveTests", dependencies: ["Archive", "TestSupport"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"]),
        .testTarget(name: "PostgreSQLTests", dependencies: ["PostgreSQL", "TestSupport"]),
        .testTarget(name: "CertificateChainTests", dependencies: ["CertificateChain", "TestSupport"]),
        .testTarget(name: "SigningTests", dependencies: ["Signing", "Base64", "TestSupport"]),
        .testTarget(name: "Base64Tests", dependencies: ["Base64"]),
        .testTarget(name: "CivilCalendarTests", dependencies: ["CivilCalendar"]),
        .testTarget(name: "PropertyListTests", dependencies: ["PropertyList", "HangmanGame"]),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls", "TestSupport"]),
        .testTarget(name: "LetterFoldingTests", dependencies: ["LetterFolding"]),
        .testTarget(name: "WordPacksTests", dependencies: ["WordPacks", "Archive", "Signing", "PropertyList", "LetterFolding", "HangmanGame", "TestSupport"]),
        .testTarget(name: "SalesReportsTests", dependencies: ["SalesReports", "Seller", "PackServiceAPI", "CivilCalendar", "SQLite", "TestSupport"]),
        .testTarget(name: "SellerTests", dependencies: ["Seller", "AppStore", "HangmanGame", "SystemCalls", "WordPacks", "SQLite", "PostgreSQL", "Signing", "PropertyList", "CivilCalendar", "TestSupport"]),
        .testTarget(name: "DeviceTests", dependencies: ["Device", "PackServer", "PackServiceClient", "HTTPServer", "SystemCalls", "Seller", "WordPacks", "SQLite", "Signing", "HangmanGame", "TestSupport"]),
        .testTarget(name: "HangmanGameTests", dependencies: ["HangmanGame"]),
        .testTarget(name: "HangmanCLITests", dependencies: ["hangman", "Messages", "PackServer", "PackServiceAPI", "PackServiceClient", "HTTPServer", "Signing", "Base64", "SystemCalls", "Device", "HangmanGame", "Archive", "PropertyList", "TerminalText", "WordPacks", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
