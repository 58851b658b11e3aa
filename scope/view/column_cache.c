/* column_cache.c - decimated columns kept from one frame to the next. */
#include "view/column_cache.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Summaries are kept for blocks of columns at multiples of their width in
 * absolute columns: wide ones for the middle of a range, narrow ones for
 * its ends, which move every frame as the view scrolls and new samples
 * come in. A range is then a few blocks and at most NARROW - 1 columns
 * at each end, where one width alone read up to WIDE - 1 columns there. */
#define WIDE_SHIFT      5               /* 32 columns */
#define NARROW_SHIFT    2               /* 4 columns */
#define WIDE            (1 << WIDE_SHIFT)
#define NARROW          (1 << NARROW_SHIFT)
#define LEVELS  2

static const unsigned shift[LEVELS] = { WIDE_SHIFT, NARROW_SHIFT };

/* Columns in a block of 'level'. */
static int64_t width(unsigned level)
{
    return (int64_t) 1 << shift[level];
}

typedef struct kept_block
{
    int64_t              index;         /* columns from index * its width */
    bool                 valid;
    scope_column_summary summary;
} kept_block;

typedef struct block_level
{
    kept_block *blocks;                 /* block i at blocks[i mod count] */
    unsigned    count;                  /* a power of two */
} block_level;

typedef struct cache_slot
{
    scope_column *at;                   /* at[head + c]: absolute column
                                           origin + c */
    unsigned      head, count, capacity;
    const void *  owner;
    double        step;
    int64_t       origin;
    uint64_t      first, end;           /* the samples decimated */
    uint64_t      last_time, last_value;  /* bits of sample end - 1 */
    bool          valid;
    block_level   level[LEVELS];
    /* The wide blocks [mid_first, mid_end) joined, as the last summary
     * asked: a scrolling view asks for nearly the same blocks at every
     * frame, and reading each again was a cache miss when other work had
     * run between frames (in callgrind's cache model, cleared between
     * frames, a third of a 16-channel frame's misses). */
    bool                 mid_valid;
    int64_t              mid_first, mid_end;
    scope_column_summary mid;
    /* Columns [tail_first, tail_end) joined, from the start of the wide
     * block a range ends in: the newest columns, extended as they settle,
     * where narrow blocks were read again at every frame. Columns from
     * 'settled' on (the one holding the newest sample, those after it)
     * may change at the next call, so the tail stops short of them. */
    bool                 tail_valid;
    int64_t              tail_first, tail_end, settled;
    scope_column_summary tail;
} cache_slot;

struct scope_column_cache
{
    cache_slot *slot;
    unsigned    slots;
    uint64_t    decimated, summarised, blocks_read;
};

scope_column_cache *scope_column_cache_new(void)
{
    return calloc(1, sizeof(scope_column_cache));
}

void scope_column_cache_delete(scope_column_cache *cache)
{
    if (!cache)
        return;
    for (unsigned s = 0; s < cache->slots; s++)
    {
        free(cache->slot[s].at);
        for (unsigned l = 0; l < LEVELS; l++)
            free(cache->slot[s].level[l].blocks);
    }
    free(cache->slot);
    free(cache);
}

uint64_t scope_column_cache_decimated(const scope_column_cache *cache)
{
    return cache->decimated;
}

uint64_t scope_column_cache_summarised(const scope_column_cache *cache)
{
    return cache->summarised;
}

uint64_t scope_column_cache_blocks_read(const scope_column_cache *cache)
{
    return cache->blocks_read;
}

static uint64_t bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof(b));
    return b;
}

/* The absolute column a time is in, give or take one; false if the time
 * is too far out to say. */
static bool column_near(double t, double step, int64_t *column)
{
    double c = floor(t / step);
    if (!(fabs(c) < 1e15))
        return false;
    *column = (int64_t) c;
    return true;
}

/* Columns looked at, from the right, for the one holding the newest
 * sample: past the few empty ones at a live view's end. */
#define SETTLE_SCAN     64

/* The first absolute column of the slot's last call that new samples can
 * change: the one holding its newest sample (they come no earlier), or
 * past the last if that sample is right of them. Columns before it are
 * split off by the same sums of the same step as then. Where the column
 * is worked out from the time instead (column_near()), it may be one off:
 * the column before it is taken too, and was decimated again at every
 * frame, reading its samples, gone cold since. */
static int64_t first_unsettled(const cache_slot *k, double step)
{
    const scope_column *at = k->at + k->head;
    int64_t right = k->origin + (int64_t) k->count;
    for (unsigned c = k->count, n = 0; c-- > 0 && n < SETTLE_SCAN; n++)
        if (at[c].used)
            return bits(at[c].end_time) == k->last_time
                       ? k->origin + (int64_t) c : right;
    int64_t near;
    double last;
    memcpy(&last, &k->last_time, sizeof(last));
    if (k->end <= k->first || !column_near(last, step, &near))
        return k->origin;
    if (near - 1 < k->origin)
        return k->origin;
    return near - 1 < right ? near - 1 : right;
}

/* The absolute columns [*lo, *hi) of the slot's last call that hold the
 * same samples of 'track' now, if the columns' step were the same. New
 * samples come no earlier than the newest one decimated, dropped ones
 * were no later than the oldest one left: a column a whole step away
 * from those holds what it held. */
static bool kept_range(const cache_slot *k, const void *owner,
                       const scope_track_view *track, uint64_t end,
                       double step, int64_t *lo, int64_t *hi)
{
    if (!k->valid || k->owner != owner || !(step > 0) ||
        !(fabs(step - k->step) <= 1e-9 * step) || k->end <= k->first ||
        track->first < k->first || track->first >= k->end || end < k->end)
        return false;
    /* The sample decimated last is still there: not a restart, nor other
     * samples at the same address. */
    size_t last = (size_t) (k->end - 1 - track->base);
    if (bits(track->time[last]) != k->last_time ||
        bits(track->value[last]) != k->last_value)
        return false;
    *lo = k->origin;
    *hi = k->origin + (int64_t) k->count;
    int64_t c;
    if (track->first > k->first)
    {
        if (!column_near(track->time[track->first - track->base], step, &c))
            return false;
        if (c + 2 > *lo)
            *lo = c + 2;
    }
    if (end > k->end)
    {
        /* Worked out as the last call ended, when its newest columns were
         * still in the cache; looked for again now, they were a miss per
         * track at every frame. */
        int64_t unsettled = step == k->step ? k->settled
                                            : first_unsettled(k, step);
        if (unsettled < *hi)
            *hi = unsettled;
    }
    return *lo < *hi;
}

/* With a step that differs from the kept one by a rounding error, kept
 * columns [lo, hi) still hold exactly their samples if every sample stays
 * on its side of every boundary: those inside each column (its first and
 * last), and those just outside the kept stretch. */
static bool same_split(const cache_slot *k, const scope_track_view *track,
                       uint64_t end, double step, int64_t lo, int64_t hi)
{
    for (int64_t a = lo; a < hi; a++)
    {
        const scope_column *col = &k->at[k->head + (a - k->origin)];
        if (col->used && !(col->start_time >= (double) a * step &&
                           col->end_time < (double) (a + 1) * step))
            return false;
    }
    scope_track_view range = *track;
    range.end = end;
    return scope_track_lower_bound(&range, (double) lo * step) ==
           scope_track_lower_bound(&range, (double) lo * k->step) &&
           scope_track_lower_bound(&range, (double) hi * step) ==
           scope_track_lower_bound(&range, (double) hi * k->step);
}

/* The block of 'level' that holds absolute column a. */
static int64_t block_of(int64_t a, unsigned level)
{
    /* Rounded down for negative columns too: two's complement. */
    return (int64_t) ((uint64_t) a >> shift[level] |
                      (a < 0 ? ~(UINT64_MAX >> shift[level]) : 0));
}

static kept_block *block_at(const cache_slot *k, unsigned level,
                            int64_t index)
{
    uint64_t mask = k->level[level].count - 1;
    return &k->level[level].blocks[(uint64_t) index & mask];
}

/* Forget the summaries of blocks, and the tail, that hold any of columns
 * [from, to): decimated again. Blocks elsewhere in the range hold columns
 * kept; those out of it are checked by their index before use, and
 * forgotten when their columns come back into the range, decimated
 * again. */
static void forget_blocks(cache_slot *k, int64_t from, int64_t to)
{
    if (from < to && from < k->tail_end && to > k->tail_first)
        k->tail_valid = false;
    for (unsigned l = 0; l < LEVELS && from < to; l++)
    {
        /* At most one round of the level's blocks. */
        int64_t first = block_of(from, l);
        int64_t last = block_of(to - 1, l);
        if (l == 0 && first < k->mid_end && last >= k->mid_first)
            k->mid_valid = false;
        if (last - first >= k->level[l].count)
            last = first + k->level[l].count - 1;
        for (int64_t i = first; i <= last; i++)
            block_at(k, l, i)->valid = false;
    }
}

/* Room for the blocks of 'count' columns; false if out of memory. */
static bool make_blocks(cache_slot *k, unsigned count)
{
    for (unsigned l = 0; l < LEVELS; l++)
    {
        block_level *level = &k->level[l];
        unsigned want = 1;
        while (want < count / width(l) + 2)
            want *= 2;
        if (level->count >= want)
            continue;
        kept_block *blocks = calloc(want, sizeof(*blocks));
        if (!blocks)
            return false;
        free(level->blocks);
        level->blocks = blocks;
        level->count = want;
    }
    return true;
}

static void decimate(scope_column_cache *cache, scope_column *at,
                     const scope_track_view *track, uint64_t end,
                     int64_t origin, double step, int64_t from, int64_t to)
{
    if (from >= to)
        return;
    scope_decimate(track, track->first, end, from, step,
                   (unsigned) (to - from), at + (from - origin));
    cache->decimated += (uint64_t) (to - from);
}

scope_column *scope_column_cache_get(scope_column_cache *cache, unsigned slot,
                                     const void *owner,
                                     const scope_track_view *track,
                                     uint64_t end, int64_t origin, double step,
                                     unsigned count)
{
    if (slot >= cache->slots)
    {
        unsigned slots = slot + 1 > 2 * cache->slots ? slot + 1
                                                     : 2 * cache->slots;
        cache_slot *grown = realloc(cache->slot, slots * sizeof(*grown));
        if (!grown)
            return NULL;
        memset(grown + cache->slots, 0,
               (slots - cache->slots) * sizeof(*grown));
        cache->slot = grown;
        cache->slots = slots;
    }
    /* Room for three times the columns: a scrolling view moves where its
     * columns start instead of moving them, until it reaches the end,
     * then moves them all back, once per two widths scrolled (with room
     * for twice, once per width: in callgrind's cache model of a
     * 16-channel frame, 155 of its 3 100 lines of memory). */
    cache_slot *k = &cache->slot[slot];
    if (count > k->capacity / 3)
    {
        scope_column *at = realloc(k->at, 3 * (size_t) count * sizeof(*at));
        if (!at)
        {
            k->valid = false;
            return NULL;
        }
        /* Every page written now, once: the columns reach the end of the
         * room only after two widths scrolled, and each page they came
         * to then was a page fault in a frame (in a 16-channel window, a
         * tenth of its graph's drawing time until all had been used). */
        memset(at + k->capacity, 0,
               (3 * (size_t) count - k->capacity) * sizeof(*at));
        k->at = at;
        k->capacity = 3 * count;
    }
    if (!make_blocks(k, count))
    {
        k->valid = false;
        return NULL;
    }
    if (end > track->end)
        end = track->end;
    if (end < track->first)
        end = track->first;

    int64_t right = origin + (int64_t) count, lo, hi;
    if (count && kept_range(k, owner, track, end, step, &lo, &hi))
    {
        if (lo < origin)
            lo = origin;
        if (hi > right)
            hi = right;
        if (lo < hi && step != k->step &&
            !same_split(k, track, end, step, lo, hi))
            lo = hi;
    }
    else
    {
        lo = hi = origin;
        k->mid_valid = false;           /* other samples, or other columns */
        k->tail_valid = false;
    }
    forget_blocks(k, origin, lo);
    forget_blocks(k, hi > lo ? hi : origin, right);
    int64_t head = 0;
    if (lo < hi)
    {
        /* Where the kept columns stay put, if there is room. */
        head = (int64_t) k->head + (origin - k->origin);
        if (head < 0 || head + (int64_t) count > (int64_t) k->capacity)
        {
            head = 0;
            memmove(k->at + (lo - origin),
                    k->at + k->head + (lo - k->origin),
                    (size_t) (hi - lo) * sizeof(*k->at));
        }
        decimate(cache, k->at + head, track, end, origin, step, origin, lo);
        decimate(cache, k->at + head, track, end, origin, step, hi, right);
    }
    else
        decimate(cache, k->at, track, end, origin, step, origin, right);

    k->head = (unsigned) head;
    k->owner = owner;
    k->step = step;
    k->origin = origin;
    k->count = count;
    k->first = track->first;
    k->end = end;
    if (end > track->first)
    {
        k->last_time = bits(track->time[end - 1 - track->base]);
        k->last_value = bits(track->value[end - 1 - track->base]);
    }
    k->settled = first_unsettled(k, step);
    k->valid = true;
    return k->at + head;
}

static void sum_columns(scope_column_cache *cache, cache_slot *k,
                        unsigned level, int64_t from, int64_t to,
                        scope_column_summary *sum);

/* The summary of block 'index' of 'level', made from the next level's
 * when not kept. */
static const scope_column_summary *block_summary(scope_column_cache *cache,
                                                 cache_slot *k,
                                                 unsigned level,
                                                 int64_t index)
{
    kept_block *block = block_at(k, level, index);
    cache->blocks_read += level == 0;
    if (!block->valid || block->index != index)
    {
        int64_t w = width(level);
        block->summary = scope_column_summary_empty();
        sum_columns(cache, k, level + 1, index * w, (index + 1) * w,
                    &block->summary);
        block->index = index;
        block->valid = true;
    }
    return &block->summary;
}

/* Add absolute columns [from, to) of the slot to 'sum', in order: whole
 * blocks of 'level' from their summaries, the ends from the next level,
 * the last from columns. */
static void sum_columns(scope_column_cache *cache, cache_slot *k,
                        unsigned level, int64_t from, int64_t to,
                        scope_column_summary *sum)
{
    if (from >= to)
        return;
    if (level == LEVELS)
    {
        /* Absolute column a is at[a - k->origin]. */
        scope_column_summary_add(sum, k->at + k->head + (from - k->origin),
                                 (unsigned) (to - from));
        cache->summarised += (uint64_t) (to - from);
        return;
    }
    int64_t w = width(level);
    int64_t first = block_of(from + w - 1, level), end = block_of(to, level);
    if (first >= end)
    {
        sum_columns(cache, k, level + 1, from, to, sum);
        return;
    }
    sum_columns(cache, k, level + 1, from, first * w, sum);
    for (int64_t i = first; i < end; i++)
        scope_column_summary_join(sum, block_summary(cache, k, level, i));
    sum_columns(cache, k, level + 1, end * w, to, sum);
}

/* The tail from absolute column 'from' (a wide block's first) taken on to
 * column 'limit', or as far as the columns have settled. */
static void extend_tail(scope_column_cache *cache, cache_slot *k,
                        int64_t from, int64_t limit)
{
    if (!k->tail_valid || k->tail_first != from || k->tail_end > limit)
    {
        k->tail = scope_column_summary_empty();
        k->tail_first = k->tail_end = from;
        k->tail_valid = true;
    }
    if (k->settled < limit)
        limit = k->settled;
    if (k->tail_end < limit)
    {
        sum_columns(cache, k, LEVELS, k->tail_end, limit, &k->tail);
        k->tail_end = limit;
    }
}

/* Add absolute columns [from, to) to 'sum', 'from' a wide block's first:
 * the tail kept, then the columns that have not settled, read. */
static void join_tail(scope_column_cache *cache, cache_slot *k,
                      int64_t from, int64_t to, scope_column_summary *sum)
{
    if (from >= to)
        return;
    extend_tail(cache, k, from, to);
    scope_column_summary_join(sum, &k->tail);
    sum_columns(cache, k, LEVELS, k->tail_end, to, sum);
}

/* The summary of the last whole wide block of a range, 'index': the tail
 * when it covers it, as when a scrolling range has just moved past it. */
static const scope_column_summary *last_block(scope_column_cache *cache,
                                              cache_slot *k, int64_t index)
{
    kept_block *block = block_at(k, 0, index);
    if ((!block->valid || block->index != index) && k->tail_valid &&
        k->tail_first == index * WIDE)
    {
        extend_tail(cache, k, index * WIDE, (index + 1) * WIDE);
        if (k->tail_end == (index + 1) * WIDE)
        {
            block->summary = k->tail;
            block->index = index;
            block->valid = true;
        }
    }
    return block_summary(cache, k, 0, index);
}

/* The wide blocks [first, end) joined: those of the last call again,
 * with the blocks after them that this one adds. */
static const scope_column_summary *middle(scope_column_cache *cache,
                                          cache_slot *k, int64_t first,
                                          int64_t end)
{
    if (!k->mid_valid || k->mid_first != first || k->mid_end > end)
    {
        k->mid = scope_column_summary_empty();
        k->mid_first = k->mid_end = first;
        k->mid_valid = true;
    }
    for (; k->mid_end < end; k->mid_end++)
        scope_column_summary_join(&k->mid,
                                  block_summary(cache, k, 0, k->mid_end));
    return &k->mid;
}

scope_column_summary scope_column_cache_summary(scope_column_cache *cache,
                                                unsigned slot, int64_t from,
                                                int64_t to)
{
    scope_column_summary sum = scope_column_summary_empty();
    if (slot >= cache->slots || !cache->slot[slot].valid)
        return sum;
    cache_slot *k = &cache->slot[slot];
    if (from < k->origin)
        from = k->origin;
    if (to > k->origin + (int64_t) k->count)
        to = k->origin + (int64_t) k->count;
    if (from >= to)
        return sum;
    int64_t first = block_of(from + WIDE - 1, 0), end = block_of(to, 0);
    if (first >= end)
    {
        sum_columns(cache, k, 1, from, to, &sum);
        return sum;
    }
    /* The last whole block apart: the newest samples' columns are
     * decimated again at every frame, and may begin in it. */
    sum_columns(cache, k, 1, from, first * WIDE, &sum);
    scope_column_summary_join(&sum, middle(cache, k, first, end - 1));
    scope_column_summary_join(&sum, last_block(cache, k, end - 1));
    join_tail(cache, k, end * WIDE, to, &sum);
    return sum;
}
