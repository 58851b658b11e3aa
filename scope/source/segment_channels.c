/* segment_channels.c - which channels of a segment each graph shows: by
 * regex, by full PROGRAM[PID]/name in a group, and as added in the window;
 * each channel's series found by name, so a restart continues it. */
#include "source/segment_source_private.h"
#include "source/group_axis.h"

#include <recorder/recorder_regex.h>

#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static scope_series *series_named(segment_source *source, const char *name)
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

bool segment_graph_has(const scope_graph *graph, const scope_series *series)
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
void segment_read_from_start(scope_series *series)
{
    series->cursor = (recorder_share_cursor) RECORDER_SHARE_CURSOR_START;
    series->started = false;
}

static scope_series *series_of_channel(segment_source *source, int index)
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
            segment_read_from_start(series);
        series->skip_until = series->latest_time;
    }
    series->channel = index;
    series->recorder = info.recorder;
    return series;
}

/* One of several processes: a regex may also name the process, as in
 * qemu\[[0-9]+\]/bytes, so match the full names PROGRAM[PID]/channel too.
 * Channels keep their index within a process: each is checked once. */
static unsigned scan_full_names(segment_source *source, scope_graph *graph,
                                const scope_graph_request *request)
{
    unsigned count = recorder_share_channel_count(source->share);
    if (graph->full_scanned >= count)
        return 0;
    regex_t regex;
    if (!recorder_regex_compile(&regex, request->regex, NULL, NULL, 0))
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
        if (series && !segment_graph_has(graph, series) &&
            scope_members_has(&request->names, series->name, true) &&
            graph_join(graph, series))
            found = SCOPE_POLL_CHANNELS;
    }
    regfree(&regex);
    graph->full_scanned = count;
    return found;
}

unsigned segment_scan_channels(segment_source *source)
{
    unsigned found = 0;
    for (unsigned g = 0; g < source->graph_count; g++)
    {
        scope_graph *graph = &source->graphs[g];
        const scope_graph_request *request = &source->base.requests[g];
        for (int index = -1;
             (index = recorder_share_find_channel(source->share,
                                                  request->regex,
                                                  index)) >= 0; )
        {
            scope_series *series = series_of_channel(source, index);
            if (!series || segment_graph_has(graph, series) ||
                !scope_members_has(&request->names, series->name, true))
                continue;
            if (!graph_join(graph, series))
                break;
            found = SCOPE_POLL_CHANNELS;
        }
        if (source->label[0] && request->regex)
            found |= scan_full_names(source, graph, request);
        /* Names added in the window: the quoted name matches case
         * variants too, so compare. */
        for (unsigned a = 0; a < request->names.added_count; a++)
        {
            const char *name = request->names.added[a];
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
                    !segment_graph_has(graph, series) && graph_join(graph, series))
                    found = SCOPE_POLL_CHANNELS;
            }
        }
    }
    return found;
}

/* Fill in the unit once the first samples tell it: channel_info looks at
 * the newest record only, so this costs the same for any depth of ring. */
void segment_learn_unit(segment_source *source, scope_series *series)
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
