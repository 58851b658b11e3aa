/* watch_private.h - conditions the record path checks, for snapshots.
 *
 * A snapshot condition (lib/snapshot) has one of RECORDER_WATCH_SLOTS
 * slots. Each recorder it names gets a recorder_watch (never freed, so a
 * record that loaded the pointer may use it however late), with one item
 * per slot: "any record" or "argument N crosses a level". The record path
 * of a recorder whose 'watch' is NULL pays one load and a branch not
 * taken; a watched record checks its active items and, when one holds,
 * flags its slot: a counter and the time of the first hit not yet taken,
 * both atomics. No lock, allocation or system call: the snapshot thread
 * polls the flags and writes the file.
 */
#ifndef RECORDER_WATCH_PRIVATE_H
#define RECORDER_WATCH_PRIVATE_H

#include "recorder.h"
#include "base/visibility_private.h"

#include <stdbool.h>
#include <stdint.h>

/* Conditions armed at once. */
#define RECORDER_WATCH_SLOTS    8

/* Argument of an item that fires on any record. */
#define RECORDER_WATCH_ANY      (-1)

/* Readiness bits of a level item (a Schmitt trigger): set once the value
 * was beyond the level by the band, cleared when it fires. */
#define RECORDER_WATCH_READY_RISE   1u
#define RECORDER_WATCH_READY_FALL   2u

/* Sites whose argument type an item remembers. */
#define RECORDER_WATCH_KINDS    2

/* Every field is read and written atomically: the snapshot thread sets an
 * item while recording threads may read it. */
typedef struct recorder_watch_item
{
    int32_t   argument;                 /* RECORDER_WATCH_ANY or 0..11 */
    uint32_t  edge;                     /* recorder_level_edge */
    uint32_t  ready;                    /* RECORDER_WATCH_READY_* */
    uint32_t  reserved;
    uint64_t  level;                    /* doubles, as their bits */
    uint64_t  band;
    uintptr_t kinds[RECORDER_WATCH_KINDS]; /* site | how to read the arg */
} recorder_watch_item;

typedef struct recorder_watch
{
    uint32_t            active;         /* a bit per slot in use */
    recorder_watch_item items[RECORDER_WATCH_SLOTS];
} recorder_watch;

/* Check the record just made in 'head' (and 'tail', its continuation
 * slot, or NULL) against the active items of 'watch'. */
void recorder_watch_check(recorder_watch *watch, const recorder_slot *head,
                          const recorder_slot *tail) RECORDER_HIDDEN;

/* Flag slot 'slot' as if a condition held for a record at 'stamp'. */
void recorder_watch_fire(unsigned slot, uint64_t stamp) RECORDER_HIDDEN;

/* Times slot 'slot' fired since the process started. */
uint64_t recorder_watch_hits(unsigned slot) RECORDER_HIDDEN;

/* The stamp of the first hit of 'slot' not yet taken, and forget it;
 * false if there is none. */
bool recorder_watch_take(unsigned slot, uint64_t *stamp) RECORDER_HIDDEN;

#endif /* RECORDER_WATCH_PRIVATE_H */
