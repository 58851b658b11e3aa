/* share_writer_private.h - the recording process's side of the segment. */
#ifndef RECORDER_SHARE_WRITER_PRIVATE_H
#define RECORDER_SHARE_WRITER_PRIVATE_H

#include "recorder.h"
#include "base/visibility_private.h"
#include "trace/trace_spec_private.h"

/* Create the segment at 'path' (NULL: $RECORDER_SHARE, else the default)
 * and move everything into it; if already sharing elsewhere, move there.
 * False, with one message on stderr, if it cannot. */
bool recorder_share_open_path(const char *path) RECORDER_HIDDEN;

/* Share in $RECORDER_SHARE if it is set (recorder_dump_on_common_signals). */
void recorder_share_init(void) RECORDER_HIDDEN;

/* Make the writer reachable from the modules below it (trace specs,
 * commands, output): share_hooks_private.h says who calls this and why. */
void recorder_share_install(void) RECORDER_HIDDEN;

/* The crash region of the segment this process writes, or NULL when it
 * shares nothing: where the crash handler writes its report.
 * Async-signal-safe. */
struct crash_report;                    /* crash_report_private.h */
struct crash_report *recorder_share_crash_area(void) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_WRITER_PRIVATE_H */
