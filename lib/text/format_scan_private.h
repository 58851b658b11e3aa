/* format_scan_private.h - find which conversion of a format reads an argument. */
#ifndef RECORDER_FORMAT_SCAN_PRIVATE_H
#define RECORDER_FORMAT_SCAN_PRIVATE_H

#include "base/visibility_private.h"
#include "recorder_share.h"
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

/* Argument 'argument' of a record made with 'format', as readers give it
 * (recorder_share_record's args): typed by its conversion, integers
 * narrowed as printf reads them. A string's text is the caller's to find
 * (value.s is ""): '*text' says whether a dump shows it (a narrow %+s),
 * else the word is a bare pointer. */
void recorder_format_typed(const char *format, unsigned argument,
                           uint64_t word, recorder_share_arg *out,
                           bool *text) RECORDER_HIDDEN;

/* How argument 'argument' of a record made with 'format' reads as a
 * number: 's' signed, 'u' unsigned (an integer of '*bytes' bytes, as
 * printf narrows it), 'r' real, 0 if no numeric conversion reads it. */
char recorder_format_number(const char *format, unsigned argument,
                            unsigned *bytes) RECORDER_HIDDEN;

/* The word of an argument as a number, read as recorder_format_number
 * says ('kind' 0: the word as an unsigned integer). */
double recorder_number_of(uint64_t word, char kind, unsigned bytes)
    RECORDER_HIDDEN;

#endif /* RECORDER_FORMAT_SCAN_PRIVATE_H */
