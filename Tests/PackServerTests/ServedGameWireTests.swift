import Foundation
import PackServiceClient
import Seller
import Testing
import TestSupport

/// Served games as a client meets them on the wire (curl, which knows nothing of this code).
@Suite struct ServedGameWireTests {
    private func call(_ running: RunningServer, _ token: String, _ method: String, _ path: String, body: String? = nil, headers: [String] = [])
        throws -> (status: Int, body: String)
    {
        var arguments = ["-X", method, "-H", "Authorization: Bearer \(token)"] + headers.flatMap { ["-H", $0] }
        if let body { arguments += ["--data", body] }
        return try running.curl(arguments + [running.url + path])
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// Every answer before the end is read from the wire: none holds the word, its clue, or a
    /// letter the player has not found or paid for; the last one carries the word and the score.
    @Test func theWordNeverCrossesTheWireBeforeTheGameEnds() async throws {
        let running = try RunningServer(environment: .sandbox)
        let client = try await running.newClient()
        _ = try await client.buy(ProductID(rawValue: "com.hangmanpacks.hints.10")!, quantity: 1)
        let token = client.credentials.token
        let start = try call(running, token, "POST", "/v1/games", body: #"{"lives":26,"seed":42}"#)
        #expect(start.status == 201, "\(start.body)")
        let id = try #require(try json(start.body)["id"] as? String)
        var answers = [start.body]
        let hint = try call(running, token, "POST", "/v1/games/\(id)/hints", headers: ["Idempotency-Key: first-hint"])
        #expect(hint.status == 200, "\(hint.body)")
        answers.append(hint.body)
        var last = try json(hint.body)
        for letter in "etaoinshrdlcumwfgypbvkjxqz" where last["state"] as? String == "playing" {
            let answer = try call(running, token, "POST", "/v1/games/\(id)/guesses", body: #"{"guess":"\#(letter)"}"#)
            #expect(answer.status == 200, "\(answer.body)")
            answers.append(answer.body)
            last = try json(answer.body)
        }
        #expect(last["state"] as? String == "won", "\(last)")
        let word = try #require(last["word"] as? String)
        #expect(last["score"] is Int)
        for answer in answers.dropLast() {
            let fields = try json(answer)
            #expect(fields["word"] == nil && fields["clue"] == nil && fields["score"] == nil, "\(answer)")
            #expect(!answer.contains("\"\(word)\""), "\(answer)")
            // What the mask shows is what was guessed or paid for, nothing more.
            let known = Set((fields["guessed"] as? [String] ?? []) + (fields["hinted"] as? [String] ?? []))
            let shown = Set((fields["masked"] as? String ?? "").split(separator: " ").map(String.init).filter { $0 != "_" })
            #expect(shown.isSubset(of: known), "\(shown) shown, \(known) known")
        }
        // A move after the end is 409; another account's game is 404.
        #expect(try call(running, token, "POST", "/v1/games/\(id)/guesses", body: #"{"guess":"e"}"#).status == 409)
        let stranger = try await running.newClient()
        #expect(try call(running, stranger.credentials.token, "GET", "/v1/games/current").status == 404)
        #expect(try call(running, stranger.credentials.token, "POST", "/v1/games/\(id)/abandon").status == 404)
    }

    /// `Accept: text/plain` answers in `hangman play --plain`'s lines, refusals included.
    @Test func aScriptPlaysTheServedLoopInPlainText() async throws {
        let running = try RunningServer(environment: .sandbox)
        let token = try await running.newClient().credentials.token
        let plain = "Accept: text/plain"
        let start = try call(running, token, "POST", "/v1/games", body: #"{"seed":1}"#, headers: [plain])
        #expect(start.status == 201)
        let lines = start.body.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(start.body)")
        #expect(lines[0].hasPrefix("GAME id=") && lines[0].hasSuffix(" hints=0"), "\(start.body)")
        #expect(lines[1].hasPrefix("STATE word=\"_") && lines[1].hasSuffix("used=\"\" hints=0"), "\(start.body)")
        let id = String(lines[0].dropFirst("GAME id=".count).prefix(32))
        let guess = try call(running, token, "POST", "/v1/games/\(id)/guesses", body: #"{"guess":"e"}"#, headers: [plain])
        #expect(guess.body.hasPrefix("HIT e ") || guess.body.hasPrefix("MISS e"), "\(guess.body)")
        #expect(try call(running, token, "POST", "/v1/games/\(id)/guesses", body: #"{"guess":"e"}"#, headers: [plain]).body.hasPrefix("REPEAT e"))
        let invalid = try call(running, token, "POST", "/v1/games/\(id)/guesses", body: #"{"guess":"7"}"#, headers: [plain])
        #expect(invalid.status == 400 && invalid.body == "INVALID '7' is not a letter\n", "\(invalid.body)")
        // A refused guess is quoted in the refusal escaped, as every line is: it cannot forge a
        // line (a WON) for a script that relays a user's guess, nor retitle a terminal.
        let forged = try call(
            running, token, "POST", "/v1/games/\(id)/guesses", body: #"{"guess":"ab\u001b]0;x\u0007\nWON abc score=9999"}"#, headers: [plain])
        #expect(forged.status == 400 && forged.body.split(separator: "\n").count == 1 && !forged.body.contains("\u{1B}"), "\(forged.body)")
        #expect(forged.body.hasPrefix("INVALID ") && forged.body.contains("\\n"), "\(forged.body)")
        let noHints = try call(running, token, "POST", "/v1/games/\(id)/hints", headers: [plain, "Idempotency-Key: h"])
        #expect(noHints.status == 402 && noHints.body.hasPrefix("NOHINTS "), "\(noHints.body)")
        let abandoned = try call(running, token, "POST", "/v1/games/\(id)/abandon", headers: [plain])
        #expect(abandoned.status == 200 && abandoned.body.hasPrefix("LOST "), "\(abandoned.body)")
    }

    /// A seed makes the word predictable: only a sandbox server with test controls takes one.
    @Test func aSeedIsRefusedWithoutTestControls() async throws {
        let running = try RunningServer(environment: .production)
        let token = try await running.newClient().credentials.token
        let seeded = try call(running, token, "POST", "/v1/games", body: #"{"seed":1}"#)
        #expect(seeded.status == 400 && seeded.body.contains("only a sandbox server with test controls"), "\(seeded.body)")
        #expect(try call(running, token, "POST", "/v1/games").status == 201)
    }
}
