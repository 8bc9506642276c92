import SQLite

/// The device's database: installed packs and their words, laid out so that a game starts with
/// one indexed lookup whatever the number of words.
///
/// A pack's words are inserted in one transaction, list by list, so each list (category) owns a
/// contiguous range of word numbers (`first_word`, `word_count`) and of `word_chunks.id`
/// (`first_chunk`): its words in order, 64 to a row, as a JSON array (a million words are 15,625
/// rows, written in a tenth of the time a row per word took). Picking a random word is choosing an
/// offset in those ranges and reading one row by its id; removing a pack deletes id ranges.
///
/// Packs installed before chunks keep a row per word in `word_rows` (`first_chunk` NULL). The view
/// `words` shows every word of both, one row each, by word number; `folded` is no longer written or
/// read (a game folds letters itself, by the pack's language).
enum DeviceSchema {
    static let migrator: Migrator = {
        var migrator = Migrator()
        migrator.register("1-device", sql: """
            CREATE TABLE packs (
                product_id TEXT PRIMARY KEY,
                content_version TEXT NOT NULL,
                display_name TEXT NOT NULL,
                language TEXT NOT NULL,
                archive_sha256 TEXT NOT NULL CHECK (length(archive_sha256) = 64),
                installed_date INTEGER NOT NULL,
                is_base INTEGER NOT NULL CHECK (is_base IN (0, 1)),
                word_count INTEGER NOT NULL CHECK (word_count >= 0)
            );
            CREATE TABLE categories (
                id INTEGER PRIMARY KEY,
                pack TEXT NOT NULL REFERENCES packs(product_id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                first_word INTEGER NOT NULL,
                word_count INTEGER NOT NULL CHECK (word_count > 0)
            );
            CREATE INDEX categories_by_pack ON categories(pack);
            CREATE TABLE words (
                id INTEGER PRIMARY KEY,
                word TEXT NOT NULL,
                clue TEXT,
                -- The form the game compares letters in; NULL when it is the word itself (most words).
                folded TEXT
            );
            """)
        migrator.register("2-games", sql: """
            -- The game in progress, saved after every move so that it survives Ctrl-C, a crash or a quit.
            CREATE TABLE current_game (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                game_id TEXT NOT NULL,
                word TEXT NOT NULL,
                clue TEXT,
                pack TEXT NOT NULL,
                pack_name TEXT NOT NULL,
                category TEXT NOT NULL,
                language TEXT NOT NULL,
                lives INTEGER NOT NULL CHECK (lives > 0),
                started_date INTEGER NOT NULL
            );
            CREATE TABLE current_moves (
                seq INTEGER PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('guess', 'hint')),
                value TEXT NOT NULL
            );
            CREATE TABLE games (
                id TEXT PRIMARY KEY,
                pack TEXT NOT NULL,
                category TEXT NOT NULL,
                word TEXT NOT NULL,
                result TEXT NOT NULL CHECK (result IN ('won', 'lost', 'abandoned')),
                misses INTEGER NOT NULL,
                hints INTEGER NOT NULL,
                score INTEGER NOT NULL,
                finished_date INTEGER NOT NULL
            );
            """)
        migrator.register("3-deliveries", sql: """
            -- Which purchases this device has taken delivery of. A purchase that became owned while
            -- this device existed (approved by a parent, resolved, completed after a crash) and that
            -- is not listed here is installed at the next start, once; a pack the player uninstalled
            -- stays listed and is not brought back unasked. 'owned-before' rows are what the account
            -- owned when this device first took stock: those come back with 'restore'.
            CREATE TABLE deliveries (
                transaction_id TEXT PRIMARY KEY,
                product_id TEXT NOT NULL,
                how TEXT NOT NULL CHECK (how IN ('installed', 'owned-before')),
                recorded_date INTEGER NOT NULL
            );
            CREATE TABLE device_facts (
                name TEXT PRIMARY KEY,
                value TEXT NOT NULL
            );
            """)
        migrator.register("4-saved-games", sql: """
            -- Saved games, one per slot: a process plays the game of a slot only while it holds that
            -- slot's lock (game-<slot>.lock in the device folder), so two terminals never play, and
            -- pay hints for, the same game at once; a second terminal gets a slot of its own.
            -- Moves belong to their game. A game id is unique per game (128 random bits): hints are
            -- paid under '<game id>-hint-<n>', and stats keep every finished game.
            CREATE TABLE saved_games (
                game_id TEXT PRIMARY KEY,
                slot INTEGER NOT NULL UNIQUE CHECK (slot > 0),
                word TEXT NOT NULL,
                clue TEXT,
                pack TEXT NOT NULL,
                pack_name TEXT NOT NULL,
                category TEXT NOT NULL,
                language TEXT NOT NULL,
                lives INTEGER NOT NULL CHECK (lives > 0),
                started_date INTEGER NOT NULL
            );
            CREATE TABLE saved_moves (
                game_id TEXT NOT NULL REFERENCES saved_games(game_id) ON DELETE CASCADE,
                seq INTEGER NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('guess', 'hint')),
                value TEXT NOT NULL,
                PRIMARY KEY (game_id, seq)
            );
            -- The game saved by an earlier version moves to slot 1. Its id came from the seeded
            -- generator: when a finished game already had it (a replayed seed), its hints were paid
            -- under another game's keys, so it gets a fresh id.
            INSERT INTO saved_games (game_id, slot, word, clue, pack, pack_name, category, language, lives, started_date)
                SELECT CASE WHEN game_id IN (SELECT id FROM games) THEN lower(hex(randomblob(16))) ELSE game_id END,
                       1, word, clue, pack, pack_name, category, language, lives, started_date
                FROM current_game;
            INSERT INTO saved_moves (game_id, seq, kind, value)
                SELECT (SELECT game_id FROM saved_games WHERE slot = 1), seq, kind, value FROM current_moves
                WHERE EXISTS (SELECT 1 FROM saved_games WHERE slot = 1);
            DROP TABLE current_moves;
            DROP TABLE current_game;
            """)
        migrator.register("5-word-chunks", sql: """
            -- Up to 64 words of one category, in order, as a JSON array of strings; their clues as a
            -- JSON array of strings and nulls, or NULL when none of them has a clue.
            CREATE TABLE word_chunks (
                id INTEGER PRIMARY KEY,
                words TEXT NOT NULL,
                clues TEXT
            );
            -- NULL for a category installed before chunks: its words are rows of word_rows.
            ALTER TABLE categories ADD COLUMN first_chunk INTEGER;
            ALTER TABLE words RENAME TO word_rows;
            CREATE VIEW words (id, word, clue, folded) AS
                SELECT id, word, clue, folded FROM word_rows
                UNION ALL
                SELECT c.first_word + (k.id - c.first_chunk) * 64 + w.key, w.value, json_extract(k.clues, '$[' || w.key || ']'), NULL
                FROM categories c
                JOIN word_chunks k ON k.id BETWEEN c.first_chunk AND c.first_chunk + (c.word_count - 1) / 64
                JOIN json_each(k.words) w;
            """)
        migrator.register("6-themes", sql: """
            -- Installed theme packs: the gallows as art. Each drawing's lines joined by a newline,
            -- the drawings of a set by U+001E (a verified drawing is printable ASCII).
            CREATE TABLE themes (
                product_id TEXT PRIMARY KEY,
                content_version TEXT NOT NULL,
                display_name TEXT NOT NULL,
                archive_sha256 TEXT NOT NULL,
                installed_date INTEGER NOT NULL,
                frames TEXT NOT NULL,
                small_frames TEXT NOT NULL
            );
            """)
        return migrator
    }()

    /// Words in a full row of `word_chunks`.
    static let wordsPerChunk = 64
}
