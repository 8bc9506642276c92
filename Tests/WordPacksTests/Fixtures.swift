import Archive
import Foundation
import TestSupport
import PropertyList
import WordPacks

/// Packs built inside the tests, from literal XML so that fixtures do not depend on the code under test.
enum Fixture {
    static let productID = "com.example.words.test"

    static func xml(_ body: String) -> [UInt8] {
        Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            \(body)
            </plist>
            """.utf8)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// An Info.plist; `extra` is raw XML inserted into the dictionary.
    static func manifest(id: String = productID, version: String = "1.0", formatVersion: String = "<integer>1</integer>", extra: String = "") -> [UInt8] {
        xml("""
            <dict>
            <key>FormatVersion</key>\(formatVersion)
            <key>ProductIdentifier</key><string>\(id)</string>
            <key>ContentVersion</key><string>\(version)</string>
            <key>DisplayName</key><string>Test Words</string>
            <key>Language</key><string>en</string>
            \(extra)
            </dict>
            """)
    }

    /// The classic sample's `{name, words}` word list.
    static func wordList(_ words: [String], name: String = "Animals") -> [UInt8] {
        xml("<dict><key>name</key><string>\(escape(name))</string><key>words</key><array>"
            + words.map { "<string>\(escape($0))</string>" }.joined() + "</array></dict>")
    }

    static let animals = ["cat", "dog", "horse", "zebra", "giraffe", "llama"]

    /// A valid pack's files, in a top-level folder.
    static func validEntries(folder: String = "pack") -> [ArchiveWriter.Entry] {
        [
            .file("\(folder)/Info.plist", manifest()),
            .file("\(folder)/words.plist", wordList(animals)),
        ]
    }

    static func archive(
        _ entries: [ArchiveWriter.Entry], format: ArchiveWriter.Format = .pax, compression: ArchiveWriter.Compression = .gzip
    ) throws -> [UInt8] {
        try ArchiveWriter(format: format, compression: compression).write(entries)
    }

    static func source(_ files: [(String, [UInt8])]) -> PackSource {
        PackSource(files: files.map { PackSource.File(path: $0.0, bytes: $0.1) }.sorted { $0.path < $1.path })
    }

    static let validSource = source([("Info.plist", manifest()), ("words.plist", wordList(animals))])
}

