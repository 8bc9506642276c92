#include "CICU.h"
#include <unicode/uspoof.h>
#include <unicode/unorm2.h>

void *hp_spoof_open(void) {
    UErrorCode status = U_ZERO_ERROR;
    USpoofChecker *checker = uspoof_open(&status);
    if (U_FAILURE(status) || checker == NULL) return NULL;
    uspoof_setChecks(checker, USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE | USPOOF_MIXED_NUMBERS, &status);
    uspoof_setRestrictionLevel(checker, USPOOF_SINGLE_SCRIPT_RESTRICTIVE);
    if (U_FAILURE(status)) {
        uspoof_close(checker);
        return NULL;
    }
    return checker;
}

void hp_spoof_close(void *checker) {
    if (checker != NULL) uspoof_close((USpoofChecker *)checker);
}

int32_t hp_spoof_check(void *checker, const char *text, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t result = uspoof_check2UTF8((const USpoofChecker *)checker, text, length, NULL, &status);
    if (U_FAILURE(status)) return -1;
    int32_t bits = 0;
    if (result & USPOOF_RESTRICTION_LEVEL) bits |= HP_SPOOF_MIXED_SCRIPTS;
    if (result & USPOOF_INVISIBLE) bits |= HP_SPOOF_INVISIBLE;
    if (result & USPOOF_MIXED_NUMBERS) bits |= HP_SPOOF_MIXED_NUMBERS;
    return bits;
}

int32_t hp_spoof_skeleton(void *checker, const char *text, int32_t length, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t needed = uspoof_getSkeletonUTF8((const USpoofChecker *)checker, 0, text, length, out, capacity, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return needed;
    return U_FAILURE(status) ? -1 : needed;
}

int32_t hp_nfkc_casefold(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2 *normalizer = unorm2_getNFKCCasefoldInstance(&status);
    if (U_FAILURE(status) || normalizer == NULL) return -1;
    int32_t needed = unorm2_normalize(normalizer, (const UChar *)text, length, (UChar *)out, capacity, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return needed;
    return U_FAILURE(status) ? -1 : needed;
}
