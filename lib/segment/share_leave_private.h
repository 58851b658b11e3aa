/* share_leave_private.h - the segments the writer leaves behind.
 *
 * After a move or a growth, the old segment's mapping is kept a while
 * (threads may still write into a ring they loaded before the switch);
 * a file truncated under us is let go and recording goes on in private
 * memory; a child after fork() gets private copies of the rings and no
 * segment; at exit the segment is marked exited for its readers.
 */
#ifndef RECORDER_SHARE_LEAVE_PRIVATE_H
#define RECORDER_SHARE_LEAVE_PRIVATE_H

#include "segment/share_access_private.h"
#include "base/visibility_private.h"

#include <stdbool.h>

/* From the SIGBUS handler (segment_guard.c), with the segment's serial
 * number as 'arg': its file was truncated. Async-signal-safe. */
void share_segment_truncated(void *arg) RECORDER_HIDDEN;

/* Outside the handler, writer lock held: let the truncated file go. */
void share_let_go_if_detached_locked(void) RECORDER_HIDDEN;

/* Unmap the segments left that no thread can still be writing into (all
 * of them with 'all'). Writer lock held. */
void share_release_retired_locked(bool all) RECORDER_HIDDEN;

/* After a move or growth, let go of the segment left (writer lock held). */
void share_retire_locked(int old_fd, int old_guard, share_view old_view,
                         const char *old_path) RECORDER_HIDDEN;

/* Once a segment is made: mark it exited at exit, and hold the writer
 * lock across fork(), the child letting go of the segment. */
void share_leave_at_exit_and_fork(void) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_LEAVE_PRIVATE_H */
