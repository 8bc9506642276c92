import Seller
import TerminalText

/// `hangman backup`: a copy of a pack server's data folder, taken while its servers run.
enum BackupCommand: Command {
    static let spec = CommandSpec(
        name: "hangman backup",
        overview: "Copy a pack server's data folder while its servers run: every SQLite database through SQLite's online backup, the service's keys and admin tokens with them.",
        usage: ["hangman backup --data <DIR> -o <NEW-DIR>"],
        options: [
            .init(names: ["--data"], value: "DIR", help: "The data folder to copy ('serve --data')."),
            .init(names: ["-o", "--output"], value: "NEW-DIR", help: "Where the copy goes: a folder that does not exist yet."),
        ],
        discussion: """
            Each database is copied as one read transaction saw it, while purchases go on; every
            purchase acknowledged before the backup began is in the copy. The copy is itself a data
            folder: to restore, stop the servers, move the damaged folder away, and copy the backup
            back with 'hangman backup --data <BACKUP> -o <DIR>' (or start 'serve --data <BACKUP>').
            A backup killed halfway leaves a '<NEW-DIR>.partial-<pid>' folder, never NEW-DIR. On
            PostgreSQL the ledgers and accounts are in the database: back it up with pg_dump, and
            the data folder (keys, admin tokens) with this command. Exit status: 0, 64 a wrong
            option or NEW-DIR exists, 66 no such data folder, 74 a database cannot be read or the
            copy cannot be written.
            """)

    struct Options {
        var data: String
        var output: String
    }

    static func options(_ parsed: ParsedArguments) throws -> Options {
        guard let data = parsed.value("--data") else { throw CommandFailure.usage("'backup' needs --data <DIR>: the pack server's data folder") }
        guard let output = parsed.value("-o") ?? parsed.value("--output") else { throw CommandFailure.usage("'backup' needs -o <NEW-DIR>: where the copy goes") }
        return Options(data: data, output: output)
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let summary: DataFolderBackup.Summary
        do {
            summary = try DataFolderBackup.take(data: options.data, into: options.output)
        } catch {
            switch error.kind {
            case .notFound: throw CommandFailure.missing(error.message)
            case .invalidRequest: throw CommandFailure.usage(error.message)
            default: throw CommandFailure.storage(error.message)
            }
        }
        let tenths = (summary.bytes * 10 + 524_288) / 1_048_576
        context.out(TerminalText(escaping: "Backed up \(options.data) into \(options.output): \(summary.databases) databases and \(summary.files) other files, \(tenths / 10).\(tenths % 10) MB."))
        return .ok
    }
}
