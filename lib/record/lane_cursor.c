/* lane_cursor.c - follow one lane of a ring, record after record. */
#include "record/lane_cursor_private.h"

/* How many times a cursor looks again at a record being written before
 * it leaves it to the next read. A writer fills its slots in nanoseconds;
 * one that takes longer was preempted (or is the very thread a signal
 * handler interrupted), and spinning would only burn time. */
#define PENDING_LOOKS   64

static inline void pause_briefly(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void count_lost(lane_losses *losses, uint64_t records)
{
    if (losses && losses->count)
        *losses->count += records;
}

static bool writers_gone(lane_losses *losses)
{
    if (!losses || !losses->writers_gone)
        return false;
    if (losses->gone < 0)
        losses->gone = losses->writers_gone(losses->gone_arg);
    return losses->gone > 0;
}

/* Has a later record reserved the slot of the one at c->index? */
static bool lapped(const lane_cursor *c)
{
    uint64_t written = __atomic_load_n(&c->lane->writer, __ATOMIC_ACQUIRE);
    return written - c->index > c->size;
}

void lane_cursor_open(lane_cursor *c, const recorder_buffer *lane,
                      uint32_t size, uint64_t from, lane_losses *losses)
{
    c->lane = lane;
    c->size = size;
    c->ready = false;
    c->waiting = false;
    c->end = __atomic_load_n(&lane->writer, __ATOMIC_ACQUIRE);
    c->index = from;
    if (c->end > from && c->end - from > size)
    {
        count_lost(losses, c->end - size - from);
        c->index = c->end - size;
    }
    else if (from > c->end)
    {
        c->index = c->end;
    }
}

bool lane_cursor_settle(lane_cursor *c, lane_losses *losses)
{
    const recorder_slot *slots = RECORDER_BUFFER_SLOTS(c->lane);
    unsigned looks = 0;
    while (c->index < c->end)
    {
        switch (recorder_slot_read(slots, c->size, &c->lane->writer, c->index,
                                   &c->head))
        {
        case RECORDER_READ_OK:
            c->ready = true;
            return true;
        case RECORDER_READ_PENDING:
            if (!lapped(c))
            {
                if (looks++ < PENDING_LOOKS)
                {
                    pause_briefly();
                    continue;
                }
                if (!writers_gone(losses))
                {
                    c->waiting = true;  /* the next read starts here */
                    return false;
                }
            }
            /* A later record took its slot, or its writer will never
             * finish it: lost. */
            count_lost(losses, 1);
            break;
        case RECORDER_READ_LOST:
            count_lost(losses, 1);
            break;
        case RECORDER_READ_CONTINUATION:
        case RECORDER_READ_CORRUPT:
            break;                      /* not the start of a record */
        }
        c->index++;
        looks = 0;
    }
    return false;
}
