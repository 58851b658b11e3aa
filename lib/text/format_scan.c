/* format_scan.c - walk the conversions of a printf-like format.
 *
 * Readers of a shared segment use it to learn what an argument is (a signed,
 * unsigned or real number, a string) from the format of the record that
 * carries it. Formats come from the segment, so this never reads past the
 * terminating NUL, whatever the text.
 */
#include "format_scan_private.h"

#include <ctype.h>
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
