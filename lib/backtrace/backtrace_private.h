/* backtrace_private.h - building a recorder_backtrace from the inside.
 *
 * A backtrace is a chain of processes, the innermost callee first, each
 * with its frames in order (frame 0 deepest). The symbolizer appends what
 * it finds in a crash report; the text parser appends what a blob says.
 */
#ifndef RECORDER_BACKTRACE_PRIVATE_H
#define RECORDER_BACKTRACE_PRIVATE_H

#include "recorder_backtrace.h"
#include "base/visibility_private.h"

#include <stdbool.h>
#include <stdint.h>

/* Limits on what a blob may hold, and so on any chain. */
#define BACKTRACE_MAX_PROCESSES 64
#define BACKTRACE_MAX_FRAMES    4096
#define BACKTRACE_MAX_STRING    4096
#define BACKTRACE_MAX_TEXT      (4u << 20)

enum backtrace_flags
{
    BACKTRACE_TRUNCATED = 1             /* the stack had more frames */
};

/* Strings may be NULL for "unknown"; the backtrace keeps copies. */
typedef struct backtrace_process_info
{
    const char *program;
    const char *host;
    const char *thread;
    uint32_t    pid;
    uint32_t    tid;
    int32_t     signal;                 /* 0: captured on purpose */
    int32_t     code;
    uint64_t    address;
    uint32_t    sender;
    uint32_t    flags;                  /* enum backtrace_flags */
} backtrace_process_info;

typedef struct backtrace_frame_info
{
    const char *function;
    const char *file;
    unsigned    line;
    const char *module;
    uint64_t    offset;
    const char *symbol;
    uint64_t    symbol_offset;
} backtrace_frame_info;

recorder_backtrace *backtrace_new(void) RECORDER_HIDDEN;

/* Start a new process at the end of the chain; false if out of memory or
 * beyond the limits above. */
bool backtrace_add_process(recorder_backtrace *backtrace,
                           const backtrace_process_info *process)
    RECORDER_HIDDEN;

/* Add a frame to the last process; false if out of memory, beyond the
 * limits, or there is no process. */
bool backtrace_add_frame(recorder_backtrace *backtrace,
                         const backtrace_frame_info *frame) RECORDER_HIDDEN;

#endif /* RECORDER_BACKTRACE_PRIVATE_H */
