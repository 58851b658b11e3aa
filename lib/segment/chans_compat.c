/* chans_compat.c - the reader API of recorder 1.2 (recorder_chans_open,
 * recorder_chan_find, recorder_chan_read...) on top of this library's
 * reader.
 *
 * In 1.2 a channel was a ring of (time, value) pairs of its own in shared
 * memory, and a reader index was a position in that ring. Here a channel
 * is an argument of a recorder's records, read through a cursor over the
 * lanes of its ring. So a recorder_chan_p is a handle made on first use
 * (stable until recorder_chans_close), and each reader index the caller
 * passes gets a cursor of its own, found by the index's address; the
 * index itself counts the samples read, as 1.2 readers expect it to grow.
 */
#include "recorder.h"
#include "recorder_share.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reader indices followed per channel at once; the least recently used
 * one makes room for a new one (which starts again from the oldest). */
#define CHAN_READERS    8

typedef struct chan_reader
{
    const ringidx_t *key;               /* caller's index; NULL: the handle's */
    ringidx_t        position;          /* samples delivered to it */
    unsigned         used;              /* when last used, for replacement */
    recorder_share_cursor cursor;
    recorder_sample *pending;           /* read, not yet delivered */
    size_t           first, count;
} chan_reader;

struct recorder_chan
{
    recorder_chans_p       chans;
    unsigned               index;
    recorder_share_channel info;
    chan_reader            readers[CHAN_READERS];
    unsigned               uses;
};

struct recorder_chans
{
    recorder_share  *share;
    recorder_chan_p *chan;              /* by channel index, made on use */
    unsigned         count;
};

recorder_chans_p recorder_chans_open(const char *file)
{
    char error[512];
    recorder_share *share = recorder_share_open(file, error, sizeof(error));
    if (!share)
    {
        fprintf(stderr, "recorder_chans_open: %s\n", error);
        return NULL;
    }
    recorder_chans_p chans = calloc(1, sizeof(*chans));
    if (!chans)
    {
        recorder_share_close(share);
        fprintf(stderr, "recorder_chans_open: out of memory\n");
        return NULL;
    }
    chans->share = share;
    return chans;
}

void recorder_chans_close(recorder_chans_p chans)
{
    if (!chans)
        return;
    for (unsigned c = 0; c < chans->count; c++)
    {
        recorder_chan_p chan = chans->chan[c];
        if (!chan)
            continue;
        for (unsigned r = 0; r < CHAN_READERS; r++)
            free(chan->readers[r].pending);
        free(chan);
    }
    free(chans->chan);
    recorder_share_close(chans->share);
    free(chans);
}

bool recorder_chans_configure(recorder_chans_p chans, const char *message)
{
    recorder_share_ticket ticket;
    char error[256];
    return chans && message &&
           recorder_share_post(chans->share, message, &ticket, error,
                               sizeof(error));
}

bool recorder_chans_valid(recorder_chans_p chans)
{
    if (!chans)
        return false;
    switch (recorder_share_state(chans->share))
    {
    case RECORDER_SHARE_ALIVE:
    case RECORDER_SHARE_EXITED:
    case RECORDER_SHARE_DIED:
        return true;                    /* its data is still there */
    default:
        return false;
    }
}

/* The handle of channel 'index', made on first use; its description
 * refreshed (the type is known once the first sample is). */
static recorder_chan_p chan_at(recorder_chans_p chans, unsigned index)
{
    if (index >= chans->count)
    {
        unsigned count = index + 1;
        recorder_chan_p *grown = realloc(chans->chan, count * sizeof(*grown));
        if (!grown)
            return NULL;
        memset(grown + chans->count, 0,
               (count - chans->count) * sizeof(*grown));
        chans->chan = grown;
        chans->count = count;
    }
    recorder_chan_p chan = chans->chan[index];
    if (!chan)
    {
        chan = calloc(1, sizeof(*chan));
        if (!chan)
            return NULL;
        chan->chans = chans;
        chan->index = index;
        chans->chan[index] = chan;
    }
    recorder_share_channel_info(chans->share, index, &chan->info);
    return chan;
}

recorder_chan_p recorder_chan_find(recorder_chans_p chans, const char *pattern,
                                   recorder_chan_p after)
{
    if (!chans)
        return NULL;
    int start = after && after->chans == chans ? (int) after->index : -1;
    int found = recorder_share_find_channel(chans->share, pattern, start);
    return found >= 0 ? chan_at(chans, (unsigned) found) : NULL;
}

const char *recorder_chan_name(recorder_chan_p chan)
{
    return chan ? chan->info.name : "";
}

const char *recorder_chan_description(recorder_chan_p chan)
{
    return chan ? chan->info.description : "";
}

const char *recorder_chan_unit(recorder_chan_p chan)
{
    return chan ? chan->info.unit : "";
}

recorder_type recorder_chan_type(recorder_chan_p chan)
{
    if (!chan)
        return RECORDER_INVALID;
    if (chan->info.type == RECORDER_SHARE_NONE)
        recorder_share_channel_info(chan->chans->share, chan->index,
                                    &chan->info);
    switch (chan->info.type)
    {
    case RECORDER_SHARE_SIGNED:   return RECORDER_SIGNED;
    case RECORDER_SHARE_UNSIGNED: return RECORDER_UNSIGNED;
    case RECORDER_SHARE_REAL:     return RECORDER_REAL;
    default:                      return RECORDER_NONE;
    }
}

/* Nearest integer, without libm: programs link as in 1.2. */
static double nearest(double value)
{
    return value < 0 ? -(double) (uint64_t) (0.5 - value)
                     : (double) (uint64_t) (value + 0.5);
}

/* 'value' as the member of recorder_data that 'type' names. Integers
 * beyond 2^53 come as the nearest double the reader gives. */
static recorder_data as_data(double value, recorder_type type)
{
    recorder_data data;
    memset(&data, 0, sizeof(data));
    switch (type)
    {
    case RECORDER_REAL:
        data.real_value = value;
        break;
    case RECORDER_SIGNED:
        data.signed_value = value <= (double) INTPTR_MIN ? INTPTR_MIN
                          : value >= (double) INTPTR_MAX ? INTPTR_MAX
                          : (intptr_t) nearest(value);
        break;
    default:
        data.unsigned_value = value <= 0 ? 0
                            : value >= (double) UINTPTR_MAX ? UINTPTR_MAX
                            : (uintptr_t) nearest(value);
        break;
    }
    return data;
}

static recorder_data chan_bound(recorder_chan_p chan, bool want_max)
{
    recorder_share_stats stats;
    if (!chan ||
        !recorder_share_channel_stats(chan->chans->share, chan->index,
                                      &stats) ||
        !stats.samples)
        return as_data(0, RECORDER_UNSIGNED);
    return as_data(want_max ? stats.max : stats.min, recorder_chan_type(chan));
}

recorder_data recorder_chan_min(recorder_chan_p chan)
{
    return chan_bound(chan, false);
}

recorder_data recorder_chan_max(recorder_chan_p chan)
{
    return chan_bound(chan, true);
}

size_t recorder_chan_size(recorder_chan_p chan)
{
    recorder_share_recorder rec;
    if (!chan || !recorder_share_recorder_info(chan->chans->share,
                                               chan->info.recorder, &rec))
        return 0;
    return rec.size;
}

/* The cursor of reader index 'key', made (from the oldest samples) if it
 * is new, or if the caller moved the index itself. */
static chan_reader *reader_for(recorder_chan_p chan, const ringidx_t *key)
{
    chan_reader *slot = NULL;
    for (unsigned r = 0; r < CHAN_READERS && !slot; r++)
        if (chan->readers[r].pending && chan->readers[r].key == key)
            slot = &chan->readers[r];
    bool restart = !slot || (key && *key != slot->position);
    if (!slot)
    {
        /* A free one, else the least recently used. */
        slot = &chan->readers[0];
        for (unsigned r = 0; r < CHAN_READERS; r++)
        {
            if (!chan->readers[r].pending)
            {
                slot = &chan->readers[r];
                break;
            }
            if (chan->readers[r].used < slot->used)
                slot = &chan->readers[r];
        }
    }
    if (restart)
    {
        recorder_sample *buffer = slot->pending;
        if (!buffer)
            buffer = malloc(RECORDER_EXPORT_SIZE * sizeof(*buffer));
        if (!buffer)
            return NULL;
        memset(slot, 0, sizeof(*slot));
        slot->pending = buffer;
        slot->key = key;
        slot->position = key ? *key : 0;
    }
    slot->used = ++chan->uses;
    return slot;
}

/* Read what the ring has beyond what is pending, up to the buffer. */
static size_t fill(recorder_chan_p chan, chan_reader *reader)
{
    if (reader->first)
    {
        memmove(reader->pending, reader->pending + reader->first,
                reader->count * sizeof(*reader->pending));
        reader->first = 0;
    }
    if (reader->count < RECORDER_EXPORT_SIZE)
        reader->count +=
            recorder_share_read(chan->chans->share, chan->index,
                                &reader->cursor,
                                reader->pending + reader->count,
                                RECORDER_EXPORT_SIZE - reader->count, NULL);
    return reader->count;
}

/* A segment that now belongs to another process gives nothing, not even
 * what was read from it before. */
static chan_reader *live_reader(recorder_chan_p chan, ringidx_t *readerID)
{
    if (!chan || !recorder_chans_valid(chan->chans))
        return NULL;
    return reader_for(chan, readerID);
}

size_t recorder_chan_readable(recorder_chan_p chan, ringidx_t *readerID)
{
    chan_reader *reader = live_reader(chan, readerID);
    return reader ? fill(chan, reader) : 0;
}

size_t recorder_chan_read(recorder_chan_p chan, recorder_data *ptr,
                          size_t count, ringidx_t *readerID)
{
    chan_reader *reader = ptr ? live_reader(chan, readerID) : NULL;
    if (!reader)
        return 0;
    if (reader->count < count)
        fill(chan, reader);
    size_t n = count < reader->count ? count : reader->count;
    recorder_type type = n ? recorder_chan_type(chan) : RECORDER_NONE;
    for (size_t s = 0; s < n; s++)
    {
        const recorder_sample *sample = &reader->pending[reader->first + s];
        double ticks = sample->time * RECORDER_HZ;
        ptr[2 * s].unsigned_value = ticks > 0 ? (uintptr_t) nearest(ticks) : 0;
        ptr[2 * s + 1] = as_data(sample->value, type);
    }
    reader->first += n;
    reader->count -= n;
    reader->position += n;
    if (readerID)
        *readerID = reader->position;
    return n;
}
