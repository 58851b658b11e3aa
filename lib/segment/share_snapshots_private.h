/* share_snapshots_private.h - what lib/snapshot needs of the segment:
 * where it is (the default place for snapshot files, and the segment a
 * CTF snapshot is read from), and the table of snapshot conditions and
 * events readers show (recorder_scope -l, the scope's event markers).
 *
 * The table (share_snapshot_layout_private.h) is a region of its own.
 * Writers fill it; readers trust nothing in it (share_snapshots_read.c).
 */
#ifndef RECORDER_SHARE_SNAPSHOTS_PRIVATE_H
#define RECORDER_SHARE_SNAPSHOTS_PRIVATE_H

#include "base/visibility_private.h"
#include "segment/share_snapshot_layout_private.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Copy 'table' into the segment this process writes, if any. */
void recorder_share_snapshots_publish(const share_snapshot_table *table)
    RECORDER_HIDDEN;

/* The directory of the segment this process writes, else of the one it
 * would write by default, in out[size]. False if it does not fit. */
bool recorder_share_directory(char *out, size_t size) RECORDER_HIDDEN;

/* The path of the segment this process writes now; false if none. */
bool recorder_share_writing(char *out, size_t size) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_SNAPSHOTS_PRIVATE_H */
