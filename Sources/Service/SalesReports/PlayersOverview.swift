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

    /// The days `firstDay...lastDay` (days since 1970) of `activity` and of accounts made at `accountsMade`.
    public init(_ activity: [PlayerActivity], accountsMade: [Int64], firstDay: Int64, lastDay: Int64) {
        var days = (firstDay...max(firstDay, lastDay)).map { Day(day: UTCDateTime(millisecondsSince1970: $0 * UTCDateTime.millisecondsPerDay).dateText) }
        func index(_ milliseconds: Int64) -> Int? {
            let day = UTCDateTime.day(ofMilliseconds: milliseconds)
            return day >= firstDay && day <= lastDay ? Int(day - firstDay) : nil
        }
        for made in accountsMade { if let at = index(made) { days[at].accountsMade += 1 } }
        var daily: Set<String> = []
        for event in activity {
            guard let at = index(event.date) else { continue }
            switch event.kind {
            case .game: days[at].gamesServed += event.count
            case .dailyGame:
                days[at].gamesServed += event.count
                if daily.insert("\(at)/\(event.account)").inserted { days[at].dailyPlayers += 1 }
            case .hintsCredited: days[at].hintsSold += event.count
            case .hintsSpent: days[at].hintsSpent += event.count
            }
        }
        self.days = days
    }
}
