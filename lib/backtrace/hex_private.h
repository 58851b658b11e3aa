/* hex_private.h - one hexadecimal digit, for the parsers of /proc maps
 * and of backtrace blobs. Async-signal-safe. */
#ifndef RECORDER_HEX_PRIVATE_H
#define RECORDER_HEX_PRIVATE_H

/* The value of hexadecimal digit 'c', or -1. */
static inline int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

#endif /* RECORDER_HEX_PRIVATE_H */
