/* metrics_collect.c - channel and segment figures for the metrics text. */
#include "metrics/metrics_collect.h"
#include "source/multi_source.h"

#include <stdlib.h>
#include <string.h>

typedef struct metrics_entry
{
    const scope_series *series;         /* which channel: series outlive
                                           their processes, never move */
    uint64_t     generation;            /* process counted from */
    uint64_t     lost_base;             /* its losses before that */
    uint64_t     seen;                  /* samples taken up to this one */
    unsigned     walk;                  /* last walk that met it */
    metrics_span span;
} metrics_entry;

typedef struct metrics_segment_count
{
    scope_source_state state;
    uint64_t           attaches, errors;
} metrics_segment_count;

struct metrics_collector
{
    metrics_entry *         entries;
    unsigned                count, capacity;
    unsigned                hint;       /* where the next search starts */
    unsigned                walk;
    metrics_segment_count * segments;
    unsigned                segment_count;
};

metrics_collector *metrics_collector_new(void)
{
    return calloc(1, sizeof(metrics_collector));
}

void metrics_collector_delete(metrics_collector *collector)
{
    if (!collector)
        return;
    free(collector->entries);
    free(collector->segments);
    free(collector);
}

/* Walks meet the series in the same order each time: start after the
 * last one found, and it is the next. */
static metrics_entry *entry_of(metrics_collector *collector,
                               const scope_series *series)
{
    for (unsigned n = 0; n < collector->count; n++)
    {
        unsigned i = (collector->hint + n) % collector->count;
        if (collector->entries[i].series == series)
        {
            collector->hint = i + 1;
            return &collector->entries[i];
        }
    }
    if (collector->count == collector->capacity)
    {
        unsigned capacity = collector->capacity ? 2 * collector->capacity : 64;
        metrics_entry *entries = realloc(collector->entries,
                                         capacity * sizeof(*entries));
        if (!entries)
            return NULL;
        collector->entries = entries;
        collector->capacity = capacity;
    }
    metrics_entry *entry = &collector->entries[collector->count++];
    memset(entry, 0, sizeof(*entry));
    entry->series = series;
    entry->generation = UINT64_MAX;
    collector->hint = collector->count;
    return entry;
}

/* Each channel of the current process of each segment, once; 'visit'
 * gets it with its entry. */
typedef void channel_visit(void *arg, unsigned segment, scope_source *source,
                           const recorder_share_process *process,
                           const scope_series *series, metrics_entry *entry);

static void walk(metrics_collector *collector, scope_source *source,
                 channel_visit *visit, void *arg)
{
    collector->walk++;
    unsigned segments = scope_source_segment_count(source);
    unsigned graphs = scope_source_graph_count(source);
    for (unsigned i = 0; i < segments; i++)
    {
        scope_source *segment = scope_source_segment(source, i);
        const recorder_share_process *process =
            segment ? scope_source_process(segment) : NULL;
        if (!process)
            continue;
        for (unsigned g = 0; g < graphs; g++)
        {
            unsigned count;
            scope_series *const *list =
                scope_source_graph_series(segment, g, &count);
            for (unsigned s = 0; s < count; s++)
            {
                const scope_series *series = list[s];
                if (series->channel < 0)
                    continue;           /* not in this process (yet) */
                metrics_entry *entry = entry_of(collector, series);
                if (!entry || entry->walk == collector->walk)
                    continue;
                entry->walk = collector->walk;
                visit(arg, i, segment, process, series, entry);
            }
        }
    }
}

static void take_samples(void *arg, unsigned segment, scope_source *source,
                         const recorder_share_process *process,
                         const scope_series *series, metrics_entry *entry)
{
    (void) arg;
    (void) segment;
    (void) source;
    if (entry->generation != process->generation)
    {
        entry->generation = process->generation;
        entry->lost_base = series->lost;
    }
    /* Those trimmed before we took them count, but are not in the
     * interval statistics: --metrics keeps enough for that not to be. */
    uint64_t from = entry->seen > series->first ? entry->seen : series->first;
    const double *values = series->track[SCOPE_TRACK_VALUE];
    for (uint64_t i = from; i < series->end; i++)
        metrics_span_add(&entry->span, values[i - series->base]);
    entry->seen = series->end;
}

void metrics_collector_read(metrics_collector *collector,
                            scope_source *source)
{
    walk(collector, source, take_samples, NULL);
    unsigned segments = scope_source_segment_count(source);
    if (segments > collector->segment_count)
    {
        metrics_segment_count *counts =
            realloc(collector->segments, segments * sizeof(*counts));
        if (!counts)
            return;
        memset(counts + collector->segment_count, 0,
               (segments - collector->segment_count) * sizeof(*counts));
        for (unsigned i = collector->segment_count; i < segments; i++)
            counts[i].state = SCOPE_SOURCE_WAITING;
        collector->segments = counts;
        collector->segment_count = segments;
    }
    for (unsigned i = 0; i < segments; i++)
    {
        metrics_segment_count *count = &collector->segments[i];
        scope_source *segment = scope_source_segment(source, i);
        if (!segment)
            continue;
        if (scope_source_segment_found(source, i) & SCOPE_POLL_ATTACHED)
            count->attaches++;
        scope_source_state state = scope_source_get_state(segment);
        if (state == SCOPE_SOURCE_FAILED && count->state != state)
            count->errors++;
        count->state = state;
    }
}

void metrics_collector_served(metrics_collector *collector, bool latest)
{
    for (unsigned i = 0; i < collector->count; i++)
        metrics_span_served(&collector->entries[i].span, latest);
}

typedef struct snapshot_build
{
    metrics_channel *channels;
    unsigned         count, capacity;
    bool             grouped;
} snapshot_build;

static void add_channel(void *arg, unsigned segment, scope_source *source,
                        const recorder_share_process *process,
                        const scope_series *series, metrics_entry *entry)
{
    (void) segment;
    snapshot_build *build = arg;
    if (build->count == build->capacity)
    {
        unsigned capacity = build->capacity ? 2 * build->capacity : 64;
        metrics_channel *channels = realloc(build->channels,
                                            capacity * sizeof(*channels));
        if (!channels)
            return;
        build->channels = channels;
        build->capacity = capacity;
    }
    metrics_span_publish(&entry->span);
    /* Several processes name their channels PROGRAM[PID]/channel: the
     * labels say that apart. */
    const char *name = series->name;
    if (build->grouped)
    {
        const char *channel = scope_group_channel_of(
            scope_source_segment_name(source, 0), name);
        if (channel)
            name = channel;
    }
    uint64_t samples = series->end - series->generation_first;
    build->channels[build->count++] = (metrics_channel) {
        .program = process->program,
        .program_size = sizeof(process->program),
        .host = process->host,
        .host_size = sizeof(process->host),
        .pid = process->pid,
        .channel = name,
        .unit = series->unit,
        .has_value = samples > 0,
        .value = series->latest_value,
        .samples = samples,
        .lost = series->lost - entry->lost_base,
        .interval = entry->span.shown,
    };
}

static metrics_state state_of(scope_source_state state)
{
    switch (state)
    {
    case SCOPE_SOURCE_WAITING:  return METRICS_WAITING;
    case SCOPE_SOURCE_FAILED:   return METRICS_FAILED;
    case SCOPE_SOURCE_LIVE:     return METRICS_LIVE;
    case SCOPE_SOURCE_EXITED:   return METRICS_EXITED;
    case SCOPE_SOURCE_DIED:     return METRICS_DIED;
    case SCOPE_SOURCE_MOVED:    return METRICS_MOVED;
    }
    return METRICS_FAILED;
}

void metrics_collector_write(metrics_collector *collector,
                             scope_source *source,
                             const metrics_health *health,
                             metrics_buffer *plain,
                             metrics_buffer *openmetrics)
{
    snapshot_build build = {
        .grouped = scope_source_group(source) != NULL,
    };
    walk(collector, source, add_channel, &build);
    unsigned segments = scope_source_segment_count(source);
    metrics_segment *list = calloc(segments ? segments : 1, sizeof(*list));
    unsigned listed = 0;
    for (unsigned i = 0; list && i < segments && i < collector->segment_count;
         i++)
    {
        scope_source *segment = scope_source_segment(source, i);
        if (!segment)
            continue;
        const recorder_share_process *process = scope_source_process(segment);
        const metrics_segment_count *count = &collector->segments[i];
        list[listed++] = (metrics_segment) {
            .path = scope_source_path(segment),
            .has_process = process != NULL,
            .program = process ? process->program : NULL,
            .program_size = process ? sizeof(process->program) : 0,
            .host = process ? process->host : NULL,
            .host_size = process ? sizeof(process->host) : 0,
            .pid = process ? process->pid : 0,
            .state = state_of(scope_source_get_state(segment)),
            .restarts = count->attaches > 1 ? count->attaches - 1 : 0,
            .read_errors = count->errors,
        };
    }
    metrics_snapshot snapshot = {
        .channels = build.channels,
        .channel_count = build.count,
        .segments = list,
        .segment_count = listed,
        .health = *health,
    };
    metrics_text_write(plain, &snapshot, false);
    metrics_text_write(openmetrics, &snapshot, true);
    if (!list)
        plain->failed = openmetrics->failed = true;
    free(list);
    free(build.channels);
}
