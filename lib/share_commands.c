/* share_commands.c - readers send trace specification items to the writer.
 *
 * Readers reserve a slot with an atomic add, write the text, publish it with
 * a sequence number and ring a futex doorbell. The writer's thread sleeps on
 * that futex, applies each command with recorder_trace_set() and records
 * the outcome in recorder_traces. The writer trusts nothing in the ring:
 * indexes come from its own counter, lengths are clamped, text is copied
 * and terminated before use.
 */
#include "share_commands_private.h"
#include "share_writer_private.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Futexes in a file mapping shared between processes: not FUTEX_PRIVATE. */
static void futex_wait(uint32_t *word, uint32_t seen, const struct timespec *timeout)
{
    syscall(SYS_futex, word, FUTEX_WAIT, seen, timeout, NULL, 0);
}

static void futex_wake(uint32_t *word)
{
    syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* Texts of recent commands, so records can show them with %+s. */
#define KEPT_COMMANDS   16
static char kept[KEPT_COMMANDS][SHARE_COMMAND_TEXT + 1];

static const char *outcome(int result)
{
    switch (result)
    {
    case RECORDER_TRACE_OK:             return "ok";
    case RECORDER_TRACE_INVALID_NAME:   return "invalid name";
    case RECORDER_TRACE_INVALID_VALUE:  return "invalid value";
    default:                            return "failed";
    }
}

unsigned share_commands_drain(share_command_ring *ring, uint64_t *reader)
{
    unsigned taken = 0;
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

        char *text = kept[*reader % KEPT_COMMANDS];
        uint32_t length = __atomic_load_n(&slot->length, __ATOMIC_RELAXED);
        if (length > SHARE_COMMAND_TEXT)
            length = SHARE_COMMAND_TEXT;
        memcpy(text, slot->text, length);
        text[length] = 0;
        text[strcspn(text, "\n")] = 0;

        (*reader)++;
        __atomic_store_n(&ring->reader, *reader, __ATOMIC_RELEASE);
        int result = recorder_trace_set(text);
        record(recorder_traces, "Command '%+s': %+s", text, outcome(result));
        __atomic_store_n(&ring->applied, *reader, __ATOMIC_RELEASE);
        taken++;
    }
    return taken;
}

/* The ring the thread serves; it changes when the segment moves. */
static share_command_ring *current_ring;

static void *apply_commands(void *arg)
{
    (void) arg;
    share_command_ring *ring = NULL;
    uint64_t reader = 0;
    bool calibrated = false;
    uint64_t started = recorder_monotonic_ns();
    uint64_t stuck_at = 0, stuck_since = 0;

    for (;;)
    {
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
        if (share_commands_drain(ring, &reader))
            recorder_share_refresh();

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
                reader++;
                __atomic_store_n(&ring->reader, reader, __ATOMIC_RELEASE);
                __atomic_store_n(&ring->applied, reader, __ATOMIC_RELEASE);
                stuck_since = 0;
                continue;
            }
        }

        /* Sleep until rung. A sender between its reservation and its
         * publication: look again shortly. Once only, a second after start,
         * wake to publish the precise tick rate. */
        struct timespec soon = { 0, 1000000 }, calibration = { 1, 100000000 };
        const struct timespec *timeout = pending ? &soon
                                       : calibrated ? NULL : &calibration;
        futex_wait(&ring->doorbell, bell, timeout);
        if (!calibrated && recorder_monotonic_ns() - started > 1000000000)
        {
            calibrated = true;
            recorder_share_refresh();
        }
    }
    return NULL;
}

void share_commands_forget(void)
{
    __atomic_store_n(&current_ring, NULL, __ATOMIC_RELEASE);
}

void share_commands_start(share_command_ring *ring)
{
    ring->capacity = SHARE_COMMANDS;
    share_command_ring *old = __atomic_exchange_n(&current_ring, ring,
                                                  __ATOMIC_ACQ_REL);
    if (old)
    {
        /* The thread sleeps on the old ring's doorbell: ring it to move. */
        __atomic_fetch_add(&old->doorbell, 1, __ATOMIC_RELEASE);
        futex_wake(&old->doorbell);
        return;
    }

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
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&thread, &attr, apply_commands, NULL) != 0)
        record(recorder_error, "Cannot start the command thread");
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
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
