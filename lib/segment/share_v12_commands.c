/* share_v12_commands.c - commands to a recorder 1.2 program, and what such
 * a segment cannot provide.
 *
 * The ring's indexes are the program's and any reader's to change: each
 * is loaded once, checked against the others, and the bytes go in place
 * only after the writer index was reserved with a compare-and-swap, as
 * 1.2's own ring did; its commit then follows.
 */
#include "segment/share_v12_commands_private.h"
#include "segment/share_v12_private.h"
#include "segment/share_v12_layout_private.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Tries at reserving room or committing before giving up on other
 * senders (each try is a few loads). */
#define TRIES           1000
/* How often a waiting sender looks at the writer's state, in polls of
 * about a millisecond. */
#define STATE_EVERY     16

bool share_v12_segment(const recorder_share *share)
{
    return share->v12 != NULL;
}

static const char *gone(recorder_share_status status)
{
    return status == RECORDER_SHARE_EXITED
         ? "exited (no process of yours has the file open)"
         : "was replaced or changed";
}

/* Why 'command' cannot be sent now, in error[size]; false if it can. */
static bool refused(recorder_share *share, size_t length, char *error,
                    size_t size)
{
    recorder_share_status status = share_v12_state(share);
    if (status != RECORDER_SHARE_ALIVE)
        snprintf(error, size, "%s: recorder 1.2 program %s", share->path,
                 gone(status));
    else if (!share->writable)
        snprintf(error, size, "%s: no write permission for commands",
                 share->path);
    else if (!share->v12->commands_ok)
        snprintf(error, size, "%s: the command area of this recorder 1.2 "
                 "segment is corrupt", share->path);
    else if (!length)
        snprintf(error, size, "empty command");
    else if (length > V12_COMMAND_BYTES - 2)
        snprintf(error, size, "command too long for a recorder 1.2 program "
                 "(%zu bytes, at most %u)", length, V12_COMMAND_BYTES - 2);
    else
        return false;
    return true;
}

/* Reserve 'length' bytes, and one for a ':' if a command is still unread.
 * Returns false with the reason in error[size]. */
static bool reserve(recorder_share *share, v12_ring *ring, size_t length,
                    uint64_t *start, uint64_t *need, char *error, size_t size)
{
    for (unsigned t = 0; t < TRIES; t++)
    {
        /* In this order, a sane ring always gives reader <= commit <=
         * writer, however the others move in between. */
        uint64_t reader = __atomic_load_n(&ring->reader, __ATOMIC_ACQUIRE);
        uint64_t commit = __atomic_load_n(&ring->commit, __ATOMIC_ACQUIRE);
        uint64_t writer = __atomic_load_n(&ring->writer, __ATOMIC_ACQUIRE);
        if (reader > commit || commit > writer ||
            writer - reader >= V12_COMMAND_BYTES)
        {
            snprintf(error, size, "%s: the command ring of this recorder 1.2 "
                     "segment is corrupt (indexes %llu, %llu, %llu)",
                     share->path, (unsigned long long) reader,
                     (unsigned long long) commit, (unsigned long long) writer);
            return false;
        }
        uint64_t unread = writer - reader;
        *need = length + (unread ? 1 : 0);
        if (*need > V12_COMMAND_BYTES - 1 - unread)
        {
            snprintf(error, size, "process %u has not taken its earlier "
                     "commands yet: no room for this one",
                     share_v12_writer(share));
            return false;
        }
        *start = writer;
        if (__atomic_compare_exchange_n(&ring->writer, &writer,
                                        writer + *need, false,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return true;
    }
    snprintf(error, size, "%s: other senders kept the command ring busy",
             share->path);
    return false;
}

bool share_v12_post(recorder_share *share, const char *command,
                    recorder_share_ticket *ticket, char *error, size_t size)
{
    size_t length = command ? strlen(command) : 0;
    if (refused(share, length, error, size))
        return false;
    v12_header *live = v12_live(share);
    v12_ring *ring = &live->commands;
    uint64_t start, need;
    if (!reserve(share, ring, length, &start, &need, error, size))
        return false;
    uint64_t at = start;
    if (need > length)
        live->command_bytes[at++ % V12_COMMAND_BYTES] = ':';
    for (size_t c = 0; c < length; c++)
        live->command_bytes[at++ % V12_COMMAND_BYTES] = command[c];
    /* Commits go in order: wait for senders before us, a while. */
    uint64_t expected = start;
    unsigned t;
    for (t = 0; t < TRIES; t++, expected = start)
    {
        if (__atomic_compare_exchange_n(&ring->commit, &expected, at, false,
                                        __ATOMIC_RELEASE, __ATOMIC_RELAXED))
            break;
        sched_yield();
    }
    if (t == TRIES)
        __atomic_fetch_add(&ring->commit, need, __ATOMIC_RELEASE);
    *ticket = at;
    return true;
}

recorder_share_outcome share_v12_answer(recorder_share *share,
                                        recorder_share_ticket ticket,
                                        unsigned timeout_ms, char *text,
                                        size_t size)
{
    const v12_ring *ring = &v12_live(share)->commands;
    for (unsigned waited = 0; ; waited++)
    {
        bool last = waited >= timeout_ms;
        if (__atomic_load_n(&ring->reader, __ATOMIC_ACQUIRE) >= ticket)
        {
            snprintf(text, size, "%s", "");
            return RECORDER_SHARE_APPLIED;  /* taken: 1.2 says no more */
        }
        if (last || waited % STATE_EVERY == STATE_EVERY - 1)
        {
            recorder_share_status status = share_v12_state(share);
            if (status != RECORDER_SHARE_ALIVE)
            {
                snprintf(text, size, "recorder 1.2 program %s before taking "
                         "it", gone(status));
                return RECORDER_SHARE_UNANSWERED;
            }
        }
        if (last)
            break;
        usleep(1000);
    }
    snprintf(text, size, "process %u did not take it within %u ms",
             share_v12_writer(share), timeout_ms);
    return RECORDER_SHARE_PENDING;
}

bool share_v12_available(recorder_share *share, recorder_share_service service,
                         char *why, size_t size)
{
    if (size)
        why[0] = 0;
    switch (service)
    {
    case RECORDER_SHARE_COMMANDS:
        if (share->v12->commands_ok)
            return true;
        snprintf(why, size, "the command area of this recorder 1.2 segment "
                 "is corrupt");
        return false;
    case RECORDER_SHARE_RECORDERS:
        snprintf(why, size, "a recorder 1.2 segment holds only the channels "
                 "its program exports");
        return false;
    default:
        return true;                    /* nothing needs the others */
    }
}
