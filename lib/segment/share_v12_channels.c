/* share_v12_channels.c - the channels of a recorder 1.2 segment.
 *
 * The writer links its channels newest first; each holds one ring of
 * (time, value) samples. We walk that list whenever a reader asks for the
 * count, check each new channel once (its ring and strings must lie in the
 * mapping) and give it the next index. Samples are read from the ring
 * between what the writer committed and what it may be overwriting; those
 * overwritten while we copied them are dropped and counted as lost.
 */
#include "segment/share_v12_channels_private.h"
#include "segment/share_v12_layout_private.h"
#include "recorder_regex.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* ---- the list of channels ---------------------------------------------------- */

/* String 'relative' bytes from the channel at 'channel', copied out. */
static bool channel_string(recorder_share *share, uint64_t channel,
                           int64_t relative, char *out, size_t size)
{
    out[0] = 0;
    if (relative <= 0 || (uint64_t) relative >= share->view.size - channel)
        return false;
    return share_string(&share->view, 0, share->view.size,
                        channel + (uint64_t) relative, out, size);
}

/* The channel at 'offset', checked: its header, its ring of 'slots'
 * samples and its name inside the mapping. */
static bool check_channel(recorder_share *share, uint64_t offset,
                          v12_known *out)
{
    const v12_channel *channel = share_at(&share->view, offset,
                                          sizeof(v12_channel), 8);
    if (!channel)
        return false;
    uint64_t slots = __atomic_load_n(&channel->ring.size, __ATOMIC_ACQUIRE);
    uint64_t item = __atomic_load_n(&channel->ring.item_size,
                                    __ATOMIC_ACQUIRE);
    if (item != V12_SAMPLE_BYTES || slots == 0 || slots > V12_MAX_SLOTS ||
        !share_at(&share->view, offset + sizeof(v12_channel),
                  slots * V12_SAMPLE_BYTES, 8))
        return false;
    memset(out, 0, sizeof(*out));
    out->offset = offset;
    out->slots = slots;
    out->active = true;
    if (!channel_string(share, offset, channel->name, out->name,
                        sizeof(out->name)) || !out->name[0])
        return false;
    channel_string(share, offset, channel->description, out->description,
                   sizeof(out->description));
    channel_string(share, offset, channel->unit, out->unit, sizeof(out->unit));
    return true;
}

static v12_known *find_known(struct share_v12 *v12, uint64_t offset)
{
    for (unsigned k = 0; k < v12->count; k++)
        if (v12->channels[k].offset == offset)
            return &v12->channels[k];
    return NULL;
}

bool share_v12_refresh(recorder_share *share)
{
    struct share_v12 *v12 = share->v12;
    if (!v12_intact(share))
        return true;                    /* zeros now: keep what we knew */
    /* Newest first, at strictly decreasing offsets, as the writer appends:
     * anything else ends the walk, so it always ends. */
    uint64_t walk[V12_MAX_CHANNELS];
    unsigned found = 0;
    uint64_t previous = UINT64_MAX;
    int64_t at = __atomic_load_n(&v12_live(share)->head, __ATOMIC_ACQUIRE);
    while (at > 0 && found < V12_MAX_CHANNELS)
    {
        uint64_t offset = (uint64_t) at;
        const v12_channel *channel = share_at(&share->view, offset,
                                              sizeof(v12_channel), 8);
        if (!channel && offset < UINT64_MAX - sizeof(v12_channel) &&
            offset + sizeof(v12_channel) > share->view.size)
            return true;                /* grown since we mapped it: keep
                                           what we knew until opened again */
        if (!channel || offset < sizeof(v12_header) || offset >= previous)
            break;
        walk[found++] = previous = offset;
        at = __atomic_load_n(&channel->next, __ATOMIC_ACQUIRE);
    }

    for (unsigned k = 0; k < v12->count; k++)
        v12->channels[k].active = false;
    bool kept = true;
    for (unsigned w = found; w-- > 0; )     /* oldest first */
    {
        v12_known *known = find_known(v12, walk[w]);
        if (known)
        {
            known->active = true;
            continue;
        }
        v12_known entry;
        if (!check_channel(share, walk[w], &entry))
            continue;
        if (v12->count == v12->capacity)
        {
            unsigned capacity = v12->capacity ? 2 * v12->capacity : 16;
            v12_known *grown = realloc(v12->channels,
                                       capacity * sizeof(*grown));
            if (!grown)
            {
                kept = false;
                break;
            }
            v12->channels = grown;
            v12->capacity = capacity;
        }
        v12->channels[v12->count++] = entry;
    }
    return kept;
}

/* ---- samples ------------------------------------------------------------------ */

typedef struct v12_sample
{
    uint64_t time;                      /* microseconds */
    uint64_t value;
} v12_sample;

/* The ring of a known channel (its place was checked when first seen). */
typedef struct ring_access
{
    const v12_ring *   ring;
    const v12_sample * samples;
    uint64_t           slots;
    uint32_t           type;
} ring_access;

static bool ring_of(recorder_share *share, unsigned index, ring_access *out)
{
    struct share_v12 *v12 = share->v12;
    if (index >= v12->count || !v12_intact(share))
        return false;
    const v12_known *known = &v12->channels[index];
    const v12_channel *channel = (const v12_channel *)
                                 (share->view.base + known->offset);
    out->ring = &channel->ring;
    out->samples = (const v12_sample *) (channel + 1);
    out->slots = known->slots;
    out->type = __atomic_load_n(&channel->type, __ATOMIC_ACQUIRE);
    return true;
}

static double as_number(uint64_t raw, uint32_t type)
{
    switch (type)
    {
    case V12_UNSIGNED:
        return (double) raw;
    case V12_REAL:
    {
        double value;
        memcpy(&value, &raw, sizeof(value));
        return value;
    }
    default:
        return (double) (int64_t) raw;
    }
}

/* Oldest index the writer cannot be overwriting, given its 'writer'
 * index: the slot it writes next still holds index writer - slots. */
static uint64_t oldest_safe(uint64_t writer, uint64_t slots)
{
    return writer >= slots ? writer - slots + 1 : 0;
}

/* What can be read from index '*next': [*next, end). Moves '*next' past
 * what was overwritten, counted in '*lost'. */
static uint64_t readable_end(const ring_access *access, uint64_t *next,
                             uint64_t *lost)
{
    uint64_t commit = __atomic_load_n(&access->ring->commit,
                                      __ATOMIC_ACQUIRE);
    uint64_t writer = __atomic_load_n(&access->ring->writer,
                                      __ATOMIC_ACQUIRE);
    if (writer < commit)
        writer = commit;                /* not a writer's: trust neither */
    uint64_t oldest = oldest_safe(writer, access->slots);
    if (*next > writer)
        *next = oldest;                 /* a cursor from another ring */
    if (*next < oldest)
    {
        *lost += oldest - *next;
        *next = oldest;
    }
    return commit > *next ? commit : *next;
}

size_t share_v12_read(recorder_share *share, unsigned channel,
                      recorder_share_cursor *cursor, recorder_sample *samples,
                      size_t max, uint64_t *lost)
{
    uint64_t dropped = 0;
    if (lost)
        *lost = 0;
    ring_access access;
    if (!cursor || !samples || !ring_of(share, channel, &access))
        return 0;
    uint64_t next = cursor->next[0];
    uint64_t end = readable_end(&access, &next, &dropped);
    size_t count = end - next < max ? (size_t) (end - next) : max;
    for (size_t s = 0; s < count; s++)
    {
        const v12_sample *slot = &access.samples[(next + s) % access.slots];
        uint64_t time = __atomic_load_n(&slot->time, __ATOMIC_RELAXED);
        uint64_t raw = __atomic_load_n(&slot->value, __ATOMIC_RELAXED);
        samples[s].time = (double) time * 1e-6;
        samples[s].value = as_number(raw, access.type);
    }
    /* Samples the writer reached while we copied them are torn. */
    uint64_t writer = __atomic_load_n(&access.ring->writer, __ATOMIC_ACQUIRE);
    uint64_t safe = oldest_safe(writer, access.slots);
    if (safe > next)
    {
        size_t torn = safe - next < count ? (size_t) (safe - next) : count;
        memmove(samples, samples + torn, (count - torn) * sizeof(*samples));
        count -= torn;
        dropped += torn;
        next += torn;
    }
    cursor->next[0] = next + count;
    if (lost)
        *lost = dropped;
    return count;
}

bool share_v12_channel_stats(recorder_share *share, unsigned index,
                             recorder_share_stats *out)
{
    ring_access access;
    if (!out || !ring_of(share, index, &access))
        return false;
    memset(out, 0, sizeof(*out));
    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    recorder_sample batch[256];
    size_t got;
    do
    {
        got = share_v12_read(share, index, &cursor, batch, 256, NULL);
        for (size_t s = 0; s < got; s++)
        {
            double value = batch[s].value;
            if (!out->samples || value < out->min)
                out->min = value;
            if (!out->samples || value > out->max)
                out->max = value;
            out->samples++;
        }
    } while (got == 256 && out->samples < access.slots);
    return true;
}

double share_v12_newest(recorder_share *share)
{
    double newest = 0;
    for (unsigned c = 0; c < share->v12->count; c++)
    {
        ring_access access;
        if (!ring_of(share, c, &access))
            continue;
        uint64_t commit = __atomic_load_n(&access.ring->commit,
                                          __ATOMIC_ACQUIRE);
        if (!commit)
            continue;
        const v12_sample *slot = &access.samples[(commit - 1) % access.slots];
        double time = (double) __atomic_load_n(&slot->time, __ATOMIC_RELAXED)
                      * 1e-6;
        if (time > newest && time < 1e9)    /* not beyond 30 years */
            newest = time;
    }
    return newest;
}

/* ---- what a channel is ------------------------------------------------------- */

unsigned share_v12_channel_count(recorder_share *share)
{
    share_v12_refresh(share);
    return share->v12->count;
}

static recorder_share_type type_of(uint32_t type)
{
    switch (type)
    {
    case V12_SIGNED:   return RECORDER_SHARE_SIGNED;
    case V12_UNSIGNED: return RECORDER_SHARE_UNSIGNED;
    case V12_REAL:     return RECORDER_SHARE_REAL;
    default:           return RECORDER_SHARE_NONE;
    }
}

bool share_v12_channel_info(recorder_share *share, unsigned index,
                            recorder_share_channel *out)
{
    ring_access access;
    if (!out || !ring_of(share, index, &access))
        return false;
    const v12_known *known = &share->v12->channels[index];
    memset(out, 0, sizeof(*out));
    memcpy(out->name, known->name, sizeof(out->name));
    memcpy(out->description, known->description, sizeof(out->description));
    memcpy(out->unit, known->unit, sizeof(out->unit));
    out->type = type_of(access.type);
    /* No recorders table: each channel stands for its own ring. */
    out->recorder = index;
    out->argument = 0;
    out->active = known->active;
    return true;
}

int share_v12_find_channel(recorder_share *share, const char *pattern,
                           int after)
{
    regex_t regex;
    if (pattern && !recorder_regex_compile(&regex, pattern, NULL, NULL, 0))
        return -2;
    int found = -1;
    unsigned count = share_v12_channel_count(share);
    for (unsigned c = after < 0 ? 0 : (unsigned) after + 1; c < count; c++)
    {
        const v12_known *known = &share->v12->channels[c];
        if (known->active &&
            (!pattern || regexec(&regex, known->name, 0, NULL, 0) == 0))
        {
            found = (int) c;
            break;
        }
    }
    if (pattern)
        regfree(&regex);
    return found;
}
