/* share_send.c - commands to another process, and their answers.
 *
 * recorder_share_post() queues a command in the writer's ring and gives
 * its ticket at once; recorder_share_answer() reads the writer's answer in
 * that ticket, waiting for it if asked to, and tells when none will come;
 * recorder_share_send() is the two in a row. A user interface posts from
 * its main loop and looks for answers on its timer: no thread blocks.
 */
#include "recorder_share.h"
#include "segment/share_commands_private.h"
#include "segment/share_layout_private.h"
#include "segment/share_v12_commands_private.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* How often a waiting sender looks at the writer's state, in polls of
 * about a millisecond: a process that died answers nothing. */
#define STATE_EVERY     16

static const char *ticket_status_name(uint32_t status)
{
    switch (status)
    {
    case SHARE_TICKET_INVALID_NAME:     return "invalid name";
    case SHARE_TICKET_INVALID_VALUE:    return "invalid value";
    case SHARE_TICKET_REFUSED:          return "refused";
    case SHARE_TICKET_SKIPPED:          return "skipped";
    case SHARE_TICKET_PARTLY:           return "partly applied";
    default:                            return "unknown answer";
    }
}

bool recorder_share_post(recorder_share *share, const char *command,
                         recorder_share_ticket *ticket, char *error,
                         size_t size)
{
    if (share_v12_segment(share))
        return share_v12_post(share, command, ticket, error, size);
    uint32_t pid;
    share_command_ring *ring = share_reader_commands(share, true, &pid,
                                                     error, size);
    if (!ring)
        return false;
    char why[256];
    if (!recorder_share_available(share, RECORDER_SHARE_COMMANDS, why,
                                  sizeof(why)))
    {
        snprintf(error, size, "process %u cannot take commands: %s", pid, why);
        return false;
    }
    int64_t index = share_command_send(ring, command, error, size);
    if (index < 0)
        return false;
    *ticket = (recorder_share_ticket) index;
    return true;
}

/* The answer in the ticket now, or why none will come, or pending. With
 * 'writer_state', a writer that is gone ends the wait. */
static recorder_share_outcome look(recorder_share *share,
                                   const share_command_ring *ring,
                                   uint32_t pid, uint64_t index,
                                   bool writer_state, char *text, size_t size,
                                   uint32_t *answered)
{
    /* Both before the ticket is read: the writer answers first, then
     * counts the command as applied, and answers before it exits. */
    recorder_share_status state = writer_state ? recorder_share_state(share)
                                               : RECORDER_SHARE_ALIVE;
    uint64_t applied = __atomic_load_n(&ring->applied, __ATOMIC_ACQUIRE);
    uint32_t status = 0;
    char why[SHARE_TICKET_TEXT];
    switch (share_command_answer(ring, index, &status, why, sizeof(why)))
    {
    case SHARE_ANSWER_GIVEN:
        *answered = status;
        if (status == SHARE_TICKET_OK)
        {
            snprintf(text, size, "%s", "");
            return RECORDER_SHARE_APPLIED;
        }
        snprintf(text, size, "%s", why[0] ? why : ticket_status_name(status));
        return RECORDER_SHARE_REJECTED;
    case SHARE_ANSWER_LOST:
        snprintf(text, size, "process %u took it, but later commands "
                 "overwrote its answer", pid);
        return RECORDER_SHARE_UNANSWERED;
    case SHARE_ANSWER_PENDING:
        break;
    }
    if (applied > index)
    {
        snprintf(text, size, "process %u took it but left no answer", pid);
        return RECORDER_SHARE_UNANSWERED;
    }
    char reason[256];
    if (!recorder_share_available(share, RECORDER_SHARE_COMMANDS, reason,
                                  sizeof(reason)))
    {
        snprintf(text, size, "process %u cannot take commands: %s", pid,
                 reason);
        return RECORDER_SHARE_UNANSWERED;
    }
    /* A writer that moved to another segment still answers here. */
    if (state != RECORDER_SHARE_ALIVE && state != RECORDER_SHARE_MOVED)
    {
        snprintf(text, size, "process %u %s without answering", pid,
                 recorder_share_state_name(state));
        return RECORDER_SHARE_UNANSWERED;
    }
    return RECORDER_SHARE_PENDING;
}

/* recorder_share_answer(), with the ticket's status in '*answered' when
 * the writer gave one. */
static recorder_share_outcome wait_answer(recorder_share *share,
                                          recorder_share_ticket ticket,
                                          unsigned timeout_ms, char *text,
                                          size_t size, uint32_t *answered)
{
    if (share_v12_segment(share))
        return share_v12_answer(share, ticket, timeout_ms, text, size);
    uint32_t pid;
    const share_command_ring *ring = share_reader_commands(share, false, &pid,
                                                           text, size);
    if (!ring)
        return RECORDER_SHARE_UNANSWERED;
    for (unsigned waited = 0; ; waited++)
    {
        bool last = waited >= timeout_ms;
        recorder_share_outcome outcome =
            look(share, ring, pid, ticket,
                 last || waited % STATE_EVERY == STATE_EVERY - 1, text, size,
                 answered);
        if (outcome != RECORDER_SHARE_PENDING)
            return outcome;
        if (last)
            break;
        usleep(1000);
    }
    snprintf(text, size, "process %u did not answer within %u ms", pid,
             timeout_ms);
    return RECORDER_SHARE_PENDING;
}

recorder_share_outcome recorder_share_answer(recorder_share *share,
                                             recorder_share_ticket ticket,
                                             unsigned timeout_ms, char *text,
                                             size_t size)
{
    uint32_t answered;
    return wait_answer(share, ticket, timeout_ms, text, size, &answered);
}

bool recorder_share_send(recorder_share *share, const char *command,
                         unsigned timeout_ms, char *error, size_t size)
{
    recorder_share_ticket ticket;
    if (!recorder_share_post(share, command, &ticket, error, size))
        return false;
    if (timeout_ms == 0)
        return true;                    /* queued; the caller does not wait */

    char text[256];
    uint32_t pid;
    share_reader_commands(share, false, &pid, text, sizeof(text));
    /* The command may carry anything: quoted escaped, as the writer does. */
    char quoted[SHARE_COMMAND_TEXT * 4 + 1];
    recorder_share_escape(quoted, sizeof(quoted), command, strlen(command));
    command = quoted;
    uint32_t answered = 0;
    switch (wait_answer(share, ticket, timeout_ms, text, sizeof(text),
                        &answered))
    {
    case RECORDER_SHARE_APPLIED:
        return true;
    case RECORDER_SHARE_REJECTED:
        /* Partly applied: the writer's text says what it applied. */
        if (answered == SHARE_TICKET_PARTLY)
            snprintf(error, size, "process %u, '%s': %s", pid, command, text);
        else
            snprintf(error, size, "process %u refused '%s': %s", pid, command,
                     text);
        return false;
    case RECORDER_SHARE_UNANSWERED:
        snprintf(error, size, "no answer to '%s': %s", command, text);
        return false;
    case RECORDER_SHARE_PENDING:
        break;
    }
    snprintf(error, size, "process %u did not apply '%s' within %u ms",
             pid, command, timeout_ms);
    return false;
}
