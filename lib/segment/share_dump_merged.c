/* share_dump_merged.c - the flight recorders of several processes as one.
 *
 * Each segment is opened as recorder_share_dump() opens it (its matching
 * recorders' lanes, its own line settings and strings); then every lane of
 * every segment is merged by CLOCK_MONOTONIC time, which the processes of
 * one host share: each writer's calibration points map its ticks to it.
 * A heap of lanes keyed by the time of their next record keeps a merge of
 * many processes' many lanes at O(log lanes) a record.
 *
 * Each line is the segment's own dump line after "PROGRAM[PID] ", with
 * one change: its relative time counts from the start of the earliest of
 * the processes, so the times of all lines compare. The time of day
 * (recorder_abstime) stays each record's own.
 */
#include "segment/share_dump_private.h"
#include "recorder_regex.h"

#include <stdlib.h>
#include <string.h>

typedef struct merge_lane
{
    uint64_t key;                       /* monotonic ns of the next record */
    unsigned segment;
    unsigned cursor;
} merge_lane;

typedef struct merged_segment
{
    segment_dump dump;
    uint64_t     start_ns;
    char         prefix[4 * sizeof(((recorder_share_process *) 0)->program)
                        + 16];
    bool         open;
} merged_segment;

static bool before(const merge_lane *a, const merge_lane *b)
{
    if (a->key != b->key)
        return a->key < b->key;
    if (a->segment != b->segment)
        return a->segment < b->segment;
    return a->cursor < b->cursor;
}

static void sift_down(merge_lane *heap, size_t size, size_t at)
{
    for (;;)
    {
        size_t least = at, left = 2 * at + 1, right = left + 1;
        if (left < size && before(&heap[left], &heap[least]))
            least = left;
        if (right < size && before(&heap[right], &heap[least]))
            least = right;
        if (least == at)
            return;
        merge_lane swap = heap[at];
        heap[at] = heap[least];
        heap[least] = swap;
        at = least;
    }
}

/* The key of the next record of 'lane', or false if it has none. */
static bool next_key(merged_segment *segments, merge_lane *lane)
{
    segment_dump *dump = &segments[lane->segment].dump;
    lane_cursor *cursor = &dump->cursors[lane->cursor];
    if (!lane_cursor_peek(cursor, &dump->losses))
        return false;
    lane->key = share_reader_monotonic_ns(dump->share,
                                          cursor->head.timestamp);
    return true;
}

unsigned recorder_share_dump_merged(recorder_share *const *shares,
                                    unsigned count, const char *pattern,
                                    FILE *out)
{
    if (!shares || !count || !out)
        return 0;
    regex_t regex;
    if (pattern && !recorder_regex_compile(&regex, pattern, NULL, NULL, 0))
        return 0;
    unsigned printed = 0;
    size_t lanes = 0;
    merge_lane *heap = NULL;
    merged_segment *segments = calloc(count, sizeof(*segments));
    if (!segments)
        goto done;

    uint64_t base = UINT64_MAX;
    for (unsigned s = 0; s < count; s++)
    {
        merged_segment *segment = &segments[s];
        if (!shares[s] || !share_dump_open(&segment->dump, shares[s],
                                           pattern ? &regex : NULL, out))
            continue;
        segment->open = true;
        segment->start_ns = shares[s]->header.start_mono_ns;
        if (segment->start_ns < base)
            base = segment->start_ns;
        lanes += segment->dump.used;
        /* "PROGRAM[PID] ": the program's name is the segment's, escaped. */
        recorder_share_process process;
        recorder_share_process_info(shares[s], &process);
        char name[sizeof(segment->prefix) - 16];
        recorder_share_escape(name, sizeof(name), process.program,
                              strnlen(process.program,
                                      sizeof(process.program)));
        snprintf(segment->prefix, sizeof(segment->prefix), "%s[%u] ", name,
                 process.pid);
        segment->dump.prefix = segment->prefix;
    }
    heap = calloc(lanes ? lanes : 1, sizeof(*heap));
    if (!heap)
        goto done;
    size_t size = 0;
    for (unsigned s = 0; s < count; s++)
    {
        merged_segment *segment = &segments[s];
        if (!segment->open)
            continue;
        /* Times of day stay each record's own: shift the start they are
         * counted from as the relative times are. */
        segment->dump.settings.start_local_us -=
            (int64_t) ((segment->start_ns - base) / 1000);
        for (unsigned c = 0; c < segment->dump.used; c++)
        {
            heap[size] = (merge_lane) { 0, s, c };
            if (next_key(segments, &heap[size]))
                size++;
        }
    }
    for (size_t at = size / 2; at-- > 0; )
        sift_down(heap, size, at);

    /* Each step takes the oldest record of all lanes, then puts its lane
     * back by the time of its next one. A lane only moves forward, and
     * only up to the snapshot its cursor took: the merge ends. */
    while (size)
    {
        merge_lane *top = &heap[0];
        merged_segment *segment = &segments[top->segment];
        lane_cursor *cursor = &segment->dump.cursors[top->cursor];
        lane_cursor_take(cursor);
        share_dump_line(&segment->dump, &cursor->head, top->cursor,
                        (top->key - base) / 1000);
        printed++;
        if (!next_key(segments, top))
            heap[0] = heap[--size];
        sift_down(heap, size, 0);
    }

done:
    if (segments)
        for (unsigned s = 0; s < count; s++)
            if (segments[s].open)
                share_dump_close(&segments[s].dump);
    free(segments);
    free(heap);
    if (pattern)
        regfree(&regex);
    fflush(out);
    return printed;
}
