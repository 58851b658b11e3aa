/* lane_cursor_private.h - follow one lane of a ring, record after record.
 *
 * Every reader of records follows each lane it reads with one of these:
 * in-process, background, signal and crash dumps, and the channel reads
 * and dumps of a shared segment. A cursor takes a snapshot of where the
 * lane's writers are, then hands out whole records up to there, in lane
 * order, never a torn one:
 *  - records the writers overwrote before it got to them are lost, and
 *    counted (the first slots of a lapped cursor, or slots lapped while it
 *    read);
 *  - a record reserved but not committed yet is waited for briefly; if it
 *    is still unfinished, the lane stops before it, and the next read,
 *    which starts where this one stopped, tries it again. It is counted
 *    lost only when its writer can never finish it (the writer process is
 *    dead, or this is the last dump of a dying one), or when a later
 *    record took its slot.
 * Async-signal-safe: no allocation, lock or system call.
 */
#ifndef RECORDER_LANE_CURSOR_PRIVATE_H
#define RECORDER_LANE_CURSOR_PRIVATE_H

#include "record/slot_read_private.h"

typedef struct lane_cursor
{
    const recorder_buffer *lane;        /* in our memory or a checked mapping */
    uint32_t               size;        /* its slots, trusted by the caller */
    uint64_t               index;       /* next slot to read: where the next
                                           read of this lane starts */
    uint64_t               end;         /* writer index at the snapshot */
    recorder_record        head;        /* next record, if 'ready' */
    bool                   ready;
    bool                   waiting;     /* stopped before an unfinished record */
} lane_cursor;

/* What to do with records a cursor cannot hand out, shared by the cursors
 * of one read. */
typedef struct lane_losses
{
    uint64_t *count;                    /* lost records are added here, if
                                           not NULL */
    bool    (*writers_gone)(void *arg); /* can an unfinished record still be
                                           finished? NULL: yes */
    void *    gone_arg;
    int       gone;                     /* its answer, asked at most once per
                                           read: -1 until asked */
} lane_losses;

/* Start reading 'lane' of 'size' slots at 'from' (0: the oldest record
 * kept). Records the writers overwrote before 'from' got to them are
 * counted in 'losses' (if not NULL). A position ahead of the writers (a
 * cursor of another process's ring) restarts at the newest record. */
void lane_cursor_open(lane_cursor *c, const recorder_buffer *lane,
                      uint32_t size, uint64_t from, lane_losses *losses)
    RECORDER_HIDDEN;

/* Whether the lane has records to read before its snapshot's end. */
static inline bool lane_cursor_any(const lane_cursor *c)
{
    return c->index < c->end;
}

/* lane_cursor_peek() when the next slot does not hold a whole record. */
bool lane_cursor_settle(lane_cursor *c, lane_losses *losses) RECORDER_HIDDEN;

/* The next whole record in c->head, or false if there is none before the
 * snapshot's end, or the lane waits for an unfinished record. Inline: a
 * reader draining a ring calls it once per record. */
static inline bool lane_cursor_peek(lane_cursor *c, lane_losses *losses)
{
    if (c->ready)
        return true;
    if (c->waiting || c->index >= c->end)
        return false;
    if (recorder_slot_read(RECORDER_BUFFER_SLOTS(c->lane), c->size,
                           &c->lane->writer, c->index, &c->head) ==
        RECORDER_READ_OK)
        return c->ready = true;
    return lane_cursor_settle(c, losses);
}

/* Step past the record lane_cursor_peek() gave. */
static inline void lane_cursor_take(lane_cursor *c)
{
    c->index += c->head.slots;
    c->ready = false;
}

#endif /* RECORDER_LANE_CURSOR_PRIVATE_H */
