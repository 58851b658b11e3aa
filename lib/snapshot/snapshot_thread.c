/* snapshot_thread.c - the thread that takes snapshots.
 *
 * Every POLL_MS it reads the flags the record path set for each slot
 * (record/watch_private.h): new hits are triggers. The first trigger
 * outside the hold-off of the previous snapshot, while fewer than
 * snapshot_max were taken, is kept; the others are counted as suppressed.
 * Once the post-trigger delay has passed, the file is written here, never
 * on a recording thread nor in a signal handler. At exit, a snapshot
 * still waiting is written with what there is.
 */
#include "snapshot/snapshot_private.h"
#include "record/clock_private.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POLL_MS         10

typedef struct slot_counts
{
    uint32_t serial;                    /* of the condition counted */
    uint64_t seen;                      /* hits looked at */
    uint64_t taken, suppressed;
} slot_counts;

typedef struct pending_snapshot
{
    bool     waiting;
    unsigned slot;
    uint32_t serial;
    uint64_t at_ns;                     /* when the condition held */
    char     text[SNAPSHOT_CONDITION_TEXT];
} pending_snapshot;

static pthread_mutex_t control = PTHREAD_MUTEX_INITIALIZER; /* start, stop */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t  wake;
static pthread_t       thread;
static bool            running, stopping;
static slot_counts     counts[RECORDER_WATCH_SLOTS];
static snapshot_slot_view views[RECORDER_WATCH_SLOTS];
static pending_snapshot pending;
static uint64_t        scheduled;       /* snapshots taken or waiting */
static uint64_t        last_at_ns;      /* trigger of the last one */

static uint64_t now_ns(void)
{
    return recorder_clock_ns_since_start(recorder_ticks());
}

void snapshot_thread_slot_armed(unsigned slot, uint32_t serial,
                                const char *text)
{
    if (slot >= RECORDER_WATCH_SLOTS)
        return;
    pthread_mutex_lock(&lock);
    uint64_t stale;
    recorder_watch_take(slot, &stale);
    counts[slot] = (slot_counts) { .serial = serial,
                                   .seen = recorder_watch_hits(slot) };
    views[slot] = (snapshot_slot_view) { .armed = true, .serial = serial };
    snprintf(views[slot].text, sizeof(views[slot].text), "%s", text);
    pthread_mutex_unlock(&lock);
}

void snapshot_thread_slot_disarmed(unsigned slot)
{
    if (slot >= RECORDER_WATCH_SLOTS)
        return;
    pthread_mutex_lock(&lock);
    views[slot].armed = false;
    pthread_mutex_unlock(&lock);
}

void snapshot_thread_counts(unsigned slot, uint64_t *taken,
                            uint64_t *suppressed)
{
    *taken = *suppressed = 0;
    if (slot >= RECORDER_WATCH_SLOTS)
        return;
    pthread_mutex_lock(&lock);
    *taken = counts[slot].taken;
    *suppressed = counts[slot].suppressed;
    pthread_mutex_unlock(&lock);
}

/* New triggers of one slot: keep the first if allowed, count the rest.
 * Called with 'lock' held. True if the counts changed. */
static bool look_at_slot(unsigned slot, const snapshot_slot_view *view,
                         const snapshot_settings *settings, uint64_t now)
{
    slot_counts *c = &counts[slot];
    uint64_t hits = recorder_watch_hits(slot);
    uint64_t fresh = hits - c->seen;
    c->seen = hits;
    uint64_t stamp;
    bool stamped = recorder_watch_take(slot, &stamp);
    if (!fresh || !view->armed || view->serial != c->serial)
        return false;
    uint64_t at = stamped ? recorder_clock_ns_since_start(stamp) : now;
    bool held_off = scheduled &&
                    at < last_at_ns + settings->holdoff_ms * 1000000;
    if (pending.waiting || scheduled >= settings->max || held_off)
    {
        c->suppressed += fresh;
        return true;
    }
    c->suppressed += fresh - 1;
    scheduled++;
    last_at_ns = at;
    pending = (pending_snapshot) { .waiting = true, .slot = slot,
                                   .serial = c->serial, .at_ns = at };
    memcpy(pending.text, view->text, sizeof(pending.text));
    return true;
}

static void publish(unsigned slot, const snapshot_slot_view *view)
{
    uint64_t taken, suppressed;
    snapshot_thread_counts(slot, &taken, &suppressed);
    snapshot_share_slot(slot, view, taken, suppressed);
}

/* One look at every slot; write the snapshot whose delay has passed
 * ('now_anyway': at exit, whatever the delay). */
static void poll_once(bool now_anyway)
{
    snapshot_settings settings = snapshot_settings_now();
    snapshot_slot_view seen[RECORDER_WATCH_SLOTS];
    uint64_t now = now_ns();
    bool changed[RECORDER_WATCH_SLOTS] = { false };
    pthread_mutex_lock(&lock);
    memcpy(seen, views, sizeof(seen));
    for (unsigned s = 0; s < RECORDER_WATCH_SLOTS; s++)
        changed[s] = look_at_slot(s, &seen[s], &settings, now);
    pending_snapshot due = pending;
    uint64_t until = due.at_ns + settings.post_ms * 1000000;
    bool write = due.waiting && (now_anyway || now >= until);
    if (write)
        pending.waiting = false;
    pthread_mutex_unlock(&lock);

    if (write)
    {
        char path[4096];
        bool written = snapshot_file_write(due.text, due.at_ns, until,
                                           settings.format, path,
                                           sizeof(path));
        pthread_mutex_lock(&lock);
        if (written && counts[due.slot].serial == due.serial)
            counts[due.slot].taken++;
        pthread_mutex_unlock(&lock);
        if (written)
            snapshot_share_event(due.slot, due.at_ns);
        changed[due.slot] = true;
    }
    /* Armed slots each time (a new segment gets them), a disarmed one once. */
    static bool shown_armed[RECORDER_WATCH_SLOTS];
    for (unsigned s = 0; s < RECORDER_WATCH_SLOTS; s++)
        if (changed[s] || seen[s].armed || shown_armed[s])
        {
            publish(s, &seen[s]);
            shown_armed[s] = seen[s].armed;
        }
}

static void *snapshot_main(void *arg)
{
    (void) arg;
    pthread_mutex_lock(&lock);
    while (!stopping)
    {
        pthread_mutex_unlock(&lock);
        poll_once(false);
        struct timespec until = recorder_monotonic_after_ms(POLL_MS);
        pthread_mutex_lock(&lock);
        if (!stopping)
            pthread_cond_timedwait(&wake, &lock, &until);
    }
    pthread_mutex_unlock(&lock);
    poll_once(true);
    return NULL;
}

static void stop_at_exit(void)
{
    pthread_mutex_lock(&control);
    pthread_mutex_lock(&lock);
    bool was_running = running;
    stopping = true;
    running = false;
    pthread_cond_signal(&wake);
    pthread_mutex_unlock(&lock);
    if (was_running)
        pthread_join(thread, NULL);
    pthread_mutex_unlock(&control);
}

void snapshot_thread_start(void)
{
    pthread_mutex_lock(&control);
    static bool once;
    if (!once)
    {
        pthread_condattr_t attr;
        pthread_condattr_init(&attr);
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
        pthread_cond_init(&wake, &attr);
        pthread_condattr_destroy(&attr);
        once = atexit(stop_at_exit) == 0;
    }
    pthread_mutex_lock(&lock);
    bool start = once && !running && !stopping;
    if (start)
        running = pthread_create(&thread, NULL, snapshot_main, NULL) == 0;
    pthread_mutex_unlock(&lock);
    if (start && !running)
        record(recorder_error, "Cannot start the snapshot thread");
    pthread_mutex_unlock(&control);
}
