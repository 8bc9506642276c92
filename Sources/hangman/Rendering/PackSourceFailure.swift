import WordPacks

extension CommandFailure {
    /// The exit code a pack source's failure deserves: 66 no such folder, 73 a manifest already
    /// there or a file that cannot be written, else 65; the message has every problem.
    init(packSource error: PackBuildError) {
        let kinds = Set(error.problems.map(\.kind))
        let message =
            error.problems.count == 1
            ? error.description
            : "\(error.problems.count) problems:" + error.problems.map { "\n  \($0)" }.joined()
        if kinds.contains(.missingFile) {
            self = .missing(message)
        } else if kinds.contains(.manifestExists) || kinds.contains(.cannotWrite) {
            self = .cannotCreate(message)
        } else {
            self = .invalid(message)
        }
    }
}
