import SystemCalls

let status = await Hangman.main(
    Array(CommandLine.arguments.dropFirst()), context: .process(environment: ProcessEnvironment.all()))
CurrentProcess.exit(status.rawValue)
