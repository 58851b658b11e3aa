/* graph_view.c - the graph widget: snapshot through graph_draw(), scroll
 * with a tick callback while data flows, and the mouse: zoom, pan, box
 * zoom, hover readout, cursors, legend clicks. */
#include "window/graph_view.h"
#include "view/event_markers.h"
#include "view/frame_pace.h"
#include "draw/graph_draw.h"
#include "draw/graph_retained.h"
#include "view/readout.h"
#include "view/trigger.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Legend values and the readout change at most this often, so they can
 * be read while data flows. */
#define REFRESH_SECONDS SCOPE_TEXT_REFRESH
#define WHEEL_FACTOR    1.2             /* zoom per wheel notch */
#define CLICK_SLOP      3.0             /* pixels a click may move */

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
    unsigned      drawn_count;          /* channels then */
    unsigned      frames;               /* drawn, for --trace-view */
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

G_DEFINE_TYPE(GraphView, graph_view, GTK_TYPE_WIDGET)

/* Monotonic seconds of the frame being drawn, on the clock the source
 * is polled with. */
static double frame_seconds(GtkWidget *widget)
{
    GdkFrameClock *clock = gtk_widget_get_frame_clock(widget);
    gint64 us = clock ? gdk_frame_clock_get_frame_time(clock)
                      : g_get_monotonic_time();
    return us / 1e6;
}

static void tell(GraphView *view, const char *what)
{
    if (view->window->changed)
        view->window->changed(view->window->data, what);
}

/* ---- per-channel state ---------------------------------------------------- */

static scope_series *const *graph_series(GraphView *view, unsigned *count)
{
    return scope_source_graph_series(view->source, view->graph, count);
}

/* Channels found since: grow the arrays that follow them. */
static bool follow_channels(GraphView *view, unsigned count)
{
    if (count > view->hidden_count)
    {
        bool *hidden = realloc(view->hidden, count * sizeof(*hidden));
        if (!hidden)
            return false;
        memset(hidden + view->hidden_count, 0,
               (count - view->hidden_count) * sizeof(*hidden));
        view->hidden = hidden;
        view->hidden_count = count;
    }
    if (count > view->legend_count)
    {
        double *values = realloc(view->legend_values,
                                 count * sizeof(*values));
        if (!values)
            return false;
        view->legend_values = values;
        double *intervals = realloc(view->legend_intervals,
                                    count * sizeof(*intervals));
        if (!intervals)
            return false;
        view->legend_intervals = intervals;
        view->legend_count = count;
        view->legend_time = -INFINITY;  /* fill them now */
    }
    return true;
}

static void refresh_legend(GraphView *view, double now)
{
    if (now - view->legend_time < REFRESH_SECONDS &&
        now >= view->legend_time)
        return;
    unsigned count;
    scope_series *const *series = graph_series(view, &count);
    for (unsigned s = 0; s < count && s < view->legend_count; s++)
    {
        view->legend_values[s] = series[s]->latest_value;
        view->legend_intervals[s] = series[s]->latest_interval;
    }
    view->legend_time = now;
}

static bool shared_axis(GraphView *view);

/* ---- readout -------------------------------------------------------------- */

static double time_at_x(const graph_frame *frame, double x)
{
    return scope_x_to_time(x, frame->t0, frame->t1, frame->x, frame->w);
}

static bool in_plot(const graph_frame *frame, double x, double y)
{
    return x >= frame->x && x <= frame->x + frame->w && y >= frame->y &&
           y <= frame->y + frame->h;
}

static void compute_readout(GraphView *view, double now)
{
    graph_window *w = view->window;
    bool hovered = w->hovering && w->hovered == view && view->has_frame;
    bool both = w->has_cursor[0] && w->has_cursor[1];
    view->readout[0] = 0;
    view->readout_time = now;
    if (!hovered && !both)
        return;
    unsigned count;
    scope_series *const *series = graph_series(view, &count);
    if (!follow_channels(view, count))
        return;
    double hover = hovered ? time_at_x(&view->frame, w->hover_x) : NAN;
    size_t used = scope_readout_text(series, count, view->hidden, hover,
                                     w->has_cursor[0] ? w->cursor[0] : NAN,
                                     w->has_cursor[1] ? w->cursor[1] : NAN,
                                     view->readout, sizeof(view->readout));
    /* A marker under the pointer says what happened there. */
    const scope_marker *marker =
        hovered ? scope_markers_near(w->markers, w->hover_x,
                                     SCOPE_MARKER_SLOP, view->frame.t0,
                                     view->frame.t1, view->frame.x,
                                     view->frame.w)
                : NULL;
    if (marker && used < sizeof(view->readout))
        snprintf(view->readout + used, sizeof(view->readout) - used,
                 "%s %s\n", scope_marker_kind_name(marker->kind),
                 marker->text);
}

void graph_view_refresh_readout(GraphView *view)
{
    compute_readout(view, g_get_monotonic_time() / 1e6);
}

const scope_value_view *graph_view_get_values(GraphView *view)
{
    return &view->values;
}

void graph_view_forget_channel(GraphView *view, unsigned index)
{
    if (index < view->hidden_count)
        memmove(view->hidden + index, view->hidden + index + 1,
                (view->hidden_count - index - 1) * sizeof(*view->hidden));
    if (index < view->hidden_count)
        view->hidden[view->hidden_count - 1] = false;
    view->legend_time = -INFINITY;      /* legend values shift: refill */
    graph_view_update(view);
}

bool graph_view_channel_hidden(GraphView *view, unsigned index)
{
    return index < view->hidden_count && view->hidden[index];
}

const char *graph_view_readout(GraphView *view)
{
    return view->readout;
}

double graph_view_pointer_time(GraphView *view)
{
    graph_window *w = view->window;
    if (!view->has_frame)
        return NAN;
    if (w->hovering)
        return time_at_x(&view->frame, w->hover_x);
    return (view->frame.t0 + view->frame.t1) / 2;
}

bool graph_view_pointer_value(GraphView *view, double *value,
                              const scope_series **first_shown)
{
    graph_window *w = view->window;
    if (!w->hovering || w->hovered != view || !shared_axis(view))
        return false;
    const graph_frame *f = &view->frame;
    *value = scope_value_at_fraction(1 - (view->pointer_y - f->y) / f->h,
                                     f->lo, f->hi, f->log);
    unsigned count;
    scope_series *const *series = graph_series(view, &count);
    *first_shown = NULL;
    for (unsigned s = 0; s < count && !*first_shown; s++)
        if (!graph_view_channel_hidden(view, s))
            *first_shown = series[s];
    return isfinite(*value);
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
    if (follow_channels(view, model->series_count))
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
    graph_series(view, &view->drawn_count);
    view->frames++;
}

/* Text that must show at once: the graph's message ("no data since",
 * the program's state), channels come or gone. */
static bool text_changed(GraphView *view, double now)
{
    unsigned count;
    graph_series(view, &count);
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

/* Legend values (or intervals, if shown) other than those drawn, or
 * samples that came into the span of a paused view: worth a frame at the
 * legend's pace. */
static bool values_stale(GraphView *view, const scope_held *held)
{
    if (!isfinite(view->legend_time))
        return true;                    /* never filled, or new channels */
    if (view->window->time.paused && held->newest > view->drawn_newest &&
        view->drawn_newest < view->drawn_t1)
        return true;
    unsigned count;
    scope_series *const *series = graph_series(view, &count);
    bool timing = view->views & SCOPE_VIEW_TIMING;
    for (unsigned s = 0; s < count && s < view->legend_count; s++)
        if (differs(view->legend_values[s], series[s]->latest_value) ||
            (timing && differs(view->legend_intervals[s],
                               series[s]->latest_interval)))
            return true;
    return false;
}

static void graph_view_snapshot(GtkWidget *widget, GtkSnapshot *snapshot)
{
    GraphView *view = GRAPH_VIEW(widget);
    int width = gtk_widget_get_width(widget);
    int height = gtk_widget_get_height(widget);
    if (width <= 0 || height <= 0)
        return;

    /* The model is cheap to fill and points into the source's series,
     * which a poll may have grown since the last frame: fill it here. */
    double now = frame_seconds(widget);
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
        compute_readout(view, now);
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

    /* Live, the right edge on a whole column: each column then holds the
     * same time in every frame, the plot scrolls by whole columns, and a
     * pause keeps that edge. */
    if (!w->time.paused && w->time.span > 0 && isfinite(model.view_end))
    {
        model.view_end = graph_retained_live_end(
            model.view_end, w->time.span, graph_plot_width(&model, width));
        w->held.live_end = model.view_end;
    }

    cairo_t *cr = gtk_snapshot_append_cairo(snapshot,
                                            &GRAPHENE_RECT_INIT(0, 0, width,
                                                                height));
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
    (void) clock;
    (void) data;
    GraphView *view = GRAPH_VIEW(widget);
    if (pace(view, frame_seconds(widget)))
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

void graph_view_redraw(GraphView *view)
{
    view->readout_time = -INFINITY;
    gtk_widget_queue_draw(GTK_WIDGET(view));
    if (!view->window->time.paused)
        graph_view_update(view);
}

void graph_view_toggle(GraphView *view, unsigned view_flag)
{
    view->views ^= view_flag;
    gtk_widget_queue_draw(GTK_WIDGET(view));
}

unsigned graph_view_get_views(GraphView *view)
{
    return view->views;
}

void graph_view_set_right_axis(GraphView *view, gboolean right_axis)
{
    if (view->right_axis == right_axis)
        return;
    view->right_axis = right_axis;
    gtk_widget_queue_draw(GTK_WIDGET(view));
}

/* ---- values --------------------------------------------------------------- */

static void values_changed(GraphView *view)
{
    gtk_widget_queue_draw(GTK_WIDGET(view));
    tell(view, "values");
}

static bool shared_axis(GraphView *view)
{
    return view->has_frame && view->frame.shared &&
           view->values.mode == SCOPE_SCALE_SHARED;
}

void graph_view_value_zoom(GraphView *view, double factor)
{
    if (!shared_axis(view))
        return;
    graph_frame *f = &view->frame;
    double middle = scope_value_at_fraction(0.5, f->lo, f->hi, f->log);
    scope_value_view_zoom(&view->values, f->lo, f->hi, factor, middle);
    values_changed(view);
}

void graph_view_value_pan(GraphView *view, double fraction)
{
    if (!shared_axis(view))
        return;
    scope_value_view_pan(&view->values, view->frame.lo, view->frame.hi,
                         fraction);
    values_changed(view);
}

void graph_view_value_auto(GraphView *view)
{
    scope_value_view_auto(&view->values);
    gtk_widget_queue_draw(GTK_WIDGET(view));
}

const char *graph_view_cycle_scale(GraphView *view)
{
    static const char *const names[] = {
        [SCOPE_SCALE_SHARED] = "one value axis",
        [SCOPE_SCALE_LANES] = "a lane per channel",
        [SCOPE_SCALE_NORMALISED] = "each channel normalised to its range",
    };
    view->values.mode = (view->values.mode + 1) % SCOPE_SCALE_MODES;
    values_changed(view);
    return names[view->values.mode];
}

const char *graph_view_toggle_log(GraphView *view)
{
    view->values.log = !view->values.log;
    view->values.manual = false;        /* a linear range means nothing */
    values_changed(view);
    return view->values.log ? "log scale" : "linear scale";
}

const char *graph_view_toggle_lock(GraphView *view)
{
    if (view->values.manual)
    {
        scope_value_view_auto(&view->values);
        values_changed(view);
        return "value range follows the data";
    }
    if (!shared_axis(view))
        return "lanes and normalised views fit each channel: nothing to lock";
    scope_value_view_set(&view->values, view->frame.lo, view->frame.hi);
    values_changed(view);
    return "value range locked";
}

bool graph_view_toggle_channel(GraphView *view, unsigned index)
{
    unsigned count;
    graph_series(view, &count);
    if (index >= count || !follow_channels(view, count))
        return false;
    view->hidden[index] = !view->hidden[index];
    view->readout_time = -INFINITY;
    gtk_widget_queue_draw(GTK_WIDGET(view));
    return true;
}

/* ---- mouse -------------------------------------------------------------- */

static void on_motion(GtkEventControllerMotion *controller, double x,
                      double y, gpointer data)
{
    (void) controller;
    GraphView *view = data;
    graph_window *w = view->window;
    view->pointer_x = x;
    view->pointer_y = y;
    bool inside = view->has_frame && in_plot(&view->frame, x, y);
    if (!inside && !(w->hovering && w->hovered == view))
        return;
    w->hovering = inside;
    w->hover_x = x;
    w->hovered = view;
    compute_readout(view, g_get_monotonic_time() / 1e6);
    tell(view, inside ? "readout" : NULL);
}

static void on_leave(GtkEventControllerMotion *controller, gpointer data)
{
    (void) controller;
    GraphView *view = data;
    graph_window *w = view->window;
    if (w->hovered != view)
        return;
    w->hovering = false;
    view->readout[0] = 0;
    tell(view, NULL);
}

static gboolean on_scroll(GtkEventControllerScroll *controller, double dx,
                          double dy, gpointer data)
{
    GraphView *view = data;
    if (!view->has_frame)
        return FALSE;
    /* The keys then act on the graph the user just touched. */
    gtk_widget_grab_focus(GTK_WIDGET(view));
    GdkModifierType state = gtk_event_controller_get_current_event_state(
        GTK_EVENT_CONTROLLER(controller));
    double notches = dy != 0 ? dy : dx;
    double factor = pow(WHEEL_FACTOR, notches);
    graph_frame *f = &view->frame;
    if (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK))
    {
        if (!shared_axis(view))
            return TRUE;
        double fraction = 1 - (view->pointer_y - f->y) / f->h;
        double anchor = scope_value_at_fraction(fraction, f->lo, f->hi,
                                                f->log);
        scope_value_view_zoom(&view->values, f->lo, f->hi, factor, anchor);
        values_changed(view);
        return TRUE;
    }
    double anchor = time_at_x(f, view->pointer_x);
    if (view->pointer_x > f->x + f->w - 1)
        anchor = INFINITY;              /* at the right edge: stay live */
    scope_time_view_zoom(&view->window->time, &view->window->held, factor,
                         anchor);
    tell(view, "view");
    return TRUE;
}

static bool in_legend(GraphView *view, double x, double y, unsigned *index)
{
    for (unsigned s = 0; s < view->frame.legend_count; s++)
    {
        const graph_frame *f = &view->frame;
        if (x >= f->legend[s].x && x <= f->legend[s].x + f->legend[s].w &&
            y >= f->legend[s].y && y <= f->legend[s].y + f->legend[s].h)
        {
            *index = s;
            return true;
        }
    }
    return false;
}

static void on_drag_begin(GtkGestureDrag *gesture, double x, double y,
                          gpointer data)
{
    GraphView *view = data;
    unsigned index;
    GdkModifierType state = gtk_event_controller_get_current_event_state(
        GTK_EVENT_CONTROLLER(gesture));
    view->drag_button = gtk_gesture_single_get_current_button(
        GTK_GESTURE_SINGLE(gesture));
    view->drag_shift = (state & GDK_SHIFT_MASK) != 0;
    gtk_widget_grab_focus(GTK_WIDGET(view));
    view->drag_x = x;
    view->drag_y = y;
    view->drag_time = view->window->time;
    view->drag_values = view->values;
    view->drag_frame = view->frame;
    const graph_frame *f = &view->frame;
    if (!view->has_frame)
        view->drag = DRAG_NONE;
    else if (in_legend(view, x, y, &index))
        view->drag = DRAG_LEGEND;
    else if (view->drag_button == GDK_BUTTON_SECONDARY ||
             (view->drag_button == GDK_BUTTON_PRIMARY && view->drag_shift))
        view->drag = in_plot(f, x, y) ? DRAG_BAND : DRAG_NONE;
    else if (x < f->x && y >= f->y && y <= f->y + f->h)
        view->drag = DRAG_VALUE_AXIS;
    else if (in_plot(f, x, y))
        view->drag = DRAG_PAN;
    else
        view->drag = DRAG_NONE;
}

static void on_drag_update(GtkGestureDrag *gesture, double dx, double dy,
                           gpointer data)
{
    (void) gesture;
    GraphView *view = data;
    const graph_frame *f = &view->drag_frame;
    switch (view->drag)
    {
    case DRAG_PAN:
        if (fabs(dx) < CLICK_SLOP && fabs(dy) < CLICK_SLOP)
            return;
        view->window->time = view->drag_time;
        scope_time_view_pan(&view->window->time, &view->window->held,
                            -dx * (f->t1 - f->t0) / f->w);
        if (fabs(dy) > 4 * CLICK_SLOP && f->shared &&
            view->values.mode == SCOPE_SCALE_SHARED)
        {
            view->values = view->drag_values;
            scope_value_view_pan(&view->values, f->lo, f->hi, dy / f->h);
        }
        tell(view, NULL);
        break;
    case DRAG_VALUE_AXIS:
        if (!f->shared)
            return;
        view->values = view->drag_values;
        scope_value_view_zoom(&view->values, f->lo, f->hi, exp(dy / 120),
                              scope_value_at_fraction(
                                  1 - (view->drag_y - f->y) / f->h,
                                  f->lo, f->hi, f->log));
        gtk_widget_queue_draw(GTK_WIDGET(view));
        break;
    case DRAG_BAND:
        view->band = fabs(dx) >= CLICK_SLOP || fabs(dy) >= CLICK_SLOP;
        view->band_x1 = fmin(fmax(view->drag_x + dx, f->x), f->x + f->w);
        view->band_y1 = fmin(fmax(view->drag_y + dy, f->y), f->y + f->h);
        gtk_widget_queue_draw(GTK_WIDGET(view));
        break;
    default:
        break;
    }
}

static void place_cursor(GraphView *view, unsigned which, double t)
{
    graph_window *w = view->window;
    w->has_cursor[which] = true;
    w->cursor[which] = t;
    tell(view, which ? "cursor B" : "cursor A");
}

static void on_drag_end(GtkGestureDrag *gesture, double dx, double dy,
                        gpointer data)
{
    (void) gesture;
    GraphView *view = data;
    const graph_frame *f = &view->drag_frame;
    bool click = fabs(dx) < CLICK_SLOP && fabs(dy) < CLICK_SLOP;
    unsigned index;
    switch (view->drag)
    {
    case DRAG_LEGEND:
        if (click && in_legend(view, view->drag_x, view->drag_y, &index) &&
            graph_view_toggle_channel(view, index))
            tell(view, "channels");
        break;
    case DRAG_BAND:
        view->band = false;
        if (click)
        {
            if (view->drag_button == GDK_BUTTON_SECONDARY)
                place_cursor(view, view->drag_shift,
                             time_at_x(f, view->drag_x));
            gtk_widget_queue_draw(GTK_WIDGET(view));
            break;
        }
        if (fabs(view->band_x1 - view->drag_x) >= CLICK_SLOP)
            scope_time_view_show(&view->window->time,
                                 time_at_x(f, view->drag_x),
                                 time_at_x(f, view->band_x1));
        if (fabs(view->band_y1 - view->drag_y) >= CLICK_SLOP && f->shared &&
            view->values.mode == SCOPE_SCALE_SHARED)
        {
            double top = 1 - (fmin(view->drag_y, view->band_y1) - f->y) / f->h;
            double bottom = 1 - (fmax(view->drag_y, view->band_y1) - f->y) /
                                f->h;
            scope_value_view_set(&view->values,
                                 scope_value_at_fraction(bottom, f->lo, f->hi,
                                                         f->log),
                                 scope_value_at_fraction(top, f->lo, f->hi,
                                                         f->log));
        }
        tell(view, "view");
        break;
    case DRAG_PAN:
        if (!click)
            tell(view, "view");
        break;
    case DRAG_VALUE_AXIS:
        if (!click)
            values_changed(view);
        break;
    default:
        break;
    }
    view->drag = DRAG_NONE;
}

static void on_pressed(GtkGestureClick *gesture, int presses, double x,
                       double y, gpointer data)
{
    (void) gesture;
    GraphView *view = data;
    gtk_widget_grab_focus(GTK_WIDGET(view));
    if (presses == 2 && view->has_frame && in_plot(&view->frame, x, y))
        gtk_widget_activate_action(GTK_WIDGET(view), "app.live", NULL);
}

static void on_focus_change(GtkEventControllerFocus *controller, gpointer data)
{
    (void) controller;
    gtk_widget_queue_draw(GTK_WIDGET(data));
}

/* ---- life ----------------------------------------------------------------- */

static void graph_view_dispose(GObject *object)
{
    GraphView *view = GRAPH_VIEW(object);
    if (view->tick)
    {
        gtk_widget_remove_tick_callback(GTK_WIDGET(view), view->tick);
        view->tick = 0;
    }
    if (view->pace_timer)
    {
        g_source_remove(view->pace_timer);
        view->pace_timer = 0;
    }
    if (view->window && view->window->hovered == view)
    {
        view->window->hovered = NULL;
        view->window->hovering = false;
    }
    G_OBJECT_CLASS(graph_view_parent_class)->dispose(object);
}

static void graph_view_finalize(GObject *object)
{
    GraphView *view = GRAPH_VIEW(object);
    free(view->hidden);
    free(view->legend_values);
    free(view->legend_intervals);
    graph_retained_delete(view->retained);
    G_OBJECT_CLASS(graph_view_parent_class)->finalize(object);
}

static void graph_view_class_init(GraphViewClass *klass)
{
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    object_class->dispose = graph_view_dispose;
    object_class->finalize = graph_view_finalize;
    widget_class->snapshot = graph_view_snapshot;
    gtk_widget_class_set_css_name(widget_class, "graphview");
}

static void add_drag(GraphView *view, guint button)
{
    GtkGesture *drag = gtk_gesture_drag_new();
    gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(drag), button);
    g_signal_connect(drag, "drag-begin", G_CALLBACK(on_drag_begin), view);
    g_signal_connect(drag, "drag-update", G_CALLBACK(on_drag_update), view);
    g_signal_connect(drag, "drag-end", G_CALLBACK(on_drag_end), view);
    gtk_widget_add_controller(GTK_WIDGET(view), GTK_EVENT_CONTROLLER(drag));
}

static void graph_view_init(GraphView *view)
{
    GtkWidget *widget = GTK_WIDGET(view);
    gtk_widget_set_focusable(widget, TRUE);
    gtk_widget_set_focus_on_click(widget, TRUE);
    gtk_widget_set_hexpand(widget, TRUE);
    gtk_widget_set_vexpand(widget, TRUE);
    /* The smallest graph that stays readable; more graphs than fit
     * scroll. */
    gtk_widget_set_size_request(widget, 240, 150);

    GtkEventController *focus = gtk_event_controller_focus_new();
    g_signal_connect(focus, "enter", G_CALLBACK(on_focus_change), view);
    g_signal_connect(focus, "leave", G_CALLBACK(on_focus_change), view);
    gtk_widget_add_controller(widget, focus);

    GtkGesture *click = gtk_gesture_click_new();
    g_signal_connect(click, "pressed", G_CALLBACK(on_pressed), view);
    gtk_widget_add_controller(widget, GTK_EVENT_CONTROLLER(click));

    add_drag(view, GDK_BUTTON_PRIMARY);
    add_drag(view, GDK_BUTTON_SECONDARY);

    GtkEventController *motion = gtk_event_controller_motion_new();
    g_signal_connect(motion, "motion", G_CALLBACK(on_motion), view);
    g_signal_connect(motion, "leave", G_CALLBACK(on_leave), view);
    gtk_widget_add_controller(widget, motion);

    GtkEventController *scroll = gtk_event_controller_scroll_new(
        GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
    g_signal_connect(scroll, "scroll", G_CALLBACK(on_scroll), view);
    gtk_widget_add_controller(widget, scroll);
}

GtkWidget *graph_view_new(scope_source *source, graph_window *window,
                          unsigned graph, unsigned views, long max_samples)
{
    GraphView *view = g_object_new(GRAPH_TYPE_VIEW, NULL);
    view->source = source;
    view->window = window;
    view->graph = graph;
    view->views = views;
    view->max_samples = max_samples;
    view->legend_time = -INFINITY;
    view->readout_time = -INFINITY;
    view->retained = graph_retained_new();
    return GTK_WIDGET(view);
}
