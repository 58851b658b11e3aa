/* series.c - the history of one channel: samples, derived tracks and
 * their min/max pyramids, kept within a count. */
#include "source/series.h"
#include "source/sample_array.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void scope_series_init(scope_series *series, const char *name, double ratio)
{
    memset(series, 0, sizeof(*series));
    snprintf(series->name, sizeof(series->name), "%s", name);
    series->channel = -1;
    series->skip_until = -INFINITY;
    series->latest_time = NAN;
    series->latest_value = NAN;
    series->latest_interval = NAN;
    for (unsigned k = 0; k < SCOPE_TRACKS; k++)
    {
        scope_minmax_init(&series->minmax[k]);
        scope_minmax_defer(&series->minmax[k]);
    }
    scope_stats_init(&series->stats, ratio);
    scope_loss_rate_init(&series->losses);
    scope_pace_init(&series->pace);
}

void scope_series_free(scope_series *series)
{
    scope_sample_array_free(series->time, series->capacity);
    for (unsigned k = 0; k < SCOPE_TRACKS; k++)
    {
        scope_sample_array_free(series->track[k], series->capacity);
        scope_minmax_free(&series->minmax[k]);
    }
    memset(series, 0, sizeof(*series));
    series->channel = -1;
}

/* Average, min and max of samples [derived, to), stored if 'keep'. */
static void envelope_to(scope_series *series, uint64_t to, bool keep)
{
    double out[SCOPE_TRACKS];
    for (uint64_t i = series->derived; i < to; i++)
    {
        size_t at = (size_t) (i - series->base);
        scope_stats_envelope(&series->stats,
                             series->track[SCOPE_TRACK_VALUE][at], out);
        if (keep)
        {
            series->track[SCOPE_TRACK_AVERAGE][at] = out[SCOPE_TRACK_AVERAGE];
            series->track[SCOPE_TRACK_MIN][at] = out[SCOPE_TRACK_MIN];
            series->track[SCOPE_TRACK_MAX][at] = out[SCOPE_TRACK_MAX];
        }
    }
    if (to > series->derived)
        series->derived = to;
}

void scope_series_derive(scope_series *series)
{
    envelope_to(series, series->end, true);
}

/* Room for one more sample: slide the kept ones to the front when half
 * the arrays hold dropped samples, else grow them all. */
static bool series_reserve(scope_series *series)
{
    size_t used = (size_t) (series->end - series->base);
    if (used < series->capacity)
        return true;
    size_t dead = (size_t) (series->first - series->base);
    if (dead && dead >= series->capacity / 2)
    {
        /* The envelope goes through the values about to go, unstored. */
        envelope_to(series, series->first, false);
        size_t live = used - dead;
        memmove(series->time, series->time + dead, live * sizeof(double));
        for (unsigned k = 0; k < SCOPE_TRACKS; k++)
            memmove(series->track[k], series->track[k] + dead,
                    live * sizeof(double));
        series->base = series->first;
        return true;
    }
    size_t capacity = series->capacity ? 2 * series->capacity : 1024;
    /* All the arrays grow or none does: they share one capacity. */
    double **arrays[1 + SCOPE_TRACKS] = { &series->time };
    for (unsigned k = 0; k < SCOPE_TRACKS; k++)
        arrays[1 + k] = &series->track[k];
    for (unsigned k = 0; k <= SCOPE_TRACKS; k++)
    {
        double *grown = scope_sample_array_resize(*arrays[k],
                                                  series->capacity, capacity);
        if (!grown)
        {
            while (k-- > 0)
            {
                if (!series->capacity)
                {
                    scope_sample_array_free(*arrays[k], capacity);
                    *arrays[k] = NULL;
                    continue;
                }
                double *back = scope_sample_array_resize(*arrays[k], capacity,
                                                         series->capacity);
                if (back)               /* shrinking in place */
                    *arrays[k] = back;
            }
            return false;
        }
        *arrays[k] = grown;
    }
    series->capacity = capacity;
    return true;
}

/* Samples whose pages are made at once, ahead of being written: 64 KiB of
 * each array, one call where there were 16 page faults, and a fault is
 * dear in a virtual machine. */
#define PREPARED_AHEAD  8192

static void prepare_ahead(scope_series *series, size_t at)
{
    size_t to = at + PREPARED_AHEAD;
    if (to > series->capacity)
        to = series->capacity;
    scope_sample_array_prepare(series->time, at, to);
    /* The average and envelope only while a view keeps them up: a series
     * none shows never touches their pages. */
    bool derived = series->end - series->derived < PREPARED_AHEAD;
    for (unsigned k = 0; k < SCOPE_TRACKS; k++)
        if (derived || k == SCOPE_TRACK_VALUE || k == SCOPE_TRACK_INTERVAL)
            scope_sample_array_prepare(series->track[k], at, to);
}

bool scope_series_append(scope_series *series, double time, double value)
{
    if (!series_reserve(series))
        return false;
    size_t at = (size_t) (series->end - series->base);
    if (at % PREPARED_AHEAD == 0)
        prepare_ahead(series, at);
    if (series->end > series->first && time < series->latest_time)
        time = series->latest_time;     /* keep times sorted for searches */
    double interval = scope_stats_interval(&series->stats, time);
    scope_pace_add(&series->pace, interval * 1e-6);
    /* The average and envelope wait for a view (scope_series_derive), the
     * pyramids for a frame that needs them (scope_series_columns_track). */
    if (series->end == series->first)
        series->oldest_time = time;
    series->time[at] = time;
    series->track[SCOPE_TRACK_VALUE][at] = value;
    series->track[SCOPE_TRACK_INTERVAL][at] = interval;
    series->end++;
    series->latest_time = time;
    series->latest_value = value;
    series->latest_interval = interval;
    return true;
}

void scope_series_trim(scope_series *series, double oldest, size_t keep)
{
    uint64_t first = series->first;
    if (keep && series->end - first > keep)
        first = series->end - keep;
    if (oldest > -INFINITY)
    {
        scope_track_view view = scope_series_track(series, SCOPE_TRACK_VALUE);
        view.first = first;
        first = scope_track_lower_bound(&view, oldest);
    }
    if (first == series->first)
        return;
    series->first = first;
    if (first < series->end)
        series->oldest_time = series->time[first - series->base];
    for (unsigned k = 0; k < SCOPE_TRACKS; k++)
        scope_minmax_trim(&series->minmax[k], first);
}

scope_track_view scope_series_track(const scope_series *series,
                                    scope_track_kind kind)
{
    return (scope_track_view) {
        .time = series->time,
        .value = series->track[kind],
        .minmax = &series->minmax[kind],
        .base = series->base,
        .first = series->first,
        .end = series->end,
    };
}

scope_track_view scope_series_columns_track(scope_series *series,
                                            scope_track_kind kind,
                                            double per_column)
{
    if (kind == SCOPE_TRACK_AVERAGE || kind == SCOPE_TRACK_MIN ||
        kind == SCOPE_TRACK_MAX)
        scope_series_derive(series);
    /* On failure the pyramid empties itself and queries scan. */
    if (!(per_column < 2 << SCOPE_MINMAX_SHIFT))
        scope_minmax_catch_up(&series->minmax[kind], series->track[kind],
                              series->base, series->first, series->end);
    return scope_series_track(series, kind);
}

bool scope_series_visible(const scope_series *series, double t0, double t1,
                          size_t cap, uint64_t *first, uint64_t *end)
{
    scope_track_view view = scope_series_track(series, SCOPE_TRACK_VALUE);
    *first = isnan(t0) ? view.first : scope_track_lower_bound(&view, t0);
    *end = isnan(t1) ? view.end
                     : scope_track_lower_bound(&view, nextafter(t1, INFINITY));
    if (*end < *first)
        *end = *first;
    if (!cap || *end - *first <= cap)
        return false;
    *first = *end - cap;
    return true;
}

bool scope_series_value_at(const scope_series *series, double t,
                           double *sample_time, double *value)
{
    scope_track_view view = scope_series_track(series, SCOPE_TRACK_VALUE);
    if (isnan(t) || view.end <= view.first)
        return false;
    uint64_t after = scope_track_lower_bound(&view, nextafter(t, INFINITY));
    if (after == view.first)
        return false;
    *sample_time = view.time[after - 1 - view.base];
    *value = view.value[after - 1 - view.base];
    return true;
}
