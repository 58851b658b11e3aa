/* graph_view_draw.c - the graph widget's frames: the model of one, filled
 * from the source and the shared view and drawn through graph_draw() (or
 * the retained plot, scrolled), and their pace: a frame when the picture
 * changed, from the display's frame clock when that is every few frames,
 * from a timer when further apart (frame_pace.h). */
#include "window/graph_view_private.h"
#include "view/frame_pace.h"
#include "view/trigger.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Legend values and the readout change at most this often, so they can
 * be read while data flows. */
#define REFRESH_SECONDS SCOPE_TEXT_REFRESH

/* Monotonic seconds of the frame being drawn, on the clock the source
 * is polled with. 'clock' if known: finding the widget's walks up to its
 * window, at every tick of every graph. */
static double frame_seconds(GtkWidget *widget, GdkFrameClock *clock)
{
    if (!clock)
        clock = gtk_widget_get_frame_clock(widget);
    gint64 us = clock ? gdk_frame_clock_get_frame_time(clock)
                      : g_get_monotonic_time();
    return us / 1e6;
}

/* The legend's values, a few times a second; a paused view holds them
 * still with the rest of the graph (as a scope on hold does): the hover
 * readout tells a value at any time. */
static void refresh_legend(GraphView *view, double now)
{
    if (view->window->time.paused && isfinite(view->legend_time))
        return;
    if (now - view->legend_time < REFRESH_SECONDS &&
        now >= view->legend_time)
        return;
    unsigned count;
    scope_series *const *series = graph_view_series(view, &count);
    for (unsigned s = 0; s < count && s < view->legend_count; s++)
    {
        view->legend_values[s] = series[s]->latest_value;
        view->legend_intervals[s] = series[s]->latest_interval;
    }
    view->legend_time = now;
}

/* ---- drawing -------------------------------------------------------------- */

static void fill_model(GraphView *view, graph_model *model, double now,
                       char *message, size_t size)
{
    graph_window *w = view->window;
    bool scrolling;
    graph_model_held(view->source, now, &w->held, &scrolling);
    graph_model_fill(model, view->source, view->graph, view->views,
                     &w->time, &w->held, view->max_samples, now, message,
                     size);
    view->scrolling = scrolling && !w->time.paused;
    model->right_axis = view->right_axis;
    model->palette = w->palette;
    model->values = view->values;
    if (graph_view_follow_channels(view, model->series_count))
    {
        model->hidden = view->hidden;
        refresh_legend(view, now);
        model->legend_values = view->legend_values;
        model->legend_intervals = view->legend_intervals;
    }
    for (unsigned c = 0; c < 2; c++)
    {
        model->has_cursor[c] = w->has_cursor[c];
        model->cursor[c] = w->cursor[c];
    }
    if (w->trigger)
        scope_trigger_mark(w->trigger, model, view->trigger_label,
                           sizeof(view->trigger_label));
    model->markers = w->markers;
}

void graph_view_fill_model(GraphView *view, graph_model *model,
                           char *message, size_t size)
{
    fill_model(view, model, g_get_monotonic_time() / 1e6, message, size);
}

/* ---- pacing: a frame when the picture changed (frame_pace.h) ----------- */

/* What a frame just drew, for the pace of the next: the span as the view
 * model says it (fill_model set the held range), the channels, the newest
 * sample. */
static void frame_drawn(GraphView *view)
{
    graph_window *w = view->window;
    scope_time_view_window(&w->time, &w->held, &view->drawn_t0,
                           &view->drawn_t1);
    view->drawn_newest = w->held.newest;
    view->drawn_lead = scope_time_view_filling(&w->time, &w->held)
                     ? w->held.live_end : NAN;
    graph_view_series(view, &view->drawn_count);
    view->frames++;
}

/* Text that must show at once: the graph's message ("no data since",
 * the program's state), channels come or gone. */
static bool text_changed(GraphView *view, double now)
{
    unsigned count;
    graph_view_series(view, &count);
    if (count != view->drawn_count)
        return true;
    char message[sizeof(view->message)];
    scope_source_graph_message(view->source, view->graph, now, message,
                               sizeof(message));
    return strcmp(message, view->message) != 0;
}

static bool differs(double shown, double latest)
{
    return shown != latest && !(isnan(shown) && isnan(latest));
}

/* Legend values (or intervals, if shown) other than those drawn, live,
 * or samples that came into the span of a paused view: worth a frame at
 * the legend's pace. */
static bool values_stale(GraphView *view, const scope_held *held)
{
    if (!isfinite(view->legend_time))
        return true;                    /* never filled, or new channels */
    if (view->window->time.paused)
        return held->newest > view->drawn_newest &&
               view->drawn_newest < view->drawn_t1;
    unsigned count;
    scope_series *const *series = graph_view_series(view, &count);
    bool timing = view->views & SCOPE_VIEW_TIMING;
    for (unsigned s = 0; s < count && s < view->legend_count; s++)
        if (differs(view->legend_values[s], series[s]->latest_value) ||
            (timing && differs(view->legend_intervals[s],
                               series[s]->latest_interval)))
            return true;
    return false;
}

/* ---- parts: those kept while they show the same ----------------------- */

typedef struct band_nodes
{
    GraphView *  view;
    GtkSnapshot *snapshot;              /* the frame's */
    GtkSnapshot *kept;                  /* a kept part's, being drawn */
    bool         any;                   /* a part was opened */
} band_nodes;

/* The slot in view->kept of a part kept from frame to frame, or -1. */
static int kept_slot(graph_part part)
{
    return part < GRAPH_PARTS_KEPT ? (int) part : -1;
}

static cairo_t *open_part(void *data, graph_part part, double x, double y,
                          double w, double h, const void *key, size_t size)
{
    band_nodes *b = data;
    GraphView *view = b->view;
    graphene_rect_t rect = GRAPHENE_RECT_INIT(x, y, w, h);
    int slot = kept_slot(part);
    b->any = true;
    if (slot < 0)
        return gtk_snapshot_append_cairo(b->snapshot, &rect);
    if (view->kept[slot].node && size == view->kept[slot].size &&
        memcmp(key, view->kept[slot].key, size) == 0)
    {
        gtk_snapshot_append_node(b->snapshot, view->kept[slot].node);
        return NULL;
    }
    unsigned char *copy = realloc(view->kept[slot].key, size);
    if (copy)
        memcpy(copy, key, size);
    view->kept[slot].key = copy;
    view->kept[slot].size = copy ? size : 0;
    b->kept = gtk_snapshot_new();
    return gtk_snapshot_append_cairo(b->kept, &rect);
}

static void close_part(void *data, graph_part part, cairo_t *cr)
{
    band_nodes *b = data;
    GraphView *view = b->view;
    cairo_destroy(cr);
    int slot = kept_slot(part);
    if (slot < 0 || !b->kept)
        return;
    if (view->kept[slot].node)
        gsk_render_node_unref(view->kept[slot].node);
    view->kept[slot].node = gtk_snapshot_free_to_node(b->kept);
    b->kept = NULL;
    if (view->kept[slot].node)
        gtk_snapshot_append_node(b->snapshot, view->kept[slot].node);
    if (!view->kept[slot].node || !view->kept[slot].key)
    {
        /* Not kept: drawn again next frame. */
        free(view->kept[slot].key);
        view->kept[slot].key = NULL;
        view->kept[slot].size = 0;
    }
}

/* The frame in parts (graph_bands), each a node of its own, those that
 * show what they showed last the same node again. False if it could not
 * be (the caller then draws it whole). */
static bool draw_in_bands(GraphView *view, GtkSnapshot *snapshot, int width,
                          int height, const graph_model *model)
{
    if (!view->measure)
    {
        /* Measured as on GTK's nodes, which record for replay. */
        cairo_surface_t *surface = cairo_recording_surface_create(
            CAIRO_CONTENT_COLOR_ALPHA, &(cairo_rectangle_t) { 0, 0, 1, 1 });
        view->measure = cairo_create(surface);
        cairo_surface_destroy(surface);
    }
    band_nodes b = { .view = view, .snapshot = snapshot };
    graph_bands bands = { .data = &b, .open = open_part,
                          .close = close_part };
    graph_retained_set_scale(view->retained,
                             gtk_widget_get_scale_factor(GTK_WIDGET(view)));
    graph_retained_set_bands(view->retained, &bands);
    graph_retained_draw(view->retained, view->measure, width, height, model,
                        &view->frame);
    graph_retained_set_bands(view->retained, NULL);
    return b.any;
}

void graph_view_snapshot(GtkWidget *widget, GtkSnapshot *snapshot)
{
    GraphView *view = GRAPH_VIEW(widget);
    int width = gtk_widget_get_width(widget);
    int height = gtk_widget_get_height(widget);
    if (width <= 0 || height <= 0)
        return;

    /* The model is cheap to fill and points into the source's series,
     * which a poll may have grown since the last frame: fill it here. */
    double now = frame_seconds(widget, NULL);
    graph_model model;
    fill_model(view, &model, now, view->message, sizeof(view->message));
    model.focused = view->window->focused ? view->window->focused == view
                                          : gtk_widget_has_focus(widget);

    graph_window *w = view->window;
    if (w->hovering && view->has_frame)
    {
        model.crosshair = true;
        model.crosshair_x = w->hover_x;
        model.crosshair_y = w->hovered == view ? view->pointer_y : -1;
    }
    if (now - view->readout_time >= REFRESH_SECONDS)
        graph_view_compute_readout(view, now);
    if (view->readout[0])
    {
        model.readout = view->readout;
        bool here = w->hovering && w->hovered == view;
        model.readout_x = here ? w->hover_x : -1;
        model.readout_y = here ? view->pointer_y : -1;
    }
    if (view->band)
    {
        model.band = true;
        model.band_x0 = view->drag_x;
        model.band_y0 = view->drag_y;
        model.band_x1 = view->band_x1;
        model.band_y1 = view->band_y1;
    }

    /* Live, the edges on whole columns: each column then holds the same
     * time in every frame, the plot scrolls by whole columns (the kept
     * plot is reused, only new columns drawn), and a pause keeps that
     * edge. A span still filling has its left edge on its first sample,
     * rounded down (rounding its right edge up would push that sample off
     * the plot); once full, its right edge is rounded up. */
    if (!w->time.paused && w->time.span > 0 && isfinite(model.view_end))
    {
        double columns = graph_plot_width(&model, width);
        if (scope_time_view_filling(&w->time, &w->held))
            model.view_end = graph_retained_filling_end(
                model.view_end - w->time.span, w->time.span, columns);
        else
        {
            model.view_end = graph_retained_live_end(
                model.view_end, w->time.span, columns);
            w->held.live_end = model.view_end;
        }
    }

    /* Nothing over the plot that may reach around it: in parts. */
    bool overlays = model.crosshair || model.readout || model.band ||
                    model.has_cursor[0] || model.has_cursor[1];
    if (!view->retained || overlays || !draw_in_bands(view, snapshot, width,
                                                      height, &model))
    {
        cairo_t *cr = gtk_snapshot_append_cairo(
            snapshot, &GRAPHENE_RECT_INIT(0, 0, width, height));
        if (view->retained)
        {
            graph_retained_set_scale(view->retained,
                                     gtk_widget_get_scale_factor(widget));
            graph_retained_draw(view->retained, cr, width, height, &model,
                                &view->frame);
        }
        else
            graph_draw_frame(cr, width, height, &model, &view->frame);
        cairo_destroy(cr);
    }
    view->has_frame = true;
    view->last_draw = now;
    frame_drawn(view);
}

/* A next frame closer than this is waited for by the frame clock's ticks,
 * a further one by a timer (the clock would wake for nothing meanwhile). */
#define TICK_AHEAD      0.04

static gboolean on_tick(GtkWidget *widget, GdkFrameClock *clock,
                        gpointer data);

static void start_ticking(GraphView *view)
{
    if (view->pace_timer)
    {
        g_source_remove(view->pace_timer);
        view->pace_timer = 0;
    }
    if (!view->tick)
        view->tick = gtk_widget_add_tick_callback(GTK_WIDGET(view), on_tick,
                                                  NULL, NULL);
}

static gboolean on_pace_timer(gpointer data)
{
    GraphView *view = data;
    view->pace_timer = 0;
    start_ticking(view);                /* its next frame decides */
    return G_SOURCE_REMOVE;
}

/* Queue a frame if one is due at 'now'; true if the next may be due
 * within a few display frames (keep ticking), else a timer waits for it
 * (none if nothing will be due until something happens). */
static bool pace(GraphView *view, double now)
{
    graph_window *w = view->window;
    scope_held held;
    bool scrolling;
    graph_model_held(view->source, now, &held, &scrolling);
    scope_frame_pace input = {
        .now = now,
        .drawn_t0 = view->has_frame ? view->drawn_t0 : NAN,
        .drawn_t1 = view->has_frame ? view->drawn_t1 : NAN,
        .width = view->frame.w,
        .scrolling = scrolling && !w->time.paused,
        .filling = scope_time_view_filling(&w->time, &held),
        .lead = held.live_end,
        .drawn_lead = view->has_frame ? view->drawn_lead : NAN,
        .changed = text_changed(view, now),
        .stale = values_stale(view, &held),
        .text_time = view->legend_time,
        .last_frame = view->last_draw,
        .min_interval = w->min_frame_interval,
    };
    scope_time_view_window(&w->time, &held, &input.t0, &input.t1);
    double next;
    if (scope_frame_pace_due(&input, &next))
    {
        gtk_widget_queue_draw(GTK_WIDGET(view));
        return true;
    }
    if (next - now <= TICK_AHEAD)
        return true;
    if (view->pace_timer && view->pace_at <= next)
        return false;
    if (view->pace_timer)
        g_source_remove(view->pace_timer);
    view->pace_timer = 0;
    if (isfinite(next))
    {
        view->pace_at = next;
        view->pace_timer = g_timeout_add((guint) ceil((next - now) * 1e3),
                                         on_pace_timer, view);
    }
    return false;
}

static gboolean on_tick(GtkWidget *widget, GdkFrameClock *clock,
                        gpointer data)
{
    (void) data;
    GraphView *view = GRAPH_VIEW(widget);
    if (pace(view, frame_seconds(widget, clock)))
        return G_SOURCE_CONTINUE;
    view->tick = 0;
    return G_SOURCE_REMOVE;
}

void graph_view_update(GraphView *view)
{
    /* While the frame clock ticks, its next frame decides. */
    if (!view->tick && pace(view, g_get_monotonic_time() / 1e6))
        start_ticking(view);
}

unsigned graph_view_take_frames(GraphView *view)
{
    unsigned frames = view->frames;
    view->frames = 0;
    return frames;
}

bool graph_view_take_size(GraphView *view, int *width, int *height)
{
    *width = gtk_widget_get_width(GTK_WIDGET(view));
    *height = gtk_widget_get_height(GTK_WIDGET(view));
    if (*width == view->traced_width && *height == view->traced_height)
        return false;
    view->traced_width = *width;
    view->traced_height = *height;
    return true;
}

void graph_view_redraw(GraphView *view)
{
    view->readout_time = -INFINITY;
    gtk_widget_queue_draw(GTK_WIDGET(view));
    if (!view->window->time.paused)
        graph_view_update(view);
}

