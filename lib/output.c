/* output.c - configure where records go, and lay out each line.
 *
 * Default line: [ORDER SECONDS] NAME: MESSAGE
 * The tweaks recorder_location, recorder_function, recorder_order,
 * recorder_reltime and recorder_abstime change the prefix.
 */
#include "output_private.h"
#include "render_private.h"
#include "safe_output_private.h"
#include "share_writer_private.h"
#include "sites_private.h"
#include "trace_private.h"

#include <stdio.h>
#include <string.h>

static void *             output_arg;           /* NULL means stderr */
static recorder_show_fn   output_show;          /* NULL means default */
static recorder_format_fn output_format;        /* NULL means default */
static recorder_type_fn   output_types[256];
/* Live traces and dumps each walk the records once, in their own order. */
static int                indent_live, indent_dump;

static unsigned default_show(const char *text, size_t len, void *arg)
{
    int fd = fileno_unlocked(arg ? (FILE *) arg : stderr);
    return (unsigned) safe_write_all(fd, text, len);
}

size_t recorder_format_line(char *line, size_t size,
                            const recorder_line_style *style,
                            const char *label, const char *location,
                            uint64_t order, uint64_t timestamp,
                            const char *message)
{
    size_t at = safe_append(line, size, 0, "%s",
                            SAFE_ARGS(SAFE_TEXT(location)));
    bool show_rel = style->reltime && !style->abstime;
    bool bracket = style->order || style->abstime || show_rel;
    if (bracket)
        at = safe_append(line, size, at, "[", NULL, 0);
    if (style->order)
        at = safe_append(line, size, at,
                         style->abstime || show_rel ? "%lu " : "%lu",
                         SAFE_ARGS(order));
    if (show_rel)
        at = safe_append(line, size, at, "%lu.%06lu",
                         SAFE_ARGS(timestamp / 1000000, timestamp % 1000000));
    if (style->abstime)
    {
        uint64_t us = (uint64_t) style->start_local_us + timestamp;
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

static void default_format(recorder_show_fn show, void *arg,
                           const char *label, const char *location,
                           uintptr_t order, uintptr_t timestamp,
                           const char *message)
{
    recorder_line_style style = {
        .order = RECORDER_TWEAK(recorder_order) != 0,
        .reltime = RECORDER_TWEAK(recorder_reltime) != 0,
        .abstime = RECORDER_TWEAK(recorder_abstime) != 0,
        .start_local_us = recorder_clock_start_local_us(),
    };
    char line[RECORDER_LINE_MAX];
    size_t len = recorder_format_line(line, sizeof(line), &style, label,
                                      location, order, timestamp, message);
    show(line, len, arg);
}

void *recorder_configure_output(void *output)
{
    return __atomic_exchange_n(&output_arg, output, __ATOMIC_ACQ_REL);
}

recorder_show_fn recorder_configure_show(recorder_show_fn show)
{
    return __atomic_exchange_n(&output_show, show, __ATOMIC_ACQ_REL);
}

recorder_format_fn recorder_configure_format(recorder_format_fn format)
{
    return __atomic_exchange_n(&output_format, format, __ATOMIC_ACQ_REL);
}

recorder_type_fn recorder_configure_type(uint8_t id, recorder_type_fn type)
{
    return __atomic_exchange_n(&output_types[id], type, __ATOMIC_ACQ_REL);
}

unsigned recorder_indent(void)
{
    int level = __atomic_load_n(&indent_dump, __ATOMIC_RELAXED);
    int cap = (int) RECORDER_TWEAK(recorder_indent);
    return (unsigned) (level < cap ? level : cap < 0 ? 0 : cap);
}

recorder_output recorder_output_current(bool signal_safe)
{
    recorder_output out;
    out.format = __atomic_load_n(&output_format, __ATOMIC_ACQUIRE);
    out.show = __atomic_load_n(&output_show, __ATOMIC_ACQUIRE);
    out.arg = __atomic_load_n(&output_arg, __ATOMIC_ACQUIRE);
    if (!out.format)
        out.format = default_format;
    if (!out.show)
        out.show = default_show;
    out.strings_valid = false;
    out.signal_safe = signal_safe;
    return out;
}

void recorder_output_flush(void)
{
    void *arg = __atomic_load_n(&output_arg, __ATOMIC_ACQUIRE);
    if (!__atomic_load_n(&output_show, __ATOMIC_ACQUIRE))
        fflush(arg ? (FILE *) arg : stderr);
}

int recorder_output_fd(void)
{
    void *arg = __atomic_load_n(&output_arg, __ATOMIC_ACQUIRE);
    return fileno_unlocked(arg ? (FILE *) arg : stderr);
}

void recorder_output_text(const char *text)
{
    recorder_output out = recorder_output_current(false);
    recorder_output_flush();
    out.show(text, strlen(text), out.arg);
}

/* Apply a leading '>', '<' or '=' to 'counter'; return the format without
 * it, and in '*level' the indentation of this record. */
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

void recorder_output_record(const recorder_output *out, const char *label,
                            intptr_t trace, const recorder_site *site,
                            uint64_t index, uint64_t stamp,
                            const uint64_t *args, unsigned nargs)
{
    char message[RECORDER_MESSAGE_MAX];
    char location[512];
    int level;
    /* While we share, the rings are in a file others may write: a site is
     * followed only if it is one of the registered call sites. Private
     * rings also keep the sites that no section holds (g++ before 14
     * ignores the section of a static in a function template). */
    bool shared = recorder_share_active();
    if (!site || (shared && !recorder_site_known(site)))
    {
        /* Forged, or unknown to readers of the segment as well. Say so,
         * and follow nothing. */
        safe_append(message, sizeof(message), 0,
                    "<record from unknown site %#lx>",
                    SAFE_ARGS(SAFE_TEXT(site)));
        out->format(out->show, out->arg, label, "", index,
                    recorder_clock_us_since_start(stamp), message);
        return;
    }
    const char *format = apply_indent(site->format,
                                      out->strings_valid ? &indent_live
                                                         : &indent_dump,
                                      &level);
    int cap = (int) RECORDER_TWEAK(recorder_indent);
    if (level > cap)
        level = cap < 0 ? 0 : cap;

    size_t at = 0;
    for (int i = 0; i < level && at + 2 < sizeof(message); i++)
    {
        message[at++] = ' ';
        message[at++] = ' ';
    }
    /* String arguments of shared rings may be forged too: they are copied
     * by the kernel, which reports a bad address instead of faulting (a
     * system call each, so private rings are read directly, except by
     * signal handlers, which may be dumping memory that a bug just
     * corrupted). Where the kernel refuses to copy (seccomp), only private
     * rings are read directly. */
    recorder_render_options options = {
        .trace = trace, .strings_valid = out->strings_valid,
        .signal_safe = out->signal_safe, .types = output_types,
        .strings_guarded = shared || out->signal_safe,
        .unguarded_fallback = !shared,
    };
    at += recorder_render(message + at, sizeof(message) - at, format,
                          args, nargs, &options);
    message[at] = 0;
    if (at > 0 && message[at - 1] == '\n')
        message[--at] = 0;

    size_t where = 0;
    location[0] = 0;
    if (RECORDER_TWEAK(recorder_location))
        where = safe_append(location, sizeof(location), where, "%s:%u:",
                            SAFE_ARGS(SAFE_TEXT(site->file), site->line));
    if (RECORDER_TWEAK(recorder_function))
        safe_append(location, sizeof(location), where, "%s:",
                    SAFE_ARGS(SAFE_TEXT(site->function)));

    out->format(out->show, out->arg, label, location, index,
                recorder_clock_us_since_start(stamp), message);
}

void recorder_trace_print(recorder_info *rec, const recorder_site *site,
                          uint64_t index, uint64_t stamp,
                          const uint64_t *args, unsigned count)
{
    recorder_output out = recorder_output_current(false);
    out.strings_valid = true;           /* the strings exist right now */
    recorder_output_record(&out, rec->name, rec->trace, site, index, stamp,
                           args, count);
}
