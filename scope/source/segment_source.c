/* segment_source.c - one segment as a source: channel histories filled
 * from it, and following it across waits, exits and restarts of the
 * program. */
#include "source/segment_source_private.h"
#include "source/group_axis.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const scope_source_ops segment_ops;

static segment_source *segment_of(const scope_source *base)
{
    return (segment_source *) base;
}

static bool set_message(segment_source *source, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool set_message(segment_source *source, const char *fmt, ...)
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

static unsigned set_state(segment_source *source, scope_source_state state)
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

static void track_clock(segment_source *source, double now, double newest)
{
    double observed = now - newest;
    if (!source->clock_valid || observed < source->clock_offset)
        source->clock_offset = observed;
    else
        /* Let a writer clock that runs slow pull the estimate back. */
        source->clock_offset += (observed - source->clock_offset) * 0.02;
    source->clock_valid = true;
}

/* Take in a batch read from the series' channel: 'lost' records were
 * overwritten before it ('first': the first read, which skips what the
 * ring no longer holds: history from before we looked, not samples we
 * failed to keep up with). */
static void take_batch(segment_source *source, scope_series *series,
                       const recorder_sample *batch, size_t got,
                       uint64_t lost, bool first, double now)
{
    if (first)
        lost = 0;
    series->lost += lost;
    scope_loss_rate_add(&series->losses, now, got, lost);
    for (size_t i = 0; i < got; i++)
    {
        double t = batch[i].time + source->offset;
        /* The batch does not say where the loss fell: a lane can be
         * lapped in the middle of a read, or be merged with lanes that
         * lost nothing. So no interval is measured within it, nor from
         * its last sample to the next. */
        if (lost)
            scope_stats_break(&series->stats);
        if (t <= series->skip_until)
            continue;
        scope_series_append(series, t, batch[i].value);
    }
    if (lost)
        scope_stats_break(&series->stats);
}

/* Series read together with 'lead' (its index in source->series): those
 * after it of the same recorder, at the same place in its ring; their
 * indexes in 'group' (lead first). */
static unsigned read_group(const segment_source *source, unsigned lead,
                           unsigned *group, const bool *done)
{
    const scope_series *first = source->series[lead];
    unsigned count = 0;
    group[count++] = lead;
    for (unsigned s = lead + 1; s < source->series_count &&
                                count < RECORDER_SHARE_CHANNELS_READ_MAX; s++)
    {
        const scope_series *other = source->series[s];
        if (!done[s] && other->channel >= 0 &&
            other->recorder == first->recorder &&
            other->started == first->started &&
            memcmp(&other->cursor, &first->cursor, sizeof(first->cursor)) == 0)
            group[count++] = s;
    }
    return count;
}

/* SCOPE_POLL_HURRY if 'series' lost records in this read (not its first)
 * or read a quarter of its ring's lane or more: a ring a poll fills so far
 * would lose records if polls came further apart. */
static unsigned hurry(segment_source *source, const scope_series *series,
                      uint64_t read, uint64_t lost, bool first)
{
    if (first || !read)
        return 0;
    if (lost)
        return SCOPE_POLL_HURRY;
    recorder_share_recorder ring;
    if (!recorder_share_recorder_info(source->share, series->recorder,
                                      &ring) || !ring.size)
        return 0;
    return read >= ring.size / 4 ? SCOPE_POLL_HURRY : 0;
}

/* Read the series of 'group' up to the newest record: in one walk of
 * their recorder's ring each time when there are several, else (or if
 * the segment cannot) one by one. SCOPE_POLL_HURRY if polls must come
 * sooner. */
static unsigned read_series(segment_source *source, const unsigned *group,
                            unsigned count, recorder_sample *room, double now)
{
    scope_series *lead = source->series[group[0]];
    if (count > 1)
    {
        unsigned channels[RECORDER_SHARE_CHANNELS_READ_MAX];
        recorder_sample *batches[RECORDER_SHARE_CHANNELS_READ_MAX];
        size_t got[RECORDER_SHARE_CHANNELS_READ_MAX];
        for (unsigned k = 0; k < count; k++)
        {
            channels[k] = (unsigned) source->series[group[k]]->channel;
            batches[k] = room + (size_t) k * READ_BATCH;
        }
        recorder_share_cursor cursor = lead->cursor;
        bool first = !lead->started, was_first = first, full;
        bool together = false;
        uint64_t lost = 0, lost_all = 0, read = 0;
        do
        {
            if (!recorder_share_read_channels(source->share, channels, count,
                                              &cursor, batches, got,
                                              READ_BATCH, &lost))
                break;
            together = true;
            full = false;
            for (unsigned k = 0; k < count; k++)
            {
                scope_series *series = source->series[group[k]];
                series->started = true;
                series->cursor = cursor;
                take_batch(source, series, batches[k], got[k], lost, first,
                           now);
                full |= got[k] == READ_BATCH;
            }
            read += got[0];
            lost_all += lost;
            first = false;
        } while (full);
        if (together)
            return hurry(source, lead, read, lost_all, was_first);
    }
    unsigned flags = 0;
    for (unsigned k = 0; k < count; k++)
    {
        scope_series *series = source->series[group[k]];
        bool was_first = !series->started;
        uint64_t read = 0, lost_all = 0;
        size_t got;
        do
        {
            bool first = !series->started;
            series->started = true;
            uint64_t lost = 0;
            got = recorder_share_read(source->share, (unsigned) series->channel,
                                      &series->cursor, room, READ_BATCH,
                                      &lost);
            take_batch(source, series, room, got, lost, first, now);
            read += got;
            lost_all += lost;
        } while (got == READ_BATCH);
        flags |= hurry(source, series, read, lost_all, was_first);
    }
    return flags;
}

static unsigned read_samples(segment_source *source, double now)
{
    unsigned found = 0;
    double newest = -INFINITY;
    unsigned n = source->series_count;
    uint64_t before[n ? n : 1];
    bool done[n ? n : 1];
    for (unsigned s = 0; s < n; s++)
    {
        before[s] = source->series[s]->end;
        done[s] = source->series[s]->channel < 0;
    }
    /* A recorder's channels are read in one walk of its ring: a window of
     * 16 channels of two recorders walked each ring 8 times a poll. */
    recorder_sample alone[READ_BATCH];
    for (unsigned s = 0; s < n; s++)
    {
        if (done[s])
            continue;
        unsigned group[RECORDER_SHARE_CHANNELS_READ_MAX];
        unsigned count = read_group(source, s, group, done);
        if (count > 1 && !source->batches)
            source->batches = malloc(RECORDER_SHARE_CHANNELS_READ_MAX *
                                     READ_BATCH * sizeof(*source->batches));
        if (!source->batches)
            count = 1;                  /* out of memory: one by one */
        found |= read_series(source, group, count,
                             count > 1 ? source->batches : alone, now);
        for (unsigned k = 0; k < count; k++)
            done[group[k]] = true;
    }
    for (unsigned s = 0; s < n; s++)
    {
        scope_series *series = source->series[s];
        if (series->channel < 0 || series->end == before[s])
            continue;
        if (!series->unit_known)
            segment_learn_unit(source, series);
        if (series->latest_time > newest)
            newest = series->latest_time;
        /* Everything up to 'keep' stays: a paused view scrolls back to it. */
        scope_series_trim(series, -INFINITY, source->config.keep);

        for (unsigned g = 0; g < source->graph_count; g++)
        {
            scope_graph *graph = &source->graphs[g];
            if (!segment_graph_has(graph, series))
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
            found |= SCOPE_POLL_DATA;
        }
    }
    if (newest > -INFINITY)
        track_clock(source, now, newest);
    return found;
}

/* A segment that opened: a new process, or the same one again. */
static unsigned attach(segment_source *source, recorder_share *share)
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
            segment_read_from_start(series);
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

static unsigned try_open(segment_source *source, double now)
{
    source->next_open = now + OPEN_RETRY_SECONDS;
    /* What the open will meet: it follows no symbolic link. */
    struct stat st;
    bool seen = lstat(source->path, &st) == 0;
    if (!seen && errno == ENOENT)
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
         * than that moment (a corrupt one left there) or no writer of
         * ours can be creating it (a link, not a file, another user's):
         * then the reason is said at once. */
        if (isnan(source->failing_since))
            source->failing_since = now;
        memcpy(source->error, error, sizeof(error));
        struct timespec wall;
        clock_gettime(CLOCK_REALTIME, &wall);
        /* st is set only when seen: each test after it. */
        bool creating = seen && S_ISREG(st.st_mode) &&
                        (st.st_uid == geteuid() ||
                         (source->config.open_flags &
                          RECORDER_SHARE_ANY_OWNER)) &&
                        wall.tv_sec - st.st_mtim.tv_sec <= 1;
        if (creating && now - source->failing_since < FAILURE_GRACE_SECONDS)
            return 0;
        return set_state(source, SCOPE_SOURCE_FAILED);
    }
    source->failing_since = NAN;
    source->next_state = now;
    source->next_scan = now;
    return attach(source, share);
}

static unsigned check_state(segment_source *source, double now)
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

static unsigned poll_segment(segment_source *source, double now)
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
        flags |= segment_scan_channels(source);
    }
    flags |= read_samples(source, now);
    return flags;
}

/* ---- the calls of source.h, for one segment ------------------------------- */

scope_source *scope_source_new(const char *path,
                               const scope_source_config *config)
{
    segment_source *source = calloc(1, sizeof(*source));
    if (!source)
        return NULL;
    source->base.ops = &segment_ops;
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
    return &source->base;
}

static void segment_destroy(scope_source *base)
{
    segment_source *source = segment_of(base);
    recorder_share_close(source->share);
    for (unsigned s = 0; s < source->series_count; s++)
    {
        scope_series_free(source->series[s]);
        free(source->series[s]);
    }
    free(source->series);
    for (unsigned g = 0; g < source->graph_count; g++)
        free(source->graphs[g].members);
    free(source->graphs);
    free(source->batches);
    free(source->known);
    scope_source_free_requests(base);
    free(source);
}

static int segment_add_graph(scope_source *base, unsigned graph)
{
    segment_source *source = segment_of(base);
    scope_graph *graphs = realloc(source->graphs, (graph + 1) *
                                                  sizeof(*graphs));
    if (!graphs)
        return -1;
    source->graphs = graphs;
    memset(&graphs[graph], 0, sizeof(graphs[graph]));
    graphs[graph].latest = NAN;
    scope_pace_init(&graphs[graph].arrivals);
    source->graph_count = graph + 1;
    source->next_scan = -INFINITY;      /* added to a running window */
    return 0;
}

static void segment_channel_added(scope_source *base, unsigned graph,
                                  const char *name)
{
    (void) graph;
    (void) name;
    segment_of(base)->next_scan = -INFINITY;    /* the next poll finds it */
}

static int segment_channel_removed(scope_source *base, unsigned graph,
                                   const char *name)
{
    scope_graph *g = &segment_of(base)->graphs[graph];
    for (unsigned m = 0; m < g->count; m++)
        if (strcmp(g->members[m]->name, name) == 0)
        {
            memmove(g->members + m, g->members + m + 1,
                    (g->count - m - 1) * sizeof(*g->members));
            g->count--;
            return (int) m;
        }
    return -1;
}

static unsigned segment_poll(scope_source *base, double now)
{
    segment_source *source = segment_of(base);
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

static scope_source_state segment_state(const scope_source *base)
{
    return segment_of(base)->state;
}

static const char *segment_path(const scope_source *base)
{
    return segment_of(base)->path;
}

static const char *segment_message(const scope_source *base)
{
    return segment_of(base)->message;
}

static recorder_share *segment_share(scope_source *base)
{
    return segment_of(base)->share;
}

static bool segment_tweak(scope_source *base, const char *name,
                          intptr_t *value)
{
    segment_source *source = segment_of(base);
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

static scope_series *const *segment_graph_series(const scope_source *base,
                                                 unsigned graph,
                                                 unsigned *count)
{
    const segment_source *source = segment_of(base);
    *count = source->graphs[graph].count;
    return source->graphs[graph].members;
}

static bool segment_graph_take_new(scope_source *base, unsigned graph)
{
    segment_source *source = segment_of(base);
    if (!source->graphs[graph].fresh)
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

static double segment_graph_view_end(scope_source *base, unsigned graph,
                                     double now, bool *scrolling)
{
    segment_source *source = segment_of(base);
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

static double segment_view_end(scope_source *base, double now,
                               bool *scrolling)
{
    segment_source *source = segment_of(base);
    double end = NAN;
    bool any = false;
    for (unsigned g = 0; g < source->graph_count; g++)
    {
        if (!source->graphs[g].has_data)
            continue;
        bool moving;
        double graph_end = segment_graph_view_end(base, g, now, &moving);
        any |= moving;
        if (isnan(end) || graph_end > end)
            end = graph_end;
    }
    if (scrolling)
        *scrolling = any;
    return end;
}

static bool segment_held_range(const scope_source *base, double *oldest,
                               double *newest)
{
    const segment_source *source = segment_of(base);
    double lo = INFINITY, hi = -INFINITY;
    for (unsigned s = 0; s < source->series_count; s++)
    {
        const scope_series *series = source->series[s];
        if (series->end <= series->first)
            continue;
        lo = fmin(lo, series->oldest_time);
        hi = fmax(hi, series->latest_time);
    }
    if (!(lo <= hi))
        return false;
    *oldest = lo;
    *newest = hi;
    return true;
}

static size_t segment_graph_message(const scope_source *base, unsigned graph,
                                    double now, char *buf, size_t size)
{
    const segment_source *source = segment_of(base);
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
                         source->base.requests[graph].regex
                         ? source->base.requests[graph].regex : ".*");
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

static double segment_axis_time(const scope_source *base, double t)
{
    const segment_source *source = segment_of(base);
    return source->attached_once ? t + source->offset : NAN;
}

static double segment_axis_now(const scope_source *base, double now)
{
    const segment_source *source = segment_of(base);
    if (!source->attached_once)
        return NAN;
    /* The process's own start on the monotonic clock, when it says it. */
    if (source->process.start_monotonic > 0)
        return now - source->process.start_monotonic + source->offset;
    return source->clock_valid ? now - source->clock_offset : NAN;
}

static const recorder_share_process *segment_process(const scope_source *base)
{
    const segment_source *source = segment_of(base);
    return source->state == SCOPE_SOURCE_WAITING ||
           source->state == SCOPE_SOURCE_FAILED ? NULL : &source->process;
}

/* One segment is its own only segment, and takes every command. */
static unsigned segment_segment_count(const scope_source *base)
{
    (void) base;
    return 1;
}

static scope_source *segment_segment(const scope_source *base, unsigned i)
{
    return i == 0 ? (scope_source *) base : NULL;
}

static unsigned segment_segment_found(const scope_source *base, unsigned i)
{
    return i == 0 ? segment_of(base)->last_found : 0;
}

static const char *segment_segment_name(const scope_source *base, unsigned i)
{
    return i == 0 ? segment_source_label(base) : "";
}

static int segment_target(const scope_source *base)
{
    (void) base;
    return -1;
}

static void segment_set_target(scope_source *base, int target)
{
    (void) base;
    (void) target;
}

static const scope_source_ops segment_ops = {
    .destroy = segment_destroy,
    .add_graph = segment_add_graph,
    .channel_added = segment_channel_added,
    .channel_removed = segment_channel_removed,
    .poll = segment_poll,
    .state = segment_state,
    .path = segment_path,
    .message = segment_message,
    .share = segment_share,
    .tweak = segment_tweak,
    .graph_series = segment_graph_series,
    .graph_take_new = segment_graph_take_new,
    .graph_view_end = segment_graph_view_end,
    .view_end = segment_view_end,
    .held_range = segment_held_range,
    .graph_message = segment_graph_message,
    .axis_time = segment_axis_time,
    .axis_now = segment_axis_now,
    .process = segment_process,
    .segment_count = segment_segment_count,
    .segment = segment_segment,
    .segment_found = segment_segment_found,
    .segment_name = segment_segment_name,
    .target = segment_target,
    .set_target = segment_set_target,
};

/* ---- as one of a group's segments ------------------------------------------ */

void segment_source_join(scope_source *base, scope_group_link *link)
{
    segment_of(base)->link = link;
}

const char *segment_source_label(const scope_source *base)
{
    const segment_source *source = segment_of(base);
    return source->label[0] ? source->label : source->path;
}
