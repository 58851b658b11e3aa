/* series_stats.c - running average, decaying envelope, sample intervals. */
#include "source/series_stats.h"

#include <assert.h>
#include <math.h>

void scope_stats_init(scope_stats *stats, double ratio)
{
    assert(ratio > 0.0 && ratio < 1.0);
    *stats = (scope_stats) { .ratio = ratio };
}

void scope_stats_break(scope_stats *stats)
{
    stats->timed = false;
}

void scope_stats_envelope(scope_stats *stats, double value,
                          double out[SCOPE_TRACKS])
{
    double r = stats->ratio;
    if (!isfinite(value))
    {
        /* Shown as a gap in the value; the running figures ignore it. */
    }
    else if (!stats->started)
    {
        stats->average = stats->low = stats->high = value;
        stats->started = true;
    }
    else
    {
        stats->average = r * stats->average + (1.0 - r) * value;
        stats->low = value <= stats->low ? value
                                         : r * stats->low + (1.0 - r) * value;
        stats->high = value >= stats->high ? value
                                           : r * stats->high + (1.0 - r) * value;
    }
    out[SCOPE_TRACK_AVERAGE] = stats->started ? stats->average : NAN;
    out[SCOPE_TRACK_MIN] = stats->started ? stats->low : NAN;
    out[SCOPE_TRACK_MAX] = stats->started ? stats->high : NAN;
}

double scope_stats_interval(scope_stats *stats, double time)
{
    double interval = stats->timed ? (time - stats->last_time) * 1e6 : NAN;
    stats->last_time = time;
    stats->timed = true;
    return interval;
}

void scope_stats_add(scope_stats *stats, double time, double value,
                     double out[SCOPE_TRACKS])
{
    scope_stats_envelope(stats, value, out);
    out[SCOPE_TRACK_VALUE] = value;
    out[SCOPE_TRACK_INTERVAL] = scope_stats_interval(stats, time);
}
