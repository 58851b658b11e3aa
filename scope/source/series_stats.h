/* series_stats.h - what a graph can show of a channel besides its values.
 *
 * Computed once per sample as it arrives, never per frame:
 *   - the normal value, as recorded;
 *   - a running average: avg = ratio * avg + (1 - ratio) * value;
 *   - a min/max envelope that jumps to a new extreme and then decays
 *     towards the values with the same ratio;
 *   - the interval since the previous sample, in microseconds (timing).
 * The ratio is the -r option (0.99 for -r 99).
 */
#ifndef SCOPE_SERIES_STATS_H
#define SCOPE_SERIES_STATS_H

#include <stdbool.h>

typedef enum scope_track_kind
{
    SCOPE_TRACK_VALUE,                  /* the normal value */
    SCOPE_TRACK_AVERAGE,
    SCOPE_TRACK_MIN,                    /* lower side of the envelope */
    SCOPE_TRACK_MAX,                    /* upper side */
    SCOPE_TRACK_INTERVAL,               /* microseconds since the last one */
    SCOPE_TRACKS
} scope_track_kind;

typedef struct scope_stats
{
    double ratio;                       /* weight of the past, in (0, 1) */
    bool   started;
    bool   timed;                       /* 'last_time' is meaningful */
    double average, low, high;
    double last_time;
} scope_stats;

void scope_stats_init(scope_stats *stats, double ratio);

/* Start over for the timing: the next sample has no previous one (a new
 * process, or samples were lost). Averages and envelope carry on. */
void scope_stats_break(scope_stats *stats);

/* Account for a sample and store every track's value for it in 'out'.
 * The first interval after init or a break is NaN. */
void scope_stats_add(scope_stats *stats, double time, double value,
                     double out[SCOPE_TRACKS]);

#endif /* SCOPE_SERIES_STATS_H */
