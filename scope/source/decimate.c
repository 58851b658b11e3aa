/* decimate.c - min/max pyramids and per-column decimation. */
#include "source/decimate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static unsigned level_shift(unsigned level)
{
    return SCOPE_MINMAX_SHIFT * (level + 1);
}

/* Plain comparisons, inlined: fmin/fmax are library calls, and these run
 * for every sample read. A NaN never widens an extent. */
static scope_extent extent_combine(scope_extent a, double min, double max)
{
    if (min < a.min || (isnan(a.min) && !isnan(min)))
        a.min = min;
    if (max > a.max || (isnan(a.max) && !isnan(max)))
        a.max = max;
    return a;
}

void scope_minmax_init(scope_minmax *mm)
{
    memset(mm, 0, sizeof(*mm));
}

void scope_minmax_free(scope_minmax *mm)
{
    for (unsigned l = 0; l < SCOPE_MINMAX_LEVELS; l++)
        free(mm->level[l].entry);
    scope_minmax_init(mm);
}

/* Room for one more entry at the end: slide live entries to the front if
 * half the array is dead, else grow. */
static bool level_reserve(scope_minmax_level *level)
{
    if (level->head + level->count < level->capacity)
        return true;
    if (level->head >= level->capacity / 2 && level->head)
    {
        memmove(level->entry, level->entry + level->head,
                level->count * sizeof(*level->entry));
        level->head = 0;
        return true;
    }
    size_t capacity = level->capacity ? 2 * level->capacity : 64;
    scope_extent *entry = realloc(level->entry, capacity * sizeof(*entry));
    if (!entry)
        return false;
    level->entry = entry;
    level->capacity = capacity;
    return true;
}

void scope_minmax_defer(scope_minmax *mm)
{
    mm->deferred = true;
}

/* Take extent 'e' into the entry of 'level' for 'block': the last one,
 * or a new one after it (not the next block: a new run from there).
 * False when out of memory. */
static bool level_take(scope_minmax_level *level, uint64_t block,
                       scope_extent e)
{
    if (level->count && block == level->base + level->count - 1)
    {
        scope_extent *last = &level->entry[level->head + level->count - 1];
        *last = extent_combine(*last, e.min, e.max);
        return true;
    }
    if (!level->count || block != level->base + level->count)
    {
        level->head = 0;
        level->count = 0;
        level->base = block;
    }
    if (!level_reserve(level))
        return false;
    level->entry[level->head + level->count++] = e;
    return true;
}

/* Take extent 'e' of the samples of a first-level block up to 'index'
 * into every level it goes into. Queries use whole blocks only
 * (scope_minmax_query), so a block goes into the next level once its last
 * sample is in: a sample costs one level, not all six (a rising signal
 * widened every one of them). False (the pyramid emptied) when out of
 * memory. */
static bool take_extent(scope_minmax *mm, uint64_t index, scope_extent e)
{
    for (unsigned l = 0; l < SCOPE_MINMAX_LEVELS; l++)
    {
        scope_minmax_level *level = &mm->level[l];
        if (!level_take(level, index >> level_shift(l), e))
        {
            scope_minmax_free(mm);
            return false;
        }
        uint64_t size = UINT64_C(1) << level_shift(l);
        if ((index + 1) & (size - 1))
            break;
        e = level->entry[level->head + level->count - 1];
    }
    return true;
}

bool scope_minmax_append_block(scope_minmax *mm, uint64_t index,
                               double value)
{
    return take_extent(mm, index, (scope_extent) { value, value });
}

bool scope_minmax_catch_up(scope_minmax *mm, const double *raw,
                           uint64_t raw_base, uint64_t first, uint64_t end)
{
    uint64_t i = mm->built > first && !mm->deferred ? mm->built : first;
    mm->deferred = false;
    uint64_t mask = (UINT64_C(1) << SCOPE_MINMAX_SHIFT) - 1;
    /* Up to a block's start, then whole blocks (one entry each, where a
     * sample at a time combined into it 16 times), then the rest. */
    for (; i < end && (i & mask); i++)
        if (!scope_minmax_append(mm, i, raw[i - raw_base]))
            return false;
    for (; i < end && end - i > mask; i += mask + 1)
    {
        const double *block = raw + (i - raw_base);
        scope_extent e = { block[0], block[0] };
        for (unsigned k = 1; k <= mask; k++)
            e = extent_combine(e, block[k], block[k]);
        if (!take_extent(mm, i + mask, e))
            return false;
        mm->built = i + mask + 1;
    }
    for (; i < end; i++)
        if (!scope_minmax_append(mm, i, raw[i - raw_base]))
            return false;
    return true;
}

void scope_minmax_trim(scope_minmax *mm, uint64_t first)
{
    if (mm->deferred)
        return;
    for (unsigned l = 0; l < SCOPE_MINMAX_LEVELS; l++)
    {
        scope_minmax_level *level = &mm->level[l];
        uint64_t keep = first >> level_shift(l);   /* its block may be partial */
        if (!level->count || keep <= level->base)
            continue;
        uint64_t drop = keep - level->base;
        if (drop >= level->count)
            drop = level->count;
        level->head += drop;
        level->count -= drop;
        level->base += drop;
        if (!level->count)
            level->head = 0;
    }
}

static const scope_extent *level_entry(const scope_minmax *mm, unsigned l,
                                       uint64_t block)
{
    const scope_minmax_level *level = &mm->level[l];
    /* A block the pyramid has not been brought past yet is partial. */
    if (block < level->base || block - level->base >= level->count ||
        (block + 1) << level_shift(l) > mm->built)
        return NULL;
    return &level->entry[level->head + (block - level->base)];
}

scope_extent scope_minmax_query(const scope_minmax *mm, const double *raw,
                                uint64_t raw_base, uint64_t begin,
                                uint64_t end)
{
    scope_extent result = { NAN, NAN };
    int previous = -1;                  /* level used last; -1 = samples */
    uint64_t i = begin;
    while (i < end)
    {
        /* The largest block that starts at i and ends by 'end': blocks grow
         * one level at a time going in and shrink going out. */
        int l = mm ? previous + 1 : -1;
        if (l >= SCOPE_MINMAX_LEVELS)
            l = SCOPE_MINMAX_LEVELS - 1;
        const scope_extent *entry = NULL;
        for (; l >= 0; l--)
        {
            uint64_t size = UINT64_C(1) << level_shift((unsigned) l);
            if ((i & (size - 1)) == 0 && end - i >= size &&
                (entry = level_entry(mm, (unsigned) l, i >> level_shift((unsigned) l))))
                break;
        }
        if (entry)
        {
            result = extent_combine(result, entry->min, entry->max);
            i += UINT64_C(1) << level_shift((unsigned) l);
        }
        else
        {
            double v = raw[i - raw_base];
            result = extent_combine(result, v, v);
            i++;
        }
        previous = l;
    }
    return result;
}

/* The first sample of [track->first, track->end) not before t, halving. */
static uint64_t bisect(const scope_track_view *track, double t)
{
    uint64_t lo = track->first, hi = track->end;
    while (lo < hi)
    {
        uint64_t mid = lo + (hi - lo) / 2;
        if (track->time[mid - track->base] < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* scope_track_lower_bound(track, t), searched out from 'guess': the
 * columns of a frame hold about as many samples each, so the next
 * column's bound is about as far from the last. A search over all the
 * samples left began with probes far away, each a cache miss: a third of
 * a frame of a million samples. */
static uint64_t lower_bound_near(const scope_track_view *track, double t,
                                 uint64_t guess)
{
    const double *time = track->time - track->base;
    uint64_t lo = track->first, hi = track->end, step = 1;
    if (guess < lo)
        guess = lo;
    if (guess > hi)
        guess = hi;
    /* Widened by doubling steps until [lo, hi] holds the bound: below lo
     * every sample is before t, at hi (if not the end) at or after it. */
    if (guess < hi && time[guess] < t)
    {
        lo = guess + 1;
        uint64_t probe = lo;
        while (probe < hi && time[probe] < t)
        {
            lo = probe + 1;
            probe = hi - lo > step ? lo + step : hi;
            step *= 2;
        }
        hi = probe;
    }
    else
    {
        hi = guess;
        while (hi > lo)
        {
            uint64_t probe = hi - lo > step ? hi - step : lo;
            if (time[probe] < t)
            {
                lo = probe + 1;
                break;
            }
            hi = probe;
            step *= 2;
        }
    }
    scope_track_view near = *track;
    near.first = lo;
    near.end = hi;
    return bisect(&near, t);
}

/* Searched from where t would be if the samples were evenly spaced, as
 * a channel's mostly are: a frame searches every series for the ends of
 * its span, and halving ten thousand samples or more began with probes
 * far apart, each a cache miss once the window has slept between frames. */
uint64_t scope_track_lower_bound(const scope_track_view *track, double t)
{
    uint64_t lo = track->first, hi = track->end;
    if (hi - lo < 64)
        return bisect(track, t);
    const double *time = track->time - track->base;
    double oldest = time[lo], newest = time[hi - 1];
    if (!(t > oldest))
        return lo;                      /* NaN too: nothing is before it */
    if (t > newest)
        return hi;
    double at = (t - oldest) / (newest - oldest);
    if (!(at >= 0))
        at = 0;
    if (at > 1)
        at = 1;
    uint64_t guess = lo + (uint64_t) (at * (double) (hi - 1 - lo));
    return lower_bound_near(track, t, guess);
}

void scope_decimate(const scope_track_view *track, uint64_t first,
                    uint64_t end, int64_t origin, double step,
                    unsigned columns, scope_column *out)
{
    if (first < track->first)
        first = track->first;
    if (end > track->end)
        end = track->end;
    scope_track_view range = *track;
    range.first = first;
    range.end = end < first ? first : end;

    uint64_t begin = scope_track_lower_bound(&range, (double) origin * step);
    uint64_t last_count = 0;            /* samples in the column before */
    for (unsigned c = 0; c < columns; c++)
    {
        range.first = begin;
        uint64_t stop = lower_bound_near(&range,
                                         (double) (origin + c + 1) * step,
                                         begin + last_count);
        last_count = stop - begin;
        scope_column *column = &out[c];
        column->used = begin < stop;
        if (column->used)
        {
            const double *value = track->value, *time = track->time;
            uint64_t base = track->base;
            scope_extent extent = scope_minmax_query(track->minmax,
                                                     track->value, track->base,
                                                     begin, stop);
            column->first = value[begin - base];
            column->last = value[stop - 1 - base];
            column->min = extent.min;
            column->max = extent.max;
            column->start_time = time[begin - base];
            column->end_time = time[stop - 1 - base];
        }
        else
        {
            column->first = column->last = column->min = column->max = NAN;
            column->start_time = column->end_time = NAN;
        }
        begin = stop;
    }
}
