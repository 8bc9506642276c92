import Device
import Messages
import PackServiceAPI
import PackServiceClient
import PackServiceWire
import SystemCalls
import TerminalText

/// What `account create` and `account login` share: a home that has a store already is exit
/// status 73 (it cannot be made twice), with the home's words.
enum AccountSetUp {
    static func refusingASecondStore(_ body: () async throws(PlayerError) -> ServiceCredentials) async throws -> ServiceCredentials {
        do {
            return try await body()
        } catch .store(let error) where error.kind == .wrongState {
            throw CommandFailure.cannotCreate(error.message)
        } catch .store(let error) {
            throw CommandFailure(error)
        } catch {
            throw error
        }
    }
}

extension AccountSetUp {
    /// `--device` of `account create` and `account login`.
    static let deviceOption = CommandSpec.Option(
        names: ["--device"], value: "NAME",
        help: "The name this device's token is listed under in 'hangman account tokens' (default: the machine's host name).")

    /// The name this device's token is made under: `--device` when given (a name ``DeviceName``
    /// refuses is a usage error, 64), else the machine's host name, made fit.
    static func deviceName(_ parsed: ParsedArguments) throws -> String? {
        guard let given = parsed.value("--device") else { return CurrentProcess.hostName.flatMap(DeviceName.fitted) }
        switch DeviceName.check(given) {
        case .success(let name): return name
        case .failure(let problem): throw CommandFailure.usage(L10n.text("--device '%s': %s", given.prefix(60), problem.message))
        }
    }

    /// `--yes` of `account create` and `account login`.
    static let yesOption = CommandSpec.Option(
        names: ["--yes", "-y"], value: nil,
        help: "On a home that plays on the embedded store, join without asking: that store, with what was bought on it, is set aside.")

    /// Whether a home that plays on the embedded store leaves it for a pack server: what stays
    /// behind is said first, plainly (hints, what was bought, where it is kept), then asked on a
    /// terminal or taken from `--yes`. `false` for a home with no embedded store: nothing to leave;
    /// `nil` when the player said no (the command ends, ``ExitCode/declined``).
    static func leavesEmbeddedStore(_ home: Home, yes: Bool, context: CommandContext) async throws -> Bool? {
        guard home.hasEmbeddedAccount else { return false }
        var kept: [String] = []
        if let (service, catalog) = try? EmbeddedStore.open(packs: nil, home: home, context: context) {
            let hints = (try? await service.hintBalance()) ?? 0
            if hints > 0 { kept.append(hints == 1 ? "1 hint" : "\(hints) hints") }
            let owned = ((try? await service.entitlements()) ?? []).filter(\.isActive)
            kept += owned.map { catalog.product($0.productID).map { ReaderLocale.current.name(of: $0) } ?? $0.productID.rawValue }
        }
        let what = kept.isEmpty ? "Anything bought on the embedded store (a sandbox)" : "What was bought on the embedded store (a sandbox: \(kept.joined(separator: ", ")))"
        context.outWrapped(
            "This home plays on the embedded store. \(what) stays with it and does not come to the pack server; it is kept in \(home.setAsideFolder). Your settings, statistics and games on this device come along.")
        if yes { return true }
        guard Question.canAsk(context) else {
            throw CommandFailure.cannotCreate(
                "this home (\(home.folder)) plays on the embedded store: add --yes to join the pack server and set that store aside, or use another --home (or HANGMAN_HOME)")
        }
        guard Question.ask("Join the pack server and set the embedded store aside?", context: context) else {
            context.out(TerminalText(escaping: L10n.text("Not joined: this home still plays on the embedded store.")))
            return nil
        }
        return true
    }
}
