/* multi_source.c - several segments shown as one source: one follower
 * per segment path (segment_source.c), their graphs' channels side by side
 * on one axis (group_axis.c). */
#include "source/multi_source.h"
#include "source/group_axis.h"
#include "source/segment_list.h"
#include "source/segment_source.h"
#include "source/source_private.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLOB_SECONDS    1.0             /* patterns are watched this often */

typedef struct group_member
{
    scope_source *source;
    bool          from_pattern;         /* not named: quiet if unusable */
    unsigned      found;                /* what its last poll found */
} group_member;

typedef struct group_graph
{
    scope_series **series;              /* every segment's, in their order */
    unsigned       count;
    bool           fresh;
} group_graph;

struct scope_group
{
    scope_source        base;           /* graphs' requests; first */
    scope_source_config config;
    char **             patterns;       /* -S, each a path or a pattern */
    unsigned            pattern_count;
    scope_group_link    link;
    bool                peeked;         /* looked for the earliest start */
    double              next_glob;
    group_member *      members;
    unsigned            member_count;
    group_graph *       graphs;
    unsigned            graph_count;
    int                 target;         /* -1: every segment */
    char                path[4096];
    char                message[4608];
};

static const scope_source_ops group_ops;
static void group_delete(scope_source *base);

static scope_group *group_of(const scope_source *base)
{
    return (scope_group *) base;
}

scope_group *scope_source_group(const scope_source *source)
{
    return source->ops == &group_ops ? group_of(source) : NULL;
}

/* ---- the group --------------------------------------------------------------- */

static bool has_member(const scope_group *group, const char *path)
{
    for (unsigned m = 0; m < group->member_count; m++)
        if (strcmp(scope_source_path(group->members[m].source), path) == 0)
            return true;
    return false;
}

static bool add_member(scope_group *group, const char *path, bool from_pattern)
{
    if (has_member(group, path))
        return true;
    group_member *members = realloc(group->members, (group->member_count + 1) *
                                                    sizeof(*members));
    if (!members)
        return false;
    group->members = members;
    scope_source *source = scope_source_new(path, &group->config);
    if (!source)
        return false;
    segment_source_join(source, &group->link);
    for (unsigned g = 0; g < group->graph_count; g++)
        if (scope_source_add_graph(source, group->base.requests[g].regex) < 0)
        {
            scope_source_delete(source);
            return false;
        }
    members[group->member_count++] = (group_member) {
        .source = source, .from_pattern = from_pattern,
    };
    return true;
}

/* Paths named join at once (they may not exist yet); patterns add what
 * they match now, as -L and -D find them (segment_list.c). True when a
 * segment joined. */
static bool expand(scope_group *group)
{
    unsigned before = group->member_count;
    scope_segment_set set;
    if (!scope_segment_set_expand(&set, (const char *const *) group->patterns,
                                  group->pattern_count, false))
        return false;
    for (unsigned i = 0; i < set.count; i++)
    {
        bool named = false;
        for (unsigned p = 0; p < group->pattern_count && !named; p++)
            named = strcmp(group->patterns[p], set.paths[i]) == 0;
        add_member(group, set.paths[i], !named);
    }
    scope_segment_set_free(&set);
    return group->member_count != before;
}

/* Time 0 of the axis: the earliest start among the processes whose
 * segments are there when the scope starts, so none has negative times.
 * (One that comes later and started earlier has.) */
static void peek_origin(scope_group *group)
{
    group->peeked = true;
    double earliest = NAN;
    for (unsigned m = 0; m < group->member_count; m++)
    {
        const char *path = scope_source_path(group->members[m].source);
        recorder_share *share = recorder_share_open_flags(
            path, group->config.open_flags, NULL, 0);
        if (!share)
            continue;
        recorder_share_process process;
        recorder_share_process_info(share, &process);
        recorder_share_close(share);
        if (process.start_monotonic > 0 && !(earliest <= process.start_monotonic))
            earliest = process.start_monotonic;
    }
    if (isnan(group->link.origin))
        group->link.origin = earliest;
}

/* Every graph's channels, segment after segment; colours in the order
 * graphs first show them. */
static void combine(scope_group *group)
{
    for (unsigned g = 0; g < group->graph_count; g++)
    {
        group_graph *graph = &group->graphs[g];
        unsigned total = 0;
        for (unsigned m = 0; m < group->member_count; m++)
        {
            unsigned count;
            scope_source_graph_series(group->members[m].source, g, &count);
            total += count;
        }
        scope_series **series = realloc(graph->series,
                                        (total ? total : 1) * sizeof(*series));
        if (!series)
            continue;                   /* keep the last list */
        graph->series = series;
        graph->count = 0;
        for (unsigned m = 0; m < group->member_count; m++)
        {
            unsigned count;
            scope_series *const *list =
                scope_source_graph_series(group->members[m].source, g, &count);
            for (unsigned s = 0; s < count; s++)
            {
                if (list[s]->colour == UINT_MAX)
                    list[s]->colour = group->link.colours++;
                series[graph->count++] = list[s];
            }
        }
    }
}

static void describe(scope_group *group)
{
    char text[sizeof(group->message)] = "";
    size_t used = 0;
    unsigned shown = 0;
    for (unsigned m = 0; m < group->member_count; m++)
    {
        const group_member *member = &group->members[m];
        scope_source_state state = scope_source_get_state(member->source);
        if (member->from_pattern && state == SCOPE_SOURCE_FAILED)
            continue;                   /* a file the pattern caught */
        int n = snprintf(text + used, sizeof(text) - used, "%s%s",
                         shown++ ? "; " : "",
                         scope_source_message(member->source));
        if (n < 0 || (size_t) n >= sizeof(text) - used)
            break;
        used += (size_t) n;
    }
    if (!shown)
        snprintf(text, sizeof(text), "waiting for %s", group->path);
    memcpy(group->message, text, sizeof(text));
}

scope_source *scope_source_new_paths(const char *const *paths, unsigned count,
                                     const scope_source_config *config)
{
    if (count == 0 || (count == 1 && !scope_segment_is_pattern(paths[0])))
        return scope_source_new(count ? paths[0] : NULL, config);
    scope_group *group = calloc(1, sizeof(*group));
    if (!group)
        return NULL;
    group->base.ops = &group_ops;
    group->config = *config;
    group->link.origin = NAN;
    group->target = -1;
    group->next_glob = -INFINITY;
    group->patterns = calloc(count, sizeof(*group->patterns));
    size_t used = 0;
    for (unsigned p = 0; group->patterns && p < count; p++)
    {
        if (!(group->patterns[p] = strdup(paths[p])))
            break;
        group->pattern_count++;
        int n = snprintf(group->path + used, sizeof(group->path) - used,
                         "%s%s", p ? " " : "", paths[p]);
        if (n > 0 && (size_t) n < sizeof(group->path) - used)
            used += (size_t) n;
    }
    if (group->pattern_count != count)
    {
        group_delete(&group->base);
        return NULL;
    }
    describe(group);
    return &group->base;
}

static void group_delete(scope_source *base)
{
    scope_group *group = group_of(base);
    for (unsigned m = 0; m < group->member_count; m++)
        scope_source_delete(group->members[m].source);
    free(group->members);
    for (unsigned p = 0; p < group->pattern_count; p++)
        free(group->patterns[p]);
    free(group->patterns);
    for (unsigned g = 0; g < group->graph_count; g++)
        free(group->graphs[g].series);
    free(group->graphs);
    scope_source_free_requests(base);
    free(group);
}

static int group_add_graph(scope_source *base, unsigned graph)
{
    scope_group *group = group_of(base);
    group_graph *graphs = realloc(group->graphs, (graph + 1) *
                                                 sizeof(*graphs));
    if (!graphs)
        return -1;
    group->graphs = graphs;
    for (unsigned m = 0; m < group->member_count; m++)
        if (scope_source_add_graph(group->members[m].source,
                                   base->requests[graph].regex) < 0)
            return -1;
    graphs[graph] = (group_graph) { 0 };
    group->graph_count = graph + 1;
    return 0;
}

static unsigned group_poll(scope_source *base, double now)
{
    scope_group *group = group_of(base);
    unsigned flags = 0;
    if (now >= group->next_glob)
    {
        group->next_glob = now + GLOB_SECONDS;
        if (expand(group))
            flags |= SCOPE_POLL_STATE;
    }
    if (!group->peeked)
        peek_origin(group);
    for (unsigned m = 0; m < group->member_count; m++)
    {
        group_member *member = &group->members[m];
        member->found = scope_source_poll(member->source, now);
        flags |= member->found;
        for (unsigned g = 0; g < group->graph_count; g++)
            if (scope_source_graph_take_new(member->source, g))
                group->graphs[g].fresh = true;
    }
    combine(group);
    char before[sizeof(group->message)];
    memcpy(before, group->message, sizeof(before));
    describe(group);
    if (strcmp(before, group->message) != 0)
        flags |= SCOPE_POLL_STATE;
    return flags;
}

static scope_source_state group_state(const scope_source *base)
{
    const scope_group *group = group_of(base);
    scope_source_state best = SCOPE_SOURCE_WAITING;
    bool failed = false;
    for (unsigned m = 0; m < group->member_count; m++)
    {
        scope_source_state state =
            scope_source_get_state(group->members[m].source);
        if (state == SCOPE_SOURCE_LIVE)
            return state;
        if (state == SCOPE_SOURCE_FAILED)
            failed |= !group->members[m].from_pattern;
        else if (state != SCOPE_SOURCE_WAITING && best == SCOPE_SOURCE_WAITING)
            best = state;
    }
    return best == SCOPE_SOURCE_WAITING && failed ? SCOPE_SOURCE_FAILED : best;
}

static const char *group_path(const scope_source *base)
{
    const scope_group *group = group_of(base);
    return group->path;
}

static const char *group_message(const scope_source *base)
{
    const scope_group *group = group_of(base);
    return group->message;
}

/* The first segment attached: what follows records and lists channels
 * keeps reading the same one whatever the target. */
static recorder_share *group_share(scope_source *base)
{
    scope_group *group = group_of(base);
    for (unsigned m = 0; m < group->member_count; m++)
    {
        recorder_share *share = scope_source_share(group->members[m].source);
        if (share)
            return share;
    }
    return NULL;
}

static bool group_tweak(scope_source *base, const char *name, intptr_t *value)
{
    scope_group *group = group_of(base);
    if (group->target >= 0 && (unsigned) group->target < group->member_count)
        return scope_source_tweak(group->members[group->target].source, name,
                                  value);
    for (unsigned m = 0; m < group->member_count; m++)
        if (scope_source_tweak(group->members[m].source, name, value))
            return true;
    return false;
}

static scope_series *const *group_graph_series(const scope_source *base,
                                               unsigned graph,
                                               unsigned *count)
{
    const scope_group *group = group_of(base);
    *count = group->graphs[graph].count;
    return group->graphs[graph].series;
}

static bool group_graph_take_new(scope_source *base, unsigned graph)
{
    scope_group *group = group_of(base);
    if (graph >= group->graph_count || !group->graphs[graph].fresh)
        return false;
    group->graphs[graph].fresh = false;
    return true;
}

static double group_graph_view_end(scope_source *base, unsigned graph,
                                  double now, bool *scrolling)
{
    scope_group *group = group_of(base);
    double end = NAN;
    bool any = false;
    for (unsigned m = 0; m < group->member_count; m++)
    {
        bool moving = false;
        double e = scope_source_graph_view_end(group->members[m].source,
                                               graph, now, &moving);
        any |= moving;
        end = fmax(end, e);             /* NaN: that one has nothing */
    }
    if (scrolling)
        *scrolling = any;
    return end;
}

static double group_view_end(scope_source *base, double now, bool *scrolling)
{
    scope_group *group = group_of(base);
    double end = NAN;
    bool any = false;
    for (unsigned m = 0; m < group->member_count; m++)
    {
        bool moving = false;
        double e = scope_source_view_end(group->members[m].source, now,
                                         &moving);
        any |= moving;
        end = fmax(end, e);
    }
    if (scrolling)
        *scrolling = any;
    return end;
}

static bool group_held_range(const scope_source *base, double *oldest,
                            double *newest)
{
    const scope_group *group = group_of(base);
    double lo = INFINITY, hi = -INFINITY;
    for (unsigned m = 0; m < group->member_count; m++)
    {
        double a, b;
        if (scope_source_held_range(group->members[m].source, &a, &b))
        {
            lo = fmin(lo, a);
            hi = fmax(hi, b);
        }
    }
    if (!(lo <= hi))
        return false;
    *oldest = lo;
    *newest = hi;
    return true;
}

/* Nothing to say as long as one segment shows data on the graph; else
 * what a live one says, else the first's. */
static size_t group_graph_message(const scope_source *base, unsigned graph,
                                 double now, char *buf, size_t size)
{
    const scope_group *group = group_of(base);
    int live = -1, first = -1;
    for (unsigned m = 0; m < group->member_count; m++)
    {
        const group_member *member = &group->members[m];
        scope_source_state state = scope_source_get_state(member->source);
        if (member->from_pattern && state == SCOPE_SOURCE_FAILED)
            continue;
        char text[8];
        if (scope_source_graph_message(member->source, graph, now, text,
                                       sizeof(text)) == 0)
        {
            if (size)
                buf[0] = 0;
            return 0;
        }
        if (first < 0)
            first = (int) m;
        if (live < 0 && state == SCOPE_SOURCE_LIVE)
            live = (int) m;
    }
    int chosen = live >= 0 ? live : first;
    if (chosen < 0)
    {
        int n = snprintf(buf, size, "%s", group->message);
        return n < 0 ? 0 : (size_t) n;
    }
    return scope_source_graph_message(group->members[chosen].source, graph,
                                      now, buf, size);
}

static double group_axis_time(const scope_source *base, double t)
{
    const scope_group *group = group_of(base);
    for (unsigned m = 0; m < group->member_count; m++)
        if (scope_source_share(group->members[m].source))
            return scope_source_axis_time(group->members[m].source, t);
    return NAN;
}

static double group_axis_now(const scope_source *base, double now)
{
    const scope_group *group = group_of(base);
    return now - group->link.origin;    /* NaN until an origin is known */
}

static const recorder_share_process *group_process(const scope_source *base)
{
    const scope_group *group = group_of(base);
    if (group->target >= 0 && (unsigned) group->target < group->member_count)
        return scope_source_process(group->members[group->target].source);
    for (unsigned m = 0; m < group->member_count; m++)
    {
        const recorder_share_process *process =
            scope_source_process(group->members[m].source);
        if (process)
            return process;
    }
    return NULL;
}

static void group_channel_added(scope_source *base, unsigned graph,
                                const char *name)
{
    scope_group *group = group_of(base);
    for (unsigned m = 0; m < group->member_count; m++)
        scope_source_graph_add_channel(group->members[m].source, graph, name);
}

static int group_channel_removed(scope_source *base, unsigned graph,
                                 const char *name)
{
    scope_group *group = group_of(base);
    int at = -1;
    unsigned before = 0;
    for (unsigned m = 0; m < group->member_count; m++)
    {
        int removed;
        scope_source_graph_remove_channel(group->members[m].source, graph,
                                          name, &removed);
        if (removed >= 0 && at < 0)
            at = (int) before + removed;
        unsigned count;
        scope_source_graph_series(group->members[m].source, graph, &count);
        before += count;
    }
    combine(group);
    return at;
}

/* ---- segments ------------------------------------------------------------------ */

static unsigned group_segment_count(const scope_source *base)
{
    return group_of(base)->member_count;
}

static scope_source *group_segment(const scope_source *base, unsigned i)
{
    const scope_group *group = group_of(base);
    return i < group->member_count ? group->members[i].source : NULL;
}

static unsigned group_segment_found(const scope_source *base, unsigned i)
{
    const scope_group *group = group_of(base);
    return i < group->member_count ? group->members[i].found : 0;
}

static const char *group_segment_name(const scope_source *base, unsigned i)
{
    const scope_group *group = group_of(base);
    return i < group->member_count
           ? segment_source_label(group->members[i].source) : "";
}

static int group_target(const scope_source *base)
{
    return group_of(base)->target;
}

static void group_set_target(scope_source *base, int target)
{
    scope_group *group = group_of(base);
    group->target = target >= 0 && (unsigned) target < group->member_count
                  ? target : -1;
}

static const scope_source_ops group_ops = {
    .destroy = group_delete,
    .add_graph = group_add_graph,
    .channel_added = group_channel_added,
    .channel_removed = group_channel_removed,
    .poll = group_poll,
    .state = group_state,
    .path = group_path,
    .message = group_message,
    .share = group_share,
    .tweak = group_tweak,
    .graph_series = group_graph_series,
    .graph_take_new = group_graph_take_new,
    .graph_view_end = group_graph_view_end,
    .view_end = group_view_end,
    .held_range = group_held_range,
    .graph_message = group_graph_message,
    .axis_time = group_axis_time,
    .axis_now = group_axis_now,
    .process = group_process,
    .segment_count = group_segment_count,
    .segment = group_segment,
    .segment_found = group_segment_found,
    .segment_name = group_segment_name,
    .target = group_target,
    .set_target = group_set_target,
};
