/* format_scan.c - walk the conversions of a printf-like format.
 *
 * Readers of a shared segment use it to learn what an argument is (a signed,
 * unsigned or real number, a string) from the format of the record that
 * carries it. Formats come from the segment, so this never reads past the
 * terminating NUL, whatever the text.
 */
#include "text/format_scan_private.h"

#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

bool recorder_format_argument(const char *format, unsigned argument,
                              recorder_conversion *out)
{
    unsigned next = 0;
    for (const char *p = format; *p; p++)
    {
        if (*p != '%')
            continue;
        p++;
        if (*p == '%')
            continue;
        bool plus = false;
        while (*p && strchr("-+ #0'", *p))
            plus |= *p++ == '+';
        if (*p == '*')
        {
            next++;
            p++;
        }
        while (isdigit((unsigned char) *p))
            p++;
        if (*p == '.')
        {
            p++;
            if (*p == '*')
            {
                next++;
                p++;
            }
            while (isdigit((unsigned char) *p))
                p++;
        }
        while (*p && strchr("hlLqjztZ", *p))
            p++;
        if (!*p)
            return false;
        if (next == argument)
        {
            out->conversion = *p;
            out->plus = plus;
            out->end = p + 1;
            return true;
        }
        next++;
    }
    return false;
}

char recorder_conversion_kind(char conversion)
{
    switch (conversion)
    {
    case 'd': case 'i':
        return 's';
    case 'u': case 'o': case 'x': case 'X': case 'c': case 'p': case 'b':
    case 'B': case 's':
        return 'u';
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a':
    case 'A':
        return 'r';
    default:
        return 0;
    }
}

void recorder_conversion_unit(const recorder_conversion *conversion,
                              char *unit, size_t size)
{
    const char *p = conversion->end;
    size_t len = 0;
    while (*p == ' ')
        p++;
    if (p[0] == '%')
    {
        /* "%u%%" is a percentage; "%u %f" has no unit, just the next value. */
        if (p[1] == '%' && size > 1)
        {
            unit[0] = '%';
            unit[1] = 0;
            return;
        }
        unit[0] = 0;
        return;
    }
    while ((isalpha((unsigned char) p[len]) || p[len] == '/' || p[len] == '_')
           && len + 1 < size)
        len++;
    memcpy(unit, p, len);
    unit[len] = 0;
}

/* The length modifier just before the conversion character at
 * 'conversion': where it starts, and its length in '*length'. */
static const char *length_modifier(const char *format, const char *conversion,
                                   size_t *length)
{
    const char *p = conversion;
    while (p > format && strchr("hlLqjztZ", p[-1]))
        p--;
    *length = (size_t) (conversion - p);
    return p;
}

/* Bytes of the integer printf reads for a length modifier. */
static unsigned modifier_bytes(const char *modifier, size_t length)
{
    if (!length)
        return sizeof(int);
    switch (*modifier)
    {
    case 'h':   return length == 2 ? sizeof(char) : sizeof(short);
    case 'l':   return length == 2 ? sizeof(long long) : sizeof(long);
    case 'L':
    case 'q':   return sizeof(long long);
    case 'j':   return sizeof(intmax_t);
    case 'z':
    case 'Z':   return sizeof(size_t);
    case 't':   return sizeof(ptrdiff_t);
    default:    return sizeof(int);
    }
}

/* The word as printf would have read it, as render.c narrows it. */
static uint64_t narrowed(uint64_t word, unsigned bytes, bool is_signed)
{
    unsigned bits = 8 * bytes;
    if (bits >= 64)
        return word;
    uint64_t mask = ((uint64_t) 1 << bits) - 1;
    word &= mask;
    if (is_signed && (word >> (bits - 1)) & 1)
        word |= ~mask;
    return word;
}

void recorder_format_typed(const char *format, unsigned argument,
                           uint64_t word, recorder_share_arg *out, bool *text)
{
    recorder_conversion conversion;
    out->type = RECORDER_SHARE_ARG_POINTER;
    out->value.u = word;
    *text = false;
    if (!format || !recorder_format_argument(format, argument, &conversion))
        return;
    size_t length;
    const char *modifier = length_modifier(format, conversion.end - 1,
                                           &length);
    unsigned bytes = modifier_bytes(modifier, length);
    switch (conversion.conversion)
    {
    case 'd': case 'i': case 'c':
        out->type = RECORDER_SHARE_ARG_SIGNED;
        out->value.i = (int64_t) narrowed(word, bytes, true);
        break;
    case 'u': case 'o': case 'x': case 'X': case 'b': case 'B':
        out->type = RECORDER_SHARE_ARG_UNSIGNED;
        out->value.u = narrowed(word, bytes, false);
        break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
    case 'a': case 'A':
        out->type = RECORDER_SHARE_ARG_REAL;
        memcpy(&out->value.r, &word, sizeof(out->value.r));
        break;
    case 's':
        out->type = RECORDER_SHARE_ARG_STRING;
        out->value.s = "";
        /* render.c prints a wide %+ls as a pointer: no text either. */
        *text = conversion.plus && !(length == 1 && *modifier == 'l');
        break;
    default:                            /* %p, %n, custom conversions */
        break;
    }
}

char recorder_format_number(const char *format, unsigned argument,
                            unsigned *bytes)
{
    recorder_conversion conversion;
    *bytes = 8;
    if (!format || !recorder_format_argument(format, argument, &conversion))
        return 0;
    char kind = recorder_conversion_kind(conversion.conversion);
    /* Pointers and strings are whole words; integers as printf reads them. */
    if ((kind == 's' || kind == 'u') && conversion.conversion != 'p' &&
        conversion.conversion != 's')
    {
        size_t length;
        const char *modifier = length_modifier(format, conversion.end - 1,
                                               &length);
        *bytes = modifier_bytes(modifier, length);
    }
    return kind;
}

double recorder_number_of(uint64_t word, char kind, unsigned bytes)
{
    switch (kind)
    {
    case 's':
        return (double) (int64_t) narrowed(word, bytes, true);
    case 'u':
        return (double) narrowed(word, bytes, false);
    case 'r':
    {
        double value;
        memcpy(&value, &word, sizeof(value));
        return value;
    }
    default:
        return (double) word;
    }
}
