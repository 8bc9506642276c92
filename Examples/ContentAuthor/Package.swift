// swift-tools-version:6.0
import PackageDescription

// A content author's own package: tests that check the author's word packs with the verifier
// that `hangman` uses. It depends on this repository by path; an author's package elsewhere
// would name its URL or its local checkout instead.
let package = Package(
    name: "ContentAuthor",
    dependencies: [
        .package(name: "HangmanPacks", path: "../.."),
    ],
    targets: [
        .testTarget(
            name: "ContentAuthorTests",
            dependencies: [.product(name: "WordPacks", package: "HangmanPacks")],
            // Members are visible only from modules imported here: the tests need nothing but WordPacks.
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]),
    ],
    swiftLanguageModes: [.v6]
)
