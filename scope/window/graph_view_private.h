/* graph_view_private.h - the graph widget's state, shared by the files
 * that make it (graph_view*.c) and by no one else: graph_view.h stays the
 * widget's only interface. */
#ifndef SCOPE_GRAPH_VIEW_PRIVATE_H
#define SCOPE_GRAPH_VIEW_PRIVATE_H

#include "window/graph_view.h"
#include "draw/graph_draw.h"
#include "draw/graph_retained.h"

#include <gtk/gtk.h>
#include <stdbool.h>

typedef enum drag_kind
{
    DRAG_NONE,
    DRAG_PAN,                           /* time, and values if moved so */
    DRAG_VALUE_AXIS,                    /* zoom values */
    DRAG_BAND,                          /* box zoom; a click: a cursor */
    DRAG_LEGEND                         /* a click: hide or show */
} drag_kind;

struct _GraphView
{
    GtkWidget     parent_instance;
    scope_source *source;
    graph_window *window;
    unsigned      graph;
    unsigned      views;
    long          max_samples;
    guint         tick;                 /* 0: no frame due soon */
    guint         pace_timer;           /* the next frame is further away */
    double        pace_at;              /* when pace_timer fires */
    double        drawn_t0, drawn_t1;   /* span of the last frame drawn */
    double        drawn_newest;         /* newest sample held then */
    double        drawn_lead;           /* its live edge, if filling; NaN */
    unsigned      drawn_count;          /* channels then */
    unsigned      frames;               /* drawn, for --trace-view */
    int           traced_width;         /* size told, for --trace-view */
    int           traced_height;
    bool          scrolling;            /* as of the last frame drawn */
    gboolean      right_axis;
    char          message[256];
    char          trigger_label[160];

    scope_value_view values;
    bool *        hidden;               /* per channel of the graph */
    unsigned      hidden_count;
    double *      legend_values;        /* and intervals, as last shown */
    double *      legend_intervals;
    unsigned      legend_count;
    double        legend_time;
    char          readout[4096];
    double        readout_time;
    double        last_draw;

    graph_frame   frame;                /* as last drawn */
    bool          has_frame;
    graph_retained *retained;           /* the plot, scrolled; NULL: drawn
                                           whole every frame */
    /* The parts of a frame kept while their key stays (graph_bands: the
     * title line and legend, what is around the plot): GTK neither
     * replays nor repaints them. */
    struct
    {
        GskRenderNode *node;
        unsigned char *key;
        size_t         size;
    } kept[GRAPH_PARTS_KEPT];
    cairo_t *     measure;              /* text measures only: no pixels */
    double        pointer_x, pointer_y;

    drag_kind     drag;
    guint         drag_button;
    bool          drag_shift;
    double        drag_x, drag_y;
    scope_time_view drag_time;
    scope_value_view drag_values;
    graph_frame   drag_frame;
    bool          band;
    double        band_x1, band_y1;
};

/* graph_view.c: the widget, its channels, readout and value axis. */
/* Tell the window's graphs that 'what' changed (graph_window.changed). */
void graph_view_tell(GraphView *view, const char *what);
scope_series *const *graph_view_series(GraphView *view, unsigned *count);
/* Channels found since: grow the arrays that follow them. */
bool graph_view_follow_channels(GraphView *view, unsigned count);
double graph_view_time_at_x(const graph_frame *frame, double x);
void graph_view_compute_readout(GraphView *view, double now);
/* The frame drawn has one value axis, which the user may zoom and pan. */
bool graph_view_shared_axis(GraphView *view);
void graph_view_values_changed(GraphView *view);

/* graph_view_draw.c: drawing a frame, and pacing them. */
void graph_view_snapshot(GtkWidget *widget, GtkSnapshot *snapshot);

/* graph_view_input.c: the mouse and the focus. */
void graph_view_input_init(GraphView *view);

#endif /* SCOPE_GRAPH_VIEW_PRIVATE_H */
