/* symbolize_private.h - from program counters to functions, files, lines.
 *
 * Reads DWARF with elfutils' libdw: never in a crashing process (it
 * allocates and takes locks), only in the recorder_symbolize helper, in a
 * reader of the shared segment, or in a process capturing its own
 * backtrace on purpose.
 */
#ifndef RECORDER_SYMBOLIZE_PRIVATE_H
#define RECORDER_SYMBOLIZE_PRIVATE_H

#include "backtrace/backtrace_private.h"
#include "backtrace/crash_report_private.h"

/* Append the process of 'report' (checked with crash_report_check) and its
 * frames to 'backtrace'. A frame inlined into others becomes one frame per
 * function. Modules whose file is gone or whose build id differs from the
 * one in the report keep their raw offsets. Files are opened only if
 * 'open_files': a report read from a segment another user owns names
 * files of that user's choosing. False if out of memory. */
bool symbolize_report(const crash_report *report, recorder_backtrace *backtrace,
                      bool open_files) RECORDER_HIDDEN;

#endif /* RECORDER_SYMBOLIZE_PRIVATE_H */
