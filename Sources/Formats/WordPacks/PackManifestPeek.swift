import Archive
import PropertyList

extension PackVerifier {
    /// Reads only a pack's manifest: the archive is inflated up to its `Info.plist` (or a hosted
    /// pack's `ContentInfo.plist`) and no further. For listing a catalog quickly; it proves nothing
    /// about the rest of the pack, which `verify` checks before an install.
    public func peekManifest(fileAt path: String) -> Result<PackManifest, PackProblem> {
        // The manifest sorts near the start of a built pack (a few hundred bytes compressed): try
        // the first 16 KiB, then 256 KiB, before the whole file.
        for count in [16 << 10, 256 << 10] {
            if let prefix = FileBytes.readPrefix(path, count: count), case .success(let manifest) = peekManifest(in: prefix) {
                return .success(manifest)
            }
        }
        switch FileBytes.read(path, limit: archiveLimits.maxArchiveSize) {
        case .success(let bytes): return peekManifest(in: bytes)
        case .failure(let problem): return .failure(problem)
        }
    }

    /// The manifest of the archive in `bytes`, read as far as it.
    func peekManifest(in bytes: [UInt8]) -> Result<PackManifest, PackProblem> {
        var found: (name: EntryName, bytes: [UInt8])?
        let summary = ArchiveReader(limits: archiveLimits).readWhile(bytes, { file in
            let depth = file.name.components.count
            let last = file.name.lastComponent
            guard depth <= 2, last == "Info.plist" || last == "ContentInfo.plist" else { return true }
            found = (file.name, file.bytes)
            return last == "ContentInfo.plist"
        })
        guard let found else {
            if let fatal = summary.problems.first(where: \.isFatal) { return .failure(PackProblem(fatal)) }
            return .failure(PackProblem(.missingManifest, "no Info.plist manifest (or ContentInfo.plist) at the top of the pack"))
        }
        let value: PropertyList
        do {
            value = try PropertyListDecoding.decode(found.bytes, limits: propertyListLimits).value
        } catch {
            return .failure(PackProblem(error, entry: found.name.path))
        }
        var problems: [PackProblem] = []
        if found.name.lastComponent == "ContentInfo.plist" {
            guard case .dictionary(let dict) = value, case .string(let idText)? = dict["IAPProductIdentifier"],
                let id = ProductID(rawValue: idText), case .string(let versionText)? = dict["ContentVersion"],
                let version = ContentVersion(versionText)
            else {
                return .failure(PackProblem(.manifestMissingKey, entry: found.name.path, "needs IAPProductIdentifier and ContentVersion"))
            }
            return .success(PackManifest(productIdentifier: id, contentVersion: version, displayName: id.rawValue))
        }
        guard let manifest = PackManifest.parse(value, entry: found.name.path, problems: &problems), problems.isEmpty else {
            return .failure(problems.first ?? PackProblem(.manifestNotDictionary, entry: found.name.path, "not a manifest"))
        }
        return .success(manifest)
    }
}
