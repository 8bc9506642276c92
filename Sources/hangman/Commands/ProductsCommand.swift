import Store

/// `hangman products`
enum ProductsCommand: Command {
    static let spec = CommandSpec(
        name: "hangman products",
        overview: "List what the store sells: packs and hints, with prices.",
        usage: ["hangman products [--json]"],
        options: [.init(names: ["--json"], value: nil, help: "Print one JSON document.")] + StoreContext.options)

    static func run(_ arguments: ParsedArguments, console: Console) throws(CommandFailure) -> ExitCode {
        guard arguments.positionals.isEmpty else { throw .usage("'products' takes no arguments") }
        let context = try StoreContext.open(arguments, console: console)
        let products = context.service.catalog.products
        if arguments.has("--json") {
            console.out(JSONText.encode(products.map(ProductJSON.init)))
            return .ok
        }
        var rows = [["PRODUCT", "TYPE", "PRICE", "NAME", "CONTENT"]]
        for product in products {
            let content: String
            switch product.kind {
            case .consumable(let hints): content = "\(hints) hints"
            case .nonConsumable: content = "\(PackText.grouped(product.wordCount ?? 0)) words"
            }
            rows.append([product.id.rawValue, product.typeName, product.price, product.displayName, content])
        }
        console.out(StoreText.table(rows))
        return .ok
    }
}

struct ProductJSON: Encodable {
    var id: String
    var type: String
    var displayName: String
    var description: String
    var price: String
    var hintCount: Int?
    var pack: String?
    var wordCount: Int?

    init(_ product: Product) {
        id = product.id.rawValue
        type = product.typeName
        displayName = product.displayName
        description = product.description
        price = product.price
        switch product.kind {
        case .consumable(let hints): hintCount = hints
        case .nonConsumable(let file): pack = file
        }
        wordCount = product.wordCount
    }
}
