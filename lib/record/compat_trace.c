/* compat_trace.c - recorder 1.2's recorder_trace_entry().
 *
 * A 1.2 entry is printed the way a trace prints a record: same output,
 * format hook and custom conversions, its message from the site that
 * compat_sites.c keeps for its format and function. Only the time is the
 * entry's own, given in recorder_tick() units rather than taken from the
 * ring, so the line goes through the format hook with that time.
 */
#include "record/compat_sites_private.h"
#include "record/clock_private.h"
#include "record/output_private.h"

typedef struct entry_output
{
    recorder_format_fn format;
    recorder_show_fn   show;
    void *             arg;
    uintptr_t          timestamp;
} entry_output;

static unsigned show_entry(const char *text, size_t len, void *arg)
{
    const entry_output *out = arg;
    return out->show(text, len, out->arg);
}

static void format_entry(recorder_show_fn show, void *arg, const char *label,
                         const char *location, uintptr_t order,
                         uintptr_t timestamp, const char *message)
{
    const entry_output *out = arg;
    (void) show;
    (void) timestamp;                   /* the time of the call, not ours */
    out->format(out->show, out->arg, label, location, order, out->timestamp,
                message);
}

void recorder_trace_entry(recorder_info *info, recorder_entry *entry)
{
    if (!info || !entry || !entry->format)
        return;                         /* 1.2: the tail of a long entry */
    recorder_output out = recorder_output_current(false);
    entry_output through = { out.format, out.show, out.arg,
                             entry->timestamp };
    out.format = format_entry;
    out.show = show_entry;
    out.arg = &through;
    out.strings_valid = true;           /* traced as it is made */
    const uint64_t args[4] = { entry->args[0], entry->args[1],
                               entry->args[2], entry->args[3] };
    recorder_output_record(&out, info->name, info->trace,
                           recorder_compat_site(entry->format, entry->where),
                           entry->order, recorder_ticks(), args, 4);
}
