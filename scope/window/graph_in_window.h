/* graph_in_window.h - the RecorderScopeGraph widget as recorder_scope's
 * window uses it: one of several graphs that share the window's source
 * and time axis, which the window polls. Embedders use the public
 * <recorder/recorder_scope_graph.h>, where each graph has its own. */
#ifndef SCOPE_GRAPH_IN_WINDOW_H
#define SCOPE_GRAPH_IN_WINDOW_H

#include "window/graph_view.h"

#include <recorder/recorder_scope_graph.h>

/* Graph 'graph' of 'source', drawn as 'window' says. */
GtkWidget *scope_graph_new_in_window(scope_source *source,
                                     graph_window *window, unsigned graph,
                                     unsigned views, long max_samples);

/* The graph view inside, which the window drives. */
GraphView *scope_graph_view(GtkWidget *graph);

#endif /* SCOPE_GRAPH_IN_WINDOW_H */
