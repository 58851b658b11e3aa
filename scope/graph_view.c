/* graph_view.c - the graph widget: snapshot through graph_draw(), scroll
 * with a tick callback while data flows. */
#include "graph_view.h"
#include "graph_draw.h"

#include <stdbool.h>

struct _GraphView
{
    GtkWidget     parent_instance;
    scope_source *source;
    unsigned      graph;
    unsigned      views;
    double        duration;
    long          max_samples;
    guint         tick;                 /* 0: not scrolling */
    bool          scrolling;            /* as of the last frame drawn */
    gboolean      right_axis;
    char          message[256];
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

void graph_view_fill_model(GraphView *view, graph_model *model,
                           char *message, size_t size)
{
    graph_model_fill(model, view->source, view->graph, view->views,
                     view->duration, view->max_samples,
                     g_get_monotonic_time() / 1e6, message, size, NULL);
    model->right_axis = view->right_axis;
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
    graph_model model;
    graph_model_fill(&model, view->source, view->graph, view->views,
                     view->duration, view->max_samples, frame_seconds(widget),
                     view->message, sizeof(view->message), &view->scrolling);
    model.focused = gtk_widget_has_focus(widget);
    model.right_axis = view->right_axis;

    cairo_t *cr = gtk_snapshot_append_cairo(snapshot,
                                            &GRAPHENE_RECT_INIT(0, 0, width,
                                                                height));
    graph_draw(cr, width, height, &model);
    cairo_destroy(cr);
}

static gboolean on_tick(GtkWidget *widget, GdkFrameClock *clock,
                        gpointer data)
{
    (void) clock;
    (void) data;
    GraphView *view = GRAPH_VIEW(widget);
    if (view->scrolling)
    {
        gtk_widget_queue_draw(widget);
        return G_SOURCE_CONTINUE;
    }
    /* Paused or gone: the last frame drawn says so; redraw on news only. */
    view->tick = 0;
    return G_SOURCE_REMOVE;
}

void graph_view_update(GraphView *view)
{
    GtkWidget *widget = GTK_WIDGET(view);
    gtk_widget_queue_draw(widget);
    if (!view->tick)
    {
        view->scrolling = true;         /* until a frame says otherwise */
        view->tick = gtk_widget_add_tick_callback(widget, on_tick, NULL, NULL);
    }
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

static void on_focus_change(GtkEventControllerFocus *controller, gpointer data)
{
    (void) controller;
    gtk_widget_queue_draw(GTK_WIDGET(data));
}

static void on_pressed(GtkGestureClick *gesture, int presses, double x,
                       double y, gpointer data)
{
    (void) gesture;
    (void) presses;
    (void) x;
    (void) y;
    gtk_widget_grab_focus(GTK_WIDGET(data));
}

static void graph_view_dispose(GObject *object)
{
    GraphView *view = GRAPH_VIEW(object);
    if (view->tick)
    {
        gtk_widget_remove_tick_callback(GTK_WIDGET(view), view->tick);
        view->tick = 0;
    }
    G_OBJECT_CLASS(graph_view_parent_class)->dispose(object);
}

static void graph_view_class_init(GraphViewClass *klass)
{
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    object_class->dispose = graph_view_dispose;
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
    gtk_widget_set_size_request(widget, 240, 140);

    GtkEventController *focus = gtk_event_controller_focus_new();
    g_signal_connect(focus, "enter", G_CALLBACK(on_focus_change), view);
    g_signal_connect(focus, "leave", G_CALLBACK(on_focus_change), view);
    gtk_widget_add_controller(widget, focus);

    GtkGesture *click = gtk_gesture_click_new();
    g_signal_connect(click, "pressed", G_CALLBACK(on_pressed), view);
    gtk_widget_add_controller(widget, GTK_EVENT_CONTROLLER(click));
}

GtkWidget *graph_view_new(scope_source *source, unsigned graph,
                          unsigned views, double duration, long max_samples)
{
    GraphView *view = g_object_new(GRAPH_TYPE_VIEW, NULL);
    view->source = source;
    view->graph = graph;
    view->views = views;
    view->duration = duration;
    view->max_samples = max_samples;
    return GTK_WIDGET(view);
}
