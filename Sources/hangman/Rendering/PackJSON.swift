import PackServiceWire
import FoundationEssentials
import WordPacks
import TerminalText

/// The `--json` documents of `pack verify` and `pack inspect`. Field names are a stable interface.
struct VerifyReportJSON: Encodable {
    var valid: Bool
    var packs: [PackReportJSON]
}

struct PackReportJSON: Encodable {
    struct Problem: Encodable {
        var kind: String
        var entry: String?
        var message: String
    }

    struct Pack: Encodable {
        var productID: String
        var contentVersion: String
        var displayName: String
        var language: String
        var layout: String
        var wordCount: Int
        var signedBy: String?
        var summary: String?
        var license: String?
        var attribution: String?
        var lists: [List]?
        var lengths: [String: Int]?
        var scripts: [String]?
    }

    struct List: Encodable {
        var name: String
        var path: String
        var format: String
        var wordCount: Int
        var clueCount: Int
    }

    struct Archive: Encodable {
        var size: Int
        var sha256: String
        var format: String?
        var compression: String?
        var entries: Int
        var uncompressedSize: Int
    }

    var file: String
    var valid: Bool
    var problems: [Problem]
    var pack: Pack?
    var archive: Archive?

    init(file: String, _ result: PackVerification, details: Bool = false) {
        self.file = file
        valid = result.isValid
        problems = result.problems.map { Problem(kind: $0.kind.rawValue, entry: $0.entry, message: $0.message) }
        if let built = result.pack {
            let manifest = built.manifest
            var out = Pack(
                productID: manifest.productIdentifier.rawValue, contentVersion: manifest.contentVersion.text,
                displayName: manifest.displayName, language: manifest.language, layout: built.layout.rawValue,
                wordCount: built.wordCount, signedBy: built.signature?.publicKey.keyID)
            if details {
                let inspection = PackInspection(built)
                out.summary = manifest.summary
                out.license = manifest.license
                out.attribution = manifest.attribution
                out.lists = inspection.lists.map {
                    List(name: $0.name, path: $0.path, format: $0.format, wordCount: $0.wordCount, clueCount: $0.clueCount)
                }
                out.lengths = Dictionary(uniqueKeysWithValues: inspection.lengthCounts.map { (String($0.key), $0.value) })
                out.scripts = inspection.scripts
            }
            pack = out
        }
        if let info = result.archive {
            archive = Archive(
                size: info.size, sha256: info.sha256.hex, format: info.format?.rawValue, compression: info.compression,
                entries: info.entryCount, uncompressedSize: info.uncompressedSize)
        }
    }
}

/// A document as `--json` prints it: the wire's writer, pretty, key-sorted and safe on a
/// terminal (DEL, C1 and bidirectional controls escaped in strings).
enum JSONText {
    static func encode(_ value: some Encodable) -> TerminalText {
        do {
            return TerminalText(trusted: String(decoding: try WireJSONEncoder.encode(value, pretty: true, terminalSafe: true), as: UTF8.self))
        } catch {
            return TerminalText(escaping: "{\"error\" : \"the document cannot be written as JSON: \(error)\"}")
        }
    }
}
