// ICU's spoof checker (Unicode TR39), NFKC case folding and its dates, behind plain C types: no ICU type
// reaches Swift, where Foundation's own copy of ICU declares the same names differently.
#ifndef HANGMAN_CICU_H
#define HANGMAN_CICU_H
#include <stdint.h>

/// What uspoof_check2 reports, as bits: letters of several scripts, invisible marks, digits of
/// several systems.
#define HP_SPOOF_MIXED_SCRIPTS 1
#define HP_SPOOF_INVISIBLE 2
#define HP_SPOOF_MIXED_NUMBERS 4

/// A spoof checker set to single-script restriction, invisible and mixed-number checks; NULL
/// when ICU cannot make one. One thread at a time.
void *hp_spoof_open(void);
void hp_spoof_close(void *checker);
/// The checks `text` (UTF-8) fails, as HP_SPOOF_ bits; -1 when ICU cannot check it.
int32_t hp_spoof_check(void *checker, const char *text, int32_t length);
/// The TR39 skeleton of `text` into `out` (UTF-8, not terminated): its length, which may be
/// more than `capacity` (then nothing useful is written: call again with more); -1 on failure.
int32_t hp_spoof_skeleton(void *checker, const char *text, int32_t length, char *out, int32_t capacity);
/// `text` (UTF-16) in NFKC with case folded, into `out`: its length, which may be more than
/// `capacity` (call again with more); -1 on failure.
int32_t hp_nfkc_casefold(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity);

/// A formatter of moments as `locale` (`de_DE`) writes a medium date and a short time, in UTC
/// (ICU's `udat_open`: `01.12.2026, 20:15`); NULL when ICU cannot make one. One thread at a time.
void *hp_date_formatter_open(const char *locale);
void hp_date_formatter_close(void *formatter);
/// A moment (milliseconds since 1970) into `out` (UTF-16): its length, which may be more than
/// `capacity` (call again with more); -1 on failure.
int32_t hp_date_format(void *formatter, double milliseconds, uint16_t *out, int32_t capacity);

#endif
