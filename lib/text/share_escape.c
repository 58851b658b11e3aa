/* share_escape.c - make text from a segment safe to show on a terminal.
 *
 * Anyone who can write a segment chooses its names, formats and strings.
 * Printed raw, an ESC or C1 sequence in them drives the reader's terminal
 * (window title, clear screen, OSC 52 clipboard writes). Controls become
 * visible \xNN; UTF-8 text stays as it is. Pure, so async-signal-safe.
 */
#include "recorder_share.h"

#include <stdbool.h>

/* Length of the valid UTF-8 sequence at text[0] (of 'left' bytes) that
 * encodes a printable character, or 0: ASCII controls, C1 controls
 * (U+0080-U+009F), overlong forms, surrogates, values past U+10FFFF and
 * truncated sequences all get 0. */
static size_t printable_length(const unsigned char *text, size_t left)
{
    unsigned char b = text[0];
    if (b < 0x80)
        return b >= 0x20 && b != 0x7F;
    size_t length;
    unsigned char low = 0x80, high = 0xBF;     /* range of the 2nd byte */
    if (b >= 0xC2 && b <= 0xDF)
    {
        length = 2;
        if (b == 0xC2)
            low = 0xA0;                         /* not U+0080-U+009F */
    }
    else if (b >= 0xE0 && b <= 0xEF)
    {
        length = 3;
        if (b == 0xE0)
            low = 0xA0;                         /* not overlong */
        else if (b == 0xED)
            high = 0x9F;                        /* not a surrogate */
    }
    else if (b >= 0xF0 && b <= 0xF4)
    {
        length = 4;
        if (b == 0xF0)
            low = 0x90;                         /* not overlong */
        else if (b == 0xF4)
            high = 0x8F;                        /* not past U+10FFFF */
    }
    else
    {
        return 0;
    }
    if (left < length || text[1] < low || text[1] > high)
        return 0;
    for (size_t i = 2; i < length; i++)
        if (text[i] < 0x80 || text[i] > 0xBF)
            return 0;
    return length;
}

size_t recorder_share_escape(char *out, size_t size, const char *text,
                             size_t length)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *in = (const unsigned char *) text;
    size_t at = 0;
    if (!size)
        return 0;
    for (size_t i = 0; i < length; )
    {
        size_t keep = printable_length(in + i, length - i);
        if (keep)
        {
            if (keep > size - 1 - at)
                break;
            for (size_t k = 0; k < keep; k++)
                out[at++] = (char) in[i + k];
            i += keep;
            continue;
        }
        if (4 > size - 1 - at)
            break;
        out[at++] = '\\';
        out[at++] = 'x';
        out[at++] = hex[in[i] >> 4];
        out[at++] = hex[in[i] & 0xF];
        i++;
    }
    out[at] = 0;
    return at;
}
