/* metrics_address.c - parse [ADDR:]PORT for recorder_scope --metrics. */
#include "options/metrics_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool parse_port(const char *text, unsigned *port)
{
    if (!*text || strspn(text, "0123456789") != strlen(text) ||
        strlen(text) > 5)
        return false;
    unsigned long value = strtoul(text, NULL, 10);
    if (value < 1 || value > 65535)
        return false;
    *port = (unsigned) value;
    return true;
}

bool metrics_address_parse(const char *text, metrics_address *address,
                           char *why, size_t size)
{
    memset(address, 0, sizeof(*address));
    char host[64] = "127.0.0.1";
    const char *port_text = text;
    bool six = false;
    if (text[0] == '[')
    {
        const char *close = strchr(text, ']');
        if (!close || close[1] != ':' || (size_t) (close - text - 1) >= sizeof(host))
        {
            snprintf(why, size, "expected [IPV6]:PORT, e.g. [::1]:9464");
            return false;
        }
        snprintf(host, sizeof(host), "%.*s", (int) (close - text - 1), text + 1);
        port_text = close + 2;
        six = true;
    }
    else if (strchr(text, ':'))
    {
        const char *colon = strrchr(text, ':');
        if ((size_t) (colon - text) >= sizeof(host) || colon == text)
        {
            snprintf(why, size, "expected [ADDR:]PORT, e.g. 9464 or "
                     "0.0.0.0:9464");
            return false;
        }
        snprintf(host, sizeof(host), "%.*s", (int) (colon - text), text);
        port_text = colon + 1;
        if (strchr(host, ':'))
        {
            snprintf(why, size, "an IPv6 address goes in brackets, e.g. "
                     "[::1]:9464");
            return false;
        }
    }
    unsigned port;
    if (!parse_port(port_text, &port))
    {
        snprintf(why, size, "the port must be a number from 1 to 65535");
        return false;
    }
    if (!six && strcmp(host, "localhost") == 0)
        snprintf(host, sizeof(host), "127.0.0.1");
    if (six)
    {
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *) &address->socket;
        if (inet_pton(AF_INET6, host, &in6->sin6_addr) != 1)
        {
            snprintf(why, size, "'%s' is not an IPv6 address", host);
            return false;
        }
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((unsigned short) port);
        address->length = sizeof(*in6);
        snprintf(address->text, sizeof(address->text), "[%s]:%u", host, port);
        return true;
    }
    struct sockaddr_in *in = (struct sockaddr_in *) &address->socket;
    if (inet_pton(AF_INET, host, &in->sin_addr) != 1)
    {
        snprintf(why, size, "'%s' is not an IPv4 address (a.b.c.d, "
                 "localhost, or [IPV6] in brackets)", host);
        return false;
    }
    in->sin_family = AF_INET;
    in->sin_port = htons((unsigned short) port);
    address->length = sizeof(*in);
    snprintf(address->text, sizeof(address->text), "%s:%u", host, port);
    return true;
}
