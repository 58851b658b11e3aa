/* share_commands_private.h - the command ring, from readers to the writer. */
#ifndef RECORDER_SHARE_COMMANDS_PRIVATE_H
#define RECORDER_SHARE_COMMANDS_PRIVATE_H

#include "share_layout_private.h"
#include "clock_private.h"

/* Writer side: start the thread that applies commands as they arrive. It
 * sleeps on a futex in the ring, so it costs nothing while idle. */
void share_commands_start(share_command_ring *ring) RECORDER_HIDDEN;

/* In a forked child, which has no command thread: start afresh next time. */
void share_commands_forget(void) RECORDER_HIDDEN;

/* Apply what is pending; returns how many commands were taken. Used by the
 * thread, and by tests and fuzzers on rings they made themselves. */
unsigned share_commands_drain(share_command_ring *ring, uint64_t *reader)
    RECORDER_HIDDEN;

/* Reader side: queue 'text' and wake the writer. Returns the command's
 * index (wait for ring->applied to pass it), or -1 with 'why' set. */
int64_t share_command_send(share_command_ring *ring, const char *text,
                           char *why, size_t why_size) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_COMMANDS_PRIVATE_H */
