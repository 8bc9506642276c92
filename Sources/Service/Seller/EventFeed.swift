import FoundationEssentials
import PackServiceAPI
import SQLite

/// The service's own events, for the seller's systems to pull (`GET /events` on the admin
/// address): purchases, free trials, renewals, grants, refunds, games finished, accounts made.
/// Each is written by a trigger in the same database transaction as the change it tells of, so
/// none is lost and none told of a change that did not happen. They are read by a cursor, a
/// minute behind the clock (``settle``) so that an event committed a moment late is never passed
/// over, and kept for ``retention``.
public struct FeedEvent: Sendable, Equatable, Codable {
    /// Where the feed goes on from after this event: give it back as `after`.
    public var cursor: String
    /// `purchase`, `trial`, `renewal`, `grant`, `refund`, `game-won`, `game-lost`, `account`.
    public var type: String
    /// Milliseconds since 1970 (a sandbox account's moved clock for its own events).
    public var date: Int64
    public var account: String
    public var transactionID: String?
    public var productID: String?
    /// What it charged or gave back, in minor units of `currency`.
    public var amount: Int64?
    public var currency: String?
}

public enum EventFeed {
    /// How far behind the clock the feed reads: a transaction commits well within it.
    public static let settle: Int64 = 60_000
    /// How long events are kept: 90 days.
    public static let retention: Int64 = 90 * 86_400_000
    /// The most events a page of the feed holds.
    public static let pageLimit = 1_000

    /// The table and its triggers: a migration of both engines' ledgers.
    static func schema(postgreSQL: Bool) -> String {
        let account = postgreSQL ? "account_id TEXT NOT NULL,\n" : ""
        let now = postgreSQL ? "(extract(epoch FROM clock_timestamp()) * 1000)::bigint" : "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
        let kind = """
            CASE WHEN EXISTS (SELECT 1 FROM grants AS g WHERE \(postgreSQL ? "g.account_id = NEW.account_id AND " : "")g.transaction_id = NEW.id) THEN 'grant'
                 WHEN NEW.original_transaction_id IS NOT NULL AND NEW.original_transaction_id <> NEW.id THEN 'renewal'
                 WHEN NEW.offer = 'free-trial' THEN 'trial' ELSE 'purchase' END
            """
        let columns = (postgreSQL ? "account_id, " : "") + "made_date, kind, transaction_id, product_id, amount, currency"
        let who = postgreSQL ? "NEW.account_id, " : ""
        let charged = "INSERT INTO events (\(columns)) VALUES (\(who)NEW.updated_date, \(kind), NEW.id, NEW.product_id, NEW.price_minor, NEW.currency)"
        let refunded = "INSERT INTO events (\(columns)) VALUES (\(who)NEW.revocation_date, 'refund', NEW.id, NEW.product_id, coalesce(NEW.refund_cents, NEW.price_minor), NEW.currency)"
        let finished = "INSERT INTO events (\(columns)) VALUES (\(who)NEW.ended_date, 'game-' || NEW.state, NULL, NEW.product_id, NULL, NULL)"
        let table = """
            CREATE TABLE events (
                seq \(postgreSQL ? "BIGSERIAL" : "INTEGER") PRIMARY KEY\(postgreSQL ? "" : " AUTOINCREMENT"),
                \(account)made_date \(postgreSQL ? "BIGINT" : "INTEGER") NOT NULL,
                kind TEXT NOT NULL,
                transaction_id TEXT,
                product_id TEXT,
                amount \(postgreSQL ? "BIGINT" : "INTEGER"),
                currency TEXT
            );
            CREATE INDEX events_by_date ON events (made_date, seq);

            """
        if postgreSQL {
            return table + """
                CREATE FUNCTION events_of_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.state = 'purchased' AND (TG_OP = 'INSERT' OR OLD.state <> 'purchased') THEN \(charged); END IF;
                    IF TG_OP = 'UPDATE' AND NEW.revocation_date IS NOT NULL AND OLD.revocation_date IS NULL THEN \(refunded); END IF;
                    RETURN NULL;
                END $$;
                CREATE TRIGGER events_of_transactions AFTER INSERT OR UPDATE ON transactions FOR EACH ROW EXECUTE FUNCTION events_of_transactions();
                CREATE FUNCTION events_of_games() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.state IN ('won', 'lost') AND OLD.state = 'playing' THEN \(finished); END IF;
                    RETURN NULL;
                END $$;
                CREATE TRIGGER events_of_games AFTER UPDATE ON games FOR EACH ROW EXECUTE FUNCTION events_of_games();
                CREATE FUNCTION events_of_ledgers() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO events (account_id, made_date, kind) VALUES (NEW.account_id, NEW.created_date, 'account');
                    RETURN NULL;
                END $$;
                CREATE TRIGGER events_of_ledgers AFTER INSERT ON ledgers FOR EACH ROW EXECUTE FUNCTION events_of_ledgers();

                """
        }
        return table + """
            CREATE TRIGGER events_charged AFTER UPDATE OF state ON transactions WHEN NEW.state = 'purchased' AND OLD.state <> 'purchased' BEGIN \(charged); END;
            CREATE TRIGGER events_charged_at_once AFTER INSERT ON transactions WHEN NEW.state = 'purchased' BEGIN \(charged); END;
            CREATE TRIGGER events_refunded AFTER UPDATE OF revocation_date ON transactions WHEN NEW.revocation_date IS NOT NULL AND OLD.revocation_date IS NULL
                BEGIN \(refunded); END;
            CREATE TRIGGER events_finished AFTER UPDATE OF state ON games WHEN NEW.state IN ('won', 'lost') AND OLD.state = 'playing' BEGIN \(finished); END;
            CREATE TRIGGER events_account AFTER INSERT ON account_storefront BEGIN INSERT INTO events (made_date, kind) VALUES (\(now), 'account'); END;

            """
    }

    /// A cursor as the feed gives it: the event's date, its account and its sequence number.
    struct Cursor: Comparable {
        var date: Int64
        var account: String
        var seq: Int64

        static let start = Cursor(date: 0, account: "", seq: 0)

        init(date: Int64, account: String, seq: Int64) {
            self.date = date
            self.account = account
            self.seq = seq
        }

        /// `text` as a cursor (`<date>-<account>-<seq>`); `nil` for text that is none.
        init?(_ text: String) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, let date = Int64(parts[0]), let seq = Int64(parts[2]), parts[1].utf8.count <= 64 else { return nil }
            self.init(date: date, account: String(parts[1]), seq: seq)
        }

        var text: String { "\(date)-\(account)-\(seq)" }

        static func < (a: Cursor, b: Cursor) -> Bool { (a.date, a.account, a.seq) < (b.date, b.account, b.seq) }
    }

    static func event(_ row: [String?], account: String?) throws(ServiceError) -> FeedEvent {
        let offset = account == nil ? 1 : 0
        guard row.count == 7 + offset, let seq = row[0].flatMap(Int64.init), let date = row[1 + offset].flatMap(Int64.init), let kind = row[2 + offset] else {
            throw ServiceError(.storage, "the ledger holds a malformed event")
        }
        let owner = account ?? (row[1] ?? "")
        return FeedEvent(
            cursor: Cursor(date: date, account: owner, seq: seq).text, type: kind, date: date, account: owner,
            transactionID: row[3 + offset].map { TransactionID.number(ofRawValue: $0) }, productID: row[4 + offset], amount: row[5 + offset].flatMap(Int64.init),
            currency: row[6 + offset])
    }
}

extension SellerService {
    /// The events after `cursor` (from the first kept when `nil`), oldest first, `limit` at most
    /// (``EventFeed/pageLimit``), up to a minute before `now`; events older than the
    /// retention are let go. A cursor that is none is refused (400).
    public func events(after cursor: String?, limit: Int, now: Int64) throws(ServiceError) -> [FeedEvent] {
        guard let from = cursor.map({ EventFeed.Cursor($0) }) ?? .start else {
            throw ServiceError(.invalidRequest, "'after' takes a cursor the feed gave (<date>-<account>-<seq>)")
        }
        let limit = max(1, min(limit, EventFeed.pageLimit))
        let until = now - EventFeed.settle
        if let ledgers { return try ledgers.events(after: from, until: until, limit: limit, now: now) }
        let all = try SQLiteLedgers.eachStatements(sqliteFolder ?? "") { account, statements throws(ServiceError) in
            try statements.events(account: account, after: from, until: until, limit: limit, now: now)
        }
        return Array(all.sorted { EventFeed.Cursor($0.cursor)! < EventFeed.Cursor($1.cursor)! }.prefix(limit))
    }
}

extension PostgreSQLLedgers {
    func events(after cursor: EventFeed.Cursor, until: Int64, limit: Int, now: Int64) throws(ServiceError) -> [FeedEvent] {
        do {
            return try pool.autocommit { connection in
                _ = try connection.execute("DELETE FROM events WHERE made_date < $1", [String(now - EventFeed.retention)])
                return try connection.execute(
                    """
                    SELECT seq, account_id, made_date, kind, transaction_id, product_id, amount, currency FROM events
                    WHERE made_date <= $1 AND (made_date, account_id, seq) > ($2, $3, $4)
                    ORDER BY made_date, account_id, seq LIMIT $5
                    """, [String(until), String(cursor.date), cursor.account, String(cursor.seq), String(limit)]
                ).rows.map { row throws in try EventFeed.event(row, account: nil) }
            }
        } catch let error as ServiceError {
            throw error
        } catch {
            throw PostgreSQLLedgerEngine.failure(error, opening: false)
        }
    }
}

extension SQLiteLedgerStatements {
    /// This ledger's (the account `account`'s) events after `cursor`, up to `until`, oldest first.
    func events(account: String, after cursor: EventFeed.Cursor, until: Int64, limit: Int, now: Int64) throws(ServiceError) -> [FeedEvent] {
        // Events past their retention are let go when there are some (one look first).
        if let oldest = try read({ _ in try db.int64("SELECT min(made_date) FROM events") }), oldest < now - EventFeed.retention {
            try write { _ in try db.execute("DELETE FROM events WHERE made_date < ?", .integer(now - EventFeed.retention)) }
        }
        // Past the cursor: a later date; the same date and a later account; the same account and a later event.
        let seqFrom = account > cursor.account ? Int64.min : account == cursor.account ? cursor.seq : Int64.max
        return try read { _ in
            try db.query(
                """
                SELECT seq, made_date, kind, transaction_id, product_id, amount, currency FROM events
                WHERE made_date <= ? AND (made_date > ? OR (made_date = ? AND seq > ?)) ORDER BY made_date, seq LIMIT ?
                """, .integer(until), .integer(cursor.date), .integer(cursor.date), .integer(seqFrom), .integer(Int64(limit))
            ).map { row throws in try EventFeed.event(row.texts, account: account) }
        }
    }
}
