/* record_line.c - the one way a record becomes a line of text. */
#include "record_line_private.h"

/* Appends with bounds; signal-safe through recorder_render. */
static size_t append(char *line, size_t size, size_t at, const char *format,
                     const uint64_t *args, unsigned nargs)
{
    static const recorder_render_options plain = {
        .strings_valid = true, .signal_safe = true
    };
    if (at >= size)
        return at;
    return at + recorder_render(line + at, size - at, format, args, nargs,
                                &plain);
}

size_t recorder_format_line(char *line, size_t size,
                            const recorder_line_settings *settings,
                            const char *label, const char *location,
                            uint64_t order, uint64_t timestamp,
                            const char *message)
{
    size_t at = append(line, size, 0, "%s",
                       (uint64_t[]) { (uintptr_t) location }, 1);
    bool show_rel = settings->reltime && !settings->abstime;
    bool bracket = settings->order || settings->abstime || show_rel;
    if (bracket)
        at = append(line, size, at, "[", NULL, 0);
    if (settings->order)
        at = append(line, size, at,
                    settings->abstime || show_rel ? "%lu " : "%lu",
                    (uint64_t[]) { order }, 1);
    if (show_rel)
        at = append(line, size, at, "%lu.%06lu",
                    (uint64_t[]) { timestamp / 1000000, timestamp % 1000000 }, 2);
    if (settings->abstime)
    {
        uint64_t us = (uint64_t) settings->start_local_us + timestamp;
        uint64_t s = us / 1000000 % 86400;
        at = append(line, size, at, "%02lu:%02lu:%02lu.%06lu",
                    (uint64_t[]) { s / 3600, s / 60 % 60, s % 60,
                                   us % 1000000 }, 4);
    }
    if (bracket)
        at = append(line, size, at, "] ", NULL, 0);
    at = append(line, size, at, "%s: %s\n",
                (uint64_t[]) { (uintptr_t) label, (uintptr_t) message }, 2);
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
        append(message, RECORDER_MESSAGE_MAX, 0,
               "<record from unknown site %#lx>",
               (uint64_t[]) { address }, 1);
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
        where = append(location, RECORDER_LOCATION_MAX, where, "%s:%u:",
                       (uint64_t[]) { (uintptr_t) site->file, site->line }, 2);
    if (settings->function)
        append(location, RECORDER_LOCATION_MAX, where, "%s:",
               (uint64_t[]) { (uintptr_t) site->function }, 1);
}
