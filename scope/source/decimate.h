/* decimate.h - min/max per pixel column, in time that follows the width.
 *
 * A graph shows up to millions of samples in a few hundred columns. Each
 * column needs the first, last, lowest and highest sample that falls in it.
 * Scanning every sample each frame would make a frame cost follow the
 * number of samples; instead each track keeps a min/max pyramid: level k
 * holds the extremes of aligned blocks of 16^k samples. A range query then
 * touches at most 2 * 15 entries per level, so a column costs O(log n) and
 * a frame O(width * log n). A pyramid is brought up to date when a frame's
 * columns hold enough samples to use it (scope_minmax_catch_up), a block
 * of 16 samples at a time, not as each sample is read: a query scans the
 * samples it does not hold yet.
 *
 * Samples are named by an absolute index that only grows (the n-th sample
 * ever appended to the track); old ones can be dropped from the front.
 * NaN samples are ignored by the extremes (fmin/fmax semantics).
 */
#ifndef SCOPE_DECIMATE_H
#define SCOPE_DECIMATE_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SCOPE_MINMAX_SHIFT      4       /* 16 samples per block */
#define SCOPE_MINMAX_LEVELS     6       /* blocks of up to 16^6 samples */

typedef struct scope_extent
{
    double min, max;
} scope_extent;

typedef struct scope_minmax_level
{
    scope_extent *entry;                /* entry[head + i]: block base + i */
    uint64_t      base;
    size_t        head, count, capacity;
} scope_minmax_level;

typedef struct scope_minmax
{
    scope_minmax_level level[SCOPE_MINMAX_LEVELS];  /* [0] = 16 samples */
    uint64_t built;                     /* samples before it are held */
    bool deferred;                      /* built only when first asked for
                                           (scope_minmax_catch_up) */
} scope_minmax;

void scope_minmax_init(scope_minmax *mm);
void scope_minmax_free(scope_minmax *mm);

/* A pyramid that appends skip until scope_minmax_catch_up(): a series
 * keeps five tracks of each sample, and the views shown decimate one or
 * two of them (pyramids were 4 % of a 16-channel window's CPU, three of
 * their five tracks shown by no view). */
void scope_minmax_defer(scope_minmax *mm);

/* The pyramid brought up to sample 'end' from where it was (or from
 * 'first' if it was deferred, or behind 'first'), over samples of 'raw'
 * (as in scope_minmax_query()): whole blocks of the first level at once.
 * False when out of memory: emptied, it is built again at the next. */
bool scope_minmax_catch_up(scope_minmax *mm, const double *raw,
                           uint64_t raw_base, uint64_t first, uint64_t end);

/* scope_minmax_append() for a pyramid not deferred, when the sample
 * starts or ends a block of the first level, or starts a new run. */
bool scope_minmax_append_block(scope_minmax *mm, uint64_t index,
                               double value);

/* Account for sample 'index' (one more than the last one appended, or any
 * index for the first). False when out of memory: the pyramid is then
 * emptied and queries fall back to scanning samples. Inline: a deferred
 * pyramid, or a sample that neither starts nor ends its block of the
 * first level (14 in 16), is a few comparisons here. */
static inline bool scope_minmax_append(scope_minmax *mm, uint64_t index,
                                       double value)
{
    if (mm->deferred)
        return true;
    mm->built = index + 1;
    scope_minmax_level *level = &mm->level[0];
    uint64_t mask = (UINT64_C(1) << SCOPE_MINMAX_SHIFT) - 1;
    if (!level->count || (index & mask) == 0 || (index & mask) == mask ||
        index >> SCOPE_MINMAX_SHIFT != level->base + level->count - 1)
        return scope_minmax_append_block(mm, index, value);
    /* As extent_combine (decimate.c): a NaN never widens an extent. */
    scope_extent *last = &level->entry[level->head + level->count - 1];
    if (value < last->min || (isnan(last->min) && !isnan(value)))
        last->min = value;
    if (value > last->max || (isnan(last->max) && !isnan(value)))
        last->max = value;
    return true;
}

/* Forget blocks that lie entirely before sample 'first'. */
void scope_minmax_trim(scope_minmax *mm, uint64_t first);

/* Extremes of samples [begin, end); 'raw[i - raw_base]' is sample i, and
 * every sample of the range must still be in 'raw'. NaN if the range is
 * empty or holds only NaN. */
scope_extent scope_minmax_query(const scope_minmax *mm, const double *raw,
                                uint64_t raw_base, uint64_t begin,
                                uint64_t end);

/* One pixel column of a decimated track. */
typedef struct scope_column
{
    double first, last;                 /* values of its first/last sample */
    double min, max;                    /* NaN min/max: no usable sample */
    double start_time, end_time;        /* times of its first/last sample */
    bool   used;                        /* it holds at least one sample */
} scope_column;

/* A track to decimate: sorted times and values of samples
 * [first, end), element i at [i - base]. */
typedef struct scope_track_view
{
    const double *      time;
    const double *      value;
    const scope_minmax *minmax;         /* NULL: scan the samples */
    uint64_t            base, first, end;
} scope_track_view;

/* Index of the first sample of 'track' whose time is >= 't'. */
uint64_t scope_track_lower_bound(const scope_track_view *track, double t);

/* Fill 'columns' column c covering times [(origin + c) * step,
 * (origin + c + 1) * step), using only samples [first, end) of the track.
 * Columns are anchored to multiples of 'step' rather than to the left edge
 * of the view, so a scrolling view keeps the same columns from frame to
 * frame and the trace does not shimmer. */
void scope_decimate(const scope_track_view *track, uint64_t first,
                    uint64_t end, int64_t origin, double step,
                    unsigned columns, scope_column *out);

#endif /* SCOPE_DECIMATE_H */
