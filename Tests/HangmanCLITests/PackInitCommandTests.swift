import Foundation
import TestSupport
import Testing

/// `hangman pack init`: the classic sample's folders, as a content author has them, become packs.
@Suite struct PackInitCommandTests {
    /// A classic `words.plist`: a dictionary with `name` and `words`.
    private func classicList(name: String, words: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>name</key>
        \t<string>\(name)</string>
        \t<key>words</key>
        \t<array>
        \(words.map { "\t\t<string>\($0)</string>" }.joined(separator: "\n"))
        \t</array>
        </dict>
        </plist>

        """
    }

    /// The folder's Info.plist, read by Foundation.
    private func manifest(_ folder: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/Info.plist"))
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    /// A word list that is no property list is named as 'pack build' names it, with or without
    /// --display-name, and no Info.plist is written.
    @Test(arguments: [[], ["--display-name", "Birds"]])
    func aMalformedWordListIsNamedLikePackBuildNamesIt(_ extra: [String]) async throws {
        let scratch = try Scratch()
        try scratch.write("Birds/birds.plist", classicList(name: "Birds", words: ["robin", "wren"]).replacingOccurrences(of: "wren</string>", with: "wren"))
        let folder = scratch.path + "/Birds"
        let initialised = try await CLI.run(["pack", "init", folder, "--product-id", "com.example.birds"] + extra)
        #expect(initialised.status == 65)
        #expect(initialised.stderr.contains("\(folder)/birds.plist: not a valid property list: line "), "\(initialised.stderr)")
        #expect(initialised.stderr.contains("expected </string>"), "\(initialised.stderr)")
        #expect(!initialised.stderr.contains("--display-name"), "no advice about a name: \(initialised.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/Info.plist"))
    }

    @Test(arguments: [
        ("EasyWords", "Easy Words", "com.example.words.easy", ["cat", "dog", "sun", "hat"]),
        ("HardWords", "Hard Words", "com.example.words.hard", ["rhythm", "sphinx", "jazz"]),
        ("iOSWords", "iOS Words", "com.example.words.ios", ["xcode", "swift", "delegate", "storyboard", "simulator"]),
    ])
    func aClassicFolderGoesThroughInitBuildAndVerify(_ folderName: String, _ name: String, _ id: String, _ words: [String]) async throws {
        let scratch = try Scratch()
        try scratch.write("\(folderName)/words.plist", classicList(name: name, words: words))
        let folder = scratch.path + "/" + folderName
        let archive = scratch.path + "/\(folderName).wordpack"

        let refused = try await CLI.run(["pack", "build", folder, "-o", archive])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("no Info.plist in the folder: write one with 'hangman pack init DIR --product-id ID'"))

        let initialised = try await CLI.run(["pack", "init", folder, "--product-id", id])
        #expect(initialised.status == 0, "\(initialised.stderr)")
        #expect(initialised.stdout == """
            wrote \(folder)/Info.plist: \(id) 1.0 "\(name)" (name from words.plist), language en, 1 word list
            next: hangman pack build \(folder) -o \(folder).wordpack

            """)
        let written = try manifest(folder)
        #expect(written["DisplayName"] as? String == name)
        #expect(written["ProductIdentifier"] as? String == id)

        let build = try await CLI.run(["pack", "build", folder, "-o", archive])
        #expect(build.status == 0, "\(build.stderr)")
        let verify = try await CLI.run(["pack", "verify", archive])
        #expect(verify.status == 0)
        #expect(verify.stdout == "\(archive): ok: \(id) 1.0 \"\(name)\", \(words.count) words in 1 list\n")
    }

    @Test func optionsGoIntoTheManifest() async throws {
        let scratch = try Scratch()
        try scratch.write("p/palabras.plist", classicList(name: "Palabras", words: ["gato", "perro"]))
        let result = try await CLI.run([
            "pack", "init", scratch.path + "/p", "--product-id", "com.example.words.es", "--display-name", "Animales",
            "--language", "es", "--content-version", "2.0.1",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try manifest(scratch.path + "/p")
        #expect(written["DisplayName"] as? String == "Animales")
        #expect(written["Language"] as? String == "es")
        #expect(written["ContentVersion"] as? String == "2.0.1")
    }

    @Test func anExistingManifestIsKeptWithoutForce() async throws {
        let scratch = try Scratch()
        try scratch.write("p/Info.plist", manifestXML)
        try scratch.write("p/words.plist", classicList(name: "Things", words: ["apple", "pear"]))
        let folder = scratch.path + "/p"
        let refused = try await CLI.run(["pack", "init", folder, "--product-id", "com.example.words.new"])
        #expect(refused.status == 73)
        #expect(refused.stderr == "error: \(folder)/Info.plist: already exists: edit it, or pass --force to replace it\n")
        #expect(try String(contentsOfFile: folder + "/Info.plist", encoding: .utf8) == manifestXML)

        let forced = try await CLI.run(["pack", "init", folder, "--product-id", "com.example.words.new", "--force"])
        #expect(forced.status == 0)
        #expect(forced.stdout.hasPrefix("replaced \(folder)/Info.plist: com.example.words.new 1.0 \"Things\""))
        #expect(try manifest(folder)["ProductIdentifier"] as? String == "com.example.words.new")
    }

    @Test func listsWithDifferentNamesAskForADisplayName() async throws {
        let scratch = try Scratch()
        try scratch.write("p/easy.plist", classicList(name: "Easy", words: ["cat"]))
        try scratch.write("p/hard.plist", classicList(name: "Hard", words: ["rhythm"]))
        let result = try await CLI.run(["pack", "init", scratch.path + "/p", "--product-id", "com.example.words.mix"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("the word lists have different names ('Easy', 'Hard'); pass --display-name NAME"))
        #expect(scratch.listing() == ["p", "p/easy.plist", "p/hard.plist"])
    }

    @Test func aMissingFolderExits66() async throws {
        let scratch = try Scratch()
        let result = try await CLI.run(["pack", "init", scratch.path + "/absent", "--product-id", "com.example.words.x"])
        #expect(result.status == 66)
        #expect(result.stderr == "error: \(scratch.path)/absent: no such folder\n")
    }

    @Test func aFolderNameWithSpacesIsQuotedInTheNextStep() async throws {
        let scratch = try Scratch()
        try scratch.write("My Words/words.plist", classicList(name: "Mine", words: ["apple", "pear"]))
        let result = try await CLI.run(["pack", "init", scratch.path + "/My Words", "--product-id", "com.example.words.mine"])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("next: hangman pack build '\(scratch.path)/My Words' -o '\(scratch.path)/My Words.wordpack'\n"))
    }

    @Test(arguments: [
        (["pack", "init", "dir"], "'pack init' needs --product-id <ID>"),
        (["pack", "init", "--product-id", "com.example.words.x"], "'pack init' needs <DIR>"),
        (["pack", "init", "dir", "--product-id", "words"], "option '--product-id': 'words' is not a product identifier"),
        (["pack", "init", "dir", "--product-id", "com.example.x", "--language", "english"], "'english' is not a BCP 47 language tag"),
        (["pack", "init", "dir", "--product-id", "com.example.x", "--content-version", "v2"], "'v2' is not a content version"),
    ])
    func usageErrorsExit64(_ arguments: [String], _ message: String) async throws {
        let result = try await CLI.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message))
        #expect(result.stdout.isEmpty)
    }
}
