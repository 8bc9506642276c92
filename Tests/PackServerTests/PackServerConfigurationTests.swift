import PackServer
import Testing
import TestSupport

/// What no server may run is refused by the server's configuration, whoever starts it (only
/// `hangman serve` refused it, and a server made in-process took test controls in production).
@Suite struct PackServerConfigurationTests {
    @Test func testControlsAreForASandboxServerOnly() throws {
        let directory = try TemporaryDirectory()
        let packs = HangmanBinary.packageRoot.appendingPathComponent("Packs").path
        let production = PackServerConfiguration(dataFolder: directory.file("data"), packsFolder: packs, environment: .production, testControls: true)
        let error = #expect(throws: PackServerError.self) { try PackServer(production) }
        #expect(error?.isUsage == true)
        #expect(error?.message.contains("it is for a sandbox server") == true)
        let sandbox = PackServerConfiguration(dataFolder: directory.file("data"), packsFolder: packs, environment: .sandbox, testControls: true)
        #expect(try PackServer(sandbox).configuration.testControls)
    }
}
