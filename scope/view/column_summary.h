/* column_summary.h - what a run of decimated columns spans, in a few
 * numbers that join.
 *
 * Every frame a graph fits its scales to the columns it shows and asks
 * whether a trace is too noisy to antialias (graph_traces.h): a read of
 * every column of every track. The summary of a run of columns joined to
 * that of the run after it is the summary of both, so a frame can keep
 * the summaries of blocks of columns that did not change (column_cache.h)
 * and read only the columns new samples touched.
 *
 * Plain C, no cairo.
 */
#ifndef SCOPE_COLUMN_SUMMARY_H
#define SCOPE_COLUMN_SUMMARY_H

#include "source/decimate.h"

typedef struct scope_column_summary
{
    /* Over the used columns, as graph_scale_widen() takes them in: the
     * lowest minimum and highest maximum (NaNs ignored), and the positive
     * extremes a log scale shows (a column's minimum, or its maximum if
     * the minimum is not positive). Empty: +inf and -inf. */
    double   lo, hi, positive_lo, positive_hi;
    /* Over the usable columns (used, minimum not NaN): their count, and
     * the sum of their heights, each widened to take in the last sample
     * of the usable column before it in the run (unless NaN). */
    unsigned usable;
    double   heights;
    /* To join runs: the first usable column's minimum and maximum, and
     * the last one's last sample. */
    double   head_min, head_max, tail_last;
} scope_column_summary;

/* A summary of no columns. */
scope_column_summary scope_column_summary_empty(void);

/* Take in 'count' columns that follow those 'summary' holds. */
void scope_column_summary_add(scope_column_summary *summary,
                              const scope_column *at, unsigned count);

/* Take in the summary of the columns that follow those 'summary' holds.
 * Extremes are those of adding the columns one by one; the sum of
 * heights may differ from it by rounding. */
void scope_column_summary_join(scope_column_summary *summary,
                               const scope_column_summary *next);

#endif /* SCOPE_COLUMN_SUMMARY_H */
