import SystemCalls

/// Where `-o FILE` writes: a regular file, replaced atomically, or standard output for `-o -`.
/// A device, FIFO, socket, folder or symbolic link at the path is refused (73), never replaced.
enum OutputFile {
    /// Writes `bytes` to `path` (`FileSystem.writeAtomically`); `what` names them in an error.
    static func write(_ bytes: [UInt8], to path: String, what: String) throws {
        do {
            try FileSystem.writeAtomically(bytes, toPath: path)
        } catch .notRegularFile(let kind, _) {
            throw CommandFailure.cannotCreate(
                "cannot write \(what) to \(path): it is \(kind), not a regular file, and is left as it is (pass -o - for standard output)")
        } catch .system(let errno, _, _) {
            throw CommandFailure.cannotCreate("cannot write \(what) to \(path): \(errno)")
        } catch {
            throw CommandFailure.cannotCreate("cannot write \(what) to \(path): \(error)")
        }
    }
}
