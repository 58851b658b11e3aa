/* backtrace_capture.c - recorder_backtrace_capture(): the calling thread's
 * stack as a chain. It sits above the parts it joins: crash_capture.c walks
 * the stack into a crash report, symbolize.c turns that report into a
 * chain (backtrace.c, the data structure, knows neither).
 */
#include "backtrace/backtrace_private.h"
#include "backtrace/crash_report_private.h"
#include "backtrace/symbolize_private.h"
#include "backtrace/unwind_library_private.h"

#include <stdlib.h>

__attribute__((noinline))
recorder_backtrace *recorder_backtrace_capture(unsigned skip)
{
    unwind_library_load();
    crash_report *report = malloc(sizeof(*report));
    if (!report)
        return NULL;
    crash_report_start(report, 0, NULL);
    /* Skip this function too: frame 0 is our caller. */
    crash_capture_frames(report, NULL, skip + 1);
    crash_capture_modules(report);
    report->state = CRASH_STATE_COMPLETE;

    recorder_backtrace *bt = backtrace_new();
    if (bt && (!report->frame_count || !symbolize_report(report, bt, true)))
    {
        recorder_backtrace_delete(bt);
        bt = NULL;
    }
    free(report);
    return bt;                          /* not a tail call: see 'skip' */
}

