/* graph_view.h - a GtkWidget that shows one graph of a scope_source.
 *
 * It draws with graph_draw() and never reads the segment: the application
 * polls the source and calls graph_view_update() when data or state
 * changed. While data flows live, the graph scrolls between batches, a
 * frame each time its edge has moved a pixel column (frame_pace.h: with
 * the display's frame clock when that is every few frames, a timer when
 * further apart); legend values change a few times a second; paused or
 * stopped, nothing is redrawn until something shown changes.
 *
 * The graphs of a window share one graph_window: the time span (so they
 * show the same times at the same x), the crosshair and the cursors. The
 * mouse acts on it (wheel zooms time about the pointer, drag pans, a box
 * zooms, double-click returns to live); each view keeps its own views,
 * value range, scale mode and hidden channels.
 */
#ifndef SCOPE_GRAPH_VIEW_H
#define SCOPE_GRAPH_VIEW_H

#include "source/channel_data.h"
#include "view/graph_model.h"
#include "view/time_view.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define GRAPH_TYPE_VIEW (graph_view_get_type())
G_DECLARE_FINAL_TYPE(GraphView, graph_view, GRAPH, VIEW, GtkWidget)

typedef struct graph_window
{
    scope_time_view time;
    scope_held      held;               /* as of the last frame drawn */
    bool            hovering;           /* the pointer is over a plot */
    double          hover_x;            /* its x, the same in every graph */
    GraphView *     hovered;
    bool            has_cursor[2];      /* A and B */
    double          cursor[2];          /* their times */
    const struct scope_trigger *trigger; /* marked on the graphs; NULL */
    const struct scope_markers *markers; /* events marked, or NULL */
    GraphView *     focused;            /* the graph keys act on, marked
                                           even when a button has focus */
    const scope_palette *palette;       /* the graphs' colours */
    double          min_frame_interval; /* --fps: seconds between the
                                           frames data asks for; 0: none */
    /* Something the user did changed what all graphs show; 'what' says
     * it in words (for --trace-view and the status line). */
    void          (*changed)(void *data, const char *what);
    void *          data;
} graph_window;

GtkWidget *graph_view_new(scope_source *source, graph_window *window,
                          unsigned graph, unsigned views, long max_samples);

/* New data or a new state: redraw, and scroll while data flows. */
void graph_view_update(GraphView *view);
/* The shared view changed: redraw now. */
void graph_view_redraw(GraphView *view);
/* Frames drawn since the last call (--trace-view). */
unsigned graph_view_take_frames(GraphView *view);
/* True, with its size in *width and *height, if the graph's size differs
 * from that of the last call that returned true (--trace-view). */
bool graph_view_take_size(GraphView *view, int *width, int *height);

/* Flip SCOPE_VIEW_* 'view' on or off. */
void graph_view_toggle(GraphView *view, unsigned view_flag);
unsigned graph_view_get_views(GraphView *view);

/* Keep room for a right axis even without timing, so that the time axes
 * of stacked graphs line up. */
void graph_view_set_right_axis(GraphView *view, gboolean right_axis);

/* The graph's value axis: zoom by 'factor' about its middle, move by
 * 'fraction' of its height, autoscale. */
void graph_view_value_zoom(GraphView *view, double factor);
void graph_view_value_pan(GraphView *view, double fraction);
void graph_view_value_auto(GraphView *view);
/* Cycle shared axis, lanes, normalised; flip log scale; lock the range
 * shown now (or unlock it). Each returns a word on what it did. */
const char *graph_view_cycle_scale(GraphView *view);
const char *graph_view_toggle_log(GraphView *view);
const char *graph_view_toggle_lock(GraphView *view);
/* Hide or show the index-th channel (from 0); false if there is none. */
bool graph_view_toggle_channel(GraphView *view, unsigned index);

/* The graph's index-th channel left it: its hidden flag goes too. */
void graph_view_forget_channel(GraphView *view, unsigned index);

/* The value axis as the user set it; the index-th channel hidden? */
const scope_value_view *graph_view_get_values(GraphView *view);
bool graph_view_channel_hidden(GraphView *view, unsigned index);

/* Recompute the readout now (after the cursors moved). */
void graph_view_refresh_readout(GraphView *view);

/* Time under the pointer, or mid-view when the pointer is elsewhere. */
double graph_view_pointer_time(GraphView *view);

/* Value on the shared axis at the pointer's height, and the first channel
 * shown (NULL if none); false when not hovered or the axis is not shared. */
bool graph_view_pointer_value(GraphView *view, double *value,
                              const scope_series **first_shown);

/* The readout lines (hover and cursors) as last drawn, or "". */
const char *graph_view_readout(GraphView *view);

/* The graph as it would be drawn now, for saving; the message is kept in
 * message[size]. Not focused, so no focus ring in saved images. */
void graph_view_fill_model(GraphView *view, graph_model *model,
                           char *message, size_t size);

G_END_DECLS

#endif /* SCOPE_GRAPH_VIEW_H */
