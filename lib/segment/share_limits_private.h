/* share_limits_private.h - what did not fit in the writer's segment.
 *
 * Each table and region of the segment has a capacity (share_limit). What
 * does not fit once the segment cannot grow is counted in its header,
 * where readers see it, said once per limit on stderr, and each time in
 * recorder_traces. Writer lock held, but for share_limits().
 */
#ifndef RECORDER_SHARE_LIMITS_PRIVATE_H
#define RECORDER_SHARE_LIMITS_PRIVATE_H

#include "segment/share_layout_private.h"
#include "base/visibility_private.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Capacity of each table (entries) and region (bytes) in 'h'. */
uint64_t share_capacity(const share_header *h, enum share_limit limit)
    RECORDER_HIDDEN;

/* Count one more entry of 'limit' left out (and publish the count), as
 * the two below do; the caller said why. Returns the count. */
uint32_t share_left_out_locked(enum share_limit limit) RECORDER_HIDDEN;

/* 'kind' 'name' did not fit in the 'limit' table or region, which cannot
 * grow: count it and say so. */
void share_not_shared_locked(enum share_limit limit, const char *kind,
                             const char *name) RECORDER_HIDDEN;

/* What was left out, as "3 left out of the recorder table (64 entries)",
 * into out[size]; false if nothing was or not sharing (the writer's hook
 * behind recorder_share_limits). Takes the writer lock. */
bool share_limits(char *out, size_t size) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_LIMITS_PRIVATE_H */
