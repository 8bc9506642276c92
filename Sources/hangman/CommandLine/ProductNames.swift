import Messages
import PackServiceAPI
import TerminalText

/// Short names for the catalog's products and base packs: `ios` for `com.hangmanpacks.words.ios`.
///
/// A product's short name is the shortest run of its identifier's last labels that no other
/// identifier in the catalog ends with (`ios`, `hard`, `es`, `hints.10`). A command accepts the
/// full identifier, any ending of it that only one product has, or the display name, in any case.
struct ProductNames {
    let catalog: Catalog

    init(_ catalog: Catalog) { self.catalog = catalog }

    /// Every identifier a name could stand for: the products, then the base packs.
    var identifiers: [ProductID] { catalog.products.map(\.id) + catalog.basePacks.map(\.productID) }

    /// Letters, digits, `-`, `_`, `.` and spaces (a display name), at most 255 bytes.
    static func isWellFormed(_ word: String) -> Bool {
        !word.isEmpty && word.utf8.count <= 255 && !word.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// The shortest ending of `id` that names it alone; the identifier itself when none does.
    func shortName(of id: ProductID) -> String {
        let labels = id.rawValue.split(separator: ".")
        let others = identifiers.filter { $0 != id }.map { $0.rawValue.lowercased() }
        for count in 1..<labels.count {
            let ending = labels.suffix(count).joined(separator: ".").lowercased()
            if !others.contains(where: { $0 == ending || $0.hasSuffix("." + ending) }) { return ending }
        }
        return id.rawValue
    }

    /// The product `typed` names. A well-formed identifier the catalog does not know is returned
    /// as it is, so that the command can say what it knows about it (an installed pack the
    /// catalog no longer sells, an unknown product).
    func resolve(_ typed: String) throws -> ProductID {
        let lowered = typed.lowercased()
        if let exact = identifiers.first(where: { $0.rawValue.lowercased() == lowered }) { return exact }
        let matches = identifiers.filter { $0.rawValue.lowercased().hasSuffix("." + lowered) }
            + catalog.products.filter { $0.displayName.lowercased() == lowered }.map(\.id)
            + catalog.basePacks.filter { $0.displayName.lowercased() == lowered }.map(\.productID)
        var unique: [ProductID] = []
        for id in matches where !unique.contains(id) { unique.append(id) }
        // The words a person would type: `hints`, `10hints`, `hint`, `ios words`, a display name's.
        if unique.isEmpty { unique = byWords(typed) }
        if unique.count == 1 { return unique[0] }
        if unique.count > 1 {
            let names = unique.map { id in
                let shown = catalog.product(id)?.displayName ?? catalog.basePack(id)?.displayName
                return "'\(shortName(of: id))' (\(shown.map { TerminalText.escaped($0) + ", " } ?? "")\(id))"
            }.joined(separator: ", ")
            throw CommandFailure.usage(L10n.text("'%s' could be more than one product: %s", typed, names))
        }
        if let id = ProductID(rawValue: typed), typed.contains(".") { return id }
        let candidates = identifiers.map { shortName(of: $0) } + identifiers.map(\.rawValue)
        if let closest = Suggestion.closest(to: typed, among: candidates) {
            throw CommandFailure.usage(L10n.text("no product is named '%s': did you mean '%s'?", typed, closest))
        }
        throw CommandFailure.usage(L10n.text("no product is named '%s': see 'hangman products'", typed))
    }

    /// The products and base packs every word of `typed` is a word of (of the display name or the
    /// identifier's labels), a plural `s` aside: `10hints` is 10 Hints, `hint` both hint products.
    func byWords(_ typed: String) -> [ProductID] {
        let wanted = Self.words(typed)
        guard !wanted.isEmpty else { return [] }
        func named(_ id: ProductID, _ displayName: String) -> Bool {
            let own = Set(Self.words(displayName) + Self.words(id.rawValue))
            return wanted.allSatisfy { own.contains($0) }
        }
        return catalog.products.filter { named($0.id, $0.displayName) }.map(\.id)
            + catalog.basePacks.filter { named($0.productID, $0.displayName) }.map(\.productID)
    }

    /// Lowercased words, split at anything but letters and digits and between letters and
    /// digits, a final `s` of a word of letters dropped (`10hints` -> `10`, `hint`).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var digits = false
        func flush() {
            guard !current.isEmpty else { return }
            words.append(!digits && current.count > 3 && current.hasSuffix("s") ? String(current.dropLast()) : current)
            current = ""
        }
        for character in text.lowercased() {
            guard character.isLetter || character.isNumber else {
                flush()
                continue
            }
            if !current.isEmpty, character.isNumber != digits { flush() }
            digits = character.isNumber
            current.append(character)
        }
        flush()
        return words
    }
}
