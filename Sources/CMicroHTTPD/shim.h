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

/* The port the daemon listens on (port 0 asks the system for a free one). */
static inline uint16_t hangman_MHD_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* MHD_start_daemon is variadic, which Swift cannot call: this one takes every option the server
   sets as a plain argument and builds the option list in C. `host` is an IPv4 address; `key` and
   `certificate` are PEM text, or NULL for plain HTTP. Returns NULL when the address is invalid
   or the daemon cannot start. */
static inline struct MHD_Daemon *hangman_MHD_start(
    unsigned int flags, const char *host, uint16_t port,
    MHD_AccessHandlerCallback handler, void *handler_context,
    MHD_RequestCompletedCallback completed, void *completed_context,
    size_t memory_limit, unsigned int timeout_seconds, unsigned int per_address_limit,
    unsigned int connection_limit, const char *key, const char *certificate)
{
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) return NULL;
    if (key != NULL && certificate != NULL) {
        return MHD_start_daemon(flags | MHD_USE_TLS, port, NULL, NULL, handler, handler_context,
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
            MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
            MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
            MHD_OPTION_CONNECTION_LIMIT, connection_limit,
            MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
            MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
            MHD_OPTION_HTTPS_MEM_KEY, key,
            MHD_OPTION_HTTPS_MEM_CERT, certificate,
            MHD_OPTION_END);
    }
    return MHD_start_daemon(flags, port, NULL, NULL, handler, handler_context,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address_limit,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, completed_context,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
        MHD_OPTION_END);
}
#endif
