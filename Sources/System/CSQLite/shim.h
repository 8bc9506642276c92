#ifndef HANGMAN_CSQLITE_SHIM_H
#define HANGMAN_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast macro, which Swift does not import. */
static inline sqlite3_destructor_type hangman_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/* sqlite3_db_config is variadic, which Swift does not import: one wrapper per option used. */
static inline int hangman_sqlite_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

#endif
