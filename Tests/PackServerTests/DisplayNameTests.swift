import PackServiceAPI
import Testing

/// What a name on the boards may be: refused with a sentence (400) before the database sees it.
@Suite struct DisplayNameTests {
    @Test(arguments: [
        ("A" + String(repeating: "\u{0301}", count: 3000) + "na", "accents written apart"),
        ("Ana\u{034F} B", "invisible"),
        ("\u{3164}\u{3164}", "invisible"),
        ("\u{FFA0}", "invisible"),
        ("Player 75e2", "a player without a name"),
        ("player  75E2", "a player without a name"),
        (String(repeating: "x", count: 25), "1 to 24 characters"),
    ])
    func refused(name: String, says: String) {
        guard case .failure(let error) = DisplayName.check(name) else {
            Issue.record("'\(name.prefix(20))' was accepted")
            return
        }
        #expect(error.kind == .invalidRequest && error.message.contains(says), "\(error.message)")
    }

    @Test(arguments: ["Ana B", "Zoë", "Player One", "Player 75e2x", "Jürgen-2"])
    func accepted(name: String) {
        #expect((try? DisplayName.check(name).get()) == name)
    }
}
