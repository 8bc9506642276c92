import Foundation
import TestSupport
import HangmanGame
import Testing

/// Issue 4, crash safety: `hangman install`, `update` and `uninstall` killed with SIGKILL at random
/// moments leave the old state or the new one, a sound database, and a next run that works.
@Suite(.serialized) struct KillLoopTests {
    static let bigID = "com.example.words.big"

    /// Two versions of one 20,000-word pack, with different words and differently cut categories,
    /// so that a mixture of the two cannot pass for either.
    static let version1 = FixturePack(id: bigID, version: "1.0", name: "Big Words", lists: [
        ("First", SyllableWords.make(10_000)), ("Second", SyllableWords.make(10_000, offset: 10_000)),
    ])
    static let version2 = FixturePack(id: bigID, version: "1.1", name: "Big Words", lists: [
        ("First", SyllableWords.make(8_000, offset: 100_000)), ("Second", SyllableWords.make(12_000, offset: 120_000)),
        ("Third", SyllableWords.make(5, offset: 150_000)),
    ])
    static let base = FixturePack(id: "com.example.words.base", version: "1.0", name: "Base Words", lists: [("Animals", ["cat", "dog", "emu"])])

    enum State: String { case absent, version1, version2 }

    /// The one pack's state in the database, after checking that the whole database is consistent.
    private func observe(_ scratch: DeviceScratch, round: Int) throws -> State? {
        let snapshot = try DeviceSnapshot.read(scratch.deviceDatabase)
        #expect(snapshot.integrityProblems.isEmpty, "round \(round): integrity_check: \(snapshot.integrityProblems)")
        #expect(snapshot.isConsistent, "round \(round): stray \(snapshot.strayWords), orphans \(snapshot.orphanCategories), words \(snapshot.totalWords)")
        #expect(snapshot.holds(Self.base), "round \(round): the base pack changed")
        if snapshot.packs[Self.bigID] == nil { return .absent }
        if snapshot.holds(Self.version1) { return .version1 }
        if snapshot.holds(Self.version2) { return .version2 }
        let pack = snapshot.packs[Self.bigID]
        Issue.record("round \(round): a partial pack: \(pack?.version ?? "?"), \(pack?.wordCount ?? -1) words, categories \(pack?.categories.map { "\($0.name) \($0.rows)/\($0.wordCount)" } ?? [])")
        return nil
    }

    @Test func killedInstallUpdateUninstallLeaveOldOrNewState() async throws {
        let scratch = try DeviceScratch()
        let old = try scratch.packsFolder("packs-1.0", base: [Self.base], paid: [Self.version1])
        let new = try scratch.packsFolder("packs-1.1", base: [Self.base], paid: [Self.version2])

        // Unkilled first: the first run, a purchase (which installs 1.0), an update, an uninstall.
        // Their durations set the range of the random kill delays, whatever the machine's speed.
        #expect(try HangmanBinary.run(["packs"], home: scratch.home, packs: old).status == 0)
        let buy = try HangmanBinary.run(["buy", Self.bigID], home: scratch.home, packs: old)
        #expect(buy.status == 0, "\(buy.stderr)")
        #expect(try observe(scratch, round: -1) == .version1)
        let update = try HangmanBinary.run(["update", Self.bigID], home: scratch.home, packs: new)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try observe(scratch, round: -1) == .version2)
        let uninstall = try HangmanBinary.run(["uninstall", Self.bigID], home: scratch.home, packs: new)
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(try observe(scratch, round: -1) == .absent)

        // absent -install 1.0-> version1 -update to 1.1-> version2 -uninstall-> absent -> ...
        var steps: [State: (command: String, packs: String, after: State, seconds: Double)] = [
            .absent: ("install", old, .version1, buy.seconds),
            .version1: ("update", new, .version2, update.seconds),
            .version2: ("uninstall", new, .absent, uninstall.seconds),
        ]
        var generator = SeededGenerator(seed: 0x4B11_100F)
        var state = State.absent
        var tally: [String: Int] = [:]
        for round in 0..<40 {
            guard let step = steps[state] else { break }
            // A run is start-up, then the archive's verification, then the transaction. Delays from 30%
            // to 120% of the unkilled duration (not a fixed 0-300 ms, which on a debug build would end
            // every run before its transaction) kill it in verification, in the transaction, after
            // the commit, or not at all.
            let delay = Double.random(in: (step.seconds * 0.3)...(step.seconds * 1.2), using: &generator)
            // Every fourth run is left to finish, so that the loop moves on through all three commands
            // even on a loaded machine where every other run is killed before its commit.
            let run = try HangmanBinary.run([step.command, Self.bigID], home: scratch.home, packs: step.packs, killAfter: round % 4 == 3 ? nil : delay)
            if !run.wasSignaled {
                #expect(run.status == 0, "round \(round): \(step.command) exited \(run.status): \(run.stderr)")
                steps[state]?.seconds = run.seconds  // follow the machine's load
            }
            // The next run recovers the database itself, then works.
            let next = try HangmanBinary.run(["packs", "--json"], home: scratch.home, packs: step.packs)
            #expect(next.status == 0, "round \(round): after \(step.command) killed at \(delay) s, 'packs' exited \(next.status): \(next.stderr)")
            guard let observed = try observe(scratch, round: round) else { return }
            #expect(observed == state || observed == step.after, "round \(round): \(step.command) from \(state) left \(observed)")
            if !run.wasSignaled {
                #expect(observed == step.after, "round \(round): \(step.command) finished but left \(observed)")
            }
            let rows = (try? JSONSerialization.jsonObject(with: Data(next.stdout.utf8))) as? [[String: Any]]
            let shown = rows?.first { $0["productID"] as? String == Self.bigID }?["installedVersion"] as? String
            #expect(shown == [State.absent: nil, .version1: "1.0", .version2: "1.1"][observed] ?? nil, "round \(round): 'packs' shows \(shown ?? "nothing")")
            tally["\(step.command) \(run.wasSignaled ? "killed" : "finished"), \(observed == state ? "old" : "new") state", default: 0] += 1
            state = observed
        }
        // The loop proves something only if kills landed, some before and some after a commit.
        let killedOld = tally.filter { $0.key.contains("killed, old") }.values.reduce(0, +)
        let changed = tally.filter { $0.key.contains("new state") }.values.reduce(0, +)
        #expect(killedOld >= 5 && changed >= 5, "\(tally)")
        for command in ["install", "update", "uninstall"] {
            #expect(tally.keys.contains { $0.hasPrefix(command + " killed") }, "\(command) was never killed: \(tally)")
        }
        print("kill loop: \(tally.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; "))")
    }
}
