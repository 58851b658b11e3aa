/* snapshot_share.c - conditions, counts and snapshot times in the
 * segment, for recorder_scope -l and the scope's event markers. The
 * snapshot thread keeps the whole table here and copies it into the
 * segment when it changes (a new segment gets it at the next change, or
 * the next poll of an armed condition). */
#include "snapshot/snapshot_private.h"
#include "segment/share_snapshots_private.h"

#include <pthread.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static share_snapshot_table table;

_Static_assert(RECORDER_WATCH_SLOTS == SHARE_SNAPSHOT_CONDITIONS &&
               SNAPSHOT_CONDITION_TEXT == SHARE_SNAPSHOT_TEXT,
               "one shared entry per slot");

void snapshot_share_slot(unsigned slot, const snapshot_slot_view *view,
                         uint64_t taken, uint64_t suppressed)
{
    if (slot >= SHARE_SNAPSHOT_CONDITIONS)
        return;
    pthread_mutex_lock(&lock);
    share_snapshot_condition *condition = &table.condition[slot];
    condition->armed = view->armed;
    condition->taken = taken;
    condition->suppressed = suppressed;
    memcpy(condition->text, view->text, sizeof(condition->text));
    condition->text[sizeof(condition->text) - 1] = 0;
    recorder_share_snapshots_publish(&table);
    pthread_mutex_unlock(&lock);
}

void snapshot_share_event(unsigned slot, uint64_t at_ns)
{
    pthread_mutex_lock(&lock);
    table.event[table.events % SHARE_SNAPSHOT_EVENTS] =
        (share_snapshot_event) { .at_ns = at_ns, .condition = slot };
    table.events++;
    recorder_share_snapshots_publish(&table);
    pthread_mutex_unlock(&lock);
}
