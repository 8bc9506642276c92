import Foundation
import SystemCalls
import Testing
import TestSupport

/// The environment read at start without Foundation's `ProcessInfo`: every variable, as the
/// C library and Foundation read it.
@Suite struct ProcessEnvironmentTests {
    @Test func everyVariableIsReadAsProcessInfoReadsIt() {
        #expect(ProcessEnvironment.all() == ProcessInfo.processInfo.environment)
        #expect(ProcessEnvironment.all()["PATH"] == ProcessEnvironment.value("PATH"))
    }

    /// The built program reads a variable set but empty as set: `HANGMAN_HOME` set but empty is
    /// the documented usage error, not the default home.
    @Test func aVariableSetButEmptyIsReadAsSet() throws {
        let result = try ExternalProcess.run(HangmanBinary.path, ["packs"], environment: ["HANGMAN_HOME": "", "LANG": "C"])
        #expect(result.status == 64, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("HANGMAN_HOME"), "\(result.stderr)")
    }
}
