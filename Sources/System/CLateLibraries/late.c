/* Late binding for the libraries only some commands need (libpq, libmicrohttpd, libcurl, GnuTLS
   for the server and the network client; libarchive for reading and building packs): the
   executable does not name them, so the loader maps none of them at start, nor the 40 libraries
   they pull in (OpenSSL, Kerberos, LDAP, nghttp2, and libxml2 with ICU's 30 MB of data...).
 
   Each function the program calls in them is defined here as a small trampoline of the same name
   that jumps through a slot. A library's slots are filled when it is loaded: by the first call
   into it, whose trampoline saves the call's arguments, loads the library (`late_load`),
   and goes on, as the loader's own lazy binding does. A library that cannot be loaded ends the
   process there, with its name, the loader's reason, and 69. The System layer's Swift is the same
   as with the libraries linked. A function the program starts to call that is not listed below
   fails the link: add it, with its library. */
#define _GNU_SOURCE
#include "CLateLibraries.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The libraries, in the order of `late_names` below: each function names its own. */
enum { LIBPQ, MICROHTTPD, CURL, GNUTLS, ARCHIVE };

#define LATE_FUNCTIONS(F) \
    F(LIBPQ, PQclear) F(LIBPQ, PQcmdTuples) F(LIBPQ, PQconnectdbParams) F(LIBPQ, PQerrorMessage) \
    F(LIBPQ, PQexec) F(LIBPQ, PQexecParams) F(LIBPQ, PQexecPrepared) F(LIBPQ, PQfinish) \
    F(LIBPQ, PQgetisnull) F(LIBPQ, PQgetvalue) F(LIBPQ, PQnfields) F(LIBPQ, PQntuples) F(LIBPQ, PQprepare) \
    F(LIBPQ, PQresultErrorField) F(LIBPQ, PQresultErrorMessage) F(LIBPQ, PQresultStatus) \
    F(LIBPQ, PQsetNoticeProcessor) F(LIBPQ, PQstatus) \
    F(MICROHTTPD, MHD_add_response_header) F(MICROHTTPD, MHD_create_response_from_buffer) \
    F(MICROHTTPD, MHD_create_response_from_fd_at_offset64) F(MICROHTTPD, MHD_destroy_response) \
    F(MICROHTTPD, MHD_get_connection_info) F(MICROHTTPD, MHD_get_connection_values) \
    F(MICROHTTPD, MHD_get_connection_values_n) F(MICROHTTPD, MHD_get_daemon_info) \
    F(MICROHTTPD, MHD_queue_response) F(MICROHTTPD, MHD_quiesce_daemon) \
    F(MICROHTTPD, MHD_resume_connection) F(MICROHTTPD, MHD_start_daemon) \
    F(MICROHTTPD, MHD_start_daemon_va) F(MICROHTTPD, MHD_stop_daemon) \
    F(MICROHTTPD, MHD_suspend_connection) \
    F(CURL, curl_easy_cleanup) F(CURL, curl_easy_getinfo) F(CURL, curl_easy_header) \
    F(CURL, curl_easy_init) F(CURL, curl_easy_perform) F(CURL, curl_easy_reset) F(CURL, curl_easy_setopt) \
    F(CURL, curl_easy_strerror) F(CURL, curl_global_init) F(CURL, curl_slist_append) \
    F(CURL, curl_slist_free_all) \
    F(GNUTLS, gnutls_decode_rs_value) F(GNUTLS, gnutls_encode_rs_value) F(GNUTLS, gnutls_pcert_deinit) \
    F(GNUTLS, gnutls_pcert_list_import_x509_raw) F(GNUTLS, gnutls_pk_to_sign) \
    F(GNUTLS, gnutls_privkey_deinit) F(GNUTLS, gnutls_privkey_import_x509) \
    F(GNUTLS, gnutls_privkey_import_x509_raw) F(GNUTLS, gnutls_privkey_init) \
    F(GNUTLS, gnutls_privkey_sign_data) F(GNUTLS, gnutls_pubkey_deinit) F(GNUTLS, gnutls_pubkey_export2) \
    F(GNUTLS, gnutls_pubkey_export_ecc_raw) F(GNUTLS, gnutls_pubkey_get_pk_algorithm) \
    F(GNUTLS, gnutls_pubkey_import) F(GNUTLS, gnutls_pubkey_import_privkey) F(GNUTLS, gnutls_pubkey_init) \
    F(GNUTLS, gnutls_pubkey_verify_data2) F(GNUTLS, gnutls_strerror) F(GNUTLS, gnutls_transport_get_int) \
    F(GNUTLS, gnutls_x509_crt_deinit) F(GNUTLS, gnutls_x509_crt_export2) \
    F(GNUTLS, gnutls_x509_crt_get_key_id) F(GNUTLS, gnutls_x509_crt_get_subject_key_id) \
    F(GNUTLS, gnutls_x509_crt_init) F(GNUTLS, gnutls_x509_crt_set_activation_time) \
    F(GNUTLS, gnutls_x509_crt_set_authority_key_id) F(GNUTLS, gnutls_x509_crt_set_basic_constraints) \
    F(GNUTLS, gnutls_x509_crt_set_dn_by_oid) F(GNUTLS, gnutls_x509_crt_set_expiration_time) \
    F(GNUTLS, gnutls_x509_crt_set_extension_by_oid) F(GNUTLS, gnutls_x509_crt_set_key) \
    F(GNUTLS, gnutls_x509_crt_set_key_usage) F(GNUTLS, gnutls_x509_crt_set_serial) \
    F(GNUTLS, gnutls_x509_crt_set_subject_key_id) F(GNUTLS, gnutls_x509_crt_set_version) \
    F(GNUTLS, gnutls_x509_crt_sign2) F(GNUTLS, gnutls_x509_privkey_deinit) \
    F(GNUTLS, gnutls_x509_privkey_export2_pkcs8) F(GNUTLS, gnutls_x509_privkey_export_ecc_raw) \
    F(GNUTLS, gnutls_x509_privkey_generate) F(GNUTLS, gnutls_x509_privkey_get_pk_algorithm) \
    F(GNUTLS, gnutls_x509_privkey_import2) F(GNUTLS, gnutls_x509_privkey_init) \
    F(ARCHIVE, archive_entry_clear) F(ARCHIVE, archive_entry_copy_pathname) \
    F(ARCHIVE, archive_entry_filetype) F(ARCHIVE, archive_entry_free) F(ARCHIVE, archive_entry_hardlink) \
    F(ARCHIVE, archive_entry_hardlink_utf8) F(ARCHIVE, archive_entry_new) \
    F(ARCHIVE, archive_entry_pathname) F(ARCHIVE, archive_entry_pathname_utf8) \
    F(ARCHIVE, archive_entry_set_filetype) F(ARCHIVE, archive_entry_set_gid) \
    F(ARCHIVE, archive_entry_set_gname) F(ARCHIVE, archive_entry_set_hardlink_utf8) \
    F(ARCHIVE, archive_entry_set_mtime) F(ARCHIVE, archive_entry_set_pathname_utf8) \
    F(ARCHIVE, archive_entry_set_perm) F(ARCHIVE, archive_entry_set_rdev) \
    F(ARCHIVE, archive_entry_set_size) F(ARCHIVE, archive_entry_set_symlink_utf8) \
    F(ARCHIVE, archive_entry_set_uid) F(ARCHIVE, archive_entry_set_uname) F(ARCHIVE, archive_entry_size) \
    F(ARCHIVE, archive_entry_size_is_set) F(ARCHIVE, archive_entry_symlink) \
    F(ARCHIVE, archive_entry_symlink_utf8) F(ARCHIVE, archive_error_string) \
    F(ARCHIVE, archive_filter_bytes) F(ARCHIVE, archive_filter_name) \
    F(ARCHIVE, archive_read_append_filter) F(ARCHIVE, archive_read_data_block) \
    F(ARCHIVE, archive_read_free) F(ARCHIVE, archive_read_new) F(ARCHIVE, archive_read_next_header2) \
    F(ARCHIVE, archive_read_open1) F(ARCHIVE, archive_read_set_callback_data) \
    F(ARCHIVE, archive_read_set_read_callback) F(ARCHIVE, archive_read_set_seek_callback) \
    F(ARCHIVE, archive_read_set_skip_callback) F(ARCHIVE, archive_read_support_format_raw) \
    F(ARCHIVE, archive_read_support_format_tar) F(ARCHIVE, archive_read_support_format_zip_seekable) \
    F(ARCHIVE, archive_write_add_filter_bzip2) F(ARCHIVE, archive_write_add_filter_gzip) \
    F(ARCHIVE, archive_write_add_filter_none) F(ARCHIVE, archive_write_add_filter_xz) \
    F(ARCHIVE, archive_write_add_filter_zstd) F(ARCHIVE, archive_write_close) \
    F(ARCHIVE, archive_write_data) F(ARCHIVE, archive_write_free) F(ARCHIVE, archive_write_header) \
    F(ARCHIVE, archive_write_new) F(ARCHIVE, archive_write_open) \
    F(ARCHIVE, archive_write_set_bytes_in_last_block) F(ARCHIVE, archive_write_set_filter_option) \
    F(ARCHIVE, archive_write_set_format_7zip) F(ARCHIVE, archive_write_set_format_cpio_newc) \
    F(ARCHIVE, archive_write_set_format_gnutar) F(ARCHIVE, archive_write_set_format_pax_restricted) \
    F(ARCHIVE, archive_write_set_format_ustar) F(ARCHIVE, archive_write_set_format_zip)

enum {
#define INDEX(library, name) late_index_##name,
    LATE_FUNCTIONS(INDEX)
#undef INDEX
    late_count
};

/* A function's pointer, filled when its library is loaded, and its place in the table below. Read
   by the trampolines without a lock: each is written once, before its library counts as loaded,
   and a pointer-sized store is atomic on the machines this builds for. */
struct late_slot {
    void *pointer;
    unsigned index;
};
#define SLOT(library, name) __attribute__((visibility("hidden"))) struct late_slot hangman_late_slot_##name = {NULL, late_index_##name};
LATE_FUNCTIONS(SLOT)
#undef SLOT

static const struct {
    int library;
    const char *name;
    struct late_slot *slot;
} late_functions[late_count] = {
#define ENTRY(library, name) {library, #name, &hangman_late_slot_##name},
    LATE_FUNCTIONS(ENTRY)
#undef ENTRY
};

static const char *const late_names[] = {"libpq.so.5", "libmicrohttpd.so.12", "libcurl.so.4", "libgnutls.so.30", "libarchive.so.13"};
#define LATE_LIBRARIES ((int)(sizeof late_names / sizeof late_names[0]))

/* gnutls_free is a variable (a pointer to GnuTLS's free), not a function: its value is libc's
   free until GnuTLS is loaded, and GnuTLS's own after. */
__attribute__((visibility("hidden"))) void (*gnutls_free)(void *) = free;

static pthread_mutex_t late_lock = PTHREAD_MUTEX_INITIALIZER;
static void *late_handles[LATE_LIBRARIES];

/* Loads `library` and fills the slots of every function the program calls in it, once per
   process: 0, or -1 with the loader's reason in `error`. */
static int late_load(int library, char *error, size_t size) {
    if (library < 0 || library >= LATE_LIBRARIES) {
        snprintf(error, size, "no late library %d", library);
        return -1;
    }
    pthread_mutex_lock(&late_lock);
    if (late_handles[library] != NULL) {
        pthread_mutex_unlock(&late_lock);
        return 0;
    }
    void *handle = dlopen(late_names[library], RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        snprintf(error, size, "%s", why ? why : late_names[library]);
        pthread_mutex_unlock(&late_lock);
        return -1;
    }
    for (int index = 0; index < late_count; index++) {
        if (late_functions[index].library != library) continue;
        void *address = dlsym(handle, late_functions[index].name);
        if (address == NULL) {
            snprintf(error, size, "%s has no %s (an older version?)", late_names[library], late_functions[index].name);
            for (int undone = 0; undone < index; undone++)
                if (late_functions[undone].library == library) __atomic_store_n(&late_functions[undone].slot->pointer, NULL, __ATOMIC_RELEASE);
            dlclose(handle);
            pthread_mutex_unlock(&late_lock);
            return -1;
        }
        __atomic_store_n(&late_functions[index].slot->pointer, address, __ATOMIC_RELEASE);
    }
    if (library == GNUTLS) {
        void (**theirs)(void *) = dlsym(handle, "gnutls_free");
        if (theirs != NULL && *theirs != NULL) gnutls_free = *theirs;
    }
    late_handles[library] = handle;
    pthread_mutex_unlock(&late_lock);
    return 0;
}

/* A trampoline's first call, before its library was loaded: load it, or end the process. */
__attribute__((visibility("hidden"), used)) void *hangman_late_resolve(struct late_slot *slot) {
    char error[512];
    unsigned index = slot->index;
    if (index >= late_count) abort();
    if (late_load(late_functions[index].library, error, sizeof error) != 0) {
        dprintf(2, "hangman: %s is needed for this and cannot be loaded: %s\n", late_names[late_functions[index].library], error);
        _exit(69);
    }
    return __atomic_load_n(&slot->pointer, __ATOMIC_ACQUIRE);
}

#if defined(__x86_64__)
/* `name`: jump through its slot; when the slot is not filled yet, to the slow path with it. */
#define TRAMPOLINE(library, name) \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ", @function\n" #name ":\n" \
            "    movq hangman_late_slot_" #name "(%rip), %r11\n" \
            "    testq %r11, %r11\n" \
            "    jz 1f\n" \
            "    jmp *%r11\n" \
            "1:  leaq hangman_late_slot_" #name "(%rip), %r11\n" \
            "    jmp hangman_late_slow\n" \
            ".size " #name ", .-" #name "\n");
/* Keeps the call's arguments (integer registers, %al for a variadic call, the vector registers),
   resolves, then jumps to the function as the caller called it. */
__asm__(".text\n.type hangman_late_slow, @function\nhangman_late_slow:\n"
        "    pushq %rbp\n"
        "    movq %rsp, %rbp\n"
        "    subq $192, %rsp\n"
        "    andq $-16, %rsp\n"
        "    movq %rdi, 0(%rsp)\n    movq %rsi, 8(%rsp)\n    movq %rdx, 16(%rsp)\n"
        "    movq %rcx, 24(%rsp)\n    movq %r8, 32(%rsp)\n    movq %r9, 40(%rsp)\n    movq %rax, 48(%rsp)\n"
        "    movdqu %xmm0, 64(%rsp)\n    movdqu %xmm1, 80(%rsp)\n    movdqu %xmm2, 96(%rsp)\n    movdqu %xmm3, 112(%rsp)\n"
        "    movdqu %xmm4, 128(%rsp)\n    movdqu %xmm5, 144(%rsp)\n    movdqu %xmm6, 160(%rsp)\n    movdqu %xmm7, 176(%rsp)\n"
        "    movq %r11, %rdi\n"
        "    call hangman_late_resolve\n"
        "    movq %rax, %r11\n"
        "    movq 0(%rsp), %rdi\n    movq 8(%rsp), %rsi\n    movq 16(%rsp), %rdx\n"
        "    movq 24(%rsp), %rcx\n    movq 32(%rsp), %r8\n    movq 40(%rsp), %r9\n    movq 48(%rsp), %rax\n"
        "    movdqu 64(%rsp), %xmm0\n    movdqu 80(%rsp), %xmm1\n    movdqu 96(%rsp), %xmm2\n    movdqu 112(%rsp), %xmm3\n"
        "    movdqu 128(%rsp), %xmm4\n    movdqu 144(%rsp), %xmm5\n    movdqu 160(%rsp), %xmm6\n    movdqu 176(%rsp), %xmm7\n"
        "    movq %rbp, %rsp\n"
        "    popq %rbp\n"
        "    jmp *%r11\n"
        ".size hangman_late_slow, .-hangman_late_slow\n");
#elif defined(__aarch64__)
#define TRAMPOLINE(library, name) \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ", %function\n" #name ":\n" \
            "    adrp x16, hangman_late_slot_" #name "\n" \
            "    add x16, x16, :lo12:hangman_late_slot_" #name "\n" \
            "    ldr x17, [x16]\n" \
            "    cbz x17, 1f\n" \
            "    br x17\n" \
            "1:  mov x17, x16\n" \
            "    b hangman_late_slow\n" \
            ".size " #name ", .-" #name "\n");
__asm__(".text\n.type hangman_late_slow, %function\nhangman_late_slow:\n"
        "    stp x29, x30, [sp, #-224]!\n"
        "    mov x29, sp\n"
        "    stp x0, x1, [sp, #16]\n    stp x2, x3, [sp, #32]\n    stp x4, x5, [sp, #48]\n    stp x6, x7, [sp, #64]\n"
        "    str x8, [sp, #80]\n"
        "    stp q0, q1, [sp, #96]\n    stp q2, q3, [sp, #128]\n    stp q4, q5, [sp, #160]\n    stp q6, q7, [sp, #192]\n"
        "    mov x0, x17\n"
        "    bl hangman_late_resolve\n"
        "    mov x17, x0\n"
        "    ldp x0, x1, [sp, #16]\n    ldp x2, x3, [sp, #32]\n    ldp x4, x5, [sp, #48]\n    ldp x6, x7, [sp, #64]\n"
        "    ldr x8, [sp, #80]\n"
        "    ldp q0, q1, [sp, #96]\n    ldp q2, q3, [sp, #128]\n    ldp q4, q5, [sp, #160]\n    ldp q6, q7, [sp, #192]\n"
        "    ldp x29, x30, [sp], #224\n"
        "    br x17\n"
        ".size hangman_late_slow, .-hangman_late_slow\n");
#else
#error "late binding has trampolines for x86_64 and aarch64 only"
#endif

LATE_FUNCTIONS(TRAMPOLINE)
