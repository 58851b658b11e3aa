/* record_merge.c - merge the records of many lanes in time order. */
#include "record/record_merge_private.h"

size_t record_merge(lane_cursor *cursors, unsigned count, size_t max,
                    lane_losses *losses, record_merge_fn fn, void *arg)
{
    size_t taken = 0;
    while (taken < max)
    {
        /* The lane with the oldest next record, and the time up to which
         * it can go on alone: the next record of any other lane. */
        unsigned first = count;
        uint64_t until = UINT64_MAX;
        for (unsigned c = 0; c < count; c++)
        {
            if (!lane_cursor_peek(&cursors[c], losses))
                continue;
            uint64_t stamp = cursors[c].head.timestamp;
            if (first == count || stamp < cursors[first].head.timestamp)
            {
                if (first != count)
                    until = cursors[first].head.timestamp;
                first = c;
            }
            else if (stamp < until)
            {
                until = stamp;
            }
        }
        if (first == count)
            break;
        lane_cursor *lane = &cursors[first];
        do
        {
            lane_cursor_take(lane);
            if (fn(&lane->head, first, arg))
                taken++;
        } while (taken < max && lane_cursor_peek(lane, losses) &&
                 lane->head.timestamp <= until);
    }
    return taken;
}
