/* graph_view.c - the graph widget: its life, the channels it follows and
 * hides, the readout under the pointer and at the cursors, and its value
 * axis as the keys change it. It draws in graph_view_draw.c and takes the
 * mouse in graph_view_input.c, which share graph_view_private.h. */
#include "window/graph_view_private.h"
#include "view/event_markers.h"
#include "view/readout.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

G_DEFINE_TYPE(GraphView, graph_view, GTK_TYPE_WIDGET)

void graph_view_tell(GraphView *view, const char *what)
{
    if (view->window->changed)
        view->window->changed(view->window->data, what);
}

/* ---- per-channel state ---------------------------------------------------- */

scope_series *const *graph_view_series(GraphView *view, unsigned *count)
{
    return scope_source_graph_series(view->source, view->graph, count);
}

/* Channels found since: grow the arrays that follow them. */
bool graph_view_follow_channels(GraphView *view, unsigned count)
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

/* ---- readout -------------------------------------------------------------- */

double graph_view_time_at_x(const graph_frame *frame, double x)
{
    return scope_x_to_time(x, frame->t0, frame->t1, frame->x, frame->w);
}

void graph_view_compute_readout(GraphView *view, double now)
{
    graph_window *w = view->window;
    bool hovered = w->hovering && w->hovered == view && view->has_frame;
    bool both = w->has_cursor[0] && w->has_cursor[1];
    view->readout[0] = 0;
    view->readout_time = now;
    if (!hovered && !both)
        return;
    unsigned count;
    scope_series *const *series = graph_view_series(view, &count);
    if (!graph_view_follow_channels(view, count))
        return;
    double hover = hovered ? graph_view_time_at_x(&view->frame, w->hover_x)
                           : NAN;
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
    graph_view_compute_readout(view, g_get_monotonic_time() / 1e6);
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
        return graph_view_time_at_x(&view->frame, w->hover_x);
    return (view->frame.t0 + view->frame.t1) / 2;
}

bool graph_view_pointer_value(GraphView *view, double *value,
                              const scope_series **first_shown)
{
    graph_window *w = view->window;
    if (!w->hovering || w->hovered != view || !graph_view_shared_axis(view))
        return false;
    const graph_frame *f = &view->frame;
    *value = scope_value_at_fraction(1 - (view->pointer_y - f->y) / f->h,
                                     f->lo, f->hi, f->log);
    unsigned count;
    scope_series *const *series = graph_view_series(view, &count);
    *first_shown = NULL;
    for (unsigned s = 0; s < count && !*first_shown; s++)
        if (!graph_view_channel_hidden(view, s))
            *first_shown = series[s];
    return isfinite(*value);
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

void graph_view_values_changed(GraphView *view)
{
    gtk_widget_queue_draw(GTK_WIDGET(view));
    graph_view_tell(view, "values");
}

bool graph_view_shared_axis(GraphView *view)
{
    return view->has_frame && view->frame.shared &&
           view->values.mode == SCOPE_SCALE_SHARED;
}

void graph_view_value_zoom(GraphView *view, double factor)
{
    if (!graph_view_shared_axis(view))
        return;
    graph_frame *f = &view->frame;
    double middle = scope_value_at_fraction(0.5, f->lo, f->hi, f->log);
    scope_value_view_zoom(&view->values, f->lo, f->hi, factor, middle);
    graph_view_values_changed(view);
}

void graph_view_value_pan(GraphView *view, double fraction)
{
    if (!graph_view_shared_axis(view))
        return;
    scope_value_view_pan(&view->values, view->frame.lo, view->frame.hi,
                         fraction);
    graph_view_values_changed(view);
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
    graph_view_values_changed(view);
    return names[view->values.mode];
}

const char *graph_view_toggle_log(GraphView *view)
{
    view->values.log = !view->values.log;
    view->values.manual = false;        /* a linear range means nothing */
    graph_view_values_changed(view);
    return view->values.log ? "log scale" : "linear scale";
}

const char *graph_view_toggle_lock(GraphView *view)
{
    if (view->values.manual)
    {
        scope_value_view_auto(&view->values);
        graph_view_values_changed(view);
        return "value range follows the data";
    }
    if (!graph_view_shared_axis(view))
        return "lanes and normalised views fit each channel: nothing to lock";
    scope_value_view_set(&view->values, view->frame.lo, view->frame.hi);
    graph_view_values_changed(view);
    return "value range locked";
}

bool graph_view_toggle_channel(GraphView *view, unsigned index)
{
    unsigned count;
    graph_view_series(view, &count);
    if (index >= count || !graph_view_follow_channels(view, count))
        return false;
    view->hidden[index] = !view->hidden[index];
    view->readout_time = -INFINITY;
    gtk_widget_queue_draw(GTK_WIDGET(view));
    return true;
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
    for (unsigned k = 0; k < GRAPH_PARTS_KEPT; k++)
    {
        if (view->kept[k].node)
            gsk_render_node_unref(view->kept[k].node);
        free(view->kept[k].key);
    }
    if (view->measure)
        cairo_destroy(view->measure);
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
    graph_view_input_init(view);
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
