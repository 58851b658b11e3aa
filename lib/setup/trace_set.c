/* trace_set.c - recorder_trace_set(), the program's entry to trace specs.
 *
 * It sits above trace_spec.c and share_writer.c: a spec may start sharing
 * (share=PATH, export requests), which trace_spec.c does through the hooks
 * the writer installs (share_hooks_private.h). Installing them here is also
 * what links the writer into programs built with librecorder.a. The same
 * goes for the chrome=FILE writer (chrome_json_private.h).
 */
#include "trace/chrome_json_private.h"
#include "segment/share_writer_private.h"
#include "snapshot/snapshot_install_private.h"
#include "trace/trace_spec_private.h"

int recorder_trace_set(const char *spec)
{
    recorder_share_install();
    recorder_chrome_json_install();
    recorder_snapshot_install();
    return recorder_spec_apply(spec, RECORDER_SPEC_FROM_PROGRAM, NULL, 0);
}
