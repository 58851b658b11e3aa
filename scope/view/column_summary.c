/* column_summary.c - what a run of decimated columns spans. */
#include "view/column_summary.h"

#include <math.h>

scope_column_summary scope_column_summary_empty(void)
{
    return (scope_column_summary) {
        .lo = INFINITY, .hi = -INFINITY,
        .positive_lo = INFINITY, .positive_hi = -INFINITY,
        .tail_last = NAN,
    };
}

/* Strict comparisons: of equal extremes the first stays, as when a scale
 * is widened column by column. */
static void take_extremes(scope_column_summary *s, double lo, double hi,
                          double positive_lo, double positive_hi)
{
    if (lo < s->lo)
        s->lo = lo;
    if (hi > s->hi)
        s->hi = hi;
    if (positive_hi > 0 && positive_hi > s->positive_hi)
        s->positive_hi = positive_hi;
    if (positive_lo > 0 && positive_lo < s->positive_lo)
        s->positive_lo = positive_lo;
}

void scope_column_summary_add(scope_column_summary *s, const scope_column *at,
                              unsigned count)
{
    for (unsigned c = 0; c < count; c++)
    {
        const scope_column *col = &at[c];
        if (!col->used)
            continue;
        take_extremes(s, col->min, col->max,
                      col->min > 0 ? col->min : col->max, col->max);
        if (isnan(col->min))
            continue;
        double hi = col->max, lo = col->min;
        if (!s->usable)
        {
            s->head_min = lo;
            s->head_max = hi;
        }
        else if (!isnan(s->tail_last))
        {
            hi = fmax(hi, s->tail_last);
            lo = fmin(lo, s->tail_last);
        }
        s->heights += hi - lo;
        s->usable++;
        s->tail_last = col->last;
    }
}

void scope_column_summary_join(scope_column_summary *s,
                               const scope_column_summary *next)
{
    take_extremes(s, next->lo, next->hi, next->positive_lo,
                  next->positive_hi);
    if (!next->usable)
        return;
    if (!s->usable)
    {
        s->usable = next->usable;
        s->heights = next->heights;
        s->head_min = next->head_min;
        s->head_max = next->head_max;
        s->tail_last = next->tail_last;
        return;
    }
    double heights = next->heights;
    if (!isnan(s->tail_last))
        /* The next run's first column, widened to this one's last. */
        heights += fmax(next->head_max, s->tail_last) -
                   fmin(next->head_min, s->tail_last) -
                   (next->head_max - next->head_min);
    s->heights += heights;
    s->usable += next->usable;
    s->tail_last = next->tail_last;
}
