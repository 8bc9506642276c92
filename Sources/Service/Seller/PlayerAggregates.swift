/// The players' numbers per day, kept with the ledger beside ``SalesAggregates``: games served
/// (the daily word's apart), the accounts that played the daily word, hints sold and hints spent.
/// The rows change in the same database transaction as what they sum, by triggers on the games
/// served per day (`served_days`), the hint ledger and the grants, so the players' page reads the
/// rows of its days instead of every account's games and hints. On PostgreSQL a new hint row is
/// the exception: a spend is the service's hottest write, so the hint rows are folded in once
/// settled (``foldFunction``) and read as they are until then (``kept(_:)``).
///
/// What a row counts for is here once, as SQL: a day's games from `served_days`
/// (``gameFacts(from:where:dialect:sign:)``), hints from the hint ledger
/// (``hintFacts(from:where:dialect:sign:counting:)``): a purchase's hints are sold unless the
/// purchase was a grant, a spend's are spent.
public enum PlayerAggregates {
    /// The columns summed, in order.
    public static let sums = ["games", "daily_games", "daily_players", "hints_sold", "hints_spent"]

    static func keys(_ dialect: SalesAggregates.Dialect) -> [String] { dialect == .sqlite ? ["day"] : ["day", "shard"] }

    /// How many rows a day is spread over on PostgreSQL, by a hash of the account: a game served
    /// adds to its day's row and holds it until its commit, so two players' games rarely meet on one.
    static let shards = 64

    static func shard(_ row: String, _ dialect: SalesAggregates.Dialect) -> String {
        dialect == .sqlite ? "" : ", hashtext(\(row).account_id) & \(shards - 1) AS shard"
    }

    /// A day's games served (`source` names `served_days` rows as `s`): the games that are not
    /// the daily word, the daily words, and one daily player when it has a daily word.
    static func gameFacts(from source: String, where condition: String?, dialect: SalesAggregates.Dialect, sign: Int) -> String {
        """
        SELECT s.day AS day\(shard("s", dialect)), \(sign) * (s.games - s.daily_games) AS games, \(sign) * s.daily_games AS daily_games,
            \(sign) * (CASE WHEN s.daily_games > 0 THEN 1 ELSE 0 END) AS daily_players, 0 AS hints_sold, 0 AS hints_spent
        FROM \(source)\(condition.map { " WHERE " + $0 } ?? "")
        """
    }

    /// Whether the hint ledger's row `h` credits a grant (given, not sold).
    static func granted(_ h: String, _ dialect: SalesAggregates.Dialect) -> String {
        let account = dialect == .sqlite ? "" : "g.account_id = \(h).account_id AND "
        return "EXISTS (SELECT 1 FROM grants AS g WHERE \(account)g.transaction_id = \(h).transaction_id)"
    }

    /// What the hint ledger's rows count for (`source` names them as `h`), on the day they were
    /// written: a purchase's hints sold, unless its purchase is a grant (`counting` false: every
    /// purchase's, as they counted before a grant was recorded), a spend's hints spent.
    static func hintFacts(from source: String, where condition: String?, dialect: SalesAggregates.Dialect, sign: Int, counting grants: Bool = true) -> String {
        let sold = grants ? "h.reason = 'purchase' AND NOT \(granted("h", dialect))" : "h.reason = 'purchase'"
        return """
            SELECT h.created_date / \(SalesAggregates.millisecondsPerDay) AS day\(shard("h", dialect)), 0 AS games, 0 AS daily_games, 0 AS daily_players,
                \(sign) * (CASE WHEN \(sold) THEN h.amount ELSE 0 END) AS hints_sold, \(sign) * (CASE WHEN h.reason = 'spend' THEN -h.amount ELSE 0 END) AS hints_spent
            FROM \(source) WHERE h.reason IN ('purchase', 'spend')\(condition.map { " AND " + $0 } ?? "")
            """
    }

    /// Adds `facts` to `player_days`, one row per key, in key order.
    static func upsert(_ facts: String, dialect: SalesAggregates.Dialect) -> String {
        let keys = keys(dialect).joined(separator: ", ")
        return """
            INSERT INTO player_days (\(keys), \(sums.joined(separator: ", ")))
            SELECT \(keys), \(sums.map { "sum(\($0))" }.joined(separator: ", ")) FROM (\(facts)) AS f
            GROUP BY \(keys) HAVING \(sums.map { "sum(\($0)) <> 0" }.joined(separator: " OR "))
            ORDER BY \(keys)
            ON CONFLICT (\(keys)) DO UPDATE SET \(sums.map { "\($0) = player_days.\($0) + excluded.\($0)" }.joined(separator: ", "))
            """
    }

    /// Every row's facts: the games of every day, every hint row.
    static func everything(_ dialect: SalesAggregates.Dialect) -> String {
        gameFacts(from: "served_days AS s", where: nil, dialect: dialect, sign: 1) + "\nUNION ALL\n"
            + hintFacts(from: "hint_ledger AS h", where: nil, dialect: dialect, sign: 1)
    }

    /// The table, the triggers, and the rows of what is there already: a migration.
    public static func schema(_ dialect: SalesAggregates.Dialect) -> String {
        let integer = dialect.integer
        let table = """
            -- The players' numbers per day (PlayerAggregates): kept by triggers in the same transaction
            -- as the games served, the hint ledger and the grants; rebuilt by 'hangman report --rebuild'.
            CREATE TABLE player_days (
                \(keys(dialect).map { "\($0) \(integer) NOT NULL" }.joined(separator: ", ")),
                \(sums.map { "\($0) \(integer) NOT NULL DEFAULT 0" }.joined(separator: ", ")),
                PRIMARY KEY (\(keys(dialect).joined(separator: ", ")))
            );

            """
        switch dialect {
        case .sqlite:
            let games = { (row: String, sign: Int) in upsert(gameFacts(from: "served_days AS s", where: "s.day = \(row).day", dialect: dialect, sign: sign), dialect: dialect) }
            let hints = { (row: String, sign: Int) in upsert(hintFacts(from: "hint_ledger AS h", where: "h.seq = \(row).seq", dialect: dialect, sign: sign), dialect: dialect) }
            // A grant recorded takes its purchase's hints out of those sold; one let go puts them back.
            let granted = { (row: String, sign: Int) in
                upsert(
                    hintFacts(from: "hint_ledger AS h", where: "h.reason = 'purchase' AND h.transaction_id = \(row).transaction_id", dialect: dialect, sign: sign, counting: false),
                    dialect: dialect)
            }
            return table + """
                \(KeptTriggers.sqlite("player_days_games", on: "served_days", games))
                CREATE TRIGGER player_days_hints_insert AFTER INSERT ON hint_ledger BEGIN \(hints("NEW", 1)); END;
                CREATE TRIGGER player_days_hints_delete BEFORE DELETE ON hint_ledger BEGIN \(hints("OLD", -1)); END;
                CREATE TRIGGER player_days_grant_insert AFTER INSERT ON grants BEGIN \(granted("NEW", -1)); END;
                CREATE TRIGGER player_days_grant_delete BEFORE DELETE ON grants BEGIN \(granted("OLD", 1)); END;
                \(upsert(everything(dialect), dialect: dialect));

                """
        case .postgreSQL:
            let grantHints = { (rows: String) in "hint_ledger AS h JOIN \(rows) AS g0 ON g0.account_id = h.account_id AND g0.transaction_id = h.transaction_id" }
            // Only hint rows already folded are in the table (``fold``): the others are counted when folded.
            let folded = "h.seq <= (SELECT folded_seq FROM player_rollup WHERE id = 1)"
            // A change of folded hint rows waits for a fold in flight, and then reads what it folded.
            let waitingForAFold = "PERFORM 1 FROM player_rollup WHERE id = 1 FOR SHARE;\n    "
            let hintChanges: [(name: String, table: String, event: String, transition: String, facts: String)] = [
                ("player_days_hints_delete", "hint_ledger", "DELETE", "OLD TABLE AS old_rows", hintFacts(from: "old_rows AS h", where: folded, dialect: dialect, sign: -1)),
                ("player_days_grant_insert", "grants", "INSERT", "NEW TABLE AS new_rows",
                 hintFacts(from: grantHints("new_rows"), where: "h.reason = 'purchase' AND \(folded)", dialect: dialect, sign: -1, counting: false)),
                // A grant let go while its hints stay would count them sold again; a grant's
                // deletion reads the hint ledger as it stands after the statement.
                ("player_days_grant_delete", "grants", "DELETE", "OLD TABLE AS old_rows",
                 hintFacts(from: grantHints("old_rows"), where: "h.reason = 'purchase' AND \(folded)", dialect: dialect, sign: 1, counting: false)),
            ]
            return table + """
                -- The hint rows folded into player_days so far (every seq up to folded_seq), and the
                -- hint ledger's highest seq seen at each fold, so that a fold takes only rows a
                -- settle time old (a spend's transaction ended long before).
                CREATE TABLE player_rollup (id INTEGER PRIMARY KEY CHECK (id = 1), folded_seq BIGINT NOT NULL);
                INSERT INTO player_rollup VALUES (1, (SELECT coalesce(max(seq), 0) FROM hint_ledger));
                CREATE TABLE player_rollup_marks (taken_date BIGINT NOT NULL, max_seq BIGINT NOT NULL);
                -- The hint rows after a seq, read from a block range index: a few pages, nothing for a spend to keep.
                CREATE INDEX hint_ledger_by_seq ON hint_ledger USING brin (seq) WITH (pages_per_range = 16, autosummarize = on);
                \(foldFunction);

                """ + KeptTriggers.postgreSQL("player_days_games", on: "served_days") { old, new in
                upsert([old, new].compactMap { $0 }.joined(separator: "\nUNION ALL\n"), dialect: dialect)
            } facts: { rows, sign in
                gameFacts(from: rows + " AS s", where: nil, dialect: dialect, sign: sign)
            } + hintChanges.map { change in
                KeptTriggers.statement(
                    change.name, after: change.event, on: change.table, referencing: change.transition, body: waitingForAFold + upsert(change.facts, dialect: dialect))
            }.joined() + upsert(everything(dialect), dialect: dialect) + ";\n"
        }
    }

    /// PostgreSQL's fold (`player_days_fold(now, settle)`): the hint rows a settle time old (up to
    /// the highest seq seen by a fold at least `settle` milliseconds before `now`) added to
    /// `player_days`, once. A spend writes its hint row and nothing more: a trigger keeping a day's
    /// count took a quarter to two fifths of pgbench's spends a second. One fold at a time (the
    /// others return at once); the hint rows written since are read as they are
    /// (``rangeQuery(placeholders:dialect:)``).
    static var foldFunction: String {
        """
        CREATE FUNCTION player_days_fold(now_ms BIGINT, settle_ms BIGINT) RETURNS BIGINT LANGUAGE plpgsql AS $$
        DECLARE
            folded BIGINT;
            settled BIGINT;
        BEGIN
            IF NOT pg_try_advisory_xact_lock(hashtext('player_days_fold')) THEN RETURN NULL; END IF;
            SELECT folded_seq INTO folded FROM player_rollup WHERE id = 1 FOR UPDATE;
            -- The highest seq handed out (its row committed or not: the settle time is for those).
            INSERT INTO player_rollup_marks VALUES (now_ms, coalesce(pg_sequence_last_value(pg_get_serial_sequence('hint_ledger', 'seq')), 0));
            SELECT max(max_seq) INTO settled FROM player_rollup_marks WHERE taken_date <= now_ms - settle_ms;
            IF settled > folded THEN
                \(upsert(hintFacts(from: "hint_ledger AS h", where: "h.seq > folded AND h.seq <= settled", dialect: .postgreSQL, sign: 1), dialect: .postgreSQL));
                UPDATE player_rollup SET folded_seq = settled WHERE id = 1;
            END IF;
            DELETE FROM player_rollup_marks WHERE taken_date < now_ms - 10 * settle_ms
                AND taken_date < (SELECT max(taken_date) FROM player_rollup_marks WHERE taken_date <= now_ms - settle_ms);
            RETURN settled;
        END $$
        """
    }

    /// How old a hint row is before a fold takes it: its spend's transaction ended long before.
    public static let settle: Int64 = 60_000

    /// Every row made again from the games served and the hint ledger (within the caller's transaction).
    public static func rebuild(dialect: SalesAggregates.Dialect) -> String {
        let made = "DELETE FROM player_days;\n" + upsert(everything(dialect), dialect: dialect)
        guard dialect == .postgreSQL else { return made }
        // Every hint row is folded: spends wait meanwhile, so that none is left out.
        return "LOCK TABLE hint_ledger IN SHARE MODE;\n" + made
            + ";\nUPDATE player_rollup SET folded_seq = (SELECT coalesce(max(seq), 0) FROM hint_ledger);\nDELETE FROM player_rollup_marks"
    }

    /// The rows of `player_days` with, on PostgreSQL, the hint rows not folded yet: what the
    /// players' numbers are.
    /// `folded`: the last seq folded, as a placeholder (so that the rows after it are read from
    /// the hint ledger's key, never by a scan the planner chose not knowing it); read from
    /// `player_rollup` when `nil`.
    static func kept(_ dialect: SalesAggregates.Dialect, folded: String? = nil) -> String {
        let table = "SELECT \((keys(dialect) + sums).joined(separator: ", ")) FROM player_days"
        guard dialect == .postgreSQL else { return table }
        let after = folded ?? "(SELECT folded_seq FROM player_rollup WHERE id = 1)"
        return table + "\nUNION ALL\n" + hintFacts(from: "hint_ledger AS h", where: "h.seq > \(after)", dialect: dialect, sign: 1)
    }

    /// The rows the table and a sum of every game day and hint row disagree on, at most 20, each
    /// led by the table's name: none when they are right.
    public static func differences(dialect: SalesAggregates.Dialect) -> String {
        let keys = keys(dialect).joined(separator: ", ")
        let columns = keys + ", " + sums.joined(separator: ", ")
        let made = """
            SELECT \(keys), \(sums.map { "sum(\($0)) AS \($0)" }.joined(separator: ", ")) FROM (\(everything(dialect))) AS f
            GROUP BY \(keys) HAVING \(sums.map { "sum(\($0)) <> 0" }.joined(separator: " OR "))
            """
        let keptRows = """
            SELECT \(keys), \(sums.map { "sum(\($0)) AS \($0)" }.joined(separator: ", ")) FROM (\(Self.kept(dialect))) AS k
            GROUP BY \(keys) HAVING \(sums.map { "sum(\($0)) <> 0" }.joined(separator: " OR "))
            """
        let said = dialect == .sqlite ? "'player_days', *" : "'player_days ' || concat_ws(' ', \(columns))"
        return """
            WITH made AS MATERIALIZED (\(made)), kept AS MATERIALIZED (\(keptRows))
            SELECT \(said) FROM (SELECT * FROM kept EXCEPT SELECT * FROM made) AS extra
            UNION ALL
            SELECT \(said) FROM (SELECT * FROM made EXCEPT SELECT * FROM kept) AS missing
            LIMIT 20
            """
    }

    /// The rows of days `$1...$2` summed over shards (with, on PostgreSQL, the hint rows after
    /// the seq `$3`, the last folded): the day, then the sums.
    static func rangeQuery(placeholders p: [String], dialect: SalesAggregates.Dialect) -> String {
        """
        SELECT day, \(sums.map { "sum(\($0))" }.joined(separator: ", ")) FROM (\(kept(dialect, folded: dialect == .postgreSQL ? "CAST(\(p[2]) AS BIGINT)" : nil))) AS k
        WHERE day >= \(p[0]) AND day <= \(p[1])
        GROUP BY day HAVING \(sums.map { "sum(\($0)) <> 0" }.joined(separator: " OR ")) ORDER BY day
        """
    }
}

/// One day of the players' numbers as kept (``PlayerAggregates``), summed over accounts.
public struct PlayerDay: Sendable, Equatable {
    /// Days since 1970 (UTC).
    public var day: Int64
    /// Games served that are not the daily word, daily words served, the accounts that were
    /// served a daily word.
    public var games: Int64
    public var dailyGames: Int64
    public var dailyPlayers: Int64
    public var hintsSold: Int64
    public var hintsSpent: Int64

    public init(day: Int64, games: Int64 = 0, dailyGames: Int64 = 0, dailyPlayers: Int64 = 0, hintsSold: Int64 = 0, hintsSpent: Int64 = 0) {
        self.day = day
        self.games = games
        self.dailyGames = dailyGames
        self.dailyPlayers = dailyPlayers
        self.hintsSold = hintsSold
        self.hintsSpent = hintsSpent
    }

    /// A row of ``PlayerAggregates/rangeQuery(placeholders:)``.
    init(day: Int64, sums: [Int64]) {
        self.init(day: day, games: sums[0], dailyGames: sums[1], dailyPlayers: sums[2], hintsSold: sums[3], hintsSpent: sums[4])
    }

    /// Several ledgers' days as one, by day.
    static func merged(_ parts: [PlayerDay]) -> [PlayerDay] {
        var days: [Int64: PlayerDay] = [:]
        for part in parts {
            var day = days[part.day] ?? PlayerDay(day: part.day)
            day.games += part.games
            day.dailyGames += part.dailyGames
            day.dailyPlayers += part.dailyPlayers
            day.hintsSold += part.hintsSold
            day.hintsSpent += part.hintsSpent
            days[part.day] = day
        }
        return days.values.sorted { $0.day < $1.day }
    }
}
