#ifndef HANGMAN_CLATELIBRARIES_H
#define HANGMAN_CLATELIBRARIES_H
#include <stddef.h>

/* The libraries only some commands need, loaded when first used rather than at start: a game
   that reads SQLite maps no TLS stack, HTTP client, database client or archive reader. */
enum hangman_late_library {
    HANGMAN_LATE_LIBPQ = 0,
    HANGMAN_LATE_MICROHTTPD = 1,
    HANGMAN_LATE_CURL = 2,
    HANGMAN_LATE_GNUTLS = 3,
    HANGMAN_LATE_ARCHIVE = 4,
};

/* Loads `library` and resolves every function the program calls in it, once per process: 0, or
   -1 with the reason (the loader's) in `error`. */
int hangman_late_load(int library, char *error, size_t size);
#endif
