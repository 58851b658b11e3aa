/* record_line.c - the one way a record becomes a line of text. */
#include "text/record_line_private.h"
#include "text/safe_output_private.h"

/* Widest padding of the location and function fields: a tweak is any
 * integer, the line is not. */
#define PAD_MAX         RECORDER_LOCATION_MAX

static intptr_t clamp(intptr_t value, intptr_t low, intptr_t high)
{
    return value < low ? low : value > high ? high : value;
}

/* 'text' as recorder 1.2 wrote a location field of tweak value 'width':
 * as it is for 1, else padded to |width| columns, right-aligned for a
 * positive width, left-aligned for a negative one. */
static size_t append_field(char *line, size_t size, size_t at,
                           intptr_t width, const char *text)
{
    if (width == 1)
        return safe_append(line, size, at, "%s", SAFE_ARGS(SAFE_TEXT(text)));
    width = clamp(width, -PAD_MAX, PAD_MAX);
    return safe_append(line, size, at, "%*s",
                       SAFE_ARGS((uint64_t) (int64_t) width,
                                 SAFE_TEXT(text)));
}

/* 'us' microseconds as seconds with 'digits' decimals, rounded as printf's
 * "%.*f" rounds: in '*whole' and '*fraction'. */
static void round_time(uint64_t us, unsigned digits, uint64_t *whole,
                       uint64_t *fraction)
{
    static const uint64_t power[] = { 1, 10, 100, 1000, 10000, 100000,
                                      1000000 };
    uint64_t unit = power[6 - digits];
    uint64_t units = (us + unit / 2) / unit;
    *whole = units / power[digits];
    *fraction = units % power[digits];
}

static size_t append_seconds(char *line, size_t size, size_t at,
                             unsigned digits, uint64_t whole,
                             uint64_t fraction)
{
    if (!digits)
        return safe_append(line, size, at, "%lu", SAFE_ARGS(whole));
    return safe_append(line, size, at, "%lu.%0*lu",
                       SAFE_ARGS(whole, digits, fraction));
}

size_t recorder_format_line(char *line, size_t size,
                            const recorder_line_settings *settings,
                            const char *label, const char *where,
                            const char *function, uint64_t order,
                            uint64_t timestamp, const char *message)
{
    size_t at = 0;
    line[0] = 0;
    /* A record from an unknown site has neither. */
    if (settings->location && where[0])
        at = append_field(line, size, at, settings->location, where);
    if (settings->function && function[0])
    {
        at = append_field(line, size, at, settings->function, function);
        at = safe_append(line, size, at, ":", NULL, 0);
    }

    /* Fields in recorder 1.2's order: [ORDER TIME-OF-DAY SECONDS]. */
    unsigned digits = (unsigned) clamp(settings->precision, 0, 6);
    const char *space = "";
    bool bracket = settings->order || settings->abstime || settings->reltime;
    if (bracket)
        at = safe_append(line, size, at, "[", NULL, 0);
    if (settings->order)
    {
        at = safe_append(line, size, at, "%lu", SAFE_ARGS(order));
        space = " ";
    }
    if (settings->abstime)
    {
        uint64_t whole, fraction;
        round_time((uint64_t) settings->start_local_us + timestamp, digits,
                   &whole, &fraction);
        uint64_t s = whole % 86400;
        at = safe_append(line, size, at, "%s%02lu:%02lu:%02lu",
                         SAFE_ARGS(SAFE_TEXT(space), s / 3600, s / 60 % 60,
                                   s % 60));
        if (digits)
            at = safe_append(line, size, at, ".%0*lu",
                             SAFE_ARGS(digits, fraction));
        space = " ";
    }
    if (settings->reltime)
    {
        uint64_t whole, fraction;
        round_time(timestamp, digits, &whole, &fraction);
        at = safe_append(line, size, at, "%s", SAFE_ARGS(SAFE_TEXT(space)));
        at = append_seconds(line, size, at, digits, whole, fraction);
    }
    if (bracket)
        at = safe_append(line, size, at, "] ", NULL, 0);
    at = safe_append(line, size, at, "%s: %s\n",
                     SAFE_ARGS(SAFE_TEXT(label), SAFE_TEXT(message)));
    if (at >= size)
        at = size - 1;
    if (line[at - 1] != '\n')
        line[at - 1] = '\n';                  /* truncated: still a line */
    return at;
}

void recorder_line_where(char *where, const recorder_site *site)
{
    where[0] = 0;
    if (site)
        safe_append(where, RECORDER_LOCATION_MAX, 0, "%s:%u:",
                    SAFE_ARGS(SAFE_TEXT(site->file), site->line));
}

/* Apply a leading '>', '<' or '=' to 'counter'; return the format without
 * it, and in '*level' the indentation of this record. Relaxed atomics: the
 * in-process counters are shared by threads that dump. */
static const char *apply_indent(const char *format, int *counter, int *level)
{
    int now = __atomic_load_n(counter, __ATOMIC_RELAXED);
    switch (format[0])
    {
    case '>':
        __atomic_store_n(counter, now + 1, __ATOMIC_RELAXED);
        *level = now;
        return format + 1;
    case '<':
        now = now > 0 ? now - 1 : 0;
        __atomic_store_n(counter, now, __ATOMIC_RELAXED);
        *level = now;
        return format + 1;
    case '=':
        __atomic_store_n(counter, 0, __ATOMIC_RELAXED);
        *level = 0;
        return format + 1;
    default:
        *level = now;
        return format;
    }
}

void recorder_line_text(char *message, const recorder_line_settings *settings,
                        const recorder_site *site, uintptr_t address,
                        int *indent, const uint64_t *args, unsigned nargs,
                        const recorder_render_options *options)
{
    if (!site)
    {
        /* Forged, or unknown to readers of the segment: say so, and
         * follow nothing. */
        safe_append(message, RECORDER_MESSAGE_MAX, 0,
                    "<record from unknown site %#lx>",
                    SAFE_ARGS(address));
        return;
    }

    int level;
    const char *format = apply_indent(site->format, indent, &level);
    if (level > settings->indent_max)
        level = settings->indent_max < 0 ? 0 : (int) settings->indent_max;
    size_t at = 0;
    for (int i = 0; i < level && at + 2 < RECORDER_MESSAGE_MAX; i++)
    {
        message[at++] = ' ';
        message[at++] = ' ';
    }
    at += recorder_render(message + at, RECORDER_MESSAGE_MAX - at, format,
                          args, nargs, options);
    message[at] = 0;
    if (at > 0 && message[at - 1] == '\n')
        message[--at] = 0;
}
