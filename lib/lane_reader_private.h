/* lane_reader_private.h - follow one lane of a ring from a reader's cursor.
 *
 * Readers of a shared segment keep one position per lane of a recorder's
 * ring and merge the lanes by timestamp. A lane reader takes a snapshot of
 * where the lane's writers are, then hands out whole records one at a
 * time, counting the ones overwritten before it got to them.
 */
#ifndef RECORDER_LANE_READER_PRIVATE_H
#define RECORDER_LANE_READER_PRIVATE_H

#include "slot_read_private.h"

typedef struct lane_reader
{
    const recorder_buffer *lane;        /* inside a checked mapping */
    uint32_t               size;        /* its slots, trusted by the caller */
    uint64_t               index;       /* next slot to read */
    uint64_t               end;         /* writer index at the snapshot */
    recorder_record        head;        /* next record, if 'ready' */
    bool                   ready;
} lane_reader;

/* Start at 'cursor' (0: the oldest record kept). Records the writers
 * overwrote before 'cursor' got to them are added to '*lost' (if not
 * NULL). A cursor ahead of the writers (another process's) restarts at
 * the newest record. */
void lane_reader_open(lane_reader *r, const recorder_buffer *lane,
                      uint32_t size, uint64_t cursor, uint64_t *lost)
    RECORDER_HIDDEN;

/* The next whole record in r->head, or false if none is ready before the
 * snapshot's end. A record still being written near the end stops the
 * lane until the next snapshot; unreadable slots further back are lost. */
bool lane_reader_peek(lane_reader *r, uint64_t *lost) RECORDER_HIDDEN;

/* Step past the record lane_reader_peek() gave. */
static inline void lane_reader_take(lane_reader *r)
{
    r->index += r->head.slots;
    r->ready = false;
}

#endif /* RECORDER_LANE_READER_PRIVATE_H */
