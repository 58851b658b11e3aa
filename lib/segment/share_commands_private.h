/* share_commands_private.h - the command ring, from readers to the writer. */
#ifndef RECORDER_SHARE_COMMANDS_PRIVATE_H
#define RECORDER_SHARE_COMMANDS_PRIVATE_H

#include "segment/share_layout_private.h"
#include "base/visibility_private.h"
#include "recorder_share.h"

/* Writer side: start the thread that applies commands as they arrive. It
 * sleeps on a futex in the ring, so it costs nothing while idle, but for
 * the wake-ups 'next_tend' asks for (nanoseconds from now, 0: none; the
 * writer's refresh runs after each). If it cannot start, 'header' says so
 * (commands_error, commands_why). While group or others may write the
 * segment's file, commands are answered with a refusal, not applied. */
typedef uint64_t (*share_tend_timer)(void);
void share_commands_start(share_header *header, share_command_ring *ring,
                          share_tend_timer next_tend) RECORDER_HIDDEN;

/* In a forked child, which has no command thread: start afresh next time. */
void share_commands_forget(void) RECORDER_HIDDEN;

/* Apply what is pending, or with a 'refusal', answer it with that reason
 * and apply nothing; returns how many commands were taken. Used by the
 * thread, and by tests and fuzzers on rings they made themselves. */
unsigned share_commands_drain(share_command_ring *ring, uint64_t *reader,
                              const char *refusal) RECORDER_HIDDEN;

/* Reader side: queue 'text' and wake the writer. Returns the command's
 * index (wait for its answer, share_command_answer), or -1 with 'why' set. */
int64_t share_command_send(share_command_ring *ring, const char *text,
                           char *why, size_t why_size) RECORDER_HIDDEN;

typedef enum share_answer
{
    SHARE_ANSWER_PENDING,               /* not answered yet */
    SHARE_ANSWER_GIVEN,                 /* *status and reason are set */
    SHARE_ANSWER_LOST                   /* a later command took the ticket */
} share_answer;

/* The writer's answer to command 'index', if given: its status (enum
 * share_ticket_status, or anything a forger wrote) and its reason, copied
 * as printable text and terminated. */
share_answer share_command_answer(const share_command_ring *ring,
                                  uint64_t index, uint32_t *status,
                                  char *reason, size_t size) RECORDER_HIDDEN;

/* For share_send.c, which knows no reader internals: the command ring of
 * 'share' and its writer's pid. If 'sending', NULL with a reason unless the
 * writer is alive and the segment writable. (share_services.c) */
share_command_ring *share_reader_commands(recorder_share *share, bool sending,
                                          uint32_t *pid, char *error,
                                          size_t size) RECORDER_HIDDEN;

/* Copy text of at most 'in_size' bytes from a segment, which another
 * process may be changing: terminated, control characters and non-ASCII
 * bytes shown as '?'. */
void share_text_copy(char *out, size_t size, const char *in, size_t in_size)
    RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_COMMANDS_PRIVATE_H */
