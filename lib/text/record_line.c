/* record_line.c - the one way a record becomes a line of text. */
#include "record_line_private.h"
#include "safe_output_private.h"

size_t recorder_format_line(char *line, size_t size,
                            const recorder_line_settings *settings,
                            const char *label, const char *location,
                            uint64_t order, uint64_t timestamp,
                            const char *message)
{
    size_t at = safe_append(line, size, 0, "%s",
                            SAFE_ARGS(SAFE_TEXT(location)));
    bool show_rel = settings->reltime && !settings->abstime;
    bool bracket = settings->order || settings->abstime || show_rel;
    if (bracket)
        at = safe_append(line, size, at, "[", NULL, 0);
    if (settings->order)
        at = safe_append(line, size, at,
                         settings->abstime || show_rel ? "%lu " : "%lu",
                         SAFE_ARGS(order));
    if (show_rel)
        at = safe_append(line, size, at, "%lu.%06lu",
                         SAFE_ARGS(timestamp / 1000000, timestamp % 1000000));
    if (settings->abstime)
    {
        uint64_t us = (uint64_t) settings->start_local_us + timestamp;
        uint64_t s = us / 1000000 % 86400;
        at = safe_append(line, size, at, "%02lu:%02lu:%02lu.%06lu",
                         SAFE_ARGS(s / 3600, s / 60 % 60, s % 60,
                                   us % 1000000));
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

void recorder_line_text(char *message, char *location,
                        const recorder_line_settings *settings,
                        const recorder_site *site, uintptr_t address,
                        int *indent, const uint64_t *args, unsigned nargs,
                        const recorder_render_options *options)
{
    location[0] = 0;
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

    size_t where = 0;
    if (settings->location)
        where = safe_append(location, RECORDER_LOCATION_MAX, where, "%s:%u:",
                            SAFE_ARGS(SAFE_TEXT(site->file), site->line));
    if (settings->function)
        safe_append(location, RECORDER_LOCATION_MAX, where, "%s:",
                    SAFE_ARGS(SAFE_TEXT(site->function)));
}
