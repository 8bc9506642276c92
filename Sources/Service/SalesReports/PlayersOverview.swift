import CivilCalendar
import Seller

/// The players over a range of days (UTC): accounts made, games served, daily-word players, and
/// hints sold against hints spent, per day and in all.
public struct PlayersOverview: Sendable, Equatable, Codable {
    public struct Day: Sendable, Equatable, Codable {
        public var day: String
        public var accountsMade = 0
        public var gamesServed = 0
        /// Accounts that played the daily word that day.
        public var dailyPlayers = 0
        public var hintsSold = 0
        public var hintsSpent = 0
    }

    public var days: [Day]
    public var accountsMade: Int { days.reduce(0) { $0 + $1.accountsMade } }
    public var gamesServed: Int { days.reduce(0) { $0 + $1.gamesServed } }
    public var dailyPlayers: Int { days.reduce(0) { $0 + $1.dailyPlayers } }
    public var hintsSold: Int { days.reduce(0) { $0 + $1.hintsSold } }
    public var hintsSpent: Int { days.reduce(0) { $0 + $1.hintsSpent } }

    /// The days `firstDay...lastDay` (days since 1970) of the players' kept numbers (`kept`,
    /// ``PlayerAggregates``) and of the accounts made on each day (`accountsMade`).
    public init(_ kept: [PlayerDay], accountsMade: [Int64: Int], firstDay: Int64, lastDay: Int64) {
        var days = (firstDay...max(firstDay, lastDay)).map { Day(day: UTCDateTime(millisecondsSince1970: $0 * UTCDateTime.millisecondsPerDay).dateText) }
        for (day, count) in accountsMade where day >= firstDay && day <= lastDay { days[Int(day - firstDay)].accountsMade += count }
        for row in kept where row.day >= firstDay && row.day <= lastDay {
            let at = Int(row.day - firstDay)
            days[at].gamesServed += Int(row.games + row.dailyGames)
            days[at].dailyPlayers += Int(row.dailyPlayers)
            days[at].hintsSold += Int(row.hintsSold)
            days[at].hintsSpent += Int(row.hintsSpent)
        }
        self.days = days
    }
}
