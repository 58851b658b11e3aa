/* metrics_address.h - the [ADDR:]PORT of recorder_scope --metrics.
 *
 * PORT alone binds 127.0.0.1 (this host only). ADDR is an IPv4 address
 * (0.0.0.0 for every interface), "localhost", or an IPv6 address in
 * brackets ([::1], [::] for every interface). PORT is 1 to 65535.
 */
#ifndef SCOPE_METRICS_ADDRESS_H
#define SCOPE_METRICS_ADDRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

typedef struct metrics_address
{
    struct sockaddr_storage socket;     /* AF_INET or AF_INET6, with port */
    socklen_t               length;
    char                    text[64];   /* ADDR:PORT, [ADDR]:PORT for IPv6 */
} metrics_address;

/* False with the reason in why[size] if 'text' is no [ADDR:]PORT. */
bool metrics_address_parse(const char *text, metrics_address *address,
                           char *why, size_t size);

#endif /* SCOPE_METRICS_ADDRESS_H */
