/* level_parse.c - 'CHANNEL>LEVEL': the spelling of a level crossing, for
 * the scope's trigger and the library's snapshot conditions alike. */
#include "recorder_level.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *suffix; double scale; } si_suffixes[] = {
    { "p", 1e-12 }, { "n", 1e-9 }, { "u", 1e-6 }, { "\xc2\xb5", 1e-6 },
    { "m", 1e-3 }, { "k", 1e3 }, { "M", 1e6 }, { "G", 1e9 }, { "T", 1e12 },
};

bool recorder_level_parse(const char *text, double *level)
{
    if (!text)
        return false;
    while (isspace((unsigned char) *text))
        text++;
    if (!*text)
        return false;
    char *end;
    errno = 0;
    double value = strtod(text, &end);
    if (end == text || errno || !isfinite(value))
        return false;
    size_t rest = strlen(end);
    while (rest && isspace((unsigned char) end[rest - 1]))
        rest--;
    if (rest)
    {
        bool known = false;
        for (size_t s = 0; s < sizeof(si_suffixes) / sizeof(*si_suffixes); s++)
            if (strlen(si_suffixes[s].suffix) == rest &&
                strncmp(end, si_suffixes[s].suffix, rest) == 0)
            {
                value *= si_suffixes[s].scale;
                known = true;
            }
        if (!known || !isfinite(value))
            return false;
    }
    *level = value;
    return true;
}

/* The channel's name: what is before the operator, spaces trimmed. */
static bool take_channel(const char *start, const char *stop, const char *op,
                         recorder_level_crossing *crossing, char *why,
                         size_t size)
{
    while (start < stop && isspace((unsigned char) *start))
        start++;
    while (stop > start && isspace((unsigned char) stop[-1]))
        stop--;
    size_t length = (size_t) (stop - start);
    if (!length)
    {
        snprintf(why, size, "no channel name before '%.*s'",
                 crossing->edge == RECORDER_LEVEL_EITHER ? 2 : 1, op);
        return false;
    }
    if (length >= sizeof(crossing->channel))
    {
        snprintf(why, size, "a channel name has at most %zu characters",
                 sizeof(crossing->channel) - 1);
        return false;
    }
    for (const char *c = start; c < stop; c++)
        if (isspace((unsigned char) *c))
        {
            snprintf(why, size, "a channel name has no spaces");
            return false;
        }
    memcpy(crossing->channel, start, length);
    crossing->channel[length] = 0;
    return true;
}

bool recorder_level_crossing_parse(const char *text,
                                   recorder_level_crossing *crossing,
                                   char *why, size_t size)
{
    memset(crossing, 0, sizeof(*crossing));
    if (size)
        why[0] = 0;
    const char *op = text ? text + strcspn(text, "<>") : "";
    if (!*op)
    {
        snprintf(why, size, "expected CHANNEL>LEVEL (rising), CHANNEL<LEVEL "
                 "(falling) or CHANNEL<>LEVEL (either), e.g. 'latency>2.5m'");
        return false;
    }
    const char *level = op + 1;
    if (op[0] == '<' && op[1] == '>')
    {
        crossing->edge = RECORDER_LEVEL_EITHER;
        level = op + 2;
    }
    else
    {
        crossing->edge = op[0] == '>' ? RECORDER_LEVEL_RISING
                                      : RECORDER_LEVEL_FALLING;
    }
    if (!take_channel(text, op, op, crossing, why, size))
        return false;
    if (strpbrk(level, "<>"))
    {
        snprintf(why, size, "one of >, < or <> between the channel and the "
                 "level");
        return false;
    }
    if (!recorder_level_parse(level, &crossing->level))
    {
        snprintf(why, size, "the level '%s' is not a number with an "
                 "optional SI suffix (n u m k M G), e.g. 50, 2.5k, 10u",
                 level);
        return false;
    }
    return true;
}

size_t recorder_level_crossing_text(const recorder_level_crossing *crossing,
                                    char *buf, size_t size)
{
    static const char *const ops[] = { "?", ">", "<", "<>" };
    int n = snprintf(buf, size, "%s%s%.9g", crossing->channel,
                     ops[crossing->edge & 3], crossing->level);
    return n < 0 ? 0 : (size_t) n;
}
