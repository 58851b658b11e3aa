/* command_targets.h - commands for the segments of a source: one queue
 * (command_queue.h) per segment, sent to the chosen one or to all.
 *
 * With one segment this is its queue and nothing else. With several
 * (multi_source.h), queues are made as segments join; a command goes to
 * the target of the source (scope_source_target), or to every segment
 * when the target is "all"; outcomes name the process they came from.
 */
#ifndef SCOPE_COMMAND_TARGETS_H
#define SCOPE_COMMAND_TARGETS_H

#include "source/channel_data.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct scope_targets scope_targets;

/* NULL if out of memory. */
scope_targets *scope_targets_new(unsigned open_flags);
void scope_targets_delete(scope_targets *targets);

/* A queue for each segment of 'source' that has none yet. False if out
 * of memory. */
bool scope_targets_follow(scope_targets *targets, const scope_source *source);

/* Queue 'command' (coalesced by 'key' when not NULL) for the target of
 * 'source', or for every segment when it is -1. */
bool scope_targets_send(scope_targets *targets, const scope_source *source,
                        const char *command, const char *key);
/* Queue 'command' for segment 'segment' only. */
bool scope_targets_send_to(scope_targets *targets, unsigned segment,
                           const char *command, const char *key);

/* Post, collect answers: scope_commands_poll() for each queue. */
void scope_targets_poll(scope_targets *targets);
/* The oldest outcome not taken from any queue; with several segments,
 * followed by " (PROGRAM[PID])" (the names as 'source' has them). */
bool scope_targets_outcome(scope_targets *targets, const scope_source *source,
                           char *buf, size_t size, bool *failed);

#endif /* SCOPE_COMMAND_TARGETS_H */
