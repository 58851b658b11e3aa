/* share_channels.c - the channels of a segment: what they are, their
 * samples.
 *
 * A channel is argument 'argument' of the records of one recorder: its
 * samples are read from that recorder's ring, the lanes merged in time
 * order, with the same lane cursor and merge as every other reader. What a
 * channel is (name, unit, type) costs a few slots, whatever the ring's
 * size; only its statistics walk the ring.
 */
#include "segment/share_reader_private.h"
#include "record/record_merge_private.h"
#include "text/format_scan_private.h"
#include "recorder_regex.h"
#include "segment/share_v12_channels_private.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

/* Walk records of one recorder from 'cursor', its lanes merged in time
 * order; call 'fn' for each whole record; stop after 'max' calls. Counts
 * overwritten records in '*lost'. */
static void walk(recorder_share *share, unsigned recorder,
                 recorder_share_cursor *cursor, size_t max, uint64_t *lost,
                 record_merge_fn fn, void *arg)
{
    ring_view ring;
    if (!share_reader_ring(share, recorder, &ring))
        return;
    lane_losses losses = { .count = lost,
                           .writers_gone = share_reader_writer_gone,
                           .gone_arg = share, .gone = -1 };
    lane_cursor lanes[RECORDER_SHARE_LANES_MAX];
    for (unsigned l = 0; l < ring.lanes; l++)
        lane_cursor_open(&lanes[l], share_ring_lane(&ring, l), ring.size,
                         cursor->next[l], &losses);
    record_merge(lanes, ring.lanes, max, &losses, fn, arg);
    for (unsigned l = 0; l < ring.lanes; l++)
        cursor->next[l] = lanes[l].index;
}

typedef struct sample_walk
{
    recorder_share * share;
    unsigned         argument;
    recorder_sample *out;
    size_t           count;
    argument_kind    kind;
    /* Statistics mode, when 'out' is NULL. */
    uint64_t         seen;
    double           min, max;
} sample_walk;

static bool take_sample(const recorder_record *record, unsigned lane,
                        void *arg)
{
    (void) lane;                        /* samples carry time and value */
    sample_walk *walk_state = arg;
    recorder_share *share = walk_state->share;
    if (record->nargs <= walk_state->argument)
        return false;
    /* Records of one site follow each other: look its kind up once. */
    if (walk_state->kind.address != record->site || !record->site)
        share_reader_kind(share, record->site, walk_state->argument,
                          &walk_state->kind);
    uint64_t raw = record->args[walk_state->argument];
    double value = recorder_number_of(raw, walk_state->kind.kind, 8);
    if (!walk_state->out)
    {
        if (!walk_state->seen || value < walk_state->min)
            walk_state->min = value;
        if (!walk_state->seen || value > walk_state->max)
            walk_state->max = value;
        walk_state->seen++;
        return true;
    }
    recorder_sample *sample = &walk_state->out[walk_state->count++];
    sample->time = share_reader_seconds(share, record->timestamp);
    sample->value = value;
    return true;
}

/* Several arguments of each record at once (recorder_share_read_channels):
 * a record counts for the walk's 'max' when it gives the channel with the
 * most samples one more, so that the walk stops as that one fills. */
typedef struct channels_walk
{
    recorder_share *share;
    unsigned        count;
    size_t          lead;               /* most samples of one channel */
    sample_walk     each[RECORDER_SHARE_CHANNELS_READ_MAX];
} channels_walk;

static bool take_samples(const recorder_record *record, unsigned lane,
                         void *arg)
{
    channels_walk *w = arg;
    size_t lead = w->lead;
    for (unsigned k = 0; k < w->count; k++)
        if (take_sample(record, lane, &w->each[k]) && w->each[k].count > lead)
            lead = w->each[k].count;
    if (lead == w->lead)
        return false;
    w->lead = lead;
    return true;
}

bool recorder_share_read_channels(recorder_share *share,
                                  const unsigned *channels, unsigned count,
                                  recorder_share_cursor *cursor,
                                  recorder_sample *const *samples,
                                  size_t *got, size_t max, uint64_t *lost)
{
    if (lost)
        *lost = 0;
    if (!channels || !samples || !got || !cursor || !count ||
        count > RECORDER_SHARE_CHANNELS_READ_MAX || share->v12)
        return false;
    channels_walk w = { .share = share, .count = count };
    unsigned recorder = 0;
    for (unsigned k = 0; k < count; k++)
    {
        const share_channel *entry = share_reader_channel(share, channels[k]);
        if (!entry || !samples[k] || entry->argument >= RECORDER_MAX_ARGS ||
            (k && entry->recorder != recorder))
            return false;
        recorder = entry->recorder;
        w.each[k] = (sample_walk) { .share = share,
                                    .argument = entry->argument,
                                    .out = samples[k] };
    }
    for (unsigned k = 0; k < count; k++)
        got[k] = 0;
    if (!share_reader_intact(share))
        return true;
    walk(share, recorder, cursor, max, lost, take_samples, &w);
    for (unsigned k = 0; k < count; k++)
        got[k] = w.each[k].count;
    return true;
}

/* Slots looked at from the end of each lane for the newest record that
 * has the argument: enough to step over a record's second slot, one still
 * being written, and a few records of the recorder that have fewer
 * arguments. */
#define NEWEST_LOOKBACK 4

/* Type and unit of 'argument', from the site of the newest record of
 * 'recorder' that has it (a reader walking the ring ends on that same
 * record): a few slots of each lane, never the whole ring. */
static void newest_kind(recorder_share *share, unsigned recorder,
                        unsigned argument, argument_kind *out)
{
    memset(out, 0, sizeof(*out));
    ring_view ring;
    if (!share_reader_ring(share, recorder, &ring))
        return;
    bool found = false;
    uint64_t newest = 0;
    uintptr_t site = 0;
    for (unsigned l = 0; l < ring.lanes; l++)
    {
        const recorder_buffer *lane = share_ring_lane(&ring, l);
        uint64_t end = __atomic_load_n(&lane->writer, __ATOMIC_ACQUIRE);
        for (uint64_t back = 1; back <= NEWEST_LOOKBACK && back <= end;
             back++)
        {
            recorder_record record;
            if (recorder_slot_read(RECORDER_BUFFER_SLOTS(lane), ring.size,
                                   &lane->writer, end - back, &record) !=
                    RECORDER_READ_OK ||
                record.nargs <= argument)
                continue;
            if (!found || record.timestamp > newest)
            {
                found = true;
                newest = record.timestamp;
                site = record.site;
            }
            break;
        }
    }
    if (found)
        share_reader_kind(share, site, argument, out);
}

static recorder_share_type type_of(char kind)
{
    switch (kind)
    {
    case 's': return RECORDER_SHARE_SIGNED;
    case 'u': return RECORDER_SHARE_UNSIGNED;
    case 'r': return RECORDER_SHARE_REAL;
    default:  return RECORDER_SHARE_NONE;
    }
}

bool recorder_share_channel_info(recorder_share *share, unsigned index,
                                 recorder_share_channel *out)
{
    if (share->v12)
        return share_v12_channel_info(share, index, out);
    const share_channel *channel = share_reader_channel(share, index);
    if (!channel)
        return false;
    memset(out, 0, sizeof(*out));
    share_reader_string(share, channel->name, out->name, sizeof(out->name));
    out->recorder = channel->recorder;
    out->argument = channel->argument;
    out->active = __atomic_load_n(&channel->active, __ATOMIC_ACQUIRE) != 0;
    const share_recorder *rec = share_reader_recorder(share,
                                                      channel->recorder);
    if (rec)
        share_reader_string(share, rec->description, out->description,
                            sizeof(out->description));
    if (out->argument >= RECORDER_MAX_ARGS)
        return true;
    argument_kind kind;
    newest_kind(share, out->recorder, out->argument, &kind);
    out->type = type_of(kind.kind);
    snprintf(out->unit, sizeof(out->unit), "%s", kind.unit);
    return true;
}

bool recorder_share_channel_stats(recorder_share *share, unsigned index,
                                  recorder_share_stats *out)
{
    if (share->v12)
        return share_v12_channel_stats(share, index, out);
    const share_channel *channel = share_reader_channel(share, index);
    if (!channel || !out)
        return false;
    memset(out, 0, sizeof(*out));
    if (channel->argument >= RECORDER_MAX_ARGS)
        return true;
    sample_walk summary = { .share = share, .argument = channel->argument };
    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    walk(share, channel->recorder, &cursor, SIZE_MAX, NULL, take_sample,
         &summary);
    out->samples = summary.seen;
    out->min = summary.min;
    out->max = summary.max;
    return true;
}

/* share->find_regex made for 'pattern', compiled again only when it
 * changes; false if it does not compile. */
static bool find_regex_for(recorder_share *share, const char *pattern)
{
    if (share->find_pattern && strcmp(share->find_pattern, pattern) == 0)
        return true;
    char *copy = strdup(pattern);
    regex_t regex;
    if (!copy || !recorder_regex_compile(&regex, pattern, NULL, NULL, 0))
    {
        free(copy);
        return false;
    }
    share_forget_find_regex(share);
    share->find_regex = regex;
    share->find_pattern = copy;
    return true;
}

int recorder_share_find_channel(recorder_share *share, const char *pattern,
                                int after)
{
    if (share->v12)
        return share_v12_find_channel(share, pattern, after);
    if (pattern && !find_regex_for(share, pattern))
        return -2;
    int found = -1;
    unsigned count = recorder_share_channel_count(share);
    for (unsigned c = after < 0 ? 0 : (unsigned) after + 1; c < count; c++)
    {
        const share_channel *channel = share_reader_channel(share, c);
        char name[64];
        if (!channel || !__atomic_load_n(&channel->active, __ATOMIC_ACQUIRE) ||
            !share_reader_string(share, channel->name, name, sizeof(name)))
            continue;
        if (!pattern || regexec(&share->find_regex, name, 0, NULL, 0) == 0)
        {
            found = (int) c;
            break;
        }
    }
    return found;
}

size_t recorder_share_read(recorder_share *share, unsigned channel,
                           recorder_share_cursor *cursor,
                           recorder_sample *samples, size_t max,
                           uint64_t *lost)
{
    if (share->v12)
        return share_v12_read(share, channel, cursor, samples, max, lost);
    if (lost)
        *lost = 0;
    const share_channel *entry = share_reader_channel(share, channel);
    if (!entry || !samples || !cursor || entry->argument >= RECORDER_MAX_ARGS ||
        !share_reader_intact(share))
        return 0;
    sample_walk state = { .share = share, .argument = entry->argument,
                          .out = samples };
    walk(share, entry->recorder, cursor, max, lost, take_sample, &state);
    return state.count;
}

