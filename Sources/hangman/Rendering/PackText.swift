import WordPacks
import TerminalText

/// How packs read on a terminal.
enum PackText {
    /// `com.x.ios 1.0 "iOS Words", 153 words in 1 list, signed by key 0a1b2c3d`
    static func oneLine(_ pack: WordPack) -> TerminalText {
        let lists = pack.lists.count
        var line = "\(pack.manifest.productIdentifier) \(pack.manifest.contentVersion) \"\(pack.manifest.displayName)\", "
        line += "\(grouped(pack.wordCount)) words in \(lists) list\(lists == 1 ? "" : "s")"
        if let signature = pack.signature { line += ", signed by key \(signature.publicKey.keyID)" }
        return TerminalText(escaping: line)
    }

    /// One line per fact; each line is escaped whole (no line of it has a control character of its own).
    static func inspection(path: String, _ result: PackVerification) -> TerminalText {
        var lines = [path]
        func row(_ label: String, _ value: String) {
            lines.append("  " + label + String(repeating: " ", count: max(1, 14 - label.count)) + value)
        }
        if let pack = result.pack {
            let manifest = pack.manifest
            let inspection = PackInspection(pack)
            row("Product", manifest.productIdentifier.rawValue)
            row("Name", manifest.displayName)
            row("Version", "\(manifest.contentVersion) (format \(manifest.formatVersion))")
            row("Language", "\(manifest.language) (\(inspection.scripts.isEmpty ? "no letters" : inspection.scripts.joined(separator: ", ")) script)")
            row("Layout", pack.layout.rawValue)
            if let summary = manifest.summary { row("Summary", summary) }
            if let license = manifest.license { row("License", license) }
            if let attribution = manifest.attribution { row("Attribution", attribution) }
            row("Words", "\(grouped(pack.wordCount)) in \(pack.lists.count) list\(pack.lists.count == 1 ? "" : "s")")
            let nameWidth = min(28, inspection.lists.map(\.name.count).max() ?? 0)
            for list in inspection.lists {
                let clues = list.clueCount > 0 ? ", \(grouped(list.clueCount)) clues" : ""
                lines.append("    " + list.name + String(repeating: " ", count: max(1, nameWidth + 2 - list.name.count))
                    + "\(grouped(list.wordCount)) words\(clues)  \(list.path) (\(list.format))")
            }
            row("Lengths", "\(inspection.shortest)-\(inspection.longest) letters, median \(inspection.medianLength)")
            let most = inspection.lengthCounts.values.max() ?? 1
            for length in inspection.lengthCounts.keys.sorted() {
                let count = inspection.lengthCounts[length] ?? 0
                let bar = String(repeating: "#", count: max(1, count * 30 / max(most, 1)))
                lines.append("    " + (length < 10 ? " " : "") + "\(length)  " + bar + " \(grouped(count))")
            }
            if !pack.otherFiles.isEmpty { row("Other files", pack.otherFiles.joined(separator: ", ")) }
            if let signature = pack.signature {
                row("Signature", "Ed25519, key \(signature.publicKey.keyID), valid for the manifest")
            } else {
                row("Signature", "none")
            }
        }
        if let archive = result.archive {
            let kind = [archive.format?.rawValue, archive.compression].compactMap { $0 }.joined(separator: ", ")
            row("Archive", "\(grouped(archive.size)) bytes (\(kind)), \(archive.entryCount) entries, \(grouped(archive.uncompressedSize)) bytes uncompressed")
            row("SHA-256", archive.sha256.hex)
        }
        if !result.problems.isEmpty {
            lines.append("  Problems (\(result.problems.count)):")
            for problem in result.problems { lines.append("    \(problem)") }
        } else {
            lines.append("  Valid")
        }
        return TerminalText(trusted: lines.map(TerminalText.escaped).joined(separator: "\n"))
    }

    /// `wrote DIR/Info.plist: com.x.easy 1.0 "Easy Words" (name from words.plist), language en, 1 word list`
    static func written(_ output: PackManifestWriter.Output) -> TerminalText {
        let manifest = output.draft.manifest
        var line = "\(output.replaced ? "replaced" : "wrote") \(output.path): \(manifest.productIdentifier) \(manifest.contentVersion) \"\(manifest.displayName)\""
        if let source = output.draft.displayNameSource { line += " (name from \(source))" }
        let lists = output.draft.wordLists.count
        return TerminalText(escaping: line + ", language \(manifest.language), \(lists) word list\(lists == 1 ? "" : "s")")
    }

    /// The command that builds `folder` after `pack init`, its archive beside the folder.
    static func buildCommand(folder: String, productID: ProductID) -> String {
        var base = folder
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        let last = base.split(separator: "/").last.map(String.init) ?? ""
        let archive = last.isEmpty || last == "." || last == ".." ? productID.rawValue + ".wordpack" : base + ".wordpack"
        return "hangman pack build \(shellWord(folder)) -o \(shellWord(archive))"
    }

    /// `text` as one shell word: as it is when plain, else in single quotes.
    static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+,:@".unicodeScalars.contains(scalar))
        }
        if plain { return text }
        return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// `1234567` -> `1,234,567`, as the reader's locale groups it (`ReaderLocale`).
    static func grouped(_ number: Int) -> String {
        ReaderLocale.current.grouped(number)
    }
}
