import PackServiceClient
import PackServiceWire
import Testing

/// The token format has one reader: what the server would refuse, the client refuses before it
/// asks anything of a server (the client took secrets of any length).
@Suite struct BearerTokenTests {
    private let account = "0123456789abcdef"

    @Test func aTokenIsReadBackAsItWasWritten() throws {
        let token = BearerToken(account: account, secret: "c2VjcmV0")
        #expect(token.text == "hp1.\(account).c2VjcmV0")
        #expect(BearerToken(parsing: token.text) == token)
    }

    @Test(arguments: [
        "hp1.0123456789abcdef", "hp2.0123456789abcdef.secret", "hp1.0123456789abcde.secret", "hp1.0123456789abcdef.secret.more",
        "hp1.0123456789abcdef." + String(repeating: "A", count: 65), "",
    ])
    func whatIsNotATokenIsRefused(_ text: String) {
        #expect(BearerToken(parsing: text) == nil)
    }

    /// Port 9 on loopback answers nothing: a client that asked the server would say it cannot
    /// reach it, not that the token is malformed.
    @Test func theClientRefusesASecretTheServerWouldRefuseBeforeAskingIt() async {
        let token = "hp1.\(account)." + String(repeating: "A", count: BearerToken.maxSecret + 1)
        let error = await #expect(throws: ServiceError.self) { try await HTTPPackService.login(at: "http://127.0.0.1:9", token: token) }
        #expect(error?.kind == .invalidRequest)
        #expect(error?.message == BearerToken.formatProblem)
    }
}
