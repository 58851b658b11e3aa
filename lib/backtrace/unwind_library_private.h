/* unwind_library_private.h - libunwind's local unwinder, if it is there.
 *
 * Opened at run time (library_load_private.h): the crash handler walks
 * the stack with it when it could be loaded, and with glibc's backtrace()
 * when not. Only the header is needed to build.
 */
#ifndef RECORDER_UNWIND_LIBRARY_PRIVATE_H
#define RECORDER_UNWIND_LIBRARY_PRIVATE_H

#ifndef UNW_LOCAL_ONLY
#define UNW_LOCAL_ONLY                  /* this process's stack only */
#endif
#include "base/visibility_private.h"

#include <libunwind.h>

typedef struct unwind_library
{
    __typeof__(unw_init_local)          *init_local;
    __typeof__(unw_init_local2)         *init_local2;   /* NULL before 1.3 */
    __typeof__(unw_get_reg)             *get_reg;
    __typeof__(unw_step)                *step;
    __typeof__(unw_is_signal_frame)     *is_signal_frame;
} unwind_library;

/* Open libunwind, once; also get glibc's backtrace() ready (its first call
 * loads libgcc_s), so that either can walk a stack in a signal handler.
 * Not async-signal-safe: call it before a handler may need it. */
void unwind_library_load(void) RECORDER_HIDDEN;

/* libunwind's functions, or NULL if it could not be loaded or
 * unwind_library_load() was not called. Async-signal-safe. */
const unwind_library *unwind_library_get(void) RECORDER_HIDDEN;

#endif /* RECORDER_UNWIND_LIBRARY_PRIVATE_H */
