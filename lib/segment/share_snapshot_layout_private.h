/* share_snapshot_layout_private.h - the segment's snapshot table.
 *
 * A region of its own, named by the header's 'snapshots' (in what was
 * padding: zero in segments of older writers, which then have none).
 * Layout only, like share_layout_private.h: the sizing places it, the
 * writer fills it (share_snapshots.c), readers trust nothing in it
 * (share_snapshots_read.c).
 */
#ifndef RECORDER_SHARE_SNAPSHOT_LAYOUT_PRIVATE_H
#define RECORDER_SHARE_SNAPSHOT_LAYOUT_PRIVATE_H

#include <stdint.h>

#define SHARE_SNAPSHOT_MAGIC        0x50414e53u     /* "SNAP" */
#define SHARE_SNAPSHOT_CONDITIONS   8
#define SHARE_SNAPSHOT_EVENTS       64
#define SHARE_SNAPSHOT_TEXT         96

typedef struct share_snapshot_condition
{
    uint32_t armed;
    uint32_t reserved;
    uint64_t taken, suppressed;
    char     text[SHARE_SNAPSHOT_TEXT]; /* NUL-terminated when written */
} share_snapshot_condition;

/* A snapshot written: when its condition held (ns since the writer's
 * start) and which condition. */
typedef struct share_snapshot_event
{
    uint64_t at_ns;
    uint32_t condition;
    uint32_t reserved;
} share_snapshot_event;

/* The region. 'sequence' is odd while the writer copies a new version in:
 * a reader copies it out and keeps the copy only if 'sequence' was even
 * and the same before and after. */
typedef struct share_snapshot_table
{
    uint32_t                 magic;
    uint32_t                 size;      /* sizeof(share_snapshot_table) */
    uint64_t                 sequence;
    uint64_t                 events;    /* ever written; the last
                                           SHARE_SNAPSHOT_EVENTS are kept,
                                           event n at n % that */
    share_snapshot_condition condition[SHARE_SNAPSHOT_CONDITIONS];
    share_snapshot_event     event[SHARE_SNAPSHOT_EVENTS];
} share_snapshot_table;

_Static_assert(sizeof(share_snapshot_table) % 8 == 0 &&
               sizeof(share_snapshot_condition) == 120 &&
               sizeof(share_snapshot_event) == 16,
               "share_snapshot_table layout");

#endif /* RECORDER_SHARE_SNAPSHOT_LAYOUT_PRIVATE_H */
