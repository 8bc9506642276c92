#ifndef HANGMAN_CLIBPQ_SHIM_H
#define HANGMAN_CLIBPQ_SHIM_H
/* Debian keeps the header in /usr/include/postgresql (libpq-dev). */
#include <postgresql/libpq-fe.h>
#endif
