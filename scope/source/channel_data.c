/* channel_data.c - channel histories, and following the segment they come
 * from across waits, exits and restarts of the program. */
#include "source/channel_data.h"
#include "regex_bound_private.h"
#include "source/graph_members.h"
#include "source/multi_source.h"

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

/* ---- one channel's history ------------------------------------------------ */

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
        scope_minmax_init(&series->minmax[k]);
    scope_stats_init(&series->stats, ratio);
    scope_loss_rate_init(&series->losses);
    scope_pace_init(&series->pace);
}

void scope_series_free(scope_series *series)
{
    free(series->time);
    for (unsigned k = 0; k < SCOPE_TRACKS; k++)
    {
        free(series->track[k]);
        scope_minmax_free(&series->minmax[k]);
    }
    memset(series, 0, sizeof(*series));
    series->channel = -1;
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
        size_t live = used - dead;
        memmove(series->time, series->time + dead, live * sizeof(double));
        for (unsigned k = 0; k < SCOPE_TRACKS; k++)
            memmove(series->track[k], series->track[k] + dead,
                    live * sizeof(double));
        series->base = series->first;
        return true;
    }
    size_t capacity = series->capacity ? 2 * series->capacity : 1024;
    double *grown = realloc(series->time, capacity * sizeof(double));
    if (!grown)
        return false;
    series->time = grown;
    for (unsigned k = 0; k < SCOPE_TRACKS; k++)
    {
        grown = realloc(series->track[k], capacity * sizeof(double));
        if (!grown)
            return false;               /* the arrays that grew stay grown */
        series->track[k] = grown;
    }
    series->capacity = capacity;
    return true;
}

bool scope_series_append(scope_series *series, double time, double value)
{
    if (!series_reserve(series))
        return false;
    if (series->end > series->first && time < series->latest_time)
        time = series->latest_time;     /* keep times sorted for searches */
    double tracks[SCOPE_TRACKS];
    scope_stats_add(&series->stats, time, value, tracks);
    scope_pace_add(&series->pace, tracks[SCOPE_TRACK_INTERVAL] * 1e-6);
    size_t at = (size_t) (series->end - series->base);
    series->time[at] = time;
    for (unsigned k = 0; k < SCOPE_TRACKS; k++)
    {
        series->track[k][at] = tracks[k];
        /* On failure the pyramid empties itself and queries scan. */
        scope_minmax_append(&series->minmax[k], series->end, tracks[k]);
    }
    series->end++;
    series->latest_time = time;
    series->latest_value = value;
    series->latest_interval = tracks[SCOPE_TRACK_INTERVAL];
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

void scope_series_visible(const scope_series *series, double t0, double t1,
                          size_t cap, uint64_t *first, uint64_t *end)
{
    scope_track_view view = scope_series_track(series, SCOPE_TRACK_VALUE);
    *first = isnan(t0) ? view.first : scope_track_lower_bound(&view, t0);
    *end = isnan(t1) ? view.end
                     : scope_track_lower_bound(&view, nextafter(t1, INFINITY));
    if (*end < *first)
        *end = *first;
    if (cap && *end - *first > cap)
        *first = *end - cap;
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

/* ---- following a segment -------------------------------------------------- */

#define OPEN_RETRY_SECONDS      0.25    /* reattach well within a second */
#define STATE_CHECK_SECONDS     0.2
#define RESCAN_SECONDS          1.0
#define FAILURE_GRACE_SECONDS   1.0     /* a segment being created looks bad */
#define READ_BATCH              1024

typedef struct scope_graph
{
    char *          regex;              /* NULL: every channel */
    scope_members   names;              /* added and removed in the window */
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

struct scope_source
{
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

    /* Several segments (multi_source.h): 'group' makes this the window's
     * one source, which hands the calls below to it; 'link' makes this
     * one of its segments, named 'label' (PROGRAM[PID]) on a common axis. */
    scope_group *       group;
    scope_group_link *  link;
    char                label[96];
    unsigned            last_found;     /* of the last poll */
};

scope_source *scope_source_new(const char *path,
                               const scope_source_config *config)
{
    scope_source *source = calloc(1, sizeof(*source));
    if (!source)
        return NULL;
    snprintf(source->path, sizeof(source->path), "%s",
             path ? path : recorder_share_default_path());
    source->config = *config;
    if (!(source->config.ratio > 0 && source->config.ratio < 1))
        source->config.ratio = 0.99;
    if (!source->config.keep)
        source->config.keep = SCOPE_HISTORY_DEFAULT;
    source->state = SCOPE_SOURCE_WAITING;
    source->failing_since = NAN;
    snprintf(source->message, sizeof(source->message), "waiting for %s",
             source->path);
    return source;
}

void scope_source_delete(scope_source *source)
{
    if (!source)
        return;
    scope_group_delete(source->group);
    recorder_share_close(source->share);
    for (unsigned s = 0; s < source->series_count; s++)
    {
        scope_series_free(source->series[s]);
        free(source->series[s]);
    }
    free(source->series);
    for (unsigned g = 0; g < source->graph_count; g++)
    {
        free(source->graphs[g].regex);
        scope_members_free(&source->graphs[g].names);
        free(source->graphs[g].members);
    }
    free(source->graphs);
    free(source->known);
    free(source);
}

int scope_source_add_graph(scope_source *source, const char *regex)
{
    scope_graph *graphs = realloc(source->graphs, (source->graph_count + 1) *
                                                  sizeof(*graphs));
    if (!graphs)
        return -1;
    source->graphs = graphs;
    scope_graph *graph = &graphs[source->graph_count];
    memset(graph, 0, sizeof(*graph));
    graph->latest = NAN;
    scope_pace_init(&graph->arrivals);
    if (regex && !(graph->regex = strdup(regex)))
        return -1;
    source->next_scan = -INFINITY;      /* added to a running window */
    if (source->group && scope_group_add_graph(source->group, regex) < 0)
        return -1;
    return (int) source->graph_count++;
}

static bool set_message(scope_source *source, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool set_message(scope_source *source, const char *fmt, ...)
{
    char text[sizeof(source->message)];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof(text), fmt, args);
    va_end(args);
    if (strcmp(text, source->message) == 0)
        return false;
    memcpy(source->message, text, sizeof(text));
    return true;
}

static unsigned set_state(scope_source *source, scope_source_state state)
{
    const recorder_share_process *p = &source->process;
    bool changed = source->state != state;
    source->state = state;
    switch (state)
    {
    case SCOPE_SOURCE_WAITING:
        changed |= set_message(source, "waiting for %s", source->path);
        break;
    case SCOPE_SOURCE_FAILED:
        changed |= set_message(source, "%s", source->error);
        break;
    case SCOPE_SOURCE_LIVE:
        changed |= set_message(source, "%s (pid %u) running", p->program,
                               p->pid);
        break;
    case SCOPE_SOURCE_EXITED:
        changed |= set_message(source, "%s (pid %u) exited; showing its last "
                               "data", p->program, p->pid);
        break;
    case SCOPE_SOURCE_DIED:
        changed |= set_message(source, "%s (pid %u) died; showing its last "
                               "data", p->program, p->pid);
        break;
    case SCOPE_SOURCE_MOVED:
        changed |= set_message(source, "%s (pid %u) shares elsewhere now; "
                               "showing its last data", p->program, p->pid);
        break;
    }
    return changed ? SCOPE_POLL_STATE : 0;
}

static scope_series *series_named(scope_source *source, const char *name)
{
    for (unsigned s = 0; s < source->series_count; s++)
        if (strcmp(source->series[s]->name, name) == 0)
            return source->series[s];
    scope_series **list = realloc(source->series, (source->series_count + 1) *
                                                  sizeof(*list));
    if (!list)
        return NULL;
    source->series = list;
    scope_series *series = malloc(sizeof(*series));
    if (!series)
        return NULL;
    scope_series_init(series, name, source->config.ratio);
    /* Several segments: the group colours series as graphs show them. */
    series->colour = source->link ? UINT_MAX : source->series_count;
    list[source->series_count++] = series;
    return series;
}

static bool graph_join(scope_graph *graph, scope_series *series)
{
    scope_series **members = realloc(graph->members, (graph->count + 1) *
                                                     sizeof(*members));
    if (!members)
        return false;
    graph->members = members;
    members[graph->count++] = series;
    return true;
}

static bool graph_has(const scope_graph *graph, const scope_series *series)
{
    for (unsigned m = 0; m < graph->count; m++)
        if (graph->members[m] == series)
            return true;
    return false;
}

/* The series channel 'index' feeds, found by name the first time (reading
 * a channel's info walks its whole ring, so it is done once). */
/* Read the channel again from the oldest record its ring keeps; what the
 * ring lost before then was never ours to lose. */
static void read_from_start(scope_series *series)
{
    series->cursor = (recorder_share_cursor) RECORDER_SHARE_CURSOR_START;
    series->started = false;
}

static scope_series *series_of_channel(scope_source *source, int index)
{
    if ((unsigned) index >= source->known_count)
    {
        unsigned count = (unsigned) index + 1;
        scope_known *known = realloc(source->known, count * sizeof(*known));
        if (!known)
            return NULL;
        memset(known + source->known_count, 0,
               (count - source->known_count) * sizeof(*known));
        source->known = known;
        source->known_count = count;
    }
    scope_known *entry = &source->known[index];
    if (entry->checked)
        return entry->series;
    recorder_share_channel info;
    if (!recorder_share_channel_info(source->share, (unsigned) index, &info))
        return NULL;
    char full[sizeof(((scope_series *) 0)->name)];
    scope_series *series = series_named(source, scope_group_full_name(
        source->label, info.name, full, sizeof(full)));
    if (!series)
        return NULL;
    entry->checked = true;
    entry->series = series;
    if (info.type != RECORDER_SHARE_NONE)
    {
        snprintf(series->unit, sizeof(series->unit), "%s", info.unit);
        series->unit_known = true;
    }
    if (series->channel >= 0 && series->channel != index)
    {
        /* The export was redone elsewhere in this same process. */
        if (series->recorder != info.recorder)
            read_from_start(series);
        series->skip_until = series->latest_time;
    }
    series->channel = index;
    series->recorder = info.recorder;
    return series;
}

/* One of several processes: a regex may also name the process, as in
 * qemu\[[0-9]+\]/bytes, so match the full names PROGRAM[PID]/channel too.
 * Channels keep their index within a process: each is checked once. */
static unsigned scan_full_names(scope_source *source, scope_graph *graph)
{
    unsigned count = recorder_share_channel_count(source->share);
    if (graph->full_scanned >= count)
        return 0;
    regex_t regex;
    if (!recorder_regex_compile(&regex, graph->regex, NULL, NULL, 0))
        return 0;
    unsigned found = 0;
    for (unsigned index = graph->full_scanned; index < count; index++)
    {
        recorder_share_channel info;
        char full[sizeof(((scope_series *) 0)->name)];
        if (!recorder_share_channel_info(source->share, index, &info) ||
            regexec(&regex, scope_group_full_name(source->label, info.name,
                                                  full, sizeof(full)),
                    0, NULL, 0) != 0)
            continue;
        scope_series *series = series_of_channel(source, (int) index);
        if (series && !graph_has(graph, series) &&
            scope_members_has(&graph->names, series->name, true) &&
            graph_join(graph, series))
            found = SCOPE_POLL_CHANNELS;
    }
    regfree(&regex);
    graph->full_scanned = count;
    return found;
}

static unsigned scan_channels(scope_source *source)
{
    unsigned found = 0;
    for (unsigned g = 0; g < source->graph_count; g++)
    {
        scope_graph *graph = &source->graphs[g];
        for (int index = -1;
             (index = recorder_share_find_channel(source->share, graph->regex,
                                                  index)) >= 0; )
        {
            scope_series *series = series_of_channel(source, index);
            if (!series || graph_has(graph, series) ||
                !scope_members_has(&graph->names, series->name, true))
                continue;
            if (!graph_join(graph, series))
                break;
            found = SCOPE_POLL_CHANNELS;
        }
        if (source->label[0] && graph->regex)
            found |= scan_full_names(source, graph);
        /* Names added in the window: the quoted name matches case
         * variants too, so compare. */
        for (unsigned a = 0; a < graph->names.added_count; a++)
        {
            const char *name = graph->names.added[a];
            char quoted[2 * sizeof(((scope_series *) 0)->name) + 1];
            /* Several processes: only this process's PROGRAM[PID]/... */
            const char *channel = scope_group_channel_of(source->label, name);
            if (!channel ||
                scope_regex_quote(channel, quoted, sizeof(quoted)) >=
                sizeof(quoted))
                continue;
            for (int index = -1;
                 (index = recorder_share_find_channel(source->share, quoted,
                                                      index)) >= 0; )
            {
                scope_series *series = series_of_channel(source, index);
                if (series && strcmp(series->name, name) == 0 &&
                    !graph_has(graph, series) && graph_join(graph, series))
                    found = SCOPE_POLL_CHANNELS;
            }
        }
    }
    return found;
}

/* Fill in the unit once the first samples tell it: channel_info looks at
 * the newest record only, so this costs the same for any depth of ring. */
static void learn_unit(scope_source *source, scope_series *series)
{
    recorder_share_channel info;
    if (series->channel >= 0 &&
        recorder_share_channel_info(source->share, (unsigned) series->channel,
                                    &info) &&
        info.type != RECORDER_SHARE_NONE)
    {
        snprintf(series->unit, sizeof(series->unit), "%s", info.unit);
        series->unit_known = true;
    }
}

static void track_clock(scope_source *source, double now, double newest)
{
    double observed = now - newest;
    if (!source->clock_valid || observed < source->clock_offset)
        source->clock_offset = observed;
    else
        /* Let a writer clock that runs slow pull the estimate back. */
        source->clock_offset += (observed - source->clock_offset) * 0.02;
    source->clock_valid = true;
}

static unsigned read_samples(scope_source *source, double now)
{
    unsigned found = 0;
    double newest = -INFINITY;
    for (unsigned s = 0; s < source->series_count; s++)
    {
        scope_series *series = source->series[s];
        if (series->channel < 0)
            continue;
        uint64_t before = series->end;
        recorder_sample batch[READ_BATCH];
        size_t got;
        do
        {
            /* A first read skips what the ring no longer holds: history
             * from before we looked, not samples we failed to keep up with. */
            bool first = !series->started;
            series->started = true;
            uint64_t lost = 0;
            got = recorder_share_read(source->share, (unsigned) series->channel,
                                      &series->cursor, batch, READ_BATCH, &lost);
            if (first)
                lost = 0;
            series->lost += lost;
            scope_loss_rate_add(&series->losses, now, got, lost);
            for (size_t i = 0; i < got; i++)
            {
                double t = batch[i].time + source->offset;
                /* The batch does not say where the loss fell: a lane can
                 * be lapped in the middle of a read, or be merged with
                 * lanes that lost nothing. So no interval is measured
                 * within it, nor from its last sample to the next. */
                if (lost)
                    scope_stats_break(&series->stats);
                if (t <= series->skip_until)
                    continue;
                scope_series_append(series, t, batch[i].value);
            }
            if (lost)
                scope_stats_break(&series->stats);
        } while (got == READ_BATCH);
        if (series->end == before)
            continue;
        if (!series->unit_known)
            learn_unit(source, series);
        if (series->latest_time > newest)
            newest = series->latest_time;
        /* Everything up to 'keep' stays: a paused view scrolls back to it. */
        scope_series_trim(series, -INFINITY, source->config.keep);

        for (unsigned g = 0; g < source->graph_count; g++)
        {
            scope_graph *graph = &source->graphs[g];
            if (!graph_has(graph, series))
                continue;
            if (graph->has_data && now > graph->arrival)
            {
                graph->batch_gap += (now - graph->arrival -
                                     graph->batch_gap) * 0.2;
                scope_pace_add(&graph->arrivals, now - graph->arrival);
            }
            graph->fresh = true;
            graph->has_data = true;
            graph->arrival = now;
            if (!(graph->latest >= series->latest_time))
                graph->latest = series->latest_time;
            found = SCOPE_POLL_DATA;
        }
    }
    if (newest > -INFINITY)
        track_clock(source, now, newest);
    return found;
}

/* A segment that opened: a new process, or the same one again. */
static unsigned attach(scope_source *source, recorder_share *share)
{
    recorder_share_process process;
    recorder_share_process_info(share, &process);
    unsigned flags = 0;
    source->share = share;
    source->channel_count = 0;
    free(source->known);
    source->known = NULL;
    source->known_count = 0;
    for (unsigned g = 0; g < source->graph_count; g++)
        source->graphs[g].full_scanned = 0;
    if (!source->attached_once || process.generation != source->generation)
    {
        if (!source->attached_once)
            source->first_start = process.start_time;
        source->offset = process.start_time - source->first_start;
        if (source->link)
        {
            /* One of several: on the group's monotonic axis, by name. */
            source->offset = scope_group_place(source->link, &process,
                                               source->label,
                                               sizeof(source->label));
            source->first_start = process.start_time - source->offset;
        }
        source->attached_once = true;
        source->generation = process.generation;
        source->clock_valid = false;
        for (unsigned s = 0; s < source->series_count; s++)
        {
            scope_series *series = source->series[s];
            series->generation_first = series->end;
            series->channel = -1;
            read_from_start(series);
            series->skip_until = -INFINITY;
            scope_stats_break(&series->stats);
        }
        flags |= SCOPE_POLL_ATTACHED;
    }
    else
    {
        /* Same process: keep reading where we were. */
        for (unsigned s = 0; s < source->series_count; s++)
            source->series[s]->channel = -1;
    }
    source->process = process;
    return flags;
}

static unsigned try_open(scope_source *source, double now)
{
    source->next_open = now + OPEN_RETRY_SECONDS;
    struct stat st;
    if (stat(source->path, &st) != 0 && errno == ENOENT)
    {
        source->failing_since = NAN;
        if (source->attached_once)
            return 0;                   /* keep showing the last data */
        return set_state(source, SCOPE_SOURCE_WAITING);
    }
    char error[sizeof(source->error)];
    recorder_share *share = recorder_share_open_flags(source->path,
                                                      source->config.open_flags,
                                                      error, sizeof(error));
    if (!share)
    {
        /* A writer creating the file publishes its header last: give it a
         * moment before calling the file bad, unless the file is older
         * than that moment (another user's, a corrupt one left there):
         * then the reason is said at once. */
        if (isnan(source->failing_since))
            source->failing_since = now;
        memcpy(source->error, error, sizeof(error));
        struct timespec wall;
        clock_gettime(CLOCK_REALTIME, &wall);
        bool settled = wall.tv_sec - st.st_mtim.tv_sec > 1;
        if (!settled && now - source->failing_since < FAILURE_GRACE_SECONDS)
            return 0;
        return set_state(source, SCOPE_SOURCE_FAILED);
    }
    source->failing_since = NAN;
    source->next_state = now;
    source->next_scan = now;
    return attach(source, share);
}

static unsigned check_state(scope_source *source, double now)
{
    source->next_state = now + STATE_CHECK_SECONDS;
    switch (recorder_share_state(source->share))
    {
    case RECORDER_SHARE_ALIVE:
        return set_state(source, SCOPE_SOURCE_LIVE);
    case RECORDER_SHARE_EXITED:
        return set_state(source, SCOPE_SOURCE_EXITED);
    case RECORDER_SHARE_DIED:
        return set_state(source, SCOPE_SOURCE_DIED);
    case RECORDER_SHARE_MOVED:
        return set_state(source, SCOPE_SOURCE_MOVED);
    case RECORDER_SHARE_REPLACED:
    case RECORDER_SHARE_CORRUPT:
        break;
    }
    /* A new process at the path, or the old one's header overwritten: take
     * what is left, then open again, which follows a new process or says
     * what is wrong with the file. */
    unsigned flags = read_samples(source, now);
    recorder_share_close(source->share);
    source->share = NULL;
    flags |= try_open(source, now);
    return flags;
}

static unsigned poll_segment(scope_source *source, double now)
{
    unsigned flags = 0;
    if (!source->share)
    {
        if (now < source->next_open)
            return 0;
        flags |= try_open(source, now);
        if (!source->share)
            return flags;
    }
    if (now >= source->next_state)
    {
        flags |= check_state(source, now);
        if (!source->share)
            return flags;
    }
    unsigned count = recorder_share_channel_count(source->share);
    if (count != source->channel_count || now >= source->next_scan)
    {
        source->channel_count = count;
        source->next_scan = now + RESCAN_SECONDS;
        flags |= scan_channels(source);
    }
    flags |= read_samples(source, now);
    return flags;
}

unsigned scope_source_poll(scope_source *source, double now)
{
    if (source->group)
        return scope_group_poll(source->group, now);
    unsigned flags = poll_segment(source, now);
    source->last_found = flags;
    /* Every poll, read or not: the share fades once losses stop. */
    for (unsigned s = 0; s < source->series_count; s++)
    {
        scope_series *series = source->series[s];
        series->lost_recent = scope_loss_rate_recent(&series->losses, now);
    }
    return flags;
}

scope_source_state scope_source_get_state(const scope_source *source)
{
    if (source->group)
        return scope_group_state(source->group);
    return source->state;
}

const char *scope_source_path(const scope_source *source)
{
    if (source->group)
        return scope_group_path(source->group);
    return source->path;
}

const char *scope_source_message(const scope_source *source)
{
    if (source->group)
        return scope_group_message(source->group);
    return source->message;
}

recorder_share *scope_source_share(scope_source *source)
{
    if (source->group)
        return scope_group_share(source->group);
    return source->share;
}

bool scope_source_tweak(scope_source *source, const char *name,
                        intptr_t *value)
{
    if (source->group)
        return scope_group_tweak(source->group, name, value);
    if (!source->share)
        return false;
    unsigned count = recorder_share_tweak_count(source->share);
    for (unsigned t = 0; t < count; t++)
    {
        recorder_share_tweak tweak;
        /* The program matches the slider's commands regardless of case. */
        if (recorder_share_tweak_info(source->share, t, &tweak) &&
            strcasecmp(tweak.name, name) == 0)
        {
            *value = tweak.value;
            return true;
        }
    }
    return false;
}

const char *scope_source_graph_regex(const scope_source *source,
                                     unsigned graph)
{
    return graph < source->graph_count ? source->graphs[graph].regex : NULL;
}

scope_series *const *scope_source_graph_series(const scope_source *source,
                                               unsigned graph,
                                               unsigned *count)
{
    if (source->group)
        return scope_group_graph_series(source->group, graph, count);
    if (graph >= source->graph_count)
    {
        *count = 0;
        return NULL;
    }
    *count = source->graphs[graph].count;
    return source->graphs[graph].members;
}

bool scope_source_graph_take_new(scope_source *source, unsigned graph)
{
    if (source->group)
        return scope_group_graph_take_new(source->group, graph);
    if (graph >= source->graph_count || !source->graphs[graph].fresh)
        return false;
    source->graphs[graph].fresh = false;
    return true;
}

/* Silence longer than this is a pause: a second, or twice the usual gap
 * between the graph's batches for channels that come slower. */
static double pause_seconds(const scope_graph *g)
{
    double usual = scope_pace_usual(&g->arrivals);
    return usual > SCOPE_PAUSE_SECONDS / 2 ? 2 * usual : SCOPE_PAUSE_SECONDS;
}

double scope_source_graph_view_end(scope_source *source, unsigned graph,
                                   double now, bool *scrolling)
{
    if (source->group)
        return scope_group_graph_view_end(source->group, graph, now,
                                           scrolling);
    scope_graph *g = &source->graphs[graph];
    double pause = pause_seconds(g);
    bool scroll = source->state == SCOPE_SOURCE_LIVE && g->has_data &&
                  source->clock_valid && now - g->arrival < pause;
    double end;
    if (scroll)
    {
        /* Channels that come in slow batches may run further ahead. */
        double lead = 1.5 * fmax(g->batch_gap,
                                 scope_pace_usual(&g->arrivals));
        lead = lead < SCOPE_SCROLL_LEAD ? SCOPE_SCROLL_LEAD
             : lead > pause ? pause : lead;
        end = now - source->clock_offset;
        if (end > g->latest + lead)
            end = g->latest + lead;
        /* Never back: a frame must not scroll the other way. */
        if (g->frozen && end < g->frozen_end)
            end = g->frozen_end;
        if (end < g->latest)
            end = g->latest;
        g->frozen = true;
        g->frozen_end = end;
    }
    else
    {
        end = g->frozen && g->frozen_end > g->latest ? g->frozen_end
                                                     : g->latest;
    }
    if (scrolling)
        *scrolling = scroll;
    return end;
}

double scope_source_view_end(scope_source *source, double now,
                             bool *scrolling)
{
    if (source->group)
        return scope_group_view_end(source->group, now, scrolling);
    double end = NAN;
    bool any = false;
    for (unsigned g = 0; g < source->graph_count; g++)
    {
        if (!source->graphs[g].has_data)
            continue;
        bool moving;
        double graph_end = scope_source_graph_view_end(source, g, now,
                                                       &moving);
        any |= moving;
        if (isnan(end) || graph_end > end)
            end = graph_end;
    }
    if (scrolling)
        *scrolling = any;
    return end;
}

bool scope_source_held_range(const scope_source *source, double *oldest,
                             double *newest)
{
    if (source->group)
        return scope_group_held_range(source->group, oldest, newest);
    double lo = INFINITY, hi = -INFINITY;
    for (unsigned s = 0; s < source->series_count; s++)
    {
        const scope_series *series = source->series[s];
        if (series->end <= series->first)
            continue;
        lo = fmin(lo, series->time[series->first - series->base]);
        hi = fmax(hi, series->latest_time);
    }
    if (!(lo <= hi))
        return false;
    *oldest = lo;
    *newest = hi;
    return true;
}

size_t scope_source_graph_message(const scope_source *source, unsigned graph,
                                  double now, char *buf, size_t size)
{
    if (source->group)
        return scope_group_graph_message(source->group, graph, now, buf,
                                          size);
    const scope_graph *g = &source->graphs[graph];
    int n = 0;
    switch (source->state)
    {
    case SCOPE_SOURCE_WAITING:
    case SCOPE_SOURCE_FAILED:
    case SCOPE_SOURCE_EXITED:
    case SCOPE_SOURCE_DIED:
    case SCOPE_SOURCE_MOVED:
        n = snprintf(buf, size, "%s", source->message);
        break;
    case SCOPE_SOURCE_LIVE:
        if (!g->count)
            n = snprintf(buf, size, "no channel matches '%s' yet",
                         g->regex ? g->regex : ".*");
        else if (!g->has_data)
            n = snprintf(buf, size, "no data yet");
        else if (now - g->arrival >= pause_seconds(g))
        {
            time_t when = (time_t) (source->first_start + g->latest);
            struct tm local;
            char clock[32] = "?";
            if (localtime_r(&when, &local))
                strftime(clock, sizeof(clock), "%H:%M:%S", &local);
            n = snprintf(buf, size, "no data since %s", clock);
        }
        else if (size)
            buf[0] = 0;
        break;
    }
    return n < 0 ? 0 : (size_t) n;
}

/* Whether the regex of 'graph' matches 'name', by the rules of
 * recorder_share_find_channel (whole name, any case): it decides whether
 * the window's change is an addition or an exception. */
static bool regex_matches(const scope_graph *graph, const char *name)
{
    if (!graph->regex)
        return true;
    regex_t regex;
    if (!recorder_regex_compile(&regex, graph->regex, NULL, NULL, 0))
        return false;
    /* Several processes: PROGRAM[PID]/channel matches by either name. */
    const char *channel = scope_group_channel_of(NULL, name);
    bool matched = regexec(&regex, name, 0, NULL, 0) == 0 ||
                   (channel && channel != name &&
                    regexec(&regex, channel, 0, NULL, 0) == 0);
    regfree(&regex);
    return matched;
}

bool scope_source_graph_add_channel(scope_source *source, unsigned graph,
                                    const char *name)
{
    if (graph >= source->graph_count)
        return false;
    scope_graph *g = &source->graphs[graph];
    if (!scope_members_add(&g->names, name, regex_matches(g, name)))
        return false;
    source->next_scan = -INFINITY;      /* the next poll finds it */
    if (source->group)
        scope_group_graph_add_channel(source->group, graph, name);
    return true;
}

bool scope_source_graph_remove_channel(scope_source *source, unsigned graph,
                                       const char *name, int *removed_at)
{
    *removed_at = -1;
    if (graph >= source->graph_count)
        return false;
    scope_graph *g = &source->graphs[graph];
    if (!scope_members_remove(&g->names, name, regex_matches(g, name)))
        return false;
    for (unsigned m = 0; m < g->count; m++)
        if (strcmp(g->members[m]->name, name) == 0)
        {
            memmove(g->members + m, g->members + m + 1,
                    (g->count - m - 1) * sizeof(*g->members));
            g->count--;
            *removed_at = (int) m;
            break;
        }
    if (source->group)
        *removed_at = scope_group_graph_remove_channel(source->group, graph,
                                                       name);
    return true;
}

size_t scope_source_graph_describe(const scope_source *source,
                                   unsigned graph, char *buf, size_t size)
{
    if (graph >= source->graph_count)
    {
        if (size)
            buf[0] = 0;
        return 0;
    }
    const scope_graph *g = &source->graphs[graph];
    return scope_members_describe(&g->names, g->regex, buf, size);
}

unsigned scope_source_graph_count(const scope_source *source)
{
    return source->graph_count;
}

double scope_source_axis_time(const scope_source *source, double t)
{
    if (source->group)
        return scope_group_axis_time(source->group, t);
    return source->attached_once ? t + source->offset : NAN;
}

double scope_source_axis_now(const scope_source *source, double now)
{
    if (source->group)
        return scope_group_axis_now(source->group, now);
    if (!source->attached_once)
        return NAN;
    /* The process's own start on the monotonic clock, when it says it. */
    if (source->process.start_monotonic > 0)
        return now - source->process.start_monotonic + source->offset;
    return source->clock_valid ? now - source->clock_offset : NAN;
}

const recorder_share_process *scope_source_process(const scope_source *source)
{
    if (source->group)
        return scope_group_process(source->group);
    return source->state == SCOPE_SOURCE_WAITING ||
           source->state == SCOPE_SOURCE_FAILED ? NULL : &source->process;
}

/* ---- several segments (multi_source.c) ------------------------------------ */

scope_source *scope_source_new_group(scope_group *group, const char *path,
                                     const scope_source_config *config)
{
    scope_source *source = scope_source_new(path, config);
    if (source)
        source->group = group;
    return source;
}

void scope_source_join_group(scope_source *source, scope_group_link *link)
{
    source->link = link;
}

scope_group *scope_source_group(const scope_source *source)
{
    return source->group;
}

unsigned scope_source_last_found(const scope_source *source)
{
    return source->last_found;
}

const char *scope_source_label(const scope_source *source)
{
    return source->label[0] ? source->label : source->path;
}
