/* graph_view.h - a GtkWidget that shows one graph of a scope_source.
 *
 * It draws with graph_draw() and never reads the segment: the application
 * polls the source and calls graph_view_update() when the graph got data
 * or its state changed. While data flows, a tick callback redraws at the
 * display's rate so the graph scrolls smoothly between batches; once the
 * graph pauses the callback stops and nothing is redrawn until something
 * changes.
 */
#ifndef SCOPE_GRAPH_VIEW_H
#define SCOPE_GRAPH_VIEW_H

#include "channel_data.h"
#include "graph_model.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define GRAPH_TYPE_VIEW (graph_view_get_type())
G_DECLARE_FINAL_TYPE(GraphView, graph_view, GRAPH, VIEW, GtkWidget)

GtkWidget *graph_view_new(scope_source *source, unsigned graph,
                          unsigned views, double duration, long max_samples);

/* New data or a new state: redraw, and scroll while data flows. */
void graph_view_update(GraphView *view);

/* Flip SCOPE_VIEW_* 'view' on or off. */
void graph_view_toggle(GraphView *view, unsigned view_flag);
unsigned graph_view_get_views(GraphView *view);

/* Keep room for a right axis even without timing, so that the time axes
 * of stacked graphs line up. */
void graph_view_set_right_axis(GraphView *view, gboolean right_axis);

/* The graph as it would be drawn now, for saving; the message is kept in
 * message[size]. Not focused, so no focus ring in saved images. */
void graph_view_fill_model(GraphView *view, graph_model *model,
                           char *message, size_t size);

G_END_DECLS

#endif /* SCOPE_GRAPH_VIEW_H */
