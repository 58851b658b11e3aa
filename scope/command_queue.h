/* command_queue.h - send commands to the program without blocking the UI.
 *
 * recorder_share_send() waits (polling every millisecond) until the
 * program applied the command. A slider that moves sends many values, and
 * a stuck program would freeze the window for the whole timeout, so
 * commands go to a worker thread that has its own view of the segment
 * (reopened when the program restarts). A command queued with a key
 * replaces a pending one with the same key: only a slider's latest
 * position is sent.
 */
#ifndef SCOPE_COMMAND_QUEUE_H
#define SCOPE_COMMAND_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct scope_commands scope_commands;

/* Commands for the segment at 'path', opened with 'open_flags' (of
 * recorder_share_open_flags). NULL if the thread cannot start. */
scope_commands *scope_commands_new(const char *path, unsigned open_flags);
/* Waits for the command being sent, drops the pending ones. */
void scope_commands_delete(scope_commands *queue);

/* Queue 'command'; 'key' NULL or a name for coalescing. False if out of
 * memory or the command is longer than the segment accepts. */
bool scope_commands_send(scope_commands *queue, const char *command,
                         const char *key);

/* The oldest outcome not yet taken, like "transfer_delay=200 applied" or
 * the reason it failed. False if there is none. */
bool scope_commands_outcome(scope_commands *queue, char *buf, size_t size,
                            bool *failed);

/* Wait until every queued command was tried, up to 'timeout_ms'. */
bool scope_commands_flush(scope_commands *queue, unsigned timeout_ms);

#endif /* SCOPE_COMMAND_QUEUE_H */
