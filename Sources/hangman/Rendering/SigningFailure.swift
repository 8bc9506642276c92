import Signing

extension CommandFailure {
    /// The exit code a key file's failure deserves: 66 no such file, 73 cannot write, else 65.
    init(signing error: SigningError) {
        switch error {
        case .missingKeyFile: self = .missing(error.description)
        case .keyFileExists(let path): self = .cannotCreate("\(path) exists; pass --force to replace it")
        case .unwritableKeyFile: self = .cannotCreate(error.description)
        default: self = .invalid(error.description)
        }
    }
}
