#ifndef HANGMAN_CSODIUM_SHIM_H
#define HANGMAN_CSODIUM_SHIM_H
/* libsodium's Ed25519: signing and verifying (crypto_sign_*), 1.7x and 1.8x nettle's speed on
   this machine. SHA-256 stays nettle's. */
#include <sodium.h>
#endif
