/* share_writer_state.c - the segment writer's state (see
 * share_writer_state_private.h), allocation in the segment it writes, and
 * our arrays beside its tables. */
#include "segment/share_writer_state_private.h"
#include "segment/share_sizing_private.h"

#include <stdlib.h>
#include <string.h>

share_writer_state share_writer = {
    .lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1, .guard = -1
};

/* ---- allocation in the segment (writer lock held) ------------------------ */

/* Readers can write the segment too, so every offset and count we use
 * comes from writer->layout; the header only publishes them. (Strings go
 * in with share_put_string, share_backing.c, which reserves their blocks
 * first.) */
void share_count_ring(uint32_t slots)
{
    share_header *L = &writer->layout;
    L->rings_used = align_up(L->rings_used, 64) + ring_bytes(slots);
}

bool share_strings_fit(uint64_t bytes)
{
    return writer->layout.strings_used + bytes <= writer->layout.strings.size;
}

bool share_ring_fits(uint32_t slots)
{
    return align_up(writer->layout.rings_used, 64) + ring_bytes(slots) <=
           writer->layout.rings.size;
}

/* ---- our arrays beside the tables ---------------------------------------- */

bool share_make_arrays(const share_needs *room)
{
    void **arrays[] = { (void **) &writer->recorders,
                        (void **) &writer->tweaks,
                        (void **) &writer->channel_names };
    const enum share_limit limits[] = { SHARE_LIMIT_RECORDERS,
                                        SHARE_LIMIT_TWEAKS,
                                        SHARE_LIMIT_CHANNELS };
    for (unsigned k = 0; k < 3; k++)
    {
        uint32_t had = writer->rooms[limits[k]];
        uint64_t wanted = room->of[limits[k]];
        if (wanted <= had)
            continue;
        void **grown = realloc(*arrays[k], wanted * sizeof(void *));
        if (!grown)
            return false;
        memset(grown + had, 0, (wanted - had) * sizeof(void *));
        *arrays[k] = grown;
        writer->rooms[limits[k]] = (uint32_t) wanted;
    }
    return true;
}
