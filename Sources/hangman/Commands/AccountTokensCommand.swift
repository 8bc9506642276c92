import CivilCalendar
import Device
import PackServiceClient
import PackServiceWire

/// `hangman account tokens [--json]`
enum AccountTokensCommand: Command {
    static let spec = CommandSpec(
        name: "hangman account tokens",
        overview: "List the account's tokens, one per device: its name, when it was made and last used, this device's marked.",
        usage: ["hangman account tokens [--json] [--home <DIR>]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document."), HomeContext.options[0], HomeContext.serviceOption, HomeContext.caFileOption],
        discussion: "Never a secret: a token's ID is the start of its digest. 'hangman account token revoke ID' signs a device out.")

    struct Options {
        var json: Bool
        var store: HomeOptions
    }

    static func options(_ parsed: ParsedArguments) -> Options { Options(json: parsed.has("--json"), store: HomeOptions(parsed)) }

    struct TokenJSON: Encodable {
        var tokenID: String
        var deviceName: String?
        var createdDate: String
        var lastUsedDate: String?
        var revokedDate: String?
        var thisDevice: Bool
    }

    static func run(_ options: Options, context: CommandContext) async throws -> ExitCode {
        let account = try await ServiceAccount.open(options.store, context: context)
        let tokens = try await account.client.tokens()
        if options.json {
            context.out(JSONText.encode(tokens.map {
                TokenJSON(
                    tokenID: $0.tokenID, deviceName: $0.deviceName.flatMap(DeviceName.fitted), createdDate: ISO8601.string($0.createdDate), lastUsedDate: $0.lastUsedDate.map { ISO8601.string($0) },
                    revokedDate: $0.revokedDate.map { ISO8601.string($0) }, thisDevice: $0.current)
            }))
            return .ok
        }
        // The day and the minute, in UTC: a device is told apart by when it joined and was last seen.
        func time(_ milliseconds: Int64) -> String {
            let time = UTCDateTime(millisecondsSince1970: milliseconds)
            return time.dateText + " " + time.hourMinuteText
        }
        var rows = [["TOKEN", "DEVICE", "MADE (UTC)", "LAST USED", "STATE"]]
        for token in tokens {
            let state = token.revokedDate.map { "revoked \(time($0))" } ?? (token.current ? "this device" : "live")
            // The server's text, made fit for a terminal (no control character reaches it).
            let device = token.deviceName.flatMap(DeviceName.fitted) ?? "-"
            rows.append([token.tokenID, device, time(token.createdDate), token.lastUsedDate.map(time) ?? "-", state])
        }
        context.out(StoreText.table(rows, fit: context.tableWidth(wide: false).map { StoreText.Fit(width: $0, drop: [3, 2], flexible: [1, 4]) }))
        return .ok
    }
}
