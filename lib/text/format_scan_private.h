/* format_scan_private.h - find which conversion of a format reads an argument. */
#ifndef RECORDER_FORMAT_SCAN_PRIVATE_H
#define RECORDER_FORMAT_SCAN_PRIVATE_H

#include "clock_private.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct recorder_conversion
{
    char        conversion;             /* 'd', 'f', 's', ... */
    bool        plus;                   /* '+' flag, as in %+s */
    const char *end;                    /* just past the conversion */
} recorder_conversion;

/* Find the conversion whose value is argument 'argument' (0-based), counting
 * '*' widths and precisions as arguments. False if none reads it. */
bool recorder_format_argument(const char *format, unsigned argument,
                              recorder_conversion *out) RECORDER_HIDDEN;

/* The kind of number a conversion prints: 's' signed, 'u' unsigned,
 * 'r' real, 0 for none. */
char recorder_conversion_kind(char conversion) RECORDER_HIDDEN;

/* The word that follows a conversion ("%lu bytes" gives "bytes"), or "". */
void recorder_conversion_unit(const recorder_conversion *conversion,
                              char *unit, size_t size) RECORDER_HIDDEN;

#endif /* RECORDER_FORMAT_SCAN_PRIVATE_H */
