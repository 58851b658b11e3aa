/* lane_reader.c - follow one lane of a ring from a reader's cursor. */
#include "lane_reader_private.h"

/* A record reserved this close to the writer index may still be being
 * written: wait for it. Further back, its writer is gone or stalled. */
#define PENDING_WINDOW  16

void lane_reader_open(lane_reader *r, const recorder_buffer *lane,
                      uint32_t size, uint64_t cursor, uint64_t *lost)
{
    r->lane = lane;
    r->size = size;
    r->ready = false;
    r->end = __atomic_load_n(&lane->writer, __ATOMIC_ACQUIRE);
    r->index = cursor;
    if (r->end > cursor && r->end - cursor > size)
    {
        if (lost)
            *lost += r->end - size - cursor;
        r->index = r->end - size;
    }
    else if (cursor > r->end)
    {
        r->index = r->end;
    }
}

bool lane_reader_peek(lane_reader *r, uint64_t *lost)
{
    if (r->ready)
        return true;
    const recorder_slot *slots = RECORDER_BUFFER_SLOTS(r->lane);
    while (r->index < r->end)
    {
        recorder_read_status status =
            recorder_slot_read(slots, r->size, &r->lane->writer, r->index,
                               &r->head);
        if (status == RECORDER_READ_OK)
        {
            r->ready = true;
            return true;
        }
        if (status == RECORDER_READ_PENDING &&
            r->end - r->index <= PENDING_WINDOW)
        {
            r->end = r->index;          /* read it from the next snapshot */
            break;
        }
        /* Overwritten, or reserved long ago by a writer that has not
         * finished it (and we will not wait for): either way, lost. */
        if ((status == RECORDER_READ_LOST ||
             status == RECORDER_READ_PENDING) && lost)
            (*lost)++;
        r->index++;
    }
    return false;
}
