#ifndef HANGMAN_CMICROHTTPD_SHIM_H
#define HANGMAN_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <microhttpd.h>
#include <gnutls/gnutls.h>
#include <gnutls/abstract.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <netdb.h>
#include <time.h>
#include <errno.h>
#include <stdio.h>

/* A per-request deadline beyond libmicrohttpd's idle timeout, which a client resets with every
   byte: a connection that has not delivered a whole request (line, headers and body) within
   `limit` seconds of connecting or of its previous response being sent is shut down, however
   steadily it trickles. Sending a response has no deadline (a large download on a slow link).
   Each connection's entry hangs from its socket context: a request marks it with two atomic
   stores, no lock. The list of entries is guarded by one mutex, taken when a connection opens or
   closes and by the sweeper; libmicrohttpd reports a connection closed before it closes its
   socket, so the sweeper never shuts down a descriptor that was reused. */
struct hangman_watch_entry {
    int fd;
    _Atomic int64_t since_ns; /* -1 while a response is being sent, or a handler runs */
    struct hangman_watch_entry *previous, *next;
};

struct hangman_watchdog {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    int stopping;
    int64_t limit_ns;
    struct hangman_watch_entry *first;
    unsigned long cut;
};

static inline int64_t hangman_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static inline void hangman_watch_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
                                        enum MHD_ConnectionNotificationCode code) {
    struct hangman_watchdog *dog = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        struct hangman_watch_entry *entry = info == NULL ? NULL : calloc(1, sizeof *entry);
        *socket_context = entry;
        if (entry == NULL) return;
        entry->fd = info->connect_fd;
        atomic_store_explicit(&entry->since_ns, hangman_now_ns(), memory_order_relaxed);
        pthread_mutex_lock(&dog->lock);
        entry->next = dog->first;
        if (dog->first != NULL) dog->first->previous = entry;
        dog->first = entry;
        pthread_mutex_unlock(&dog->lock);
    } else {
        struct hangman_watch_entry *entry = *socket_context;
        if (entry == NULL) return;
        *socket_context = NULL;
        pthread_mutex_lock(&dog->lock);
        if (entry->previous != NULL) entry->previous->next = entry->next; else dog->first = entry->next;
        if (entry->next != NULL) entry->next->previous = entry->previous;
        pthread_mutex_unlock(&dog->lock);
        free(entry);
    }
}

static inline struct hangman_watch_entry *hangman_watch_entry_of(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info == NULL ? NULL : info->socket_context;
}

/* A request is whole, or was refused: no deadline while it is answered and the answer sent. */
static inline void hangman_watch_answered(struct MHD_Connection *connection) {
    struct hangman_watch_entry *entry = hangman_watch_entry_of(connection);
    if (entry != NULL) atomic_store_explicit(&entry->since_ns, -1, memory_order_relaxed);
}

/* A request ended (its response sent): the next one must arrive within the limit. */
static inline void hangman_watch_completed(struct MHD_Connection *connection) {
    struct hangman_watch_entry *entry = hangman_watch_entry_of(connection);
    if (entry != NULL) atomic_store_explicit(&entry->since_ns, hangman_now_ns(), memory_order_relaxed);
}

static inline void *hangman_watch_run(void *argument) {
    struct hangman_watchdog *dog = argument;
    pthread_mutex_lock(&dog->lock);
    while (!dog->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += 250000000;
        if (until.tv_nsec >= 1000000000) { until.tv_sec += 1; until.tv_nsec -= 1000000000; }
        pthread_cond_timedwait(&dog->wake, &dog->lock, &until);
        int64_t now = hangman_now_ns();
        for (struct hangman_watch_entry *entry = dog->first; entry != NULL; entry = entry->next) {
            int64_t since = atomic_load_explicit(&entry->since_ns, memory_order_relaxed);
            /* Only if it was not answered meanwhile: a request that became whole goes on. */
            if (since >= 0 && now - since > dog->limit_ns &&
                atomic_compare_exchange_strong_explicit(&entry->since_ns, &since, -1, memory_order_relaxed, memory_order_relaxed)) {
                shutdown(entry->fd, SHUT_RDWR);
                dog->cut++;
            }
        }
    }
    pthread_mutex_unlock(&dog->lock);
    return NULL;
}

/* Starts the sweeper; NULL when it cannot. */
static inline struct hangman_watchdog *hangman_watch_start(unsigned int limit_seconds) {
    struct hangman_watchdog *dog = calloc(1, sizeof *dog);
    if (dog == NULL) return NULL;
    pthread_mutex_init(&dog->lock, NULL);
    /* Timed waits on the monotonic clock: a wall clock stepped back does not stall the sweeper. */
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&dog->wake, &attributes);
    pthread_condattr_destroy(&attributes);
    dog->limit_ns = (int64_t)limit_seconds * 1000000000;
    if (pthread_create(&dog->thread, NULL, hangman_watch_run, dog) != 0) {
        free(dog);
        return NULL;
    }
    return dog;
}

/* Connections shut down for missing the deadline so far. */
static inline unsigned long hangman_watch_cut(struct hangman_watchdog *dog) {
    pthread_mutex_lock(&dog->lock);
    unsigned long cut = dog->cut;
    pthread_mutex_unlock(&dog->lock);
    return cut;
}

/* Stops the sweeper and frees it; call after the daemon has stopped. */
static inline void hangman_watch_stop(struct hangman_watchdog *dog) {
    pthread_mutex_lock(&dog->lock);
    dog->stopping = 1;
    pthread_cond_signal(&dog->wake);
    pthread_mutex_unlock(&dog->lock);
    pthread_join(dog->thread, NULL);
    pthread_mutex_destroy(&dog->lock);
    pthread_cond_destroy(&dog->wake);
    /* The daemon has stopped, and told of every connection's end: the list is empty. */
    free(dog);
}

/* The port the daemon listens on (port 0 asks the system for a free one). */
/* The client's address as text (IPv4 or IPv6) into `buffer`; an empty string when unknown. */
static inline void hangman_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    buffer[0] = 0;
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET && size >= 16) {
        /* What inet_ntop writes, without its printf (every request asks). */
        const unsigned char *octets = (const unsigned char *)&((const struct sockaddr_in *)address)->sin_addr;
        char *at = buffer;
        for (int i = 0; i < 4; i++) {
            unsigned int octet = octets[i];
            if (octet >= 100) *at++ = (char)('0' + octet / 100);
            if (octet >= 10) *at++ = (char)('0' + octet / 10 % 10);
            *at++ = (char)('0' + octet % 10);
            *at++ = i < 3 ? '.' : 0;
        }
    } else if (address->sa_family == AF_INET6) {
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, (socklen_t)size);
    }
}

static inline uint16_t hangman_MHD_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* libmicrohttpd keeps each query parameter in the connection's memory pool: a request target of
   thousands of `a&a&a` runs the pool dry, and the connection is closed with no answer. Called with
   the whole target before its parameters are split (MHD_OPTION_URI_LOG_CALLBACK); past `limit`
   parameters the query is cut off in place (libmicrohttpd 0.9 splits what follows the '?', which
   is now empty) and the request starts marked, so that its handler answers 414. */
static inline void *hangman_query_guard(void *cls, const char *uri, struct MHD_Connection *connection) {
    (void)connection;
    unsigned int limit = (unsigned int)(uintptr_t)cls;
    char *query = strchr(uri, '?');
    if (query == NULL) return NULL;
    unsigned int parameters = 1;
    for (const char *at = query + 1; *at != 0; at++) {
        if (*at == '&' || *at == ';') parameters++;
    }
    if (parameters <= limit) return NULL;
    query[1] = 0;
    /* The mark: an address no request state can have (a header-only file defines no variable). */
    return (void *)&hangman_query_guard;
}

/* Whether a request starts marked by `hangman_query_guard`. */
static inline int hangman_is_too_many_parameters(void *pointer) {
    return pointer == (void *)&hangman_query_guard;
}

/* The header fields a request may carry once: with two, two readers could take different ones
   (which of two `Authorization` values would count?). */
#define HANGMAN_SINGLE_HEADERS 6
static const char *const hangman_single_headers[HANGMAN_SINGLE_HEADERS] = {
    "authorization", "host", "content-length", "idempotency-key", "range", "if-range"};
#define HANGMAN_HOST_HEADER 1
#define HANGMAN_CONTENT_LENGTH_HEADER 2
/* Fields a request may carry at most (Apache allows 100). */
#define HANGMAN_MAX_FIELDS 128

/* What the access handler checks of a request's header fields, found in one pass over them. */
struct hangman_header_facts {
    /* Over HANGMAN_MAX_FIELDS fields: nothing else below is known. */
    int too_many;
    /* How often each of hangman_single_headers appears. */
    int single[HANGMAN_SINGLE_HEADERS];
    int transfer_encoding;
    /* The (first) Content-Length value, or NULL. */
    const char *content_length;
    /* Whether a value held a NUL: libmicrohttpd reports the value up to it, so `token\0junk`
       would read as `token`. */
    int hides_bytes;
    /* The fields' bytes as sent, at least: each name, `: `, value and CR LF. */
    size_t size;
    /* Whether a name held a byte no field name may (RFC 9110 5.1: a token), as whitespace before
       the colon: `Content-Length : 5` is not Content-Length to every reader (RFC 9112 5.1: 400). */
    int bad_name;
};

struct hangman_field_scan {
    const char *keys[HANGMAN_MAX_FIELDS];
    const char *ends[HANGMAN_MAX_FIELDS];
    size_t count;
    struct hangman_header_facts *facts;
};

static inline int hangman_name_is(const char *key, size_t key_size, const char *lower) {
    size_t length = strlen(lower);
    if (key_size != length) return 0;
    for (size_t i = 0; i < length; i++) {
        char c = key[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c | 0x20);
        if (c != lower[i]) return 0;
    }
    return 1;
}

static inline enum MHD_Result hangman_scan_field(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size,
                                                 const char *value, size_t value_size) {
    (void)kind;
    struct hangman_field_scan *scan = cls;
    if (scan->count == HANGMAN_MAX_FIELDS) { scan->facts->too_many = 1; return MHD_NO; }
    scan->keys[scan->count] = key;
    scan->ends[scan->count] = value == NULL ? NULL : value + value_size;
    scan->count++;
    scan->facts->size += key_size + value_size + 4;
    if (key == NULL) return MHD_YES;
    if (key_size == 0) scan->facts->bad_name = 1;
    for (size_t i = 0; i < key_size; i++) {
        unsigned char c = (unsigned char)key[i];
        int token = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL);
        if (!token) { scan->facts->bad_name = 1; break; }
    }
    for (int i = 0; i < HANGMAN_SINGLE_HEADERS; i++) {
        if (hangman_name_is(key, key_size, hangman_single_headers[i])) {
            scan->facts->single[i]++;
            if (i == HANGMAN_CONTENT_LENGTH_HEADER && scan->facts->content_length == NULL) scan->facts->content_length = value;
        }
    }
    if (hangman_name_is(key, key_size, "transfer-encoding")) scan->facts->transfer_encoding++;
    return MHD_YES;
}

/* The facts of a request's header fields. Each value ends where libmicrohttpd put its
   terminator; the byte after that terminator is the line's end (CR LF, both cleared), the next
   field's name (a bare LF ending), or, when a NUL cut the value short, the rest of the value. */
static inline void hangman_header_facts(struct MHD_Connection *connection, struct hangman_header_facts *facts) {
    memset(facts, 0, sizeof *facts);
    struct hangman_field_scan scan;
    scan.count = 0;
    scan.facts = facts;
    MHD_get_connection_values_n(connection, MHD_HEADER_KIND, hangman_scan_field, &scan);
    if (facts->too_many) return;
    for (size_t i = 0; i < scan.count; i++) {
        const char *end = scan.ends[i];
        if (end == NULL || end[0] != 0) continue;
        char after = end[1];
        if (after == 0 || after == '\r' || after == '\n') continue;
        int next_field = 0;
        for (size_t j = 0; j < scan.count; j++) {
            if (scan.keys[j] == end + 1) { next_field = 1; break; }
        }
        if (!next_field) { facts->hides_bytes = 1; return; }
    }
}

/* The first of hangman_single_headers that appears more than once, or -1. */
static inline int hangman_repeated_header(const struct hangman_header_facts *facts) {
    for (int i = 0; i < HANGMAN_SINGLE_HEADERS; i++) {
        if (facts->single[i] > 1) return i;
    }
    return -1;
}

/* How often hangman_single_headers[index] appears. */
static inline int hangman_header_count(const struct hangman_header_facts *facts, int index) {
    return index >= 0 && index < HANGMAN_SINGLE_HEADERS ? facts->single[index] : 0;
}

/* The name of hangman_single_headers[index]. */
static inline const char *hangman_single_header(int index) {
    return index >= 0 && index < HANGMAN_SINGLE_HEADERS ? hangman_single_headers[index] : "";
}

/* `host` (a numeric IPv4 or IPv6 address) and `port` as a socket address; -1 when `host` is
   neither. An IPv6 socket takes IPv6 only (a separate --listen serves IPv4). */
static inline int hangman_socket_address(const char *host, uint16_t port, struct sockaddr_storage *storage) {
    memset(storage, 0, sizeof *storage);
    struct sockaddr_in *v4 = (struct sockaddr_in *)storage;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons(port);
        return 0;
    }
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)storage;
    if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons(port);
        return 0;
    }
    return -1;
}

/* Why listening on `host`:`port` fails, as bind(2) says it (EADDRINUSE: taken, EADDRNOTAVAIL: not
   this machine's, EACCES: a privileged port); 0 when a bind succeeds now; EINVAL for an address
   that is not numeric. */
static inline int hangman_bind_error(const char *host, uint16_t port) {
    struct sockaddr_storage address;
    if (hangman_socket_address(host, port, &address) != 0) return EINVAL;
    int fd = socket(address.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return errno;
    int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (address.ss_family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &yes, sizeof yes);
    socklen_t length = address.ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    int result = bind(fd, (struct sockaddr *)&address, length) == 0 ? 0 : errno;
    close(fd);
    return result;
}

/* The connections the daemon holds now (MHD_get_daemon_info is variadic). */
static inline unsigned int hangman_open_connections(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info == NULL ? 0 : info->num_connections;
}

/* The certificate each HTTPS listener serves, chosen at each handshake
   (MHD_OPTION_HTTPS_CERT_CALLBACK) by the listener's port, so that a new one is served from the
   next handshake on without restarting anything (SIGHUP). A replaced certificate is kept until the
   process ends (a few kilobytes a reload): a handshake that took it never sees it freed. */
struct hangman_certificate {
    gnutls_pcert_st chain[8];
    unsigned int count;
    gnutls_privkey_t key;
};

#define HANGMAN_TLS_SLOTS 64
struct hangman_tls_table {
    struct {
        _Atomic(unsigned int) port;
        _Atomic(struct hangman_certificate *) certificate;
    } slots[HANGMAN_TLS_SLOTS];
    /* The last one loaded: a handshake on a listener not registered yet (the moment it starts). */
    _Atomic(struct hangman_certificate *) last;
    pthread_mutex_t lock;
};

/* The process's one table (a header cannot own a global: HTTPServer allocates it, zeroed, once). */
extern struct hangman_tls_table *hangman_tls_table_get(void);
#define hangman_tls_slots (hangman_tls_table_get()->slots)
#define hangman_last_certificate (hangman_tls_table_get()->last)
#define hangman_tls_lock (hangman_tls_table_get()->lock)

static inline int hangman_certificate_callback(
    gnutls_session_t session, const gnutls_datum_t *requested, int requested_count, const gnutls_pk_algorithm_t *algorithms,
    int algorithm_count, gnutls_pcert_st **chain, unsigned int *chain_length, gnutls_privkey_t *key)
{
    (void)requested; (void)requested_count; (void)algorithms; (void)algorithm_count;
    struct hangman_certificate *served = NULL;
    struct sockaddr_storage local;
    socklen_t length = sizeof local;
    int fd = gnutls_transport_get_int(session);
    if (fd >= 0 && getsockname(fd, (struct sockaddr *)&local, &length) == 0) {
        unsigned int port = local.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&local)->sin6_port) : ntohs(((struct sockaddr_in *)&local)->sin_port);
        for (int i = 0; i < HANGMAN_TLS_SLOTS && served == NULL; i++) {
            if (atomic_load(&hangman_tls_slots[i].port) == port) served = atomic_load(&hangman_tls_slots[i].certificate);
        }
    }
    if (served == NULL) served = atomic_load(&hangman_last_certificate);
    if (served == NULL) return -1;
    *chain = served->chain;
    *chain_length = served->count;
    *key = served->key;
    return 0;
}

/* Reads a PEM certificate chain and its private key and checks that the key is the
   certificate's (a signature made with one verifies with the other). NULL, with the negative
   gnutls error in `error`, when they do not. */
static inline struct hangman_certificate *hangman_tls_parse(const char *certificate_pem, const char *key_pem, int *error) {
    struct hangman_certificate *loaded = calloc(1, sizeof *loaded);
    if (loaded == NULL) { *error = GNUTLS_E_MEMORY_ERROR; return NULL; }
    gnutls_datum_t certificate = {(unsigned char *)certificate_pem, (unsigned int)strlen(certificate_pem)};
    gnutls_datum_t key = {(unsigned char *)key_pem, (unsigned int)strlen(key_pem)};
    loaded->count = 8;
    int result = gnutls_pcert_list_import_x509_raw(loaded->chain, &loaded->count, &certificate, GNUTLS_X509_FMT_PEM, 0);
    if (result < 0 || loaded->count == 0) {
        free(loaded);
        *error = result < 0 ? result : GNUTLS_E_NO_CERTIFICATE_FOUND;
        return NULL;
    }
    result = gnutls_privkey_init(&loaded->key);
    if (result >= 0) result = gnutls_privkey_import_x509_raw(loaded->key, &key, GNUTLS_X509_FMT_PEM, NULL, 0);
    if (result >= 0) {
        const gnutls_datum_t probe = {(unsigned char *)"hangman", 7};
        gnutls_datum_t signature = {NULL, 0};
        result = gnutls_privkey_sign_data(loaded->key, GNUTLS_DIG_SHA256, 0, &probe, &signature);
        if (result >= 0) {
            int algorithm = gnutls_pk_to_sign(gnutls_pubkey_get_pk_algorithm(loaded->chain[0].pubkey, NULL), GNUTLS_DIG_SHA256);
            result = gnutls_pubkey_verify_data2(loaded->chain[0].pubkey, algorithm, 0, &probe, &signature);
            gnutls_free(signature.data);
        }
    }
    if (result < 0) {
        for (unsigned int i = 0; i < loaded->count; i++) gnutls_pcert_deinit(&loaded->chain[i]);
        if (loaded->key != NULL) gnutls_privkey_deinit(loaded->key);
        free(loaded);
        *error = result;
        return NULL;
    }
    atomic_store(&hangman_last_certificate, loaded);
    return loaded;
}

/* Serves `certificate` on the listener at `port` from the next handshake on (registering it
   the first time). 0, or -1 when every slot is taken. */
static inline int hangman_tls_serve(unsigned int port, struct hangman_certificate *certificate) {
    pthread_mutex_lock(&hangman_tls_lock);
    int result = -1;
    for (int i = 0; i < HANGMAN_TLS_SLOTS && result != 0; i++) {
        if (atomic_load(&hangman_tls_slots[i].port) == port) {
            atomic_store(&hangman_tls_slots[i].certificate, certificate);
            result = 0;
        }
    }
    for (int i = 0; i < HANGMAN_TLS_SLOTS && result != 0; i++) {
        if (atomic_load(&hangman_tls_slots[i].port) == 0) {
            atomic_store(&hangman_tls_slots[i].certificate, certificate);
            atomic_store(&hangman_tls_slots[i].port, port);
            result = 0;
        }
    }
    pthread_mutex_unlock(&hangman_tls_lock);
    return result;
}

/* The listener at `port` stopped: its slot is free again. */
static inline void hangman_tls_forget(unsigned int port) {
    pthread_mutex_lock(&hangman_tls_lock);
    for (int i = 0; i < HANGMAN_TLS_SLOTS; i++) {
        if (atomic_load(&hangman_tls_slots[i].port) == port) atomic_store(&hangman_tls_slots[i].port, 0);
    }
    pthread_mutex_unlock(&hangman_tls_lock);
}

/* libmicrohttpd's own messages (a malformed request it answered itself, a connection over a
   limit), formatted here (Swift cannot take a va_list) and handed to `sink`. */
struct hangman_logger {
    void (*sink)(void *context, const char *message);
    void *context;
};

static inline void hangman_mhd_log(void *cls, const char *format, va_list arguments) {
    struct hangman_logger *logger = cls;
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    size_t length = strlen(message);
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == '\r')) message[--length] = 0;
    if (logger != NULL && logger->sink != NULL) logger->sink(logger->context, message);
}

/* MHD_start_daemon is variadic, which Swift cannot call: this one takes every option the server
   sets as a plain argument and builds the option list in C. `host` is an IPv4 address; `key` and
   `certificate` are PEM text, or NULL for plain HTTP. `threads` polling threads (epoll) share the
   connections and run the handler. Returns NULL when the address is invalid or the daemon cannot
   start. */
static inline struct MHD_Daemon *hangman_MHD_start(
    unsigned int flags, const char *host, uint16_t port,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    size_t memory_limit, unsigned int timeout_seconds, unsigned int per_address_limit,
    unsigned int connection_limit, unsigned int threads, unsigned int query_limit,
    const char *key, const char *certificate, struct hangman_watchdog *watchdog, struct hangman_logger *logger)
{
    struct sockaddr_storage address;
    if (hangman_socket_address(host, port, &address) != 0) return NULL;
    if (address.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
    /* The logger first: libmicrohttpd's messages about the options after it come through it too. */
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)hangman_mhd_log, logger},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)memory_limit, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)timeout_seconds, NULL},
        {MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)per_address_limit, NULL},
        {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)connection_limit, NULL},
        {MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)threads, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_context},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)hangman_watch_notify, watchdog},
        {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)hangman_query_guard, (void *)(uintptr_t)query_limit},
        {MHD_OPTION_SOCK_ADDR, 0, (struct sockaddr *)&address},
        {MHD_OPTION_HTTPS_CERT_CALLBACK, 0, (void *)hangman_certificate_callback},
        /* TLS 1.2 and 1.3 only: gnutls' default priority also lets TLS 1.0 and 1.1 through. */
        {MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)"NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2"},
        {MHD_OPTION_END, 0, NULL},
    };
    if (key == NULL || certificate == NULL) {
        options[10] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    } else {
        /* The certificate itself is parsed and registered by the caller (hangman_tls_parse, _serve). */
        flags |= MHD_USE_TLS;
    }
    if (logger != NULL) flags |= MHD_USE_ERROR_LOG;
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}
#endif
