import WordPacks

/// How packs read on a terminal.
enum PackText {
    /// `com.x.ios 1.0 "iOS Words", 153 words in 1 list, signed by key 0a1b2c3d`
    static func oneLine(_ pack: WordPack) -> String {
        let lists = pack.lists.count
        var line = "\(pack.manifest.productIdentifier) \(pack.manifest.contentVersion) \"\(pack.manifest.displayName)\", "
        line += "\(grouped(pack.wordCount)) words in \(lists) list\(lists == 1 ? "" : "s")"
        if let signature = pack.signature { line += ", signed by key \(signature.publicKey.keyID)" }
        return line
    }

    static func inspection(path: String, _ result: PackVerification) -> String {
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
        return lines.joined(separator: "\n")
    }

    /// `1234567` -> `1,234,567`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }
}
