/* series_stats.h - what a graph can show of a channel besides its values.
 *
 * Computed once per sample, never per frame:
 *   - the normal value, as recorded;
 *   - a running average: avg = ratio * avg + (1 - ratio) * value;
 *   - a min/max envelope that jumps to a new extreme and then decays
 *     towards the values with the same ratio;
 *   - the interval since the previous sample, in microseconds (timing).
 * The ratio is the -r option (0.99 for -r 99). The interval needs the
 * sample's arrival (a break in between); the average and envelope only
 * the values in order, so a series works them out when a view first
 * shows them (series.h), not as each sample is read.
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

/* Two independent parts: the average and envelope as of the values given
 * to scope_stats_envelope(), the timing as of the times given to
 * scope_stats_interval(). */
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

/* Account for the next value in the average and envelope, and store
 * them for it in out[SCOPE_TRACK_AVERAGE], [MIN] and [MAX]. */
void scope_stats_envelope(scope_stats *stats, double value,
                          double out[SCOPE_TRACKS]);

/* The interval to a sample at 'time' from the one before, microseconds;
 * NaN for the first after init or a break. */
double scope_stats_interval(scope_stats *stats, double time);

/* Both, and the value: every track's value for the sample in 'out'. */
void scope_stats_add(scope_stats *stats, double time, double value,
                     double out[SCOPE_TRACKS]);

#endif /* SCOPE_SERIES_STATS_H */
