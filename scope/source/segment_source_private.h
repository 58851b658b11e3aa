/* segment_source_private.h - one segment as a source, shared by the two
 * files that implement it: following the segment (segment_source.c) and
 * finding each graph's channels in it (segment_channels.c). */
#ifndef SCOPE_SEGMENT_SOURCE_PRIVATE_H
#define SCOPE_SEGMENT_SOURCE_PRIVATE_H

#include "source/segment_source.h"
#include "source/source_private.h"

#define OPEN_RETRY_SECONDS      0.25    /* reattach well within a second */
#define STATE_CHECK_SECONDS     0.2
#define RESCAN_SECONDS          1.0
#define FAILURE_GRACE_SECONDS   1.0     /* a segment being created looks bad */
#define READ_BATCH              1024

typedef struct scope_graph
{
    scope_series ** members;
    unsigned        count;
    bool            fresh;              /* new samples since taken */
    bool            has_data;
    double          arrival;            /* monotonic time of the last batch */
    double          batch_gap;          /* typical time between batches */
    scope_pace      arrivals;           /* usual time between batches */
    double          latest;             /* newest sample time */
    bool            frozen;             /* 'frozen_end' is meaningful */
    double          frozen_end;         /* right edge when it stopped */
    unsigned        full_scanned;       /* channels checked by full name */
} scope_graph;

/* Channel index -> series, for the current segment. */
typedef struct scope_known
{
    scope_series *series;               /* NULL: not a channel we show */
    bool          checked;
} scope_known;

typedef struct segment_source
{
    scope_source        base;           /* graphs' requests; first */
    char                path[4096];
    scope_source_config config;
    recorder_share *    share;
    scope_source_state  state;
    char                message[4608];
    char                error[512];     /* last failure to open */
    double              failing_since;  /* NAN: not failing */
    double              next_open, next_state, next_scan;
    unsigned            channel_count;

    recorder_share_process process;     /* of the attached segment */
    bool                attached_once;
    uint64_t            generation;
    double              first_start;    /* wall time of the first process */
    double              offset;         /* added to this process's times */

    bool                clock_valid;
    double              clock_offset;   /* monotonic - writer time */

    scope_series **     series;         /* every channel seen, by name */
    unsigned            series_count;
    scope_known *       known;
    unsigned            known_count;
    scope_graph *       graphs;
    unsigned            graph_count;

    /* One of a group's segments (multi_source.c): 'link' puts it on the
     * group's axis, named 'label' (PROGRAM[PID]). */
    scope_group_link *  link;
    char                label[96];
    unsigned            last_found;     /* of the last poll */
    recorder_sample *   batches;        /* READ_BATCH for each channel read
                                           at once, made when first needed */
} segment_source;

/* Read the channel again from the oldest record its ring keeps. */
void segment_read_from_start(scope_series *series);
bool segment_graph_has(const scope_graph *graph, const scope_series *series);
/* Find the channels each graph shows, new or added in the window:
 * SCOPE_POLL_CHANNELS if a graph got one. */
unsigned segment_scan_channels(segment_source *source);
/* Fill in the unit once the first samples tell it. */
void segment_learn_unit(segment_source *source, scope_series *series);

#endif /* SCOPE_SEGMENT_SOURCE_PRIVATE_H */
