import WordPacks

/// A pack installed on the device.
public struct InstalledPack: Sendable, Equatable {
    public var productID: ProductID
    public var contentVersion: ContentVersion
    public var displayName: String
    public var language: String
    public var archiveSHA256: String
    /// Milliseconds since 1970.
    public var installedDate: Int64
    public var isBase: Bool
    public var wordCount: Int
    public var categories: [Category]

    /// A word list of the pack: its name, its range of word numbers, and where its words are.
    public struct Category: Sendable, Equatable {
        public var name: String
        public var firstWord: Int64
        public var wordCount: Int
        /// The id of its first row of 64 words; `nil` when it was installed with a row per word.
        public var firstChunk: Int64?
    }
}

/// A word picked for a game; the game folds its letters by `language` (see `LetterFolding`).
public struct DeviceWord: Sendable, Equatable {
    public var word: String
    public var clue: String?
    public var pack: ProductID
    public var packName: String
    public var category: String
    public var language: String
}

/// How an install went.
public enum InstallOutcome: Sendable, Equatable {
    public var isAlreadyInstalled: Bool {
        if case .alreadyInstalled = self { true } else { false }
    }

    case installed(ContentVersion)
    case updated(from: ContentVersion, to: ContentVersion)
    case alreadyInstalled(ContentVersion)
}

/// Progress of an install, for a progress bar.
public struct InstallProgress: Sendable {
    /// What the install is doing: downloading the archive (`bytesDone` of `bytesTotal` archive
    /// bytes), checking it (digest, signature, every word), or writing its words.
    public enum Phase: Sendable, Equatable { case downloading, checking, installing }
    public var phase: Phase = .installing
    public var wordsDone: Int
    public var wordsTotal: Int
    /// Bytes of word and clue text written so far, and in all.
    public var bytesDone: Int
    public var bytesTotal: Int

    public init(phase: Phase = .installing, wordsDone: Int, wordsTotal: Int, bytesDone: Int, bytesTotal: Int) {
        self.phase = phase
        self.wordsDone = wordsDone
        self.wordsTotal = wordsTotal
        self.bytesDone = bytesDone
        self.bytesTotal = bytesTotal
    }
}

