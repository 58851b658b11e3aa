/* output.c - configure where records go, and show them there.
 *
 * Lines are made by record_line.c, as the tweaks recorder_location,
 * recorder_function, recorder_order, recorder_reltime, recorder_abstime,
 * recorder_time_precision and recorder_indent of this process ask. Show
 * and format functions are called as recorder 1.2 called them.
 */
#include "record/output_private.h"
#include "record/clock_private.h"
#include "text/render_private.h"
#include "text/safe_output_private.h"
#include "record/share_hooks_private.h"
#include "base/sites_private.h"
#include "record/trace_private.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static void *             output_arg;           /* NULL means stderr */
static recorder_show_fn   output_show;          /* NULL means default */
static recorder_format_fn output_format;        /* NULL means default */
static recorder_type_fn   output_types[256];
/* Live traces and dumps each walk the records once, in their own order. */
static int                indent_live, indent_dump;

/* As in recorder 1.2, a show function gets one line without its newline,
 * and the default one adds it. Text that ends in a newline already (from
 * a format written for that) is written as it is. One write per line, so
 * that the lines of threads tracing at once do not mix. */
static unsigned default_show(const char *text, size_t len, void *arg)
{
    int fd = fileno_unlocked(arg ? (FILE *) arg : stderr);
    if (len && text[len - 1] == '\n')
        return (unsigned) safe_write_all(fd, text, len);
    char line[RECORDER_LINE_MAX + 1];
    if (len < sizeof(line))
    {
        memcpy(line, text, len);
        line[len] = '\n';
        return (unsigned) safe_write_all(fd, line, len + 1);
    }
    size_t written = safe_write_all(fd, text, len);
    return (unsigned) (written + safe_write_all(fd, "\n", 1));
}

/* The line settings of this process, from its tweaks. */
static recorder_line_settings line_settings(void)
{
    return (recorder_line_settings) {
        .location = RECORDER_TWEAK(recorder_location),
        .function = RECORDER_TWEAK(recorder_function),
        .order = RECORDER_TWEAK(recorder_order) != 0,
        .reltime = RECORDER_TWEAK(recorder_reltime) != 0,
        .abstime = RECORDER_TWEAK(recorder_abstime) != 0,
        .precision = RECORDER_TWEAK(recorder_time_precision),
        .indent_max = RECORDER_TWEAK(recorder_indent),
        .start_local_us = recorder_clock_start_local_us(),
    };
}

/* Show a finished line (ending in '\n'): the default show writes it at
 * once; another gets it without its newline. */
static void show_line(recorder_show_fn show, void *arg, const char *line,
                      size_t len)
{
    if (show == default_show)
        safe_write_all(fileno_unlocked(arg ? (FILE *) arg : stderr), line,
                       len);
    else
        show(line, len - 1, arg);
}

/* recorder 1.2's message began with "FILE:LINE:": the end of that prefix,
 * the first ":DIGITS:", or 'message' itself if there is none. */
static const char *after_where(const char *message)
{
    for (const char *colon = strchr(message, ':'); colon;
         colon = strchr(colon + 1, ':'))
    {
        const char *end = colon + 1;
        while (*end >= '0' && *end <= '9')
            end++;
        if (end > colon + 1 && *end == ':')
            return end + 1;
    }
    return message;
}

/* The default format, called as recorder 1.2 called it: by a format
 * function that hands a record on to the one it replaced. The library
 * itself lays out its lines from the record's parts (output_record). */
static void default_format(recorder_show_fn show, void *arg,
                           const char *label, const char *location,
                           uintptr_t order, uintptr_t timestamp,
                           const char *message)
{
    recorder_line_settings settings = line_settings();
    char where[RECORDER_LOCATION_MAX];
    const char *text = after_where(message);
    size_t where_len = (size_t) (text - message);
    if (where_len >= sizeof(where))
        where_len = sizeof(where) - 1;
    memcpy(where, message, where_len);
    where[where_len] = 0;
    char line[RECORDER_LINE_MAX];
    size_t len = recorder_format_line(line, sizeof(line), &settings, label,
                                      where, location, order, timestamp, text);
    show_line(show ? show : default_show, arg, line, len);
}

void *recorder_configure_output(void *output)
{
    return __atomic_exchange_n(&output_arg, output, __ATOMIC_ACQ_REL);
}

/* As in recorder 1.2, the previous function is returned even when it is
 * the default, so that a replacement may hand on to it. */
recorder_show_fn recorder_configure_show(recorder_show_fn show)
{
    if (show == default_show)
        show = NULL;
    recorder_show_fn old = __atomic_exchange_n(&output_show, show,
                                               __ATOMIC_ACQ_REL);
    return old ? old : default_show;
}

recorder_format_fn recorder_configure_format(recorder_format_fn format)
{
    if (format == default_format)
        format = NULL;
    recorder_format_fn old = __atomic_exchange_n(&output_format, format,
                                                 __ATOMIC_ACQ_REL);
    return old ? old : default_format;
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

void recorder_output_say(const char *text)
{
    int saved_errno = errno;            /* handlers must not change it */
    safe_write_all(recorder_output_fd(), text, strlen(text));
    errno = saved_errno;
}

void recorder_output_text(const char *text)
{
    recorder_output out = recorder_output_current(false);
    recorder_output_flush();
    /* One line per call, without its newline, as records are shown. */
    while (*text)
    {
        size_t len = strcspn(text, "\n");
        out.show(text, len, out.arg);
        text += len + (text[len] == '\n');
    }
}

void recorder_output_record(const recorder_output *out, const char *label,
                            intptr_t trace, const recorder_site *site,
                            uint64_t index, uint64_t stamp,
                            const uint64_t *args, unsigned nargs)
{
    char message[RECORDER_MESSAGE_MAX];
    char where[RECORDER_LOCATION_MAX];
    /* While we share, the rings are in a file others may write: a site is
     * followed only if it is one of the registered call sites. Private
     * rings also keep the sites that no section holds (g++ before 14
     * ignores the section of a static in a function template). */
    bool shared = recorder_sharing();
    bool known = site && (!shared || recorder_site_known(site));
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
    recorder_line_settings settings = line_settings();
    recorder_line_text(message, &settings, known ? site : NULL,
                       (uintptr_t) site,
                       out->strings_valid ? &indent_live : &indent_dump,
                       args, nargs, &options);
    recorder_line_where(where, known ? site : NULL);
    const char *function = known && site->function ? site->function : "";
    uint64_t timestamp = recorder_clock_us_since_start(stamp);
    if (out->format == default_format)
    {
        char line[RECORDER_LINE_MAX];
        size_t len = recorder_format_line(line, sizeof(line), &settings,
                                          label, where, function, index,
                                          timestamp, message);
        show_line(out->show, out->arg, line, len);
        return;
    }
    /* A format function of its own gets what recorder 1.2 gave it: the
     * function as location, the message after its "FILE:LINE:". */
    char located[RECORDER_LOCATION_MAX + RECORDER_MESSAGE_MAX];
    size_t at = safe_append(located, sizeof(located), 0, "%s",
                            SAFE_ARGS(SAFE_TEXT(where)));
    safe_append(located, sizeof(located), at, "%s",
                SAFE_ARGS(SAFE_TEXT(message)));
    out->format(out->show, out->arg, label, function, index, timestamp,
                located);
}

bool recorder_output_message(char *message, const recorder_output *out,
                             intptr_t trace, const recorder_site *site,
                             const uint64_t *args, unsigned nargs,
                             recorder_render_options *options)
{
    /* As recorder_output_record() trusts sites and strings. */
    bool shared = recorder_sharing();
    bool known = site && (!shared || recorder_site_known(site));
    *options = (recorder_render_options) {
        .trace = trace, .strings_valid = out->strings_valid,
        .signal_safe = out->signal_safe, .types = output_types,
        .strings_guarded = shared || out->signal_safe,
        .unguarded_fallback = !shared,
    };
    recorder_line_settings settings = line_settings();
    int indent = 0;
    recorder_line_text(message, &settings, known ? site : NULL,
                       (uintptr_t) site, &indent, args, nargs, options);
    return known;
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
