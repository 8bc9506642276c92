import PropertyList
import SystemCalls

/// Writes the manifest of a pack's source folder that has word lists but no `Info.plist`
/// (`hangman pack init`), such as a folder of the classic iOS sample holding only a `words.plist`
/// of `{name, words}`. `PackBuilder` then builds the folder.
///
/// The display name, when none is given, is the `name` the folder's word lists share:
///
/// ```swift
/// guard let id = ProductID(rawValue: "com.example.words.easy") else { return }
/// let written = try PackManifestWriter(productIdentifier: id).write(folder: "EasyWords")
/// print(written.draft.manifest.displayName)   // the `name` in EasyWords/words.plist
/// let built = try PackBuilder().build(folder: "EasyWords")
/// ```
public struct PackManifestWriter: Sendable {
    /// The product that unlocks the pack.
    public var productIdentifier: ProductID
    /// Shown to players; `nil` takes the `name` of the folder's word lists.
    public var displayName: String?
    /// BCP 47 tag: decides which letters a game treats as the same.
    public var language: String
    /// The pack's version (`ContentVersion`): raised at every change of its words.
    public var contentVersion: ContentVersion
    /// Replace an `Info.plist` the folder already has; without it, one there is an error.
    public var replace: Bool

    /// A writer for the pack sold as `productIdentifier`, its words in `language`.
    public init(
        productIdentifier: ProductID, displayName: String? = nil, language: String = "en",
        contentVersion: ContentVersion = .initial, replace: Bool = false
    ) {
        self.productIdentifier = productIdentifier
        self.displayName = displayName
        self.language = language
        self.contentVersion = contentVersion
        self.replace = replace
    }

    /// A manifest made for a folder's word lists.
    public struct Draft: Sendable, Equatable {
        /// The manifest, as it would be written.
        public var manifest: PackManifest
        /// The word lists found, paths relative to the folder.
        public var wordLists: [String]
        /// The word list whose `name` became the display name; `nil` when the name was given.
        public var displayNameSource: String?
    }

    /// What `write(folder:)` wrote.
    public struct Output: Sendable, Equatable {
        /// The manifest written, and what it was made from.
        public var draft: Draft
        /// The manifest's path: the folder's `Info.plist`.
        public var path: String
        /// The folder had an `Info.plist`, now replaced.
        public var replaced: Bool
    }

    /// The manifest for the word lists of `source`; reads and writes no file.
    public func draft(for source: PackSource) throws(PackBuildError) -> Draft {
        let lists = source.files.filter { file in
            isPropertyListName(file.path) && file.path != "Info.plist" && file.path != "ContentInfo.plist"
        }
        guard !lists.isEmpty else {
            throw PackBuildError([PackProblem(
                .noWordList, "no word list in the folder: add at least one *.plist of words (an array of words, or a dictionary with 'name' and 'words')")])
        }
        var problems: [PackProblem] = []
        // A word list that is no property list is named as 'pack build' names it (its line and
        // what was expected), before anything is guessed from the others.
        var decoded: [(path: String, value: PropertyList)] = []
        for list in lists {
            do throws(PropertyListError) {
                decoded.append((list.path, try PropertyListDecoding.decode(list.bytes).value))
            } catch {
                problems.append(PackProblem(error, entry: list.path))
            }
        }
        guard problems.isEmpty else { throw PackBuildError(problems) }
        if !PackManifest.isLanguageTag(language) {
            problems.append(PackProblem(.badLanguage, "Language '\(language)' is not a BCP 47 tag (like en, es or pt-BR)"))
        }
        var name = displayName
        var nameSource: String?
        if let given = displayName {
            if given.allSatisfy(\.isWhitespace) {
                problems.append(PackProblem(.manifestWrongType, "the display name is empty"))
            }
        } else {
            switch sharedName(of: decoded) {
            case .success(let found):
                (name, nameSource) = (found.name, found.path)
            case .failure(let problem):
                problems.append(problem)
            }
        }
        guard problems.isEmpty, let name else { throw PackBuildError(problems) }
        let manifest = PackManifest(
            productIdentifier: productIdentifier, contentVersion: contentVersion, displayName: name, language: language)
        return Draft(manifest: manifest, wordLists: lists.map(\.path), displayNameSource: nameSource)
    }

    /// Reads `folder`, makes its manifest and writes it as the folder's `Info.plist`: a new file
    /// (an existing one is kept, unless `replace`), which appears complete or not at all.
    public func write(folder: String) throws(PackBuildError) -> Output {
        let source = try PackSource.read(folder: folder)
        let trimmed = folder.count > 1 && folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        let path = trimmed == "/" ? "/Info.plist" : trimmed + "/Info.plist"
        let existing = source.files.contains { $0.path == "Info.plist" }
        if existing && !replace {
            throw PackBuildError([PackProblem(
                .manifestExists, entry: path,
                "already exists: edit it, or pass --force to replace it")])
        }
        var draft: Draft
        do {
            draft = try self.draft(for: source)
        } catch {
            throw PackBuildError(error.problems.map { problem in
                var problem = problem
                problem.entry = problem.entry.map { trimmed + "/" + $0 } ?? trimmed
                return problem
            })
        }
        let bytes = PropertyListEncoding.xml(draft.manifest.propertyList)
        do throws(FileError) {
            if replace {
                try FileSystem.writeAtomically(bytes, toPath: path, permissions: 0o644)
            } else {
                try FileSystem.createNew(atPath: path, containing: bytes, permissions: 0o644)
            }
        } catch {
            if case .system(.fileExists, _, _) = error {
                throw PackBuildError([PackProblem(
                    .manifestExists, entry: path, "appeared while the manifest was being made: look at it, or pass --force to replace it")])
            }
            throw PackBuildError([PackProblem(.cannotWrite, entry: path, "cannot write the manifest: \(error)")])
        }
        draft.wordLists.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return Output(draft: draft, path: path, replaced: existing)
    }

    /// The `name` that every word list naming one gives; a problem saying what to do otherwise.
    private func sharedName(of lists: [(path: String, value: PropertyList)]) -> Result<(name: String, path: String), PackProblem> {
        var names: [(name: String, path: String)] = []
        for list in lists {
            if case .dictionary(let dict) = list.value, case .string(let name)? = dict["name"], !name.allSatisfy(\.isWhitespace) {
                names.append((name, list.path))
            }
        }
        let distinct = names.reduce(into: [String]()) { found, item in
            if !found.contains(item.name) { found.append(item.name) }
        }
        if distinct.count == 1, let first = names.first {
            return .success(first)
        }
        let what =
            if distinct.count > 1 {
                "the word lists have different names (\(distinct.map { "'\($0)'" }.joined(separator: ", ")))"
            } else {
                "no word list has a 'name'"
            }
        return .failure(PackProblem(.manifestMissingKey, "no display name: \(what); pass --display-name NAME"))
    }
}
