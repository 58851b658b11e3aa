/* multi_source.c - several segments shown as one source: one follower
 * per segment path, their graphs' channels side by side on one axis. */
#include "source/multi_source.h"
#include "source/segment_list.h"

#include <ctype.h>
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
    scope_source_config config;
    char **             patterns;       /* -S, each a path or a pattern */
    unsigned            pattern_count;
    scope_group_link    link;
    bool                peeked;         /* looked for the earliest start */
    double              next_glob;
    group_member *      members;
    unsigned            member_count;
    char **             regexes;        /* of each graph; NULL: all */
    group_graph *       graphs;
    unsigned            graph_count;
    int                 target;         /* -1: every segment */
    char                path[4096];
    char                message[4608];
};

/* ---- names ----------------------------------------------------------------- */

const char *scope_group_full_name(const char *label, const char *channel,
                                  char *buf, size_t size)
{
    if (!label || !label[0])
        return channel;
    snprintf(buf, size, "%s/%s", label, channel);
    return buf;
}

const char *scope_group_channel_of(const char *label, const char *name)
{
    if (label)
    {
        size_t n = strlen(label);
        if (!n)
            return name;
        return strncmp(name, label, n) == 0 && name[n] == '/' ? name + n + 1
                                                             : NULL;
    }
    /* PROGRAM[DIGITS]/: the first "]/" with digits before it. */
    for (const char *end = strstr(name, "]/"); end; end = strstr(end + 1, "]/"))
    {
        const char *digit = end;
        while (digit > name && isdigit((unsigned char) digit[-1]))
            digit--;
        if (digit < end && digit > name + 1 && digit[-1] == '[')
            return end + 2;
    }
    return name;
}

double scope_group_place(scope_group_link *link,
                         const recorder_share_process *process,
                         char *label, size_t size)
{
    /* The program name comes from the segment: show it escaped. */
    char program[4 * sizeof(process->program)];
    recorder_share_escape(program, sizeof(program), process->program,
                          strnlen(process->program, sizeof(process->program)));
    snprintf(label, size, "%s[%u]", program, process->pid);
    if (isnan(link->origin))
        link->origin = process->start_monotonic;
    return process->start_monotonic - link->origin;
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
    scope_source_join_group(source, &group->link);
    for (unsigned g = 0; g < group->graph_count; g++)
        if (scope_source_add_graph(source, group->regexes[g]) < 0)
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
        scope_group_delete(group);
        return NULL;
    }
    describe(group);
    scope_source *source = scope_source_new_group(group, group->path, config);
    if (!source)
        scope_group_delete(group);
    return source;
}

void scope_group_delete(scope_group *group)
{
    if (!group)
        return;
    for (unsigned m = 0; m < group->member_count; m++)
        scope_source_delete(group->members[m].source);
    free(group->members);
    for (unsigned p = 0; p < group->pattern_count; p++)
        free(group->patterns[p]);
    free(group->patterns);
    for (unsigned g = 0; g < group->graph_count; g++)
    {
        free(group->regexes[g]);
        free(group->graphs[g].series);
    }
    free(group->regexes);
    free(group->graphs);
    free(group);
}

int scope_group_add_graph(scope_group *group, const char *regex)
{
    char **regexes = realloc(group->regexes, (group->graph_count + 1) *
                                             sizeof(*regexes));
    if (!regexes)
        return -1;
    group->regexes = regexes;
    group_graph *graphs = realloc(group->graphs, (group->graph_count + 1) *
                                                 sizeof(*graphs));
    if (!graphs)
        return -1;
    group->graphs = graphs;
    char *copy = regex ? strdup(regex) : NULL;
    if (regex && !copy)
        return -1;
    for (unsigned m = 0; m < group->member_count; m++)
        if (scope_source_add_graph(group->members[m].source, regex) < 0)
        {
            free(copy);
            return -1;
        }
    regexes[group->graph_count] = copy;
    graphs[group->graph_count] = (group_graph) { 0 };
    return (int) group->graph_count++;
}

unsigned scope_group_poll(scope_group *group, double now)
{
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

scope_source_state scope_group_state(const scope_group *group)
{
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

const char *scope_group_path(const scope_group *group)
{
    return group->path;
}

const char *scope_group_message(const scope_group *group)
{
    return group->message;
}

/* The first segment attached: what follows records and lists channels
 * keeps reading the same one whatever the target. */
recorder_share *scope_group_share(scope_group *group)
{
    for (unsigned m = 0; m < group->member_count; m++)
    {
        recorder_share *share = scope_source_share(group->members[m].source);
        if (share)
            return share;
    }
    return NULL;
}

bool scope_group_tweak(scope_group *group, const char *name, intptr_t *value)
{
    if (group->target >= 0 && (unsigned) group->target < group->member_count)
        return scope_source_tweak(group->members[group->target].source, name,
                                  value);
    for (unsigned m = 0; m < group->member_count; m++)
        if (scope_source_tweak(group->members[m].source, name, value))
            return true;
    return false;
}

scope_series *const *scope_group_graph_series(const scope_group *group,
                                              unsigned graph, unsigned *count)
{
    if (graph >= group->graph_count)
    {
        *count = 0;
        return NULL;
    }
    *count = group->graphs[graph].count;
    return group->graphs[graph].series;
}

bool scope_group_graph_take_new(scope_group *group, unsigned graph)
{
    if (graph >= group->graph_count || !group->graphs[graph].fresh)
        return false;
    group->graphs[graph].fresh = false;
    return true;
}

double scope_group_graph_view_end(scope_group *group, unsigned graph,
                                  double now, bool *scrolling)
{
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

double scope_group_view_end(scope_group *group, double now, bool *scrolling)
{
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

bool scope_group_held_range(const scope_group *group, double *oldest,
                            double *newest)
{
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
size_t scope_group_graph_message(const scope_group *group, unsigned graph,
                                 double now, char *buf, size_t size)
{
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

double scope_group_axis_time(const scope_group *group, double t)
{
    for (unsigned m = 0; m < group->member_count; m++)
        if (scope_source_share(group->members[m].source))
            return scope_source_axis_time(group->members[m].source, t);
    return NAN;
}

double scope_group_axis_now(const scope_group *group, double now)
{
    return now - group->link.origin;    /* NaN until an origin is known */
}

const recorder_share_process *scope_group_process(const scope_group *group)
{
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

void scope_group_graph_add_channel(scope_group *group, unsigned graph,
                                   const char *name)
{
    for (unsigned m = 0; m < group->member_count; m++)
        scope_source_graph_add_channel(group->members[m].source, graph, name);
}

int scope_group_graph_remove_channel(scope_group *group, unsigned graph,
                                     const char *name)
{
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

/* ---- segments ---------------------------------------------------------------- */

unsigned scope_source_segment_count(const scope_source *source)
{
    const scope_group *group = scope_source_group(source);
    return group ? group->member_count : 1;
}

scope_source *scope_source_segment(const scope_source *source, unsigned i)
{
    const scope_group *group = scope_source_group(source);
    if (!group)
        return (scope_source *) source;
    return i < group->member_count ? group->members[i].source : NULL;
}

unsigned scope_source_segment_found(const scope_source *source, unsigned i)
{
    const scope_group *group = scope_source_group(source);
    if (!group)
        return scope_source_last_found(source);
    return i < group->member_count ? group->members[i].found : 0;
}

const char *scope_source_segment_name(const scope_source *source, unsigned i)
{
    scope_source *segment = scope_source_segment(source, i);
    if (!segment)
        return "";
    return scope_source_label(segment);
}

int scope_source_target(const scope_source *source)
{
    const scope_group *group = scope_source_group(source);
    return group ? group->target : -1;
}

void scope_source_set_target(scope_source *source, int target)
{
    scope_group *group = scope_source_group(source);
    if (group)
        group->target = target >= 0 && (unsigned) target < group->member_count
                      ? target : -1;
}
