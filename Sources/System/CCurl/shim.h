#ifndef HANGMAN_CCURL_SHIM_H
#define HANGMAN_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
   function per kind of value. */
static inline CURLcode hangman_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode hangman_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode hangman_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode hangman_curl_set_headers(CURL *handle, struct curl_slist *headers) {
    return curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
}
static inline CURLcode hangman_curl_set_body(CURL *handle, const char *body, long length) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE, length);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_COPYPOSTFIELDS, body);
}
typedef size_t (*hangman_curl_write_callback)(char *data, size_t size, size_t count, void *context);
static inline CURLcode hangman_curl_set_writer(CURL *handle, hangman_curl_write_callback writer, void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, writer);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_WRITEDATA, context);
}
static inline long hangman_curl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}
/* The value of the answer's last header `name` (of the last request, after redirects, if any), or
   NULL: valid until the handle's next request. */
static inline const char *hangman_curl_header(CURL *handle, const char *name) {
    struct curl_header *header = NULL;
    if (curl_easy_header(handle, name, 0, CURLH_HEADER, -1, &header) != CURLHE_OK || header == NULL) return NULL;
    return header->value;
}
static inline const char *hangman_curl_redirect_url(CURL *handle) {
    char *url = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_REDIRECT_URL, &url) != CURLE_OK) return NULL;
    return url;
}
#endif
