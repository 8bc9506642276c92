import Foundation
import PostgreSQL
import Seller
import Testing
import TestSupport

/// The directory's friendships on both engines: an invitation used once, both ways at once, never
/// one's own, expiring, bounded.
@Suite struct FriendsTests {
    func directory(_ engine: Engine, _ folder: TemporaryDirectory) throws -> any AccountDirectory {
        engine == .postgresql
            ? try PostgreSQLAccountDirectory(pool: ConnectionPool(connectionString: try TestPostgreSQL.shared(), capacity: 1))
            : try SQLiteAccountDirectory(path: folder.path + "/accounts.sqlite")
    }

    static func account() -> String { String(format: "%016llx", UInt64.random(in: 1...UInt64.max)) }

    @Test(arguments: Engine.allCases) func anInvitationMakesFriendsBothWaysOnce(engine: Engine) throws {
        let folder = try TemporaryDirectory()
        let accounts = try directory(engine, folder)
        let (ana, ben, cai) = (Self.account(), Self.account(), Self.account())
        let code = OfferCodes.digest(UUID().uuidString)
        #expect(try accounts.addFriendInvite(account: ana, digest: code, expires: 1_000, now: 10))
        #expect(try accounts.acceptFriendInvite(digest: code, account: ana, now: 20) == .own)
        #expect(try accounts.acceptFriendInvite(digest: code, account: ben, now: 20) == .friends(ana))
        #expect(try accounts.acceptFriendInvite(digest: code, account: cai, now: 20) == .unknown, "used once")
        #expect(try accounts.friends(of: ana).map(\.account) == [ben] && accounts.friends(of: ben).map(\.account) == [ana])
        let late = OfferCodes.digest(UUID().uuidString)
        #expect(try accounts.addFriendInvite(account: cai, digest: late, expires: 100, now: 10))
        #expect(try accounts.acceptFriendInvite(digest: late, account: ana, now: 100) == .expired)
        #expect(try accounts.removeFriend(account: ben, friend: ana))
        #expect(try accounts.friends(of: ana).isEmpty && !accounts.removeFriend(account: ana, friend: ben))
        // At most so many invitations live at once; expired ones let go.
        for _ in 0..<FriendLimits.invites { #expect(try accounts.addFriendInvite(account: ben, digest: OfferCodes.digest(UUID().uuidString), expires: 500, now: 10)) }
        #expect(try !accounts.addFriendInvite(account: ben, digest: OfferCodes.digest(UUID().uuidString), expires: 500, now: 10))
        #expect(try accounts.addFriendInvite(account: ben, digest: OfferCodes.digest(UUID().uuidString), expires: 900, now: 600))
    }
}
