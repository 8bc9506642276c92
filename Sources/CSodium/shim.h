#ifndef HANGMAN_CSODIUM_SHIM_H
#define HANGMAN_CSODIUM_SHIM_H
#include <sodium.h>
#endif
