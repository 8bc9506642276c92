#ifndef HANGMAN_CLIBPQ_SHIM_H
#define HANGMAN_CLIBPQ_SHIM_H
/* Debian keeps the header in /usr/include/postgresql; libpq.pc's Cflags names that folder. */
#include <libpq-fe.h>
#endif
