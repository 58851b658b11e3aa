/* source.c - the calls of source.h, handed to the kind of source (one
 * segment or several), and what graphs ask for, kept alike for both. */
#include "source/source_private.h"
#include "source/group_axis.h"

#include <recorder/recorder_regex.h>

#include <regex.h>
#include <stdlib.h>
#include <string.h>

void scope_source_free_requests(scope_source *source)
{
    for (unsigned g = 0; g < source->request_count; g++)
    {
        free(source->requests[g].regex);
        scope_members_free(&source->requests[g].names);
    }
    free(source->requests);
    source->requests = NULL;
    source->request_count = 0;
}

void scope_source_delete(scope_source *source)
{
    if (source)
        source->ops->destroy(source);
}

int scope_source_add_graph(scope_source *source, const char *regex)
{
    scope_graph_request *requests =
        realloc(source->requests,
                (source->request_count + 1) * sizeof(*requests));
    if (!requests)
        return -1;
    source->requests = requests;
    scope_graph_request *request = &requests[source->request_count];
    memset(request, 0, sizeof(*request));
    if (regex && !(request->regex = strdup(regex)))
        return -1;
    if (source->ops->add_graph(source, source->request_count) < 0)
    {
        free(request->regex);
        return -1;
    }
    return (int) source->request_count++;
}

unsigned scope_source_poll(scope_source *source, double now)
{
    return source->ops->poll(source, now);
}

scope_source_state scope_source_get_state(const scope_source *source)
{
    return source->ops->state(source);
}

const char *scope_source_path(const scope_source *source)
{
    return source->ops->path(source);
}

const char *scope_source_message(const scope_source *source)
{
    return source->ops->message(source);
}

recorder_share *scope_source_share(scope_source *source)
{
    return source->ops->share(source);
}

bool scope_source_tweak(scope_source *source, const char *name,
                        intptr_t *value)
{
    return source->ops->tweak(source, name, value);
}

const char *scope_source_graph_regex(const scope_source *source,
                                     unsigned graph)
{
    return graph < source->request_count ? source->requests[graph].regex
                                         : NULL;
}

/* Whether the regex of 'request' matches 'name', by the rules of
 * recorder_share_find_channel (whole name, any case): it decides whether
 * the window's change is an addition or an exception. */
static bool regex_matches(const scope_graph_request *request,
                          const char *name)
{
    if (!request->regex)
        return true;
    regex_t regex;
    if (!recorder_regex_compile(&regex, request->regex, NULL, NULL, 0))
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
    if (graph >= source->request_count)
        return false;
    scope_graph_request *request = &source->requests[graph];
    if (!scope_members_add(&request->names, name,
                           regex_matches(request, name)))
        return false;
    source->ops->channel_added(source, graph, name);
    return true;
}

bool scope_source_graph_remove_channel(scope_source *source, unsigned graph,
                                       const char *name, int *removed_at)
{
    *removed_at = -1;
    if (graph >= source->request_count)
        return false;
    scope_graph_request *request = &source->requests[graph];
    if (!scope_members_remove(&request->names, name,
                              regex_matches(request, name)))
        return false;
    *removed_at = source->ops->channel_removed(source, graph, name);
    return true;
}

size_t scope_source_graph_describe(const scope_source *source,
                                   unsigned graph, char *buf, size_t size)
{
    if (graph >= source->request_count)
    {
        if (size)
            buf[0] = 0;
        return 0;
    }
    const scope_graph_request *request = &source->requests[graph];
    return scope_members_describe(&request->names, request->regex, buf,
                                  size);
}

unsigned scope_source_graph_count(const scope_source *source)
{
    return source->request_count;
}

scope_series *const *scope_source_graph_series(const scope_source *source,
                                               unsigned graph,
                                               unsigned *count)
{
    if (graph >= source->request_count)
    {
        *count = 0;
        return NULL;
    }
    return source->ops->graph_series(source, graph, count);
}

bool scope_source_graph_take_new(scope_source *source, unsigned graph)
{
    return graph < source->request_count &&
           source->ops->graph_take_new(source, graph);
}

double scope_source_graph_view_end(scope_source *source, unsigned graph,
                                   double now, bool *scrolling)
{
    return source->ops->graph_view_end(source, graph, now, scrolling);
}

double scope_source_view_end(scope_source *source, double now,
                             bool *scrolling)
{
    return source->ops->view_end(source, now, scrolling);
}

bool scope_source_held_range(const scope_source *source, double *oldest,
                             double *newest)
{
    return source->ops->held_range(source, oldest, newest);
}

size_t scope_source_graph_message(const scope_source *source, unsigned graph,
                                  double now, char *buf, size_t size)
{
    return source->ops->graph_message(source, graph, now, buf, size);
}

double scope_source_axis_time(const scope_source *source, double t)
{
    return source->ops->axis_time(source, t);
}

double scope_source_axis_now(const scope_source *source, double now)
{
    return source->ops->axis_now(source, now);
}

const recorder_share_process *scope_source_process(const scope_source *source)
{
    return source->ops->process(source);
}

unsigned scope_source_segment_count(const scope_source *source)
{
    return source->ops->segment_count(source);
}

scope_source *scope_source_segment(const scope_source *source, unsigned i)
{
    return source->ops->segment(source, i);
}

unsigned scope_source_segment_found(const scope_source *source, unsigned i)
{
    return source->ops->segment_found(source, i);
}

const char *scope_source_segment_name(const scope_source *source, unsigned i)
{
    return source->ops->segment_name(source, i);
}

int scope_source_target(const scope_source *source)
{
    return source->ops->target(source);
}

void scope_source_set_target(scope_source *source, int target)
{
    source->ops->set_target(source, target);
}
