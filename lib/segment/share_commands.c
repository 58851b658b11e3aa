/* share_commands.c - readers send trace specification items to the writer.
 *
 * Readers reserve a slot with an atomic add, write the text, publish it with
 * a sequence number and ring a futex doorbell. The writer's thread sleeps on
 * that futex, applies each command as coming from another process (no
 * file names unless the program opted in, see trace_spec_private.h),
 * records the outcome in recorder_traces and answers in the command's
 * ticket, where its sender waits for it. The writer trusts nothing in the
 * ring: indexes come from its own counter, lengths are clamped, text is
 * copied and terminated before use. Senders trust no ticket either.
 */
#include "segment/share_commands_private.h"
#include "record/clock_private.h"
#include "record/share_hooks_private.h"
#include "trace/trace_spec_private.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Futexes in a file mapping shared between processes: not FUTEX_PRIVATE. */
/* When the writer wants its refresh again (share_commands_start). */
static share_tend_timer tend_timer;

static void futex_wait(uint32_t *word, uint32_t seen, const struct timespec *timeout)
{
    syscall(SYS_futex, word, FUTEX_WAIT, seen, timeout, NULL, 0);
}

static void futex_wake(uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* Bumped, in our own memory, when the thread must serve another ring: the
 * doorbell of the old one cannot always be rung, since a segment truncated
 * under us became private memory and its futex is no longer the one the
 * thread sleeps on. */
static uint32_t ring_changed;

/* Sleep until the doorbell or ring_changed moves from what was seen, or
 * 'timeout' (relative) passes. Both at once with futex_waitv (Linux 5.16);
 * on older kernels, on the doorbell alone. */
static void wait_for_work(uint32_t *doorbell, uint32_t bell, uint32_t changed,
                          const struct timespec *timeout)
{
#ifdef SYS_futex_waitv
    struct futex_waitv waiters[2] = {
        { .val = bell, .uaddr = (uintptr_t) doorbell, .flags = FUTEX_32 },
        { .val = changed, .uaddr = (uintptr_t) &ring_changed,
          .flags = FUTEX_32 | FUTEX_PRIVATE_FLAG },
    };
    struct timespec deadline;
    if (timeout)
    {
        clock_gettime(CLOCK_MONOTONIC, &deadline);
        deadline.tv_sec += timeout->tv_sec;
        deadline.tv_nsec += timeout->tv_nsec;
        if (deadline.tv_nsec >= 1000000000)
            deadline.tv_sec++, deadline.tv_nsec -= 1000000000;
    }
    if (syscall(SYS_futex_waitv, waiters, 2, 0, timeout ? &deadline : NULL,
                CLOCK_MONOTONIC) >= 0 || errno != ENOSYS)
        return;
#else
    (void) changed;
#endif
    futex_wait(doorbell, bell, timeout);
}

/* Texts of recent commands, escaped, so records can show them with %+s
 * (a traced record prints on the program's terminal). */
#define KEPT_COMMANDS   16
static char kept[KEPT_COMMANDS][SHARE_COMMAND_TEXT * 4 + 1];

/* Whether commands from the ring may name files: the program's choice,
 * read from its environment before the command thread first runs. */
static bool files_allowed;

static const char *outcome(int result)
{
    switch (result)
    {
    case RECORDER_TRACE_OK:             return "ok";
    case RECORDER_TRACE_INVALID_NAME:   return "invalid name";
    case RECORDER_TRACE_INVALID_VALUE:  return "invalid value";
    case RECORDER_SPEC_REFUSED:         return "refused";
    case RECORDER_SPEC_PARTLY:          return "partly applied";
    default:                            return "failed";
    }
}

/* The ring the thread serves; it changes when the segment moves. */
static share_command_ring *current_ring;

static uint32_t ticket_status(int result)
{
    switch (result)
    {
    case RECORDER_TRACE_OK:             return SHARE_TICKET_OK;
    case RECORDER_TRACE_INVALID_NAME:   return SHARE_TICKET_INVALID_NAME;
    case RECORDER_SPEC_REFUSED:         return SHARE_TICKET_REFUSED;
    case RECORDER_SPEC_PARTLY:          return SHARE_TICKET_PARTLY;
    default:                            return SHARE_TICKET_INVALID_VALUE;
    }
}

/* Answer command 'index' in its ticket. Seqlock order: seq 0, then the
 * rest, then seq = index + 1, so a sender never takes a half-written
 * answer, or another command's, for its own. Byte stores are atomic
 * because senders in this very process may read them meanwhile. */
static void answer(share_command_ring *ring, uint64_t index, uint32_t status,
                   const char *reason)
{
    share_ticket *ticket = &ring->tickets[index % SHARE_COMMANDS];
    __atomic_store_n(&ticket->seq, 0, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    __atomic_store_n(&ticket->status, status, __ATOMIC_RELAXED);
    size_t length = strnlen(reason, SHARE_TICKET_TEXT - 1);
    for (size_t i = 0; i < SHARE_TICKET_TEXT; i++)
        __atomic_store_n(&ticket->reason[i], i < length ? reason[i] : 0,
                         __ATOMIC_RELAXED);
    __atomic_store_n(&ticket->seq, index + 1, __ATOMIC_RELEASE);
}

void share_text_copy(char *out, size_t size, const char *in, size_t in_size)
{
    if (!size)
        return;
    size_t length = 0;
    while (length < size - 1 && length < in_size)
    {
        char c = __atomic_load_n(&in[length], __ATOMIC_RELAXED);
        if (!c)
            break;
        /* Shown on terminals: no escape sequence gets through. */
        out[length++] = c >= 0x20 && c < 0x7f ? c : '?';
    }
    out[length] = 0;
}

share_answer share_command_answer(const share_command_ring *ring,
                                  uint64_t index, uint32_t *status,
                                  char *reason, size_t size)
{
    const share_ticket *ticket = &ring->tickets[index % SHARE_COMMANDS];
    uint64_t before = __atomic_load_n(&ticket->seq, __ATOMIC_ACQUIRE);
    if (before != index + 1)
        return before > index + 1 ? SHARE_ANSWER_LOST : SHARE_ANSWER_PENDING;
    uint32_t got = __atomic_load_n(&ticket->status, __ATOMIC_RELAXED);
    char text[SHARE_TICKET_TEXT];
    share_text_copy(text, sizeof(text), ticket->reason, sizeof(ticket->reason));
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&ticket->seq, __ATOMIC_RELAXED) != before)
        return SHARE_ANSWER_LOST;       /* a later command took the ticket */
    *status = got;
    snprintf(reason, size, "%s", text);
    return SHARE_ANSWER_GIVEN;
}

unsigned share_commands_drain(share_command_ring *ring, uint64_t *reader,
                              const char *refusal)
{
    unsigned taken = 0;
    share_command_ring *serving = __atomic_load_n(&current_ring,
                                                  __ATOMIC_ACQUIRE);
    uint64_t written = __atomic_load_n(&ring->writer, __ATOMIC_ACQUIRE);
    if (written - *reader > SHARE_COMMANDS)
    {
        /* More than the ring holds (or a corrupt index): skip to the newest. */
        record(recorder_warning, "Command ring overrun, %lu commands skipped",
               (unsigned long) (written - *reader - SHARE_COMMANDS));
        *reader = written - SHARE_COMMANDS;
    }
    while (*reader != written)
    {
        share_command *slot = &ring->slots[*reader % SHARE_COMMANDS];
        if (__atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE) != *reader + 1)
            break;                      /* its sender is still writing */

        char text[SHARE_COMMAND_TEXT + 1];
        uint32_t length = __atomic_load_n(&slot->length, __ATOMIC_RELAXED);
        if (length > SHARE_COMMAND_TEXT)
            length = SHARE_COMMAND_TEXT;
        memcpy(text, slot->text, length);
        text[length] = 0;
        char *shown = kept[*reader % KEPT_COMMANDS];
        recorder_share_escape(shown, sizeof(kept[0]), text, strlen(text));

        uint64_t index = (*reader)++;
        __atomic_store_n(&ring->reader, *reader, __ATOMIC_RELEASE);
        if (refusal)
        {
            record(recorder_traces, "Command '%+s': refused, the segment is "
                   "writable by others", shown);
            answer(ring, index, SHARE_TICKET_REFUSED, refusal);
            __atomic_store_n(&ring->applied, *reader, __ATOMIC_RELEASE);
            taken++;
            continue;
        }
        char why[SHARE_TICKET_TEXT] = "";
        int result = recorder_spec_apply(text, files_allowed
                                         ? RECORDER_SPEC_FROM_RING_WITH_FILES
                                         : RECORDER_SPEC_FROM_RING,
                                         why, sizeof(why));
        record(recorder_traces, "Command '%+s': %+s", shown, outcome(result));
        answer(ring, index, ticket_status(result),
               result == RECORDER_TRACE_OK || why[0] ? why : outcome(result));
        __atomic_store_n(&ring->applied, *reader, __ATOMIC_RELEASE);
        taken++;
        /* A share= command moved us: this ring is left behind, and its
         * mapping goes at the next move. Serve the new one from now on. */
        if (__atomic_load_n(&current_ring, __ATOMIC_ACQUIRE) != serving)
            break;
    }
    return taken;
}

/* Whether group or others may write the segment: then anyone of them
 * could send commands as if they were its owner. Said once on each
 * change, on stderr and in the flight recorder. */
static bool open_to_others(bool *said)
{
    unsigned mode = recorder_share_file_mode();
    bool open = (mode & 022) != 0;
    if (open != *said)
    {
        char text[160];
        if (open)
            snprintf(text, sizeof(text), "recorder: the shared segment is "
                     "writable by others (mode %04o): commands refused until "
                     "it is 0600 again\n", mode);
        else
            snprintf(text, sizeof(text), "recorder: the shared segment is "
                     "private again: commands served\n");
        fputs(text, stderr);
        if (open)
            record(recorder_warning, "Segment writable by others: commands "
                   "refused");
        else
            record(recorder_warning, "Segment private again: commands served");
        *said = open;
    }
    return open;
}

static void *apply_commands(void *arg)
{
    (void) arg;
    share_command_ring *ring = NULL;
    uint64_t reader = 0;
    uint64_t stuck_at = 0, stuck_since = 0;
    bool widened = false;

    for (;;)
    {
        /* First: it may wait for the writer's lock, while a move retires
         * the ring we served, so the ring is read after it. */
        const char *refusal = open_to_others(&widened)
            ? "the segment is writable by others: commands refused until "
              "it is 0600 again" : NULL;
        /* Before the ring: a change after this read wakes the wait. */
        uint32_t changed = __atomic_load_n(&ring_changed, __ATOMIC_ACQUIRE);
        share_command_ring *serving = __atomic_load_n(&current_ring,
                                                      __ATOMIC_ACQUIRE);
        if (serving != ring)
        {
            /* A new segment: its ring starts empty, and readers may have
             * queued commands before this thread first ran: take them all
             * (share_commands_drain copes with a corrupt count). */
            ring = serving;
            reader = 0;
            stuck_since = 0;
        }
        uint32_t bell = __atomic_load_n(&ring->doorbell, __ATOMIC_ACQUIRE);
        if (share_commands_drain(ring, &reader, refusal) && !refusal)
            recorder_share_update();

        bool pending = __atomic_load_n(&ring->writer, __ATOMIC_ACQUIRE) != reader;
        if (pending)
        {
            /* A sender that died after reserving must not block the rest. */
            uint64_t now = recorder_monotonic_ns();
            if (stuck_at != reader || !stuck_since)
            {
                stuck_at = reader;
                stuck_since = now;
            }
            else if (now - stuck_since > 100000000)
            {
                record(recorder_warning, "Command %lu never completed, skipped",
                       (unsigned long) reader);
                answer(ring, reader, SHARE_TICKET_SKIPPED,
                       "its sender never finished writing it");
                reader++;
                __atomic_store_n(&ring->reader, reader, __ATOMIC_RELEASE);
                __atomic_store_n(&ring->applied, reader, __ATOMIC_RELEASE);
                stuck_since = 0;
                continue;
            }
        }

        /* Sleep until rung. A sender between its reservation and its
         * publication: look again shortly. Wake too when a calibration
         * point is due: readers of the segment get their points from us. */
        uint64_t until_point = recorder_clock_calibrate();
        struct timespec soon = { 0, 1000000 }, point = {
            (time_t) (until_point / 1000000000), (long) (until_point % 1000000000)
        };
        const struct timespec *timeout = pending ? &soon
                                       : until_point == UINT64_MAX ? NULL
                                       : &point;
        /* Rings took their place in the segment since we last reserved
         * blocks ahead of them, or wait for room: look again, and sleep
         * for good once the program's recorders settled. */
        share_tend_timer timer = __atomic_load_n(&tend_timer,
                                                 __ATOMIC_ACQUIRE);
        uint64_t until_tend = timer ? timer() : 0;
        struct timespec tend = {
            (time_t) (until_tend / 1000000000), (long) (until_tend % 1000000000)
        };
        if (until_tend &&
            (!timeout || timeout->tv_sec > tend.tv_sec ||
             (timeout->tv_sec == tend.tv_sec && timeout->tv_nsec > tend.tv_nsec)))
            timeout = &tend;
        wait_for_work(&ring->doorbell, bell, changed, timeout);
        /* Tweaks the program assigned directly show in the segment after
         * these wake-ups too, the last one about a second after start. */
        if (timeout == &point || timeout == &tend)
            recorder_share_update();
    }
    return NULL;
}

void share_commands_forget(void)
{
    __atomic_store_n(&current_ring, NULL, __ATOMIC_RELEASE);
}

/* Tell readers, the program's user and its flight recorder why commands
 * will not be applied: otherwise senders only see a timeout. */
static void unavailable(share_header *header, const char *what, int error)
{
    snprintf(header->commands_why, sizeof(header->commands_why), "%s", what);
    __atomic_store_n(&header->commands_error, (uint32_t) error,
                     __ATOMIC_RELEASE);
    char text[160];
    snprintf(text, sizeof(text),
             "recorder: commands from readers unavailable: %s: %s\n",
             what, strerror(error));
    fputs(text, stderr);
    record(recorder_error, "Cannot start the command thread: %+s, errno %d",
           what, error);
}

void share_commands_start(share_header *header, share_command_ring *ring,
                          share_tend_timer next_tend)
{
    __atomic_store_n(&tend_timer, next_tend, __ATOMIC_RELEASE);
    ring->capacity = SHARE_COMMANDS;
    share_command_ring *old = __atomic_exchange_n(&current_ring, ring,
                                                  __ATOMIC_ACQ_REL);
    if (old)
    {
        /* The thread sleeps on the old ring's doorbell: ring it to move. */
        __atomic_fetch_add(&old->doorbell, 1, __ATOMIC_RELEASE);
        futex_wake(&old->doorbell);
        __atomic_fetch_add(&ring_changed, 1, __ATOMIC_RELEASE);
        syscall(SYS_futex, &ring_changed, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
        return;
    }

    /* Before the thread exists, so it reads a settled value. */
    const char *opt_in = getenv("RECORDER_COMMANDS_FILES");
    files_allowed = opt_in && strcmp(opt_in, "1") == 0;

    /* Block every signal in the thread: they belong to the program's. Not
     * the faults: blocked, they kill the process without a handler, and a
     * SIGBUS from a segment truncated under us is repaired by one. */
    sigset_t all, saved;
    sigfillset(&all);
    sigdelset(&all, SIGBUS);
    sigdelset(&all, SIGSEGV);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    pthread_t thread;
    pthread_attr_t attr;
    int error = pthread_attr_init(&attr);
    if (!error)
    {
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        error = pthread_create(&thread, &attr, apply_commands, NULL);
        pthread_attr_destroy(&attr);
    }
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    if (error)
    {
        /* No thread serves the ring: the next segment tries again. */
        __atomic_store_n(&current_ring, NULL, __ATOMIC_RELEASE);
        unavailable(header, "pthread_create", error);
    }
}

int64_t share_command_send(share_command_ring *ring, const char *text,
                           char *why, size_t why_size)
{
    size_t length = strlen(text);
    if (length > SHARE_COMMAND_TEXT)
    {
        snprintf(why, why_size, "command longer than %d bytes",
                 SHARE_COMMAND_TEXT);
        return -1;
    }
    uint64_t index = __atomic_fetch_add(&ring->writer, 1, __ATOMIC_ACQ_REL);

    /* Wait for the writer to free the slot: it takes commands within
     * milliseconds when alive. */
    for (int tries = 0;
         index - __atomic_load_n(&ring->reader, __ATOMIC_ACQUIRE) >= SHARE_COMMANDS;
         tries++)
    {
        if (tries == 1000)
        {
            snprintf(why, why_size, "command ring full: is the process stuck?");
            return -1;
        }
        usleep(1000);
    }
    share_command *slot = &ring->slots[index % SHARE_COMMANDS];
    memcpy(slot->text, text, length);
    __atomic_store_n(&slot->length, (uint32_t) length, __ATOMIC_RELAXED);
    __atomic_store_n(&slot->seq, index + 1, __ATOMIC_RELEASE);
    __atomic_fetch_add(&ring->doorbell, 1, __ATOMIC_RELEASE);
    futex_wake(&ring->doorbell);
    return (int64_t) index;
}
