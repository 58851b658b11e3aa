/* crash_reader.c - the crash report of a dead writer, read from its segment.
 *
 * The region may be empty (no crash), half written (the process died while
 * writing it), from another version, or corrupt: it is copied out first,
 * then checked whole by crash_report_check() before anything uses it.
 */
#include "recorder_share.h"
#include "backtrace/crash_report_private.h"
#include "segment/share_reader_private.h"
#include "backtrace/symbolize_private.h"

#include <stdlib.h>
#include <string.h>

recorder_backtrace *recorder_share_crash_backtrace(recorder_share *share,
                                                   char *error, size_t size)
{
    if (size)
        error[0] = 0;
    size_t region_size = 0;
    const crash_report *region = recorder_share_crash_region(share,
                                                             &region_size);
    if (!region || region_size < sizeof(crash_report) ||
        __atomic_load_n(&region->state, __ATOMIC_ACQUIRE) ==
        CRASH_STATE_EMPTY)
        return NULL;                    /* no crash */

    crash_report *copy = malloc(sizeof(*copy));
    recorder_backtrace *bt = backtrace_new();
    if (!copy || !bt)
    {
        snprintf(error, size, "out of memory");
        goto fail;
    }
    memcpy(copy, region, sizeof(*copy));
    char why[256];
    if (!crash_report_check(copy, why, sizeof(why)))
    {
        snprintf(error, size, "crash report unreadable: %s", why);
        goto fail;
    }
    if (!symbolize_report(copy, bt, recorder_share_owned(share)))
    {
        snprintf(error, size, "out of memory");
        goto fail;
    }
    free(copy);
    return bt;

fail:
    recorder_backtrace_delete(bt);
    free(copy);
    return NULL;
}

int recorder_share_crash_print(recorder_share *share, FILE *out, char *error,
                               size_t size)
{
    recorder_backtrace *bt = recorder_share_crash_backtrace(share, error,
                                                            size);
    if (!bt)
        return size && error[0] ? -1 : 0;
    int lines = (int) recorder_backtrace_print(bt, out);
    recorder_backtrace_delete(bt);
    return lines;
}
