/* source_private.h - what a kind of source implements (segment_source.c for
 * one segment, multi_source.c for several); source.c dispatches to it.
 *
 * What each graph asks for (its regex, channels added and removed in the
 * window) is the same for every kind and kept here, in the base; the
 * kinds keep what they found.
 */
#ifndef SCOPE_SOURCE_PRIVATE_H
#define SCOPE_SOURCE_PRIVATE_H

#include "source/graph_members.h"
#include "source/source.h"

typedef struct scope_graph_request
{
    char *          regex;              /* NULL: every channel */
    scope_members   names;              /* added and removed in the window */
} scope_graph_request;

typedef struct scope_source_ops
{
    void (*destroy)(scope_source *source);
    /* Graph 'graph' was just requested (source->requests[graph]). */
    int (*add_graph)(scope_source *source, unsigned graph);
    /* 'name' joined or left the names of 'graph'; removing says where the
     * series was in the graph's list, -1 if it was not there. */
    void (*channel_added)(scope_source *source, unsigned graph,
                          const char *name);
    int (*channel_removed)(scope_source *source, unsigned graph,
                           const char *name);
    unsigned (*poll)(scope_source *source, double now);
    scope_source_state (*state)(const scope_source *source);
    const char *(*path)(const scope_source *source);
    const char *(*message)(const scope_source *source);
    recorder_share *(*share)(scope_source *source);
    bool (*tweak)(scope_source *source, const char *name, intptr_t *value);
    scope_series *const *(*graph_series)(const scope_source *source,
                                         unsigned graph, unsigned *count);
    bool (*graph_take_new)(scope_source *source, unsigned graph);
    double (*graph_view_end)(scope_source *source, unsigned graph, double now,
                             bool *scrolling);
    double (*view_end)(scope_source *source, double now, bool *scrolling);
    bool (*held_range)(const scope_source *source, double *oldest,
                       double *newest);
    size_t (*graph_message)(const scope_source *source, unsigned graph,
                            double now, char *buf, size_t size);
    double (*axis_time)(const scope_source *source, double t);
    double (*axis_now)(const scope_source *source, double now);
    const recorder_share_process *(*process)(const scope_source *source);
    unsigned (*segment_count)(const scope_source *source);
    scope_source *(*segment)(const scope_source *source, unsigned i);
    unsigned (*segment_found)(const scope_source *source, unsigned i);
    const char *(*segment_name)(const scope_source *source, unsigned i);
    int (*target)(const scope_source *source);
    void (*set_target)(scope_source *source, int target);
} scope_source_ops;

/* The first member of each kind's own struct. */
struct scope_source
{
    const scope_source_ops *ops;
    scope_graph_request *   requests;
    unsigned                request_count;
};

/* The requests of 'source', freed (the kind frees the rest). */
void scope_source_free_requests(scope_source *source);

#endif /* SCOPE_SOURCE_PRIVATE_H */
