/* record_line_private.h - the one way a record becomes a line of text.
 *
 * In-process dumps, live traces, signal and crash dumps, and dumps of a
 * shared segment all make their lines here, so a segment dump prints the
 * very lines the program would have printed. Only where the inputs come
 * from differs: the program's own call sites and tweaks, or copies of
 * them read from its segment. Async-signal-safe when the render options
 * are.
 */
#ifndef RECORDER_RECORD_LINE_PRIVATE_H
#define RECORDER_RECORD_LINE_PRIVATE_H

#include "text/render_private.h"
#include "base/visibility_private.h"

/* Room for one rendered message, a location prefix, a whole line. */
#define RECORDER_MESSAGE_MAX    2048
#define RECORDER_LOCATION_MAX   512
#define RECORDER_LINE_MAX       (RECORDER_MESSAGE_MAX + RECORDER_LOCATION_MAX)

/* What the tweaks of the process that made the records ask of a line:
 *   [FILE:LINE:][FUNCTION:][ORDER TIME-OF-DAY SECONDS] NAME: MESSAGE
 * recorder_location and recorder_function are widths, as in recorder 1.2:
 * 0 hides the field, 1 shows it as it is, N pads it to N columns on the
 * left (right-aligned), -N on the right. */
typedef struct recorder_line_settings
{
    intptr_t location;                  /* recorder_location: FILE:LINE: */
    intptr_t function;                  /* recorder_function: FUNCTION: */
    bool     order;                     /* recorder_order: ORDER */
    bool     reltime;                   /* recorder_reltime: seconds since
                                           start */
    bool     abstime;                   /* recorder_abstime: time of day,
                                           before the seconds */
    intptr_t precision;                 /* recorder_time_precision: digits
                                           after the second, 0 to 6 */
    intptr_t indent_max;                /* recorder_indent: deepest level */
    int64_t  start_local_us;            /* local time at start, in us */
} recorder_line_settings;

/* The message of a record made at 'site' (NULL: a site nobody knows, at
 * 'address'), indented as its format's leading '>', '<' or '=' says
 * ('*indent' is the level of the records it follows, and is updated), in
 * message[RECORDER_MESSAGE_MAX], without a trailing newline. The site's
 * strings must be readable. */
void recorder_line_text(char *message, const recorder_line_settings *settings,
                        const recorder_site *site, uintptr_t address,
                        int *indent, const uint64_t *args, unsigned nargs,
                        const recorder_render_options *options)
    RECORDER_HIDDEN;

/* "FILE:LINE:" of 'site' in where[RECORDER_LOCATION_MAX], "" for NULL:
 * what recorder 1.2 put before the message it gave format functions. */
void recorder_line_where(char *where, const recorder_site *site)
    RECORDER_HIDDEN;

/* Lay out one line (ending in '\n') in line[size]; returns its length.
 * 'where' is "FILE:LINE:" or "", 'function' the function's name or "";
 * 'timestamp' is in microseconds since start. */
size_t recorder_format_line(char *line, size_t size,
                            const recorder_line_settings *settings,
                            const char *label, const char *where,
                            const char *function, uint64_t order,
                            uint64_t timestamp, const char *message)
    RECORDER_HIDDEN;

#endif /* RECORDER_RECORD_LINE_PRIVATE_H */
