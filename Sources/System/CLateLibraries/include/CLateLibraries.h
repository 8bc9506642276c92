#ifndef HANGMAN_CLATELIBRARIES_H
#define HANGMAN_CLATELIBRARIES_H
/* The libraries only some commands need, loaded when first used rather than at start (late.c): a
   game that reads SQLite maps no TLS stack, HTTP client, database client or archive reader. Nothing
   here is called by name: the program calls the libraries' own functions, which late.c defines. */
#endif
