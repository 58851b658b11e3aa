/* share_tables.c - the recorders, tweaks and channels a segment lists.
 *
 * Counts are what the writer published, clamped to the capacities checked
 * at open; entries, strings and rings are reached only through
 * share_access_private.h, so a corrupt table gives empty results.
 */
#include "segment/share_reader_private.h"
#include "segment/share_v12_channels_private.h"

#include <string.h>

/* Most slots a lane may have: anything larger is corrupt. */
#define MAX_RING_SLOTS  (1u << 24)

unsigned recorder_share_recorder_count(recorder_share *share)
{
    if (share->v12 || !share_reader_intact(share))
        return 0;
    return share_reader_published(&share_reader_live_header(share)->recorders,
                                  &share->header.recorders);
}

unsigned recorder_share_tweak_count(recorder_share *share)
{
    if (share->v12 || !share_reader_intact(share))
        return 0;
    return share_reader_published(&share_reader_live_header(share)->tweaks,
                                  &share->header.tweaks);
}

unsigned recorder_share_channel_count(recorder_share *share)
{
    if (share->v12)
        return share_v12_channel_count(share);
    if (!share_reader_intact(share))
        return 0;
    return share_reader_published(&share_reader_live_header(share)->channels,
                                  &share->header.channels);
}

const share_recorder *share_reader_recorder(recorder_share *share,
                                            unsigned index)
{
    return share_entry(&share->view, share->header.recorders.offset,
                       recorder_share_recorder_count(share),
                       sizeof(share_recorder), index);
}

const share_channel *share_reader_channel(recorder_share *share,
                                          unsigned index)
{
    return share_entry(&share->view, share->header.channels.offset,
                       recorder_share_channel_count(share),
                       sizeof(share_channel), index);
}

bool share_reader_ring(recorder_share *share, unsigned index, ring_view *out)
{
    const share_recorder *entry = share_reader_recorder(share, index);
    if (!entry)
        return false;
    uint32_t slots = __atomic_load_n(&entry->ring_size, __ATOMIC_ACQUIRE);
    uint32_t lanes = __atomic_load_n(&entry->lanes, __ATOMIC_ACQUIRE);
    uint64_t offset = __atomic_load_n(&entry->ring, __ATOMIC_RELAXED);
    const share_region *rings = &share->header.rings;
    if (slots < 4 || slots > MAX_RING_SLOTS || (slots & (slots - 1)) ||
        lanes < 1 || lanes > RECORDER_SHARE_LANES_MAX ||
        offset < rings->offset)
        return false;
    uint64_t bytes = share_ring_bytes(slots, lanes);
    if (offset - rings->offset > rings->size ||
        bytes > rings->size - (offset - rings->offset))
        return false;
    out->first = share_at(&share->view, offset, bytes, 64);
    out->size = slots;
    out->lanes = lanes;
    return out->first != NULL;
}

bool recorder_share_recorder_info(recorder_share *share, unsigned index,
                                  recorder_share_recorder *out)
{
    const share_recorder *entry = share_reader_recorder(share, index);
    if (!entry)
        return false;
    memset(out, 0, sizeof(*out));
    share_reader_string(share, entry->name, out->name, sizeof(out->name));
    share_reader_string(share, entry->description, out->description,
                        sizeof(out->description));
    out->trace = (intptr_t) __atomic_load_n(&entry->trace, __ATOMIC_RELAXED);
    ring_view ring;
    if (share_reader_ring(share, index, &ring))
    {
        out->size = ring.size;
        out->lanes = ring.lanes;
        for (unsigned lane = 0; lane < ring.lanes; lane++)
            out->records += __atomic_load_n(&share_ring_lane(&ring,
                                                             lane)->writer,
                                            __ATOMIC_ACQUIRE);
    }
    else
    {
        /* No ring in the segment yet (it never recorded): its size as
         * defined, no lanes, no records. */
        uint32_t slots = __atomic_load_n(&entry->ring_size, __ATOMIC_ACQUIRE);
        if (slots >= 4 && slots <= MAX_RING_SLOTS && !(slots & (slots - 1)))
            out->size = slots;
    }
    return true;
}

bool recorder_share_tweak_info(recorder_share *share, unsigned index,
                               recorder_share_tweak *out)
{
    const share_tweak *entry =
        share_entry(&share->view, share->header.tweaks.offset,
                    recorder_share_tweak_count(share), sizeof(share_tweak),
                    index);
    if (!entry)
        return false;
    memset(out, 0, sizeof(*out));
    share_reader_string(share, entry->name, out->name, sizeof(out->name));
    share_reader_string(share, entry->description, out->description,
                        sizeof(out->description));
    out->value = (intptr_t) __atomic_load_n(&entry->value, __ATOMIC_RELAXED);
    return true;
}
