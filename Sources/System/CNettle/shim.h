#ifndef HANGMAN_CNETTLE_SHIM_H
#define HANGMAN_CNETTLE_SHIM_H
/* The header's names (sha256_init, ...) are macros for the nettle_-prefixed functions, which
   are the names Swift sees. */
#include <nettle/sha2.h>
#include <nettle/eddsa.h>
#include <nettle/md5.h>
#include <nettle/hmac.h>
#endif
