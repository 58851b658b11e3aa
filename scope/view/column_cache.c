/* column_cache.c - decimated columns kept from one frame to the next. */
#include "view/column_cache.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Summaries are kept for blocks of this many columns, at multiples of it
 * in absolute columns. */
#define BLOCK   32

typedef struct kept_block
{
    int64_t              index;         /* absolute columns from index * BLOCK */
    bool                 valid;
    scope_column_summary summary;
} kept_block;

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
    kept_block *  blocks;               /* block i at blocks[i mod count] */
    unsigned      block_count;
} cache_slot;

struct scope_column_cache
{
    cache_slot *slot;
    unsigned    slots;
    uint64_t    decimated, summarised;
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
        free(cache->slot[s].blocks);
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
        if (!column_near(track->time[last], step, &c))
            return false;
        if (c - 1 < *hi)
            *hi = c - 1;
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

static int64_t floor_div(int64_t a, int64_t b)
{
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

static kept_block *block_at(const cache_slot *k, int64_t index)
{
    int64_t n = k->block_count;
    return &k->blocks[((index % n) + n) % n];
}

/* Keep the summaries of blocks inside the columns kept, [lo, hi). */
static void forget_blocks(cache_slot *k, int64_t lo, int64_t hi)
{
    for (unsigned b = 0; b < k->block_count; b++)
    {
        kept_block *block = &k->blocks[b];
        if (block->valid && !(block->index * BLOCK >= lo &&
                              (block->index + 1) * BLOCK <= hi))
            block->valid = false;
    }
}

/* Room for the blocks of 'count' columns; false if out of memory. */
static bool make_blocks(cache_slot *k, unsigned count)
{
    unsigned want = count / BLOCK + 2;
    if (k->block_count >= want)
        return true;
    kept_block *blocks = calloc(want, sizeof(*blocks));
    if (!blocks)
        return false;
    free(k->blocks);
    k->blocks = blocks;
    k->block_count = want;
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
    /* Room for twice the columns: a scrolling view moves where its
     * columns start instead of moving them, until it reaches the end. */
    cache_slot *k = &cache->slot[slot];
    if (count > k->capacity / 2)
    {
        scope_column *at = realloc(k->at, 2 * (size_t) count * sizeof(*at));
        if (!at)
        {
            k->valid = false;
            return NULL;
        }
        k->at = at;
        k->capacity = 2 * count;
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
        lo = hi = origin;
    forget_blocks(k, lo, hi);
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
    k->valid = true;
    return k->at + head;
}

scope_column_summary scope_column_cache_summary(scope_column_cache *cache,
                                                unsigned slot, int64_t from,
                                                int64_t to)
{
    scope_column_summary sum = scope_column_summary_empty();
    if (slot >= cache->slots || !cache->slot[slot].valid)
        return sum;
    const cache_slot *k = &cache->slot[slot];
    if (from < k->origin)
        from = k->origin;
    if (to > k->origin + (int64_t) k->count)
        to = k->origin + (int64_t) k->count;
    /* Absolute column a is at[a - k->origin]. */
    const scope_column *at = k->at + k->head;
    while (from < to)
    {
        int64_t index = floor_div(from, BLOCK), stop = (index + 1) * BLOCK;
        if (from == index * BLOCK && stop <= to)
        {
            kept_block *block = block_at(k, index);
            if (!block->valid || block->index != index)
            {
                block->summary = scope_column_summary_empty();
                scope_column_summary_add(&block->summary,
                                         at + (from - k->origin), BLOCK);
                block->index = index;
                block->valid = true;
                cache->summarised += BLOCK;
            }
            scope_column_summary_join(&sum, &block->summary);
        }
        else
        {
            if (stop > to)
                stop = to;
            scope_column_summary_add(&sum, at + (from - k->origin),
                                     (unsigned) (stop - from));
            cache->summarised += (uint64_t) (stop - from);
        }
        from = stop;
    }
    return sum;
}
