/* share_snapshots_read.c - a reader's view of the snapshot table: copied
 * out under its sequence, then checked (nothing in a segment is trusted:
 * the region must lie in the file, texts are bounded and escaped). */
#include "segment/share_reader_private.h"
#include "segment/share_snapshots_private.h"

#include <stddef.h>
#include <string.h>

/* A consistent copy of the table, false if there is none. */
static bool copy_table(recorder_share *share, share_snapshot_table *copy)
{
    if (!share || share->v12 || !share_reader_intact(share))
        return false;
    share_region region = share->header.snapshots;
    if (region.size < sizeof(*copy))
        return false;
    const share_snapshot_table *shared =
        share_at(&share->view, region.offset, sizeof(*copy), 8);
    if (!shared)
        return false;
    for (unsigned attempt = 0; attempt < 100; attempt++)
    {
        uint64_t before = __atomic_load_n(&shared->sequence,
                                          __ATOMIC_ACQUIRE);
        const uint64_t *from = (const uint64_t *) shared;
        uint64_t *to = (uint64_t *) copy;
        for (size_t w = 0; w < sizeof(*copy) / 8; w++)
            to[w] = __atomic_load_n(&from[w], __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        uint64_t after = __atomic_load_n(&shared->sequence, __ATOMIC_RELAXED);
        if (before == after && !(before & 1))
            return copy->magic == SHARE_SNAPSHOT_MAGIC &&
                   copy->size == sizeof(*copy);
    }
    return false;
}

static void escape_condition(char *out, size_t size,
                             const share_snapshot_condition *condition)
{
    recorder_share_escape(out, size, condition->text,
                          strnlen(condition->text, sizeof(condition->text)));
}

unsigned recorder_share_snapshots(recorder_share *share,
                                  recorder_share_snapshot *out, unsigned max)
{
    share_snapshot_table table;
    if (!copy_table(share, &table))
        return 0;
    unsigned armed = 0;
    for (unsigned c = 0; c < SHARE_SNAPSHOT_CONDITIONS; c++)
    {
        const share_snapshot_condition *condition = &table.condition[c];
        if (!condition->armed)
            continue;
        if (armed < max)
        {
            recorder_share_snapshot *given = &out[armed];
            escape_condition(given->condition, sizeof(given->condition),
                             condition);
            given->taken = condition->taken;
            given->suppressed = condition->suppressed;
        }
        armed++;
    }
    return armed;
}

unsigned recorder_share_snapshot_events(recorder_share *share,
                                        recorder_share_snapshot_event *out,
                                        unsigned max)
{
    share_snapshot_table table;
    if (!copy_table(share, &table) || !max)
        return 0;
    uint64_t kept = table.events < SHARE_SNAPSHOT_EVENTS
                        ? table.events : SHARE_SNAPSHOT_EVENTS;
    if (kept > max)
        kept = max;
    for (uint64_t n = 0; n < kept; n++)
    {
        uint64_t index = table.events - kept + n;
        const share_snapshot_event *event =
            &table.event[index % SHARE_SNAPSHOT_EVENTS];
        out[n].time = event->at_ns * 1e-9;
        if (event->condition < SHARE_SNAPSHOT_CONDITIONS)
            escape_condition(out[n].condition, sizeof(out[n].condition),
                             &table.condition[event->condition]);
        else
            out[n].condition[0] = 0;
    }
    return (unsigned) kept;
}
