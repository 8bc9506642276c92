import Archive
import FoundationEssentials
import PropertyList
import Signing
import SystemCalls

/// Builds a `.wordpack` from a pack's source, deterministically: the same source gives the same
/// bytes (pax tar, entries sorted by UTF-8 name, fixed times and owners, gzip without a timestamp).
///
/// The source is verified first, exactly as `PackVerifier` verifies an archive; the archived
/// manifest gets `WordCount` and the `Files` SHA-256 of every other file; with a key, a
/// `Signature.plist` over the manifest's bytes is added. The result is verified once more. Its
/// text is held to ``PackTextRule``'s rule (no control or format character a screen would act on).
public struct PackBuilder: Sendable {
    /// The key that signs the built pack (`Signature.plist`); `nil`: unsigned.
    public var signingKey: SigningKey?
    /// How the archive is compressed (gzip by default).
    public var compression: ArchiveWriter.Compression
    /// The checks the source and the result must pass, and their limits.
    public var verifier: PackVerifier
    /// Builds a pack whose text breaks ``PackTextRule``'s rule: what a hostile store could serve, for
    /// tests of the places that show it. Never for a pack to publish.
    public var allowsUnsafeText = false

    /// A builder that signs with `signingKey` (when given), compresses with `compression`, and verifies with `verifier`.
    public init(signingKey: SigningKey? = nil, compression: ArchiveWriter.Compression = .gzip, verifier: PackVerifier = PackVerifier()) {
        self.signingKey = signingKey
        self.compression = compression
        self.verifier = verifier
    }

    /// A built pack: the archive's bytes and what verifying them found.
    public struct Output: Sendable {
        /// The archive, to write to a `.wordpack` file.
        public var bytes: [UInt8]
        /// The pack as a verifier reads it back.
        public var pack: WordPack
        /// The archive's size, digest, format and entries.
        public var archive: PackArchiveInfo
    }

    /// Reads `folder` and builds its pack.
    public func build(folder: String) throws(PackBuildError) -> Output {
        try build(PackSource.read(folder: folder, limits: verifier.archiveLimits))
    }

    /// Builds the pack of `source`.
    public func build(_ source: PackSource) throws(PackBuildError) -> Output {
        guard let manifestFile = source.files.first(where: { $0.path == "Info.plist" }) else {
            throw PackBuildError([PackProblem(
                .missingManifest,
                "no Info.plist in the folder: write one with 'hangman pack init DIR --product-id ID' (its DisplayName is the word lists' 'name' unless you pass --display-name NAME)")])
        }
        let unsealed: [String: PropertyList]
        do {
            let value = try PropertyListDecoding.decode(manifestFile.bytes, limits: verifier.propertyListLimits).value
            guard case .dictionary(let dict) = value else {
                throw PackBuildError([PackProblem(.manifestNotDictionary, entry: "Info.plist", "root is \(value.typeName), expected a dictionary")])
            }
            unsealed = dict.filter { $0.key != "WordCount" && $0.key != "Files" }
        } catch let error as PropertyListError {
            throw PackBuildError([PackProblem(error, entry: "Info.plist")])
        } catch let error as PackBuildError {
            throw error
        } catch {
            throw PackBuildError([PackProblem(.plistMalformed, entry: "Info.plist", "\(error)")])
        }
        let contents = source.files.filter { $0.path != "Info.plist" }
        let folder = (unsealed["ProductIdentifier"]?.stringValue).flatMap(ProductID.init(rawValue:))?.rawValue ?? "pack"

        // 1. Verify the source as it stands, with the manifest stripped of what the build computes.
        let firstPass = try archive(folder: folder, manifest: PropertyListEncoding.xml(.dictionary(unsealed)), contents, signature: nil)
        let checked = verifier.verify(firstPass)
        guard checked.isValid, let pack = checked.pack else {
            throw PackBuildError(checked.problems.map { relativeToSource($0, folder: folder) })
        }
        let unsafe = allowsUnsafeText ? [] : PackTextRule.problems(in: pack)
        guard unsafe.isEmpty else { throw PackBuildError(unsafe.map { relativeToSource($0, folder: folder) }) }

        // 2. Seal the manifest: word count and every file's digest.
        var sealed = unsealed
        sealed["WordCount"] = .integer(Int64(pack.wordCount))
        sealed["Files"] = .dictionary(Dictionary(uniqueKeysWithValues: contents.map { file in
            (file.path, PropertyList.dictionary([
                "SHA256": .string(SHA256.hash(file.bytes).hex), "Size": .integer(Int64(file.bytes.count)),
            ]))
        }))
        let manifestBytes = PropertyListEncoding.xml(.dictionary(sealed))
        let signature = signingKey.map { PackSignature(signing: manifestBytes, with: $0) }
        let bytes = try archive(folder: folder, manifest: manifestBytes, contents, signature: signature)

        // 3. Verify what will be written, signature included.
        var final = verifier
        if let signingKey { final.trustedKeys = [signingKey.publicKey] }
        let result = final.verify(bytes)
        guard result.isValid, let built = result.pack, let info = result.archive else {
            throw PackBuildError(result.problems)
        }
        return Output(bytes: bytes, pack: built, archive: info)
    }

    private func archive(folder: String, manifest: [UInt8], _ contents: [PackSource.File], signature: PackSignature?) throws(PackBuildError) -> [UInt8] {
        var files = contents.map { ($0.path, $0.bytes) }
        files.append(("Info.plist", manifest))
        if let signature { files.append((PackSignature.fileName, PropertyListEncoding.xml(signature.propertyList))) }
        files.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        do {
            return try ArchiveWriter(format: .pax, compression: compression).write(
                files.map { ArchiveWriter.Entry.file(folder + "/" + $0.0, $0.1) })
        } catch {
            throw PackBuildError([PackProblem(.corrupt, "could not write the archive: \(error)")])
        }
    }

    /// Problems found in the first pass name the source's files, not the archive's entries.
    private func relativeToSource(_ problem: PackProblem, folder: String) -> PackProblem {
        var problem = problem
        if let entry = problem.entry, entry.hasPrefix(folder + "/") {
            problem.entry = String(entry.dropFirst(folder.count + 1))
        }
        return problem
    }
}

extension PackBuilder.Output {
    /// Writes the archive to `path` atomically (a temporary file renamed into place); anything
    /// but a regular file at `path` (a device, FIFO, socket, folder or link) is refused, not replaced.
    public func write(to path: String) throws(PackBuildError) {
        do {
            try FileSystem.writeAtomically(bytes, toPath: path)
        } catch {
            throw PackBuildError([PackProblem(.cannotWrite, entry: path, "cannot write the archive: \(error)")])
        }
    }
}
