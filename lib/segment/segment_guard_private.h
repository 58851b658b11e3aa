/* segment_guard_private.h - survive a segment file truncated under its map.
 *
 * Touching a page of a MAP_SHARED file mapping past the end of the file
 * raises SIGBUS; anyone who can write the file can truncate it. So the
 * writer and the readers register the ranges they map, and one SIGBUS
 * handler, given a fault inside a registered range, puts private memory
 * in its place (the writer's with what is left of the file, a reader's
 * zeros) and returns: the access runs again on that memory. A range is
 * repaired once and then stays "detached". Any other SIGBUS goes on to the
 * handler that was there before (the library's crash handler, the
 * program's, or the default action).
 */
#ifndef RECORDER_SEGMENT_GUARD_PRIVATE_H
#define RECORDER_SEGMENT_GUARD_PRIVATE_H

#include "base/visibility_private.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#define SEGMENT_GUARD_RANGES    64

/* Called from the signal handler once a range was repaired:
 * async-signal-safe calls only. */
typedef void (*segment_guard_notify)(void *arg);

/* Guard [base, base + size), mapped with 'prot' from 'fd'. With
 * 'keep_file', the repair copies what is left of the file (from 'fd', which
 * must stay open while the range is guarded) into the private memory.
 * Installs the SIGBUS handler on first use. Returns a handle, or -1 when
 * the table is full (the range then is not guarded). */
int segment_guard_add(void *base, size_t size, int prot, int fd,
                      bool keep_file, segment_guard_notify notify, void *arg)
    RECORDER_HIDDEN;

/* Detach the range of 'handle' now, as a fault in it would (private
 * memory in place, then its notify), for a caller that found the file
 * truncated before touching it: the crash path, in a signal handler whose
 * SIGBUS would be blocked. Async-signal-safe. False if not armed. */
bool segment_guard_detach(int handle) RECORDER_HIDDEN;

/* Stop guarding 'handle' (before unmapping the range). -1 is ignored. */
void segment_guard_remove(int handle) RECORDER_HIDDEN;

/* Whether the range of 'handle' was truncated under us and is now private
 * memory. Lock-free. */
bool segment_guard_detached(int handle) RECORDER_HIDDEN;

/* For SIGBUS handlers: if 'info' is a fault inside a guarded range, repair
 * the range and return true (return from the handler: the access runs
 * again); false otherwise. Async-signal-safe. */
bool segment_guard_repair(const siginfo_t *info) RECORDER_HIDDEN;

/* For a handler installed over the guard's: if 'action' is the guard's
 * SIGBUS handler, store in 'before' the action the guard passes other
 * faults on to and return true, so that the new handler chains to that
 * one itself (and repairs first). False otherwise. */
bool segment_guard_passes_to(const struct sigaction *action,
                             struct sigaction *before) RECORDER_HIDDEN;

#endif /* RECORDER_SEGMENT_GUARD_PRIVATE_H */
