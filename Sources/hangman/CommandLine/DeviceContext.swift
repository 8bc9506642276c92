#if canImport(Glibc)
import Glibc
#endif
import Device
import Store
import WordPacks

/// The device's state beside the store: opened for the commands that install or play.
struct DeviceContext {
    let store: StoreContext
    let installer: PackInstaller

    var device: DeviceStore { installer.device }
    var catalog: Catalog { store.service.catalog }

    /// The device's folder: deleting it is deleting the app; the account stays.
    static func folder(home: String) -> String { home + "/device" }

    /// Opens the store and the device; a first run installs the base packs.
    static func open(_ arguments: ParsedArguments, console: Console) throws(CommandFailure) -> DeviceContext {
        let store = try StoreContext.open(arguments, console: console)
        let device = try deviceCall { () throws(DeviceError) in try DeviceStore(folder: folder(home: store.home)) }
        let installer = PackInstaller(service: store.service, device: device)
        for id in try deviceCall({ () throws(DeviceError) in try installer.installMissingBasePacks() }) {
            let name = installer.service.catalog.basePack(id).map { "\($0.displayName) (\(PackText.grouped($0.wordCount)) words)" } ?? id.rawValue
            console.error("Installed the base pack \(name).")
        }
        return DeviceContext(store: store, installer: installer)
    }

    /// Installs a pack, drawing a progress bar on a terminal (standard error), nothing otherwise.
    func install(_ id: ProductID, console: Console) throws(CommandFailure) -> InstallOutcome {
        let bar = ProgressBar(enabled: isatty(2) == 1, label: catalog.product(id)?.displayName ?? id.rawValue)
        let outcome = try deviceCall { () throws(DeviceError) in
            try installer.install(id) { progress in bar.update(progress) }
        }
        bar.finish()
        return outcome
    }

    /// `Installed iOS Words 1.0 (197 words).` and the like.
    func describe(_ outcome: InstallOutcome, _ id: ProductID) -> String {
        let name = catalog.product(id)?.displayName ?? id.rawValue
        let words = (try? device.installedPacks().first { $0.productID == id }?.wordCount).flatMap { $0 }.map { " (\(PackText.grouped($0)) words)" } ?? ""
        switch outcome {
        case .installed(let version): return "Installed \(name) \(version)\(words)."
        case .updated(let old, let new): return "Updated \(name) from \(old) to \(new)\(words)."
        case .alreadyInstalled(let version): return "\(name) \(version) is already installed: nothing to do."
        }
    }
}

/// Runs a device call, mapping its error to an exit code.
func deviceCall<T>(_ body: () throws(DeviceError) -> T) throws(CommandFailure) -> T {
    do {
        return try body()
    } catch {
        switch error.kind {
        case .notEntitled: throw CommandFailure(code: .notEntitled, message: error.message)
        case .unknownPack, .notInstalled: throw CommandFailure.usage(error.message)
        case .invalidPack:
            let details = error.problems.prefix(10).map { "\n  \($0)" }.joined()
            throw CommandFailure.invalid(error.message + details)
        case .olderVersion: throw CommandFailure.invalid(error.message)
        case .storage: throw CommandFailure(code: .ioError, message: error.message)
        }
    }
}

/// A one-line progress bar on standard error: words and bytes.
final class ProgressBar {
    let enabled: Bool
    let label: String
    private var drawn = false

    init(enabled: Bool, label: String) {
        self.enabled = enabled
        self.label = label
    }

    func update(_ progress: InstallProgress) {
        guard enabled, progress.wordsTotal >= 20_000 else { return }
        let width = 30
        let filled = progress.wordsTotal == 0 ? width : progress.wordsDone * width / progress.wordsTotal
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = progress.wordsTotal == 0 ? 100 : progress.wordsDone * 100 / progress.wordsTotal
        let line = "\r\(label) [\(bar)] \(percent)%  \(PackText.grouped(progress.wordsDone))/\(PackText.grouped(progress.wordsTotal)) words, \(PackText.grouped(progress.bytesDone))/\(PackText.grouped(progress.bytesTotal)) bytes"
        Console().errorRaw(line)
        drawn = true
    }

    func finish() {
        if drawn { Console().errorRaw("\r\u{1B}[K") }
    }
}
