import WordPacks

extension CommandFailure {
    /// The exit code a pack source's failure deserves: 66 no such folder, 73 a manifest already
    /// there or a file that cannot be written, else 65; the message has every problem.
    init(packSource error: PackBuildError) {
        let kinds = Set(error.problems.map(\.kind))
        let message = error.problems.count == 1 ? error.description : "\(error.problems.count) problems:"
        let details = error.problems.count == 1 ? [] : error.problems.map(\.description)
        let code: ExitCode =
            kinds.contains(.missingFile) ? .noInput : kinds.contains(.manifestExists) || kinds.contains(.cannotWrite) ? .cannotCreate : .dataError
        self.init(code: code, message: message, details: details)
    }
}
