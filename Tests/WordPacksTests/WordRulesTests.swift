import Testing
import WordPacks

@Suite struct WordRulesTests {
    @Test(arguments: [
        "cat", "ox", "ice cream", "well-known", "o'clock", "rock 'n' roll", "jack-o'-lantern", "don\u{2019}t",
        "ma\u{F1}ana", "\u{E9}l\u{E8}ve", "stra\u{DF}e", "\u{43C}\u{43E}\u{441}\u{43A}\u{432}\u{430}", "\u{65E5}\u{672C}",
        "\u{939}\u{93F}\u{902}\u{926}\u{940}", "\u{5E9}\u{5DC}\u{5D5}\u{5DD}", String(repeating: "a", count: 40),
        String(repeating: "ab ", count: 19) + "cd",
    ])
    func accepts(_ word: String) {
        #expect(WordRules.problem(with: word) == nil)
    }

    @Test(arguments: [
        ("", "is empty"), ("a", "has 1 letter"), ("r2d2", "contains '2'"), (" cat", "starts with ' '"), ("cat-", "ends with"),
        ("ice  cream", "' ' and ' ' in a row"), ("well--known", "'-' and '-' in a row"), ("a - b", "' ' and '-' in a row"),
        ("tab\tbed", "U+0009"), ("emoji\u{1F600}", "'\u{1F600}'"), ("zero\u{200B}width", "U+200B"), ("cafe\u{301}", "NFC"),
        (String(repeating: "a", count: 41), "has 41 letters"), ("hello.", "'.'"),
    ])
    func refuses(_ word: String, _ reason: String) {
        let problem = WordRules.problem(with: word)
        #expect(problem?.contains(reason) == true, "\(problem ?? "accepted")")
    }
}
