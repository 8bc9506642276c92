import Signing
/// A notification of a change to an account's purchases, as the ledger's outbox keeps it: written
/// in the same database transaction as the change it tells of (so a change is never left untold,
/// and never told twice under two ids), then delivered, at least once, by one server at a time.
///
/// The ledger decides what happened and names it as Apple's Server Notifications V2 do
/// (`notificationType`, `subtype`); the signed body is drawn from the ledger when it is sent.
public struct OutboxNotification: Sendable, Equatable {
    /// The `notificationUUID`: the same on every attempt.
    public var uuid: String
    /// `ONE_TIME_CHARGE`, `SUBSCRIBED`, `DID_RENEW`, `REFUND`, ... (``NotificationKind``).
    public var type: String
    public var subtype: String?
    /// The transaction it tells of (for a subscription: its current period's).
    public var transaction: TransactionID?
    /// The subscription it tells of, when it is one.
    public var originalTransaction: TransactionID?
    /// When the change was made (store time): the payload's `signedDate`.
    public var created: Int64
    /// When it is next due; `nil` once delivered or given up.
    public var nextAttempt: Int64?
    /// When an attempt was answered 2xx.
    public var delivered: Int64?
    /// Attempts made so far.
    public var attempts: Int
    /// The JWS as the first attempt signed it and sent it; `nil` before any attempt.
    public var signedPayload: String? = nil

    /// The columns both engines write and select, in this order (a notification's payload comes
    /// with its first attempt, unless it was signed when it was written).
    static let columns = "uuid, type, subtype, transaction_id, original_transaction_id, created_date, next_attempt_date, delivered_date, attempts, signed_payload"

    init(columns row: [String?]) throws(ServiceError) {
        guard row.count == 10, let uuid = row[0], let type = row[1], let created = row[5].flatMap(Int64.init), let attempts = row[8].flatMap(Int.init)
        else { throw ServiceError(.storage, "the ledger database holds a malformed notification row") }
        self.init(
            uuid: uuid, type: type, subtype: row[2], transaction: row[3].flatMap(TransactionID.init(rawValue:)),
            originalTransaction: row[4].flatMap(TransactionID.init(rawValue:)), created: created, nextAttempt: row[6].flatMap(Int64.init),
            delivered: row[7].flatMap(Int64.init), attempts: attempts)
        signedPayload = row[9]
    }

    public init(
        uuid: String, type: String, subtype: String?, transaction: TransactionID?, originalTransaction: TransactionID?, created: Int64,
        nextAttempt: Int64?, delivered: Int64?, attempts: Int, signedPayload: String? = nil
    ) {
        self.signedPayload = signedPayload
        self.uuid = uuid
        self.type = type
        self.subtype = subtype
        self.transaction = transaction
        self.originalTransaction = originalTransaction
        self.created = created
        self.nextAttempt = nextAttempt
        self.delivered = delivered
        self.attempts = attempts
    }

    /// A new notification's id, from the system's random numbers.
    public static func newUUID() -> String {
        var random = SystemRandomNumberGenerator()
        return newUUID(using: &random)
    }

    /// A new notification's id: a random (version 4) UUID, lower case.
    static func newUUID<G: RandomNumberGenerator>(using random: inout G) -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = Hex.encode(bytes)
        let cut = [8, 12, 16, 20]
        var text = ""
        for (index, character) in hex.enumerated() {
            if cut.contains(index) { text += "-" }
            text.append(character)
        }
        return text
    }
}

/// One attempt to deliver a notification: when, and how it ended, in Apple's words
/// (`SUCCESS`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`, `TIMED_OUT`, `NO_RESPONSE`, ...).
public struct NotificationAttempt: Sendable, Equatable {
    public var date: Int64
    public var result: String
    /// The receiver's HTTP status, when it answered.
    public var httpStatus: Int?

    public init(date: Int64, result: String, httpStatus: Int?) {
        self.date = date
        self.result = result
        self.httpStatus = httpStatus
    }

    static let columns = "attempted_date, result, http_status"

    init(columns row: [String?]) throws(ServiceError) {
        guard row.count == 3, let date = row[0].flatMap(Int64.init), let result = row[1] else {
            throw ServiceError(.storage, "the ledger database holds a malformed notification attempt")
        }
        self.init(date: date, result: result, httpStatus: row[2].flatMap(Int.init))
    }
}

/// What the ledger notifies, in Apple's `notificationType` names; the rule that picks one for a
/// change is the ledger's (``AccountLedger``).
public enum NotificationKind: String, Sendable, CaseIterable {
    case oneTimeCharge = "ONE_TIME_CHARGE"
    case subscribed = "SUBSCRIBED"
    case offerRedeemed = "OFFER_REDEEMED"
    case priceIncrease = "PRICE_INCREASE"
    case didRenew = "DID_RENEW"
    case didFailToRenew = "DID_FAIL_TO_RENEW"
    case gracePeriodExpired = "GRACE_PERIOD_EXPIRED"
    case expired = "EXPIRED"
    case didChangeRenewalStatus = "DID_CHANGE_RENEWAL_STATUS"
    case didChangeRenewalPref = "DID_CHANGE_RENEWAL_PREF"
    case refund = "REFUND"
    case refundDeclined = "REFUND_DECLINED"
    case refundReversed = "REFUND_REVERSED"
    case renewalExtended = "RENEWAL_EXTENDED"
    case renewalExtension = "RENEWAL_EXTENSION"
    case consumptionRequest = "CONSUMPTION_REQUEST"
    case test = "TEST"
}

/// The schema of the outbox, the same in both engines but for the PostgreSQL ledger's account
/// column (each engine's migration `12-notifications` adds it).
enum NotificationSchema {
    /// The payload as first signed and sent: a retry sends it again, byte for byte (Apple's
    /// `signedDate` and its snapshot stay those of the first attempt).
    static let payloads = "ALTER TABLE notifications ADD COLUMN signed_payload TEXT;"

    /// Migration 23: a customer's notifications are sent in the order they were written, also
    /// those one change writes at once (a clock moved past a grace period and a billing retry
    /// writes DID_FAIL_TO_RENEW, then EXPIRED, at the same time). SQLite has that order already
    /// (each row's rowid); PostgreSQL numbers them.
    static let sqliteOrder = "-- The order notifications were written in is each row's rowid."
    static let postgreSQLOrder = "ALTER TABLE notifications ADD COLUMN seq BIGSERIAL;"

    static func tables(account: String, integer: String) -> String {
        let key = account.isEmpty ? "uuid" : "account_id, uuid"
        let accountColumn = account.isEmpty ? "" : "account_id TEXT NOT NULL REFERENCES ledgers(account_id),\n"
        let attemptAccount = account.isEmpty ? "" : "account_id TEXT NOT NULL,\n"
        return """
            -- Server Notifications V2's outbox: a row written in the transaction of the change it
            -- tells of; next_attempt_date NULL once delivered or given up. A server sending it
            -- holds it until lease_until, so servers sharing the ledger send it one at a time.
            CREATE TABLE notifications (
                \(accountColumn)uuid TEXT NOT NULL CHECK (length(uuid) = 36),
                type TEXT NOT NULL,
                subtype TEXT,
                transaction_id TEXT,
                original_transaction_id TEXT,
                created_date \(integer) NOT NULL,
                next_attempt_date \(integer),
                lease_until \(integer),
                delivered_date \(integer),
                attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                PRIMARY KEY (\(key))
            );
            CREATE INDEX notifications_due ON notifications(next_attempt_date) WHERE next_attempt_date IS NOT NULL;
            -- Every attempt to deliver one, appended, for the notification history.
            CREATE TABLE notification_attempts (
                \(attemptAccount)uuid TEXT NOT NULL,
                seq INTEGER NOT NULL CHECK (seq >= 1),
                attempted_date \(integer) NOT NULL,
                result TEXT NOT NULL,
                http_status INTEGER,
                PRIMARY KEY (\(key), seq)
            );
            -- What a backend said of a consumable's use (Send Consumption Information), kept.
            CREATE TABLE consumption_reports (
                \(attemptAccount)transaction_id TEXT NOT NULL,
                received_date \(integer) NOT NULL,
                body TEXT NOT NULL,
                PRIMARY KEY (\(account.isEmpty ? "" : "account_id, ")transaction_id)
            );
            """
    }
}

/// A notification not delivered yet (waiting for its next attempt, or given up), with its
/// account and its last attempt: a line of the seller's delivery log.
public struct UndeliveredNotification: Sendable, Equatable {
    public var account: String
    public var notification: OutboxNotification
    public var lastAttempt: NotificationAttempt?

    public init(account: String, notification: OutboxNotification, lastAttempt: NotificationAttempt?) {
        self.account = account
        self.notification = notification
        self.lastAttempt = lastAttempt
    }
}
