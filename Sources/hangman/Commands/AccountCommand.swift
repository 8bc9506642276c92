/// `hangman account`: the player's account on a pack server.
enum AccountCommand: CommandGroup {
    static let name = "account"
    static let overview = "Make, show and use an account on a pack server ('hangman serve')."
    static let commands: [any Command.Type] = [AccountCreateCommand.self, AccountLoginCommand.self, AccountShowCommand.self, AccountStorefrontCommand.self, AccountNameCommand.self, AccountTokensCommand.self, AccountTokenCommand.self, AccountCloseCommand.self]
    static let discussion = """
        The account's token is kept under the home (account/service-token, mode 0600) with the
        service's public key, pinned when the account is made: an answer signed by another key
        is refused. The home then belongs to that service: every command uses it, and --service
        names another address of it (a second server, a proxy), accepted once it proves the key.
        """
}
