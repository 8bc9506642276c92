#include "CICU.h"
#include <dlfcn.h>
#include <pthread.h>
#include <unicode/uspoof.h>
#include <unicode/unorm2.h>
#include <unicode/udat.h>

/* ICU is loaded when first used (a name checked, a name folded), not at start: a game never maps
   its 30 MB of data or the C++ runtime it needs. The functions are ICU's versioned names
   (uspoof_open_72), read from the headers this is built with, as the linker would have bound
   them. Missing, every function below answers its failure (NULL or -1). */
#define ICU_STRING(x) #x
#define ICU_NAME(x) ICU_STRING(x)
#define ICU_FUNCTIONS(F) \
    F(uspoof_open) F(uspoof_setChecks) F(uspoof_setRestrictionLevel) F(uspoof_close) F(uspoof_check2UTF8) \
    F(uspoof_getSkeletonUTF8) F(unorm2_getNFKCCasefoldInstance) F(unorm2_normalize) F(udat_open) F(udat_format) \
    F(udat_close)

static struct {
#define POINTER(name) __typeof__(&name) name;
    ICU_FUNCTIONS(POINTER)
#undef POINTER
} icu;
static int icu_ready;
static pthread_once_t icu_once = PTHREAD_ONCE_INIT;

static void icu_load(void) {
    void *handle = dlopen("libicui18n.so." ICU_NAME(U_ICU_VERSION_MAJOR_NUM), RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return;
#define RESOLVE(name) \
    if ((icu.name = (__typeof__(&name))dlsym(handle, ICU_NAME(name))) == NULL) return;
    ICU_FUNCTIONS(RESOLVE)
#undef RESOLVE
    icu_ready = 1;
}

/* Whether ICU is loaded (loading it the first time). */
static int icu_loaded(void) {
    pthread_once(&icu_once, icu_load);
    return icu_ready;
}

void *hp_spoof_open(void) {
    if (!icu_loaded()) return NULL;
    UErrorCode status = U_ZERO_ERROR;
    USpoofChecker *checker = icu.uspoof_open(&status);
    if (U_FAILURE(status) || checker == NULL) return NULL;
    icu.uspoof_setChecks(checker, USPOOF_RESTRICTION_LEVEL | USPOOF_INVISIBLE | USPOOF_MIXED_NUMBERS, &status);
    icu.uspoof_setRestrictionLevel(checker, USPOOF_SINGLE_SCRIPT_RESTRICTIVE);
    if (U_FAILURE(status)) {
        icu.uspoof_close(checker);
        return NULL;
    }
    return checker;
}

void hp_spoof_close(void *checker) {
    if (checker != NULL) icu.uspoof_close((USpoofChecker *)checker);
}

int32_t hp_spoof_check(void *checker, const char *text, int32_t length) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t result = icu.uspoof_check2UTF8((const USpoofChecker *)checker, text, length, NULL, &status);
    if (U_FAILURE(status)) return -1;
    int32_t bits = 0;
    if (result & USPOOF_RESTRICTION_LEVEL) bits |= HP_SPOOF_MIXED_SCRIPTS;
    if (result & USPOOF_INVISIBLE) bits |= HP_SPOOF_INVISIBLE;
    if (result & USPOOF_MIXED_NUMBERS) bits |= HP_SPOOF_MIXED_NUMBERS;
    return bits;
}

int32_t hp_spoof_skeleton(void *checker, const char *text, int32_t length, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t needed = icu.uspoof_getSkeletonUTF8((const USpoofChecker *)checker, 0, text, length, out, capacity, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return needed;
    return U_FAILURE(status) ? -1 : needed;
}

int32_t hp_nfkc_casefold(const uint16_t *text, int32_t length, uint16_t *out, int32_t capacity) {
    if (!icu_loaded()) return -1;
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2 *normalizer = icu.unorm2_getNFKCCasefoldInstance(&status);
    if (U_FAILURE(status) || normalizer == NULL) return -1;
    int32_t needed = icu.unorm2_normalize(normalizer, (const UChar *)text, length, (UChar *)out, capacity, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return needed;
    return U_FAILURE(status) ? -1 : needed;
}

void *hp_date_formatter_open(const char *locale) {
    if (!icu_loaded()) return NULL;
    static const UChar utc[] = {'U', 'T', 'C'};
    UErrorCode status = U_ZERO_ERROR;
    UDateFormat *formatter = icu.udat_open(UDAT_SHORT, UDAT_MEDIUM, locale, utc, 3, NULL, 0, &status);
    if (U_FAILURE(status) || formatter == NULL) return NULL;
    return formatter;
}

void hp_date_formatter_close(void *formatter) {
    if (formatter != NULL) icu.udat_close((UDateFormat *)formatter);
}

int32_t hp_date_format(void *formatter, double milliseconds, uint16_t *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t needed = icu.udat_format((const UDateFormat *)formatter, milliseconds, (UChar *)out, capacity, NULL, &status);
    if (status == U_BUFFER_OVERFLOW_ERROR) return needed;
    return U_FAILURE(status) ? -1 : needed;
}
