#ifndef HANGMAN_CARCHIVE_SHIM_H
#define HANGMAN_CARCHIVE_SHIM_H
#include <archive.h>
#include <archive_entry.h>
#include <locale.h>

/* The AE_IF* file-type macros are casts, which Swift does not import. */
static const unsigned int hangman_AE_IFMT = AE_IFMT;
static const unsigned int hangman_AE_IFREG = AE_IFREG;
static const unsigned int hangman_AE_IFLNK = AE_IFLNK;
static const unsigned int hangman_AE_IFSOCK = AE_IFSOCK;
static const unsigned int hangman_AE_IFCHR = AE_IFCHR;
static const unsigned int hangman_AE_IFBLK = AE_IFBLK;
static const unsigned int hangman_AE_IFDIR = AE_IFDIR;
static const unsigned int hangman_AE_IFIFO = AE_IFIFO;

#endif
