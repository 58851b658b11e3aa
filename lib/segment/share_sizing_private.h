/* share_sizing_private.h - how large a segment the program needs, and
 * where its tables and regions go.
 *
 * share_writer.c sizes each segment it makes (the first, a move, a
 * growth) from what the registry, the call sites, the export requests and
 * /proc/self/maps hold now, with room to spare, then lays out its header.
 * The sizes of strings, rings and exported rings below are the ones the
 * writer then allocates, so that what was measured fits.
 */
#ifndef RECORDER_SHARE_SIZING_PRIVATE_H
#define RECORDER_SHARE_SIZING_PRIVATE_H

#include "segment/share_layout_private.h"
#include "trace/trace_spec_private.h"
#include "base/visibility_private.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Sizes the measure and the writer's allocations share. */

static inline uint64_t align_up(uint64_t value, uint64_t align)
{
    return (value + align - 1) / align * align;
}

/* Bytes of a ring of RECORDER_LANES lanes of 'slots' slots each. */
static inline uint64_t ring_bytes(uint64_t slots)
{
    return RECORDER_LANES *
           (sizeof(recorder_buffer) + slots * sizeof(recorder_slot));
}

static inline uint32_t slots_for(uint64_t wanted)
{
    uint32_t slots = 4;
    while (slots < wanted && slots < (1u << 24))
        slots <<= 1;
    return slots;
}

static inline uint64_t text_bytes(const char *text)
{
    return text ? strlen(text) + 1 : 0;
}

/* A ring larger than a quarter of the largest ring region (an export of
 * 2^40 records) is not shared: no segment is grown for it. */
static inline bool ring_too_large(uint64_t slots)
{
    return ring_bytes(slots) > SHARE_RINGS_MAX_SIZE / 4;
}

/* Slots per lane the ring of a recorder that 'req' exports needs. The
 * depth counts records; records of more than 5 arguments take two slots,
 * and exporting argument 5 or later means they have that many. */
static inline uint32_t export_slots(const recorder_export_request *req)
{
    intptr_t depth = RECORDER_TWEAK(recorder_export_size);
    uint64_t slots = depth > 0 ? (uint64_t) depth : 0;
    if (req->count > 5)
        slots *= 2;
    return slots_for(slots);
}

static inline unsigned named_channels(const recorder_export_request *req)
{
    unsigned named = 0;
    for (unsigned a = 0; a < req->count; a++)
        named += req->names[a] != NULL;
    return named;
}

/* What the program needs now: entries of each table, bytes of strings and
 * rings, by enum share_limit. Upper bounds: what the fill will use, before
 * strings shared between sites and channels exported again. */
typedef struct share_needs
{
    uint64_t of[SHARE_LIMITS];
} share_needs;

/* The least and most room of each table and region (SHARE_*_MIN, _MAX). */
extern const uint64_t share_least[SHARE_LIMITS] RECORDER_HIDDEN;
extern const uint64_t share_most[SHARE_LIMITS] RECORDER_HIDDEN;

/* What the program needs now. */
void share_measure_needs(share_needs *needs) RECORDER_HIDDEN;

/* Room for what the program needs, and as much again for what it may
 * load or export later (rings, which exports make large: a quarter more),
 * within least..most, and never less than 'at_least' (may be NULL). */
void share_size_segment(const share_needs *wanted, const share_needs *at_least,
                        share_needs *room) RECORDER_HIDDEN;

/* Lay out header 'h' of a segment of 'total' bytes with 'room'. */
void share_fill_header(share_header *h, uint64_t total,
                       const share_needs *room) RECORDER_HIDDEN;

/* Only where the tables and regions of a segment of 'total' bytes with
 * 'room' go, and its total_size: what share_fill_header lays out. */
void share_place_regions(share_header *h, uint64_t total,
                         const share_needs *room) RECORDER_HIDDEN;

/* Bytes of a segment with 'room'. */
uint64_t share_segment_size(const share_needs *room) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_SIZING_PRIVATE_H */
