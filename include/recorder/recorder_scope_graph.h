/* recorder_scope_graph.h - recorder_scope's live graph as a GTK 4 widget.
 *
 * A RecorderScopeGraph follows a recorder shared segment (or every segment
 * a pattern names) and plots the channels whose names a regular expression
 * selects, as recorder_scope's window does: it scrolls live, pauses, zooms
 * and pans with the mouse, reads out values under the pointer and scales
 * its value axis to the data. It reads the segment from a timer of the
 * main loop, never while drawing.
 *
 * Link with pkg-config's recorder-scope-gtk4; from Python, the GObject
 * introspection namespace RecorderScope 1.0. The man page is
 * recorder_scope_graph(3).
 */
#ifndef RECORDER_SCOPE_GRAPH_H
#define RECORDER_SCOPE_GRAPH_H

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define RECORDER_SCOPE_TYPE_GRAPH (recorder_scope_graph_get_type())
G_DECLARE_FINAL_TYPE(RecorderScopeGraph, recorder_scope_graph,
                     RECORDER_SCOPE, GRAPH, GtkWidget)

/**
 * recorder_scope_graph_new:
 * @segment: (nullable): the segment's path, or a glob pattern naming
 *     several; %NULL for $RECORDER_SHARE or the default path
 * @channels: (nullable): a POSIX extended regular expression that the
 *     whole name of each channel shown must match; %NULL for all channels
 *
 * A graph that starts following @segment once it is shown.
 *
 * Returns: (transfer floating): the new widget
 */
GtkWidget *recorder_scope_graph_new(const char *segment,
                                    const char *channels);

/**
 * recorder_scope_graph_get_segment:
 * @graph: a #RecorderScopeGraph
 *
 * Returns: (nullable): the path or pattern followed
 */
const char *recorder_scope_graph_get_segment(RecorderScopeGraph *graph);
/**
 * recorder_scope_graph_set_segment:
 * @graph: a #RecorderScopeGraph
 * @segment: (nullable): a path, a pattern, or %NULL for the default
 *
 * Follow another segment: what was held is dropped.
 */
void recorder_scope_graph_set_segment(RecorderScopeGraph *graph,
                                      const char *segment);

/**
 * recorder_scope_graph_get_channels:
 * @graph: a #RecorderScopeGraph
 *
 * Returns: (nullable): the regular expression of the channels shown
 */
const char *recorder_scope_graph_get_channels(RecorderScopeGraph *graph);
/**
 * recorder_scope_graph_set_channels:
 * @graph: a #RecorderScopeGraph
 * @channels: (nullable): a regular expression, %NULL for all channels
 *
 * Show other channels: what was held is dropped.
 */
void recorder_scope_graph_set_channels(RecorderScopeGraph *graph,
                                       const char *channels);

/**
 * recorder_scope_graph_get_span:
 * @graph: a #RecorderScopeGraph
 *
 * Returns: the seconds the time axis shows; 0 shows all that is held
 */
double recorder_scope_graph_get_span(RecorderScopeGraph *graph);
/**
 * recorder_scope_graph_set_span:
 * @graph: a #RecorderScopeGraph
 * @seconds: seconds shown, 0 for all held; negative is taken as 0
 *
 * Set the time axis' span, and the span that going live returns to.
 */
void recorder_scope_graph_set_span(RecorderScopeGraph *graph,
                                   double seconds);

/**
 * recorder_scope_graph_get_paused:
 * @graph: a #RecorderScopeGraph
 *
 * Returns: %TRUE while the graph stands still (the segment is still read)
 */
gboolean recorder_scope_graph_get_paused(RecorderScopeGraph *graph);
/**
 * recorder_scope_graph_set_paused:
 * @graph: a #RecorderScopeGraph
 * @paused: %TRUE to freeze what is shown, %FALSE to follow the data again
 */
void recorder_scope_graph_set_paused(RecorderScopeGraph *graph,
                                     gboolean paused);

/**
 * recorder_scope_graph_get_autoscale:
 * @graph: a #RecorderScopeGraph
 *
 * Returns: %TRUE while the value axis follows the data
 */
gboolean recorder_scope_graph_get_autoscale(RecorderScopeGraph *graph);
/**
 * recorder_scope_graph_set_autoscale:
 * @graph: a #RecorderScopeGraph
 * @autoscale: %TRUE to fit the value axis to the data; %FALSE to lock the
 *     range shown now
 */
void recorder_scope_graph_set_autoscale(RecorderScopeGraph *graph,
                                        gboolean autoscale);

/**
 * recorder_scope_graph_get_message:
 * @graph: a #RecorderScopeGraph
 *
 * Returns: one line on where the source stands ("waiting for PATH",
 *     "PROGRAM (pid N) running", ...), or "" before the graph is shown
 */
const char *recorder_scope_graph_get_message(RecorderScopeGraph *graph);

/**
 * recorder_scope_graph_get_live:
 * @graph: a #RecorderScopeGraph
 *
 * Returns: %TRUE while a program writes the segment
 */
gboolean recorder_scope_graph_get_live(RecorderScopeGraph *graph);

G_END_DECLS

#endif /* RECORDER_SCOPE_GRAPH_H */
