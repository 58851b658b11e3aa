/* column_cache.c - decimated columns kept from one frame to the next. */
#include "column_cache.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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
} cache_slot;

struct scope_column_cache
{
    cache_slot *slot;
    unsigned    slots;
    uint64_t    decimated;
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
        free(cache->slot[s].at);
    free(cache->slot);
    free(cache);
}

uint64_t scope_column_cache_decimated(const scope_column_cache *cache)
{
    return cache->decimated;
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
