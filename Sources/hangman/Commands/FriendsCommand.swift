import CivilCalendar
import Messages
import PackServiceAPI
import TerminalText

/// `hangman friends [invite | add CODE | remove NAME]`
enum FriendsCommand: Command {
    static let spec = CommandSpec(
        name: "hangman friends",
        overview: "Your friends on the pack server: invite one with a code, add one by theirs, and see their board.",
        usage: ["hangman friends [--json]", "hangman friends invite", "hangman friends add <CODE>", "hangman friends remove <NAME>"],
        takesWords: true,
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document.")] + HomeContext.options,
        subcommands: [
            ("invite", "A code to give one friend: good once, for a week."),
            ("add <CODE>", "Become friends with whoever gave you the code, both ways."),
            ("remove <NAME>", "End a friendship, both ways: the name as 'hangman friends' lists it."),
        ],
        discussion: """
            Nobody is found by searching: a friendship starts with a code one gives the other. A
            friend sees only your name (the one on leaderboards) and your daily results:
            'hangman leaderboard --friends' ranks your friends and you. At most 100 friends.
            Exit status: 0; 64 a code that is none, used already or your own, or no friend of
            that name; 65 an expired code, or too many friends or invitations; 69 the pack server
            cannot be reached (or the home plays on the embedded store: friends are a pack
            server's).
            """)

    enum Action {
        case list
        case invite
        case add(String)
        case remove(String)
    }

    static func options(_ parsed: ParsedArguments) throws -> ActionOptions<Action> {
        let words = parsed.positionals
        switch words.first {
        case nil: return ActionOptions(.list, parsed)
        case "invite" where words.count == 1: return ActionOptions(.invite, parsed)
        case "add" where words.count == 2: return ActionOptions(.add(words[1]), parsed)
        case "remove" where words.count >= 2: return ActionOptions(.remove(words.dropFirst().joined(separator: " ")), parsed)
        default: throw CommandFailure.usage(L10n.text("'friends' takes nothing, 'invite', 'add <CODE>' or 'remove <NAME>'"))
        }
    }

    static func run(_ options: ActionOptions<Action>, context: CommandContext) async throws -> ExitCode {
        let store = try await HomeContext.open(options.store, context: context, quietOffline: true)
        let games = try store.games(for: L10n.text("friends"))
        switch options.action {
        case .list:
            let friends = try await games.friends()
            if options.json {
                context.out(JSONText.encode(friends))
                return .ok
            }
            guard !friends.isEmpty else {
                context.outWrapped(L10n.text("No friends yet: '%s' gives a code for one, '%s' uses theirs.", "hangman friends invite", "hangman friends add CODE"))
                return .ok
            }
            for friend in friends {
                context.out(TerminalText(escaping: friend.name + "  " + L10n.text("since %s", UTCDateTime(millisecondsSince1970: friend.since).dateText)))
            }
        case .invite:
            let invite = try await games.inviteFriend()
            if options.json {
                context.out(JSONText.encode(invite))
                return .ok
            }
            context.out(TerminalText(escaping: invite.code))
            context.outWrapped(
                L10n.text("Give this code to one friend: '%s' makes you friends. It is good once, until %s.", "hangman friends add \(invite.code)", StoreText.date(invite.expiresDate)))
        case .add(let code):
            let friend = try await games.addFriend(code: code)
            context.outWrapped(L10n.text("You and %s are friends: '%s' ranks you together.", friend.name, "hangman leaderboard --friends"))
        case .remove(let name):
            let friend = try await games.removeFriend(named: name)
            context.outWrapped(L10n.text("You and %s are no longer friends.", friend.name))
        }
        return .ok
    }
}
