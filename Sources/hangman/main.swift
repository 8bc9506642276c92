import FoundationEssentials
import SystemCalls

let status = await Hangman.main(
    Array(CommandLine.arguments.dropFirst()), context: .process(environment: ProcessInfo.processInfo.environment))
CurrentProcess.exit(status.rawValue)
