// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "HangmanPacks",
    products: [
        .executable(name: "hangman", targets: ["hangman"]),
        .library(name: "WordPacks", targets: ["WordPacks"]),
    ],
    targets: [
        // C libraries from Debian's -dev packages, seen only by their wrapper modules.
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CNettle", pkgConfig: "hogweed", providers: [.apt(["nettle-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        // libpq.pc's Cflags carry Debian's /usr/include/postgresql, where libpq-fe.h lives.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // Safe wrappers: each knows nothing of words.
        .target(name: "Archive", dependencies: ["CArchive"]),
        .target(name: "SQLite", dependencies: ["CSQLite", "SystemCalls"]),
        .target(name: "Signing", dependencies: ["CNettle", "SystemCalls", "Base64"]),
        .target(name: "PropertyList", dependencies: ["Base64"]),
        // Base64: the standard alphabet (key files, signed payloads, plist <data>) and the URL one (tokens).
        .target(name: "Base64"),
        // PostgreSQL through libpq: connections, bound parameters, SQLSTATE errors, a small pool, migrations.
        .target(name: "PostgreSQL", dependencies: ["CLibPQ"]),
        // The C library's calls (files, descriptors, signals, clocks), with a typed errno.
        .target(name: "SystemCalls"),

        // How a language compares letters: one rule for the game and for the pack verifier.
        .target(name: "LetterFolding"),

        // Typed identifiers shared by the pack format and the service boundary.
        .target(name: "PackIdentifiers"),
        // The service boundary: the PackService protocol and its Sendable values, nothing else.
        .target(name: "PackServiceAPI", dependencies: ["PackIdentifiers"]),

        // HTTP/1.1 on libmicrohttpd: requests in, responses out, limits enforced; knows nothing of packs.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "SystemCalls"]),

        // HTTP and HTTPS requests through libcurl; knows nothing of packs.
        .target(name: "HTTPClient", dependencies: ["CCurl", "SystemCalls"]),

        // The JSON the service and its clients exchange, signed where the client acts on it.
        .target(name: "PackServiceWire", dependencies: ["PackServiceAPI", "Signing", "Base64"]),

        // The pack format.
        .target(name: "WordPacks", dependencies: ["PackIdentifiers", "Archive", "Signing", "PropertyList", "LetterFolding", "SystemCalls"]),

        // The seller side: catalog, purchases, the account ledger, hints, receipts.
        .target(name: "Store", dependencies: ["PackServiceAPI", "WordPacks", "SQLite", "PostgreSQL", "Signing", "PropertyList", "SystemCalls"]),

        // Pure game rules: no I/O, randomness passed in.
        .target(name: "HangmanGame", dependencies: ["LetterFolding"]),

        // The pack service over HTTP: accounts, tokens, signed answers, archives with ranges.
        .target(name: "PackServer", dependencies: ["HTTPServer", "PackServiceWire", "Store", "Signing", "Base64", "SQLite", "PostgreSQL", "SystemCalls"]),

        // The pack service as an HTTP client: the same PackService, spoken to 'hangman serve'.
        .target(name: "PackServiceClient", dependencies: ["HTTPClient", "PackServiceWire", "Signing", "Base64", "SystemCalls"]),

        // The player's side: installed packs and their words, indexed for the game.
        .target(name: "Device", dependencies: ["PackServiceAPI", "WordPacks", "SQLite", "Signing", "SystemCalls", "HangmanGame"]),

        // The one executable: parses, calls the libraries, renders, maps errors to exit codes.
        .executableTarget(name: "hangman", dependencies: ["PackServiceAPI", "PackServiceClient", "PackServer", "HTTPServer", "SystemCalls", "WordPacks", "Store", "Device", "HangmanGame", "Signing", "PropertyList"]),

        // Benchmarks (make bench): durable hint debits through the library.
        .executableTarget(name: "hint-debit-bench", dependencies: ["Store", "WordPacks"], path: "Benchmarks/HintDebit"),

        // What several test targets share: fixtures made by hand.
        .target(name: "TestSupport", path: "Tests/TestSupport"),

        .testTarget(name: "PackServerTests", dependencies: ["PackServer", "Store", "PostgreSQL", "PackServiceClient", "PackServiceWire", "HTTPServer", "Signing", "SystemCalls", "TestSupport"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "ArchiveTests", dependencies: ["Archive", "TestSupport"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupport"]),
        .testTarget(name: "PostgreSQLTests", dependencies: ["PostgreSQL", "TestSupport"]),
        .testTarget(name: "SigningTests", dependencies: ["Signing", "Base64", "TestSupport"]),
        .testTarget(name: "Base64Tests", dependencies: ["Base64"]),
        .testTarget(name: "PropertyListTests", dependencies: ["PropertyList"]),
        .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls", "TestSupport"]),
        .testTarget(name: "LetterFoldingTests", dependencies: ["LetterFolding"]),
        .testTarget(name: "WordPacksTests", dependencies: ["WordPacks", "Archive", "Signing", "PropertyList", "LetterFolding", "HangmanGame", "TestSupport"]),
        .testTarget(name: "StoreTests", dependencies: ["Store", "SystemCalls", "WordPacks", "SQLite", "PostgreSQL", "Signing", "PropertyList", "TestSupport"]),
        .testTarget(name: "DeviceTests", dependencies: ["Device", "PackServer", "PackServiceClient", "HTTPServer", "SystemCalls", "Store", "WordPacks", "SQLite", "Signing", "HangmanGame", "TestSupport"]),
        .testTarget(name: "HangmanGameTests", dependencies: ["HangmanGame"]),
        .testTarget(name: "HangmanCLITests", dependencies: ["hangman", "PackServer", "HTTPServer", "Signing", "Base64", "SystemCalls", "WordPacks", "Archive", "PropertyList", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
