/* series.h - the history of one channel, as the scope keeps it.
 *
 * A scope_series is one channel, by name: its samples and, for each, the
 * derived tracks of series_stats.h, with a min/max pyramid per track for
 * decimation. The average and envelope tracks are worked out when asked
 * for (scope_series_derive), most graphs never showing them: a sample
 * read writes three numbers, not six. It outlives the process that
 * recorded it: when the program exits its last data stays; when it
 * restarts, the series continues with the new process's samples
 * (source.h fills it).
 */
#ifndef SCOPE_SERIES_H
#define SCOPE_SERIES_H

#include "source/decimate.h"
#include "source/loss_rate.h"
#include "source/sample_pace.h"
#include "source/series_stats.h"

#include <recorder/recorder_share.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct scope_series
{
    char         name[64];
    char         unit[32];
    bool         unit_known;
    unsigned     colour;                /* order found: a stable colour */

    /* Where it is read from in the current segment. */
    int          channel;               /* -1: not (or no longer) there */
    unsigned     recorder;
    recorder_share_cursor cursor;
    bool         started;               /* read from this segment already */
    double       skip_until;            /* drop samples at or before this */

    /* Samples [first, end); sample i is at [i - base] of each array. */
    uint64_t     base, first, end;
    size_t       capacity;
    double *     time;
    double *     track[SCOPE_TRACKS];
    scope_minmax minmax[SCOPE_TRACKS];
    scope_stats  stats;                 /* its envelope as of 'derived' */
    uint64_t     derived;               /* average, min, max held before */

    uint64_t     lost;                  /* overwritten before we read them */
    scope_loss_rate losses;             /* of the last second */
    double       lost_recent;           /* share lost in the last second,
                                           as of the last poll */
    scope_pace   pace;                  /* usual interval between samples */
    double       latest_time, latest_value;
    double       latest_interval;       /* microseconds, as its track */
    double       oldest_time;           /* of sample 'first', if any: read
                                           at every tick, where the array's
                                           page is cold */

    uint64_t     generation_first;      /* first sample of this process */
} scope_series;

void scope_series_init(scope_series *series, const char *name, double ratio);
void scope_series_free(scope_series *series);

/* Add a sample; times that go backwards are clamped to the latest. False
 * if out of memory (the sample is dropped). */
bool scope_series_append(scope_series *series, double time, double value);

/* Forget samples older than 'oldest' (seconds; -INFINITY keeps them) and
 * beyond the newest 'keep'. */
void scope_series_trim(scope_series *series, double oldest, size_t keep);

/* Work out the average and envelope tracks up to the newest sample. */
void scope_series_derive(scope_series *series);

/* Samples of 'kind' as decimate.c reads them (the average and envelope as
 * far as scope_series_derive() went). */
scope_track_view scope_series_track(const scope_series *series,
                                    scope_track_kind kind);

/* The same, derived if need be, to decimate into columns of 'per_column'
 * samples on average: from two blocks of its min/max pyramid a column
 * (decimate.h), the pyramid is brought up to date first; with fewer,
 * queries read the samples, which costs no more (a live 10 s of 1 kHz is
 * 13 a column), and the pyramid waits, whole blocks at a time, until
 * columns widen. */
scope_track_view scope_series_columns_track(scope_series *series,
                                            scope_track_kind kind,
                                            double per_column);

/* Samples with times in [t0, t1], at most the newest 'cap' of them
 * (0: no cap), as [*first, *end); true if the cap left some out. */
bool scope_series_visible(const scope_series *series, double t0, double t1,
                          size_t cap, uint64_t *first, uint64_t *end);

/* The sample a reader sees at time 't': the newest at or before it, as
 * a sample-and-hold trace shows it. O(log n). False when the series holds
 * nothing at or before 't'. */
bool scope_series_value_at(const scope_series *series, double t,
                           double *sample_time, double *value);

#endif /* SCOPE_SERIES_H */
