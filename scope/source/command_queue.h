/* command_queue.h - send commands to the program without blocking the UI.
 *
 * Commands are posted (recorder_share_post) and their answers looked for
 * (recorder_share_answer with no wait) each time the main loop calls
 * scope_commands_poll(): no call sleeps, so a stuck program cannot freeze
 * the window, and no thread is needed. The queue has its own view of the
 * segment, reopened when the program restarts. A command queued with a
 * key replaces a queued one with the same key that was not posted yet:
 * only a slider's latest position is sent. At most a few commands are
 * posted and unanswered at a time, so the ring of a program that stopped
 * answering never fills (a full ring would make posting wait).
 */
#ifndef SCOPE_COMMAND_QUEUE_H
#define SCOPE_COMMAND_QUEUE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct scope_commands scope_commands;

/* Commands for the segment at 'path' (NULL: the default path), opened
 * with 'open_flags' (of recorder_share_open_flags). NULL if out of
 * memory. */
scope_commands *scope_commands_new(const char *path, unsigned open_flags);
/* Drops what is queued; answers still to come are not waited for. */
void scope_commands_delete(scope_commands *queue);

/* Queue 'command'; 'key' NULL or a name for coalescing. False if out of
 * memory. It is posted by this call or a later scope_commands_poll(). */
bool scope_commands_send(scope_commands *queue, const char *command,
                         const char *key);

/* Post what is queued, collect the answers that came; never waits. */
void scope_commands_poll(scope_commands *queue);

/* The oldest outcome not yet taken, like "'gain=200' applied", or
 * "'gain=x' refused: invalid trace value 'x' in 'gain=x'" with *failed
 * set. False if there is none. */
bool scope_commands_outcome(scope_commands *queue, char *buf, size_t size,
                            bool *failed);

/* Poll until every queued command was answered or given up on, up to
 * 'timeout_ms'. For tests and scripts: it sleeps. */
bool scope_commands_flush(scope_commands *queue, unsigned timeout_ms);

#endif /* SCOPE_COMMAND_QUEUE_H */
