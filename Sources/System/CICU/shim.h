// ICU's spoof checker (Unicode TR39): confusable skeletons, mixed scripts, invisible characters.
// ICU renames every function with its version (uspoof_open_72) through macros Swift does not
// read: each call used is wrapped here under a name of its own.
#include <unicode/uspoof.h>
#include <unicode/unorm2.h>

static inline USpoofChecker *hp_uspoof_open(UErrorCode *status) { return uspoof_open(status); }
static inline void hp_uspoof_close(USpoofChecker *checker) { uspoof_close(checker); }
static inline void hp_uspoof_setChecks(USpoofChecker *checker, int32_t checks, UErrorCode *status) { uspoof_setChecks(checker, checks, status); }
static inline void hp_uspoof_setRestrictionLevel(USpoofChecker *checker, URestrictionLevel level) { uspoof_setRestrictionLevel(checker, level); }
static inline int32_t hp_uspoof_checkUTF8(const USpoofChecker *checker, const char *text, int32_t length, UErrorCode *status) {
    return uspoof_check2UTF8(checker, text, length, NULL, status);
}
static inline int32_t hp_uspoof_getSkeletonUTF8(const USpoofChecker *checker, const char *text, int32_t length, char *out, int32_t capacity, UErrorCode *status) {
    return uspoof_getSkeletonUTF8(checker, 0, text, length, out, capacity, status);
}
static inline int hp_u_failure(UErrorCode status) { return U_FAILURE(status); }
static inline const UNormalizer2 *hp_unorm2_nfkcCasefold(UErrorCode *status) { return unorm2_getNFKCCasefoldInstance(status); }
static inline int32_t hp_unorm2_normalize(const UNormalizer2 *normalizer, const UChar *text, int32_t length, UChar *out, int32_t capacity, UErrorCode *status) {
    return unorm2_normalize(normalizer, text, length, out, capacity, status);
}

static const int32_t HP_USPOOF_RESTRICTION_LEVEL = USPOOF_RESTRICTION_LEVEL;
static const int32_t HP_USPOOF_INVISIBLE = USPOOF_INVISIBLE;
static const int32_t HP_USPOOF_MIXED_NUMBERS = USPOOF_MIXED_NUMBERS;
static const URestrictionLevel HP_USPOOF_SINGLE_SCRIPT_RESTRICTIVE = USPOOF_SINGLE_SCRIPT_RESTRICTIVE;
