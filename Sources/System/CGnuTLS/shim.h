#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>

/* gnutls_free is a function pointer variable: called through a function, Swift sees no shared state. */
static inline void hp_gnutls_free(void *pointer) { gnutls_free(pointer); }
