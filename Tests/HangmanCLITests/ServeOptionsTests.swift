@testable import hangman
import PackServer
import Testing

/// What `hangman serve` reads from its command line and from a trusted proxy's headers.
@Suite struct ServeOptionsTests {
    /// The client behind a trusted proxy is the last address of X-Forwarded-For (the one the
    /// proxy appended); anything that is not a numeric address is ignored, and no name is looked up.
    @Test(arguments: [
        ("198.51.100.7", String?.some("198.51.100.7")), ("203.0.113.9, 198.51.100.7", "198.51.100.7"), ("203.0.113.9,  2001:db8::1 ", "2001:db8::1"),
        ("evil.example", nil), ("198.51.100.7, evil.example", nil), ("", nil), (",", nil), ("1.2.3.4.5", nil),
    ])
    func theForwardedClientIsTheLastNumericAddress(_ header: String, _ expected: String?) {
        #expect(PackServerProcess.forwardedClient(header) == expected, "\(header)")
    }

    @Test func listenAddressesAreReadWithIPv6InBrackets() throws {
        #expect(try ServeCommand.listenAddress("127.0.0.1:8080") == ("127.0.0.1", 8080))
        #expect(try ServeCommand.listenAddress("[::1]:0") == ("::1", 0))
        #expect(try ServeCommand.listenAddress("localhost:80") == ("localhost", 80))
        for bad in ["::1:80", "[::1]", "127.0.0.1", ":80", "[]:80", "[1.2.3.4]:80", "host:99999", "a b:80"] {
            #expect(throws: CommandFailure.self, "\(bad)") { try ServeCommand.listenAddress(bad) }
        }
    }
}
