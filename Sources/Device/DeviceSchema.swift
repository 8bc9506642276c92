import SQLite

/// The device's database: installed packs and their words, laid out so that a game starts with
/// one indexed lookup whatever the number of words.
///
/// A pack's words are inserted in one transaction, list by list, so each list (category) owns a
/// contiguous range of `words.id`: picking a random word is choosing an offset in those ranges and
/// reading one row by its id; removing a pack deletes id ranges, no other index needed.
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
                folded TEXT NOT NULL
            );
            """)
        return migrator
    }()
}
