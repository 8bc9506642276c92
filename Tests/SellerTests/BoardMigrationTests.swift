@testable import SQLite
import Seller
import Testing
import TestSupport

/// The boards' aggregates are filled from the scores a database already holds, and kept with each
/// new score: a week's sums, and the counts a rank is read from.
@Suite struct BoardMigrationTests {
    @Test func scoresRecordedBeforeTheRankedBoardsAreOnThem() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("accounts.sqlite")
        // The accounts' database as the program before the ranked boards left it.
        let db = try Database(path: path)
        var earlier = Migrator()
        for migration in AccountsSchema.sqliteMigrator.migrations.prefix(while: { $0.name != "5-ranked-boards" }) {
            earlier.register(migration.name, migration.apply)
        }
        _ = try earlier.migrate(db)
        for account in ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"] {
            try db.execute("INSERT INTO accounts (id, token_sha256, created_date) VALUES (?, ?, 0)", .text(account), .text(String(repeating: "0", count: 64)))
        }
        for (day, account, score, hints) in [("2026-12-01", "aaaaaaaaaaaaaaaa", 100, 0), ("2026-12-03", "aaaaaaaaaaaaaaaa", 50, 1), ("2026-12-03", "bbbbbbbbbbbbbbbb", 120, 0)] {
            try db.execute(
                "INSERT INTO daily_scores (day, language, account_id, game_id, score, hints, won, finished_date) VALUES (?, 'en', ?, ?, ?, ?, 1, 0)",
                .text(day), .text(account), .text(String(repeating: "1", count: 31) + String(score % 10)), .integer(Int64(score)), .integer(Int64(hints)))
        }
        let directory = try SQLiteAccountDirectory(path: path)
        let week3 = BoardKey(day: "2026-12-03", language: "en", week: true)
        #expect(try directory.top(week3, limit: 10).map { "\($0.account.prefix(1)) \($0.score) \($0.hints) \($0.won)" } == ["a 150 1 2", "b 120 0 1"])
        #expect(try directory.buckets(week3).reduce(0) { $0 + $1.players } == 2)
        // The week to 12-07 still holds 12-01; the week to 12-08 no longer does.
        #expect(try directory.entry(BoardKey(day: "2026-12-07", language: "en", week: true), account: "aaaaaaaaaaaaaaaa")?.score == 150)
        #expect(try directory.top(BoardKey(day: "2026-12-08", language: "en", week: true), limit: 10).map(\.score) == [120, 50])
        #expect(try directory.top(BoardKey(day: "2026-12-03", language: "en", week: false), limit: 10).map(\.score) == [120, 50])
        // A new score moves the account's bucket: two players still, one of them further on.
        try directory.record(DailyScore(
            day: "2026-12-04", language: "en", account: "bbbbbbbbbbbbbbbb", gameID: String(repeating: "2", count: 32), score: 40, hints: 0, misses: 2,
            won: true, finished: 0))
        let week4 = BoardKey(day: "2026-12-04", language: "en", week: true)
        #expect(try directory.top(week4, limit: 10).map { "\($0.account.prefix(1)) \($0.score) \($0.misses)" } == ["b 160 2", "a 150 0"])
        #expect(try directory.buckets(week4).reduce(0) { $0 + $1.players } == 2)
        // The same game again changes nothing.
        try directory.record(DailyScore(
            day: "2026-12-04", language: "en", account: "bbbbbbbbbbbbbbbb", gameID: String(repeating: "2", count: 32), score: 40, hints: 0, misses: 2,
            won: true, finished: 0))
        #expect(try directory.entry(week4, account: "bbbbbbbbbbbbbbbb")?.score == 160)
        #expect(try directory.buckets(BoardKey(day: "2026-12-10", language: "en", week: true)).reduce(0) { $0 + $1.players } == 1)
    }
}

/// Names made before skeletons were kept are given them when the service opens; of two that look
/// alike, the older keeps the skeleton.
@Suite struct NameSkeletonMigrationTests {
    @Test func namesMadeBeforeAreGivenTheirSkeletons() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("accounts.sqlite")
        let db = try Database(path: path)
        var earlier = Migrator()
        for migration in AccountsSchema.sqliteMigrator.migrations.prefix(while: { $0.name != "6-name-skeletons" }) {
            earlier.register(migration.name, migration.apply)
        }
        _ = try earlier.migrate(db)
        for (index, (account, name, folded)) in [("aaaaaaaaaaaaaaaa", "Ana B", "ana b"), ("bbbbbbbbbbbbbbbb", "Ａｎａ Ｂ", "ａｎａ ｂ"), ("cccccccccccccccc", "Zoë", "zoe")].enumerated() {
            try db.execute("INSERT INTO accounts (id, token_sha256, created_date) VALUES (?, ?, 0)", .text(account), .text(String(repeating: "0", count: 64)))
            try db.execute(
                "INSERT INTO display_names (account_id, name, folded, changed_date) VALUES (?, ?, ?, ?)", .text(account), .text(name), .text(folded),
                .integer(Int64(index)))
        }
        _ = try SellerService(.sqlite(folder: folder.path))
        let skeletons = try Database(path: path).query("SELECT account_id, skeleton FROM display_names ORDER BY account_id").map { row in
            "\(try row.string(0).prefix(1)) \(try row[1].stringValue ?? "-")"
        }
        // The fullwidth copy came second: it keeps its name, but no skeleton of its own.
        #expect(skeletons == ["a ana b", "b -", "c zoe"], "\(skeletons)")
    }
}
