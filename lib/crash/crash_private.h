/* crash_private.h - the end of a process that dies of a signal.
 *
 * For every signal that ends the process, the handler in signals.c hands
 * over to crash_handle(): dump the flight recorder and, for a crash
 * (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS), report where it
 * happened; all within recorder_crash_timeout milliseconds, after which
 * the process dies by its signal whatever the report was doing.
 */
#ifndef RECORDER_CRASH_PRIVATE_H
#define RECORDER_CRASH_PRIVATE_H

#include "recorder.h"
#include "base/visibility_private.h"

#include <signal.h>
#include <stdbool.h>

RECORDER_TWEAK_DECLARE(recorder_crash_timeout);

/* Whether 'sig' is one that gets a crash report with a backtrace. */
bool crash_signal(int sig) RECORDER_HIDDEN;

/* Get ready to report crashes: find the recorder_symbolize helper, open
 * libunwind. Not async-signal-safe; call it when installing the handlers.
 * Idempotent. */
void crash_prepare(void) RECORDER_HIDDEN;

/* From the handler of a signal that ends the process: record it, dump the
 * flight recorder (unless 'dump' is false: it faulted dumping already),
 * report a crash, then die by 'sig'. Never returns. Async-signal-safe. */
void crash_handle(int sig, siginfo_t *info, void *context, bool dump)
    __attribute__((noreturn)) RECORDER_HIDDEN;

#endif /* RECORDER_CRASH_PRIVATE_H */
