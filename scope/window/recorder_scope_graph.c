/* recorder_scope_graph.c - RecorderScopeGraph, the live graph other
 * programs embed (include/recorder/recorder_scope_graph.h), and the graphs
 * of recorder_scope's own window (graph_in_window.h).
 *
 * It holds one GraphView, the widget that draws and takes the mouse, so
 * the window and an embedding program show the same graph. Embedded, it
 * owns a source with one graph of the channels asked for and a time axis
 * of its own, and polls the source while it is mapped; in the window, the
 * window owns and polls them and the widget only holds the view. */
#include "window/graph_in_window.h"
#include "view/event_markers.h"
#include "view/palette.h"
#include "view/trigger.h"

#include <math.h>
#include <string.h>

#define POLL_MS         20              /* as the window: 50 reads a second */
#define DEFAULT_SPAN    10.0            /* seconds, as recorder_scope -d */

struct _RecorderScopeGraph
{
    GtkWidget     parent_instance;
    GraphView *   view;                 /* NULL until a source is made */
    scope_source *source;
    graph_window *window;               /* &own or the scope window's */
    bool          in_window;            /* source and window not ours */
    graph_window  own;
    scope_markers *markers;             /* of 'own': none, but drawn */
    char *        segment;
    char *        channels;
    char *        trigger_spec;
    bool          triggering;
    scope_trigger trigger;
    double        trigger_shown;
    guint         poll;
    GArray *      states;               /* scope_source_state per segment,
                                           as the last poll left it */
    gboolean      told_paused;          /* as last notified */
    double        told_span;
    gboolean      told_autoscale;
};

G_DEFINE_FINAL_TYPE(RecorderScopeGraph, recorder_scope_graph,
                    GTK_TYPE_WIDGET)

enum
{
    PROP_0,
    PROP_SEGMENT,
    PROP_CHANNELS,
    PROP_SPAN,
    PROP_PAUSED,
    PROP_AUTOSCALE,
    PROP_TRIGGER,
    PROP_MESSAGE,
    PROP_LIVE,
    PROP_COUNT
};

enum
{
    SIGNAL_SOURCE_ATTACHED,
    SIGNAL_SOURCE_LOST,
    SIGNAL_TRIGGER_FIRED,
    SIGNAL_COUNT
};

static GParamSpec *properties[PROP_COUNT];
static guint signals[SIGNAL_COUNT];

/* ---- what changed, told as GObject notifications ------------------------ */

static void tell_view_changes(RecorderScopeGraph *graph)
{
    gboolean paused = recorder_scope_graph_get_paused(graph);
    double span = recorder_scope_graph_get_span(graph);
    gboolean autoscale = recorder_scope_graph_get_autoscale(graph);
    if (paused != graph->told_paused)
    {
        graph->told_paused = paused;
        g_object_notify_by_pspec(G_OBJECT(graph), properties[PROP_PAUSED]);
    }
    if (span != graph->told_span)
    {
        graph->told_span = span;
        g_object_notify_by_pspec(G_OBJECT(graph), properties[PROP_SPAN]);
    }
    if (autoscale != graph->told_autoscale)
    {
        graph->told_autoscale = autoscale;
        g_object_notify_by_pspec(G_OBJECT(graph),
                                 properties[PROP_AUTOSCALE]);
    }
}

/* graph_window's 'changed' when the time axis is ours: the mouse zoomed,
 * panned or went live, or the values or cursors moved. */
static void own_view_changed(void *data, const char *what)
{
    (void) what;
    RecorderScopeGraph *graph = data;
    if (graph->view)
        graph_view_redraw(graph->view);
    tell_view_changes(graph);
}

/* ---- the source, made when first needed --------------------------------- */

static void drop_source(RecorderScopeGraph *graph)
{
    if (graph->in_window)
        return;
    /* The view reads the source: it goes first. */
    if (graph->view)
    {
        gtk_widget_unparent(GTK_WIDGET(graph->view));
        graph->view = NULL;
    }
    scope_source_delete(graph->source);
    graph->source = NULL;
    g_array_set_size(graph->states, 0);
    graph->own.hovering = false;
    graph->own.hovered = NULL;
    graph->own.focused = NULL;
    graph->own.has_cursor[0] = graph->own.has_cursor[1] = false;
}

static bool make_source(RecorderScopeGraph *graph)
{
    if (graph->source)
        return true;
    scope_source_config config = {
        .duration = graph->own.time.default_span,
        .keep = SCOPE_HISTORY_DEFAULT,
        .ratio = 0.1,
    };
    const char *paths[] = { graph->segment };
    graph->source = scope_source_new_paths(paths, graph->segment ? 1 : 0,
                                           &config);
    if (!graph->source)
        return false;
    if (scope_source_add_graph(graph->source, graph->channels) < 0)
    {
        scope_source_delete(graph->source);
        graph->source = NULL;
        return false;
    }
    /* Every sample of the span, as recorder_scope without -w. */
    GtkWidget *view = graph_view_new(graph->source, &graph->own, 0,
                                     SCOPE_VIEW_NORMAL, -1);
    graph->view = GRAPH_VIEW(view);
    graph->own.focused = graph->view;
    gtk_widget_set_parent(view, GTK_WIDGET(graph));
    if (graph->triggering)
        scope_trigger_arm(&graph->trigger);
    return true;
}

/* ---- polling, while shown ----------------------------------------------- */

static bool lost(scope_source_state before, scope_source_state now)
{
    return before == SCOPE_SOURCE_LIVE && now != SCOPE_SOURCE_LIVE;
}

/* Each segment that a process attached, or that lost its writer. */
static void tell_segments(RecorderScopeGraph *graph)
{
    scope_source *source = graph->source;
    unsigned count = scope_source_segment_count(source);
    if (graph->states->len < count)
    {
        unsigned had = graph->states->len;
        g_array_set_size(graph->states, count);
        for (unsigned i = had; i < count; i++)
            g_array_index(graph->states, int, i) = SCOPE_SOURCE_WAITING;
    }
    for (unsigned i = 0; i < count && graph->source == source; i++)
    {
        scope_source *segment = scope_source_segment(source, i);
        scope_source_state now = scope_source_get_state(segment);
        scope_source_state before = g_array_index(graph->states, int, i);
        g_array_index(graph->states, int, i) = now;
        if (scope_source_segment_found(source, i) & SCOPE_POLL_ATTACHED)
            g_signal_emit(graph, signals[SIGNAL_SOURCE_ATTACHED], 0,
                          scope_source_segment_name(source, i));
        else if (lost(before, now))
            g_signal_emit(graph, signals[SIGNAL_SOURCE_LOST], 0,
                          scope_source_message(segment));
    }
}

static void follow_trigger(RecorderScopeGraph *graph)
{
    double t0, t1;
    scope_time_view_window(&graph->own.time, &graph->own.held, &t0, &t1);
    unsigned found = scope_trigger_follow(&graph->trigger, graph->source, 1,
                                          t1 - t0);
    if (found & SCOPE_TRIGGER_FIRED)
        g_signal_emit(graph, signals[SIGNAL_TRIGGER_FIRED], 0,
                      graph->trigger.time);
    if (scope_trigger_steer(&graph->trigger, found, &graph->own.time,
                            &graph->trigger_shown))
        own_view_changed(graph, "view");
}

static void poll_once(RecorderScopeGraph *graph)
{
    if (!make_source(graph))
        return;
    scope_source *source = graph->source;
    unsigned found = scope_source_poll(source, g_get_monotonic_time() / 1e6);
    if (found & (SCOPE_POLL_STATE | SCOPE_POLL_ATTACHED))
    {
        g_object_notify_by_pspec(G_OBJECT(graph), properties[PROP_MESSAGE]);
        g_object_notify_by_pspec(G_OBJECT(graph), properties[PROP_LIVE]);
    }
    tell_segments(graph);
    if (graph->source != source)        /* a handler changed the segment */
        return;
    if (scope_source_graph_take_new(source, 0) ||
        (found & (SCOPE_POLL_STATE | SCOPE_POLL_ATTACHED |
                  SCOPE_POLL_CHANNELS)))
        graph_view_update(graph->view);
    if (graph->triggering)
        follow_trigger(graph);
}

static gboolean on_poll(gpointer data)
{
    /* Kept alive through handlers of the signals it emits. */
    RecorderScopeGraph *graph = g_object_ref(data);
    poll_once(graph);
    g_object_unref(graph);
    return G_SOURCE_CONTINUE;
}

static void start_polling(RecorderScopeGraph *graph)
{
    if (graph->in_window || graph->poll)
        return;
    on_poll(graph);                     /* shown on what is there at once */
    graph->poll = g_timeout_add(POLL_MS, on_poll, graph);
}

static void stop_polling(RecorderScopeGraph *graph)
{
    if (graph->poll)
    {
        g_source_remove(graph->poll);
        graph->poll = 0;
    }
}

/* ---- the public API ----------------------------------------------------- */

GtkWidget *recorder_scope_graph_new(const char *segment, const char *channels)
{
    return g_object_new(RECORDER_SCOPE_TYPE_GRAPH, "segment", segment,
                        "channels", channels, NULL);
}

/* After a change of what is read: start again from nothing. */
static void restart(RecorderScopeGraph *graph)
{
    drop_source(graph);
    if (gtk_widget_get_mapped(GTK_WIDGET(graph)))
    {
        stop_polling(graph);
        start_polling(graph);
    }
    g_object_notify_by_pspec(G_OBJECT(graph), properties[PROP_MESSAGE]);
    g_object_notify_by_pspec(G_OBJECT(graph), properties[PROP_LIVE]);
}

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* The segment or the channels ('*text', property 'prop'): "" is NULL. */
static void set_what_is_read(RecorderScopeGraph *graph, char **text,
                             const char *value, guint prop)
{
    g_return_if_fail(!graph->in_window);
    if (value && !*value)
        value = NULL;
    if (same_text(value, *text))
        return;
    g_free(*text);
    *text = g_strdup(value);
    restart(graph);
    g_object_notify_by_pspec(G_OBJECT(graph), properties[prop]);
}

const char *recorder_scope_graph_get_segment(RecorderScopeGraph *graph)
{
    g_return_val_if_fail(RECORDER_SCOPE_IS_GRAPH(graph), NULL);
    if (graph->in_window)
        return scope_source_path(graph->source);
    return graph->segment;
}

void recorder_scope_graph_set_segment(RecorderScopeGraph *graph,
                                      const char *segment)
{
    g_return_if_fail(RECORDER_SCOPE_IS_GRAPH(graph));
    set_what_is_read(graph, &graph->segment, segment, PROP_SEGMENT);
}

const char *recorder_scope_graph_get_channels(RecorderScopeGraph *graph)
{
    g_return_val_if_fail(RECORDER_SCOPE_IS_GRAPH(graph), NULL);
    return graph->channels;
}

void recorder_scope_graph_set_channels(RecorderScopeGraph *graph,
                                       const char *channels)
{
    g_return_if_fail(RECORDER_SCOPE_IS_GRAPH(graph));
    set_what_is_read(graph, &graph->channels, channels, PROP_CHANNELS);
}

double recorder_scope_graph_get_span(RecorderScopeGraph *graph)
{
    g_return_val_if_fail(RECORDER_SCOPE_IS_GRAPH(graph), 0);
    return graph->window->time.span;
}

void recorder_scope_graph_set_span(RecorderScopeGraph *graph, double seconds)
{
    g_return_if_fail(RECORDER_SCOPE_IS_GRAPH(graph));
    if (!(seconds > 0))
        seconds = 0;
    scope_time_view *time = &graph->window->time;
    if (seconds == time->span && seconds == time->default_span)
        return;
    time->default_span = seconds;
    /* Paused, the right edge stays where it is. */
    time->span = seconds;
    if (time->paused && !(seconds > 0))
        scope_time_view_resume(time);   /* "all held" has no fixed end */
    if (graph->window->changed)
        graph->window->changed(graph->window->data, "view");
}

gboolean recorder_scope_graph_get_paused(RecorderScopeGraph *graph)
{
    g_return_val_if_fail(RECORDER_SCOPE_IS_GRAPH(graph), FALSE);
    return graph->window->time.paused;
}

void recorder_scope_graph_set_paused(RecorderScopeGraph *graph,
                                     gboolean paused)
{
    g_return_if_fail(RECORDER_SCOPE_IS_GRAPH(graph));
    scope_time_view *time = &graph->window->time;
    if (!paused == !time->paused)
        return;
    if (paused)
        scope_time_view_pause(time, &graph->window->held);
    else
        scope_time_view_resume(time);
    if (graph->window->changed)
        graph->window->changed(graph->window->data, "view");
}

gboolean recorder_scope_graph_get_autoscale(RecorderScopeGraph *graph)
{
    g_return_val_if_fail(RECORDER_SCOPE_IS_GRAPH(graph), TRUE);
    return !graph->view || !graph_view_get_values(graph->view)->manual;
}

void recorder_scope_graph_set_autoscale(RecorderScopeGraph *graph,
                                        gboolean autoscale)
{
    g_return_if_fail(RECORDER_SCOPE_IS_GRAPH(graph));
    if (!graph->view ||
        !autoscale == !recorder_scope_graph_get_autoscale(graph))
        return;
    if (autoscale)
        graph_view_value_auto(graph->view);
    else
        graph_view_toggle_lock(graph->view);  /* the range shown now */
    tell_view_changes(graph);
}

const char *recorder_scope_graph_get_message(RecorderScopeGraph *graph)
{
    g_return_val_if_fail(RECORDER_SCOPE_IS_GRAPH(graph), "");
    return graph->source ? scope_source_message(graph->source) : "";
}

gboolean recorder_scope_graph_get_live(RecorderScopeGraph *graph)
{
    g_return_val_if_fail(RECORDER_SCOPE_IS_GRAPH(graph), FALSE);
    if (!graph->source)
        return FALSE;
    unsigned count = scope_source_segment_count(graph->source);
    for (unsigned i = 0; i < count; i++)
        if (scope_source_get_state(scope_source_segment(graph->source, i)) ==
            SCOPE_SOURCE_LIVE)
            return TRUE;
    return FALSE;
}

/* A trigger in auto mode: CHANNEL>LEVEL, CHANNEL<LEVEL, CHANNEL<>LEVEL.
 * A spec that does not parse is refused with a warning that says why. */
static void set_trigger(RecorderScopeGraph *graph, const char *spec_text)
{
    if (graph->in_window || same_text(spec_text, graph->trigger_spec))
        return;
    scope_trigger_spec spec;
    char why[200];
    if (spec_text && *spec_text &&
        !scope_trigger_spec_parse(spec_text, &spec, why, sizeof(why)))
    {
        g_warning("RecorderScopeGraph: trigger '%s': %s", spec_text, why);
        return;
    }
    g_free(graph->trigger_spec);
    graph->trigger_spec = spec_text && *spec_text ? g_strdup(spec_text)
                                                  : NULL;
    graph->triggering = graph->trigger_spec != NULL;
    graph->own.trigger = graph->triggering ? &graph->trigger : NULL;
    graph->trigger_shown = NAN;
    if (graph->triggering)
        scope_trigger_init(&graph->trigger, &spec, SCOPE_TRIGGER_AUTO,
                           SCOPE_TRIGGER_DEFAULT_PRE / 100);
    own_view_changed(graph, "trigger");
    g_object_notify_by_pspec(G_OBJECT(graph), properties[PROP_TRIGGER]);
}

/* ---- the scope window's graphs ------------------------------------------ */

GtkWidget *scope_graph_new_in_window(scope_source *source,
                                     graph_window *window, unsigned graph,
                                     unsigned views, long max_samples)
{
    RecorderScopeGraph *self = g_object_new(RECORDER_SCOPE_TYPE_GRAPH, NULL);
    self->in_window = true;
    self->source = source;
    self->window = window;
    GtkWidget *view = graph_view_new(source, window, graph, views,
                                     max_samples);
    self->view = GRAPH_VIEW(view);
    gtk_widget_set_parent(view, GTK_WIDGET(self));
    return GTK_WIDGET(self);
}

GraphView *scope_graph_view(GtkWidget *graph)
{
    return RECORDER_SCOPE_GRAPH(graph)->view;
}

/* ---- GObject ------------------------------------------------------------ */

static void recorder_scope_graph_map(GtkWidget *widget)
{
    GTK_WIDGET_CLASS(recorder_scope_graph_parent_class)->map(widget);
    start_polling(RECORDER_SCOPE_GRAPH(widget));
}

static void recorder_scope_graph_unmap(GtkWidget *widget)
{
    stop_polling(RECORDER_SCOPE_GRAPH(widget));
    GTK_WIDGET_CLASS(recorder_scope_graph_parent_class)->unmap(widget);
}

static void recorder_scope_graph_set_property(GObject *object, guint id,
                                              const GValue *value,
                                              GParamSpec *pspec)
{
    RecorderScopeGraph *graph = RECORDER_SCOPE_GRAPH(object);
    switch (id)
    {
    case PROP_SEGMENT:
        recorder_scope_graph_set_segment(graph, g_value_get_string(value));
        break;
    case PROP_CHANNELS:
        recorder_scope_graph_set_channels(graph, g_value_get_string(value));
        break;
    case PROP_SPAN:
        recorder_scope_graph_set_span(graph, g_value_get_double(value));
        break;
    case PROP_PAUSED:
        recorder_scope_graph_set_paused(graph, g_value_get_boolean(value));
        break;
    case PROP_AUTOSCALE:
        recorder_scope_graph_set_autoscale(graph, g_value_get_boolean(value));
        break;
    case PROP_TRIGGER:
        set_trigger(graph, g_value_get_string(value));
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void recorder_scope_graph_get_property(GObject *object, guint id,
                                              GValue *value,
                                              GParamSpec *pspec)
{
    RecorderScopeGraph *graph = RECORDER_SCOPE_GRAPH(object);
    switch (id)
    {
    case PROP_SEGMENT:
        g_value_set_string(value, recorder_scope_graph_get_segment(graph));
        break;
    case PROP_CHANNELS:
        g_value_set_string(value, graph->channels);
        break;
    case PROP_SPAN:
        g_value_set_double(value, recorder_scope_graph_get_span(graph));
        break;
    case PROP_PAUSED:
        g_value_set_boolean(value, recorder_scope_graph_get_paused(graph));
        break;
    case PROP_AUTOSCALE:
        g_value_set_boolean(value, recorder_scope_graph_get_autoscale(graph));
        break;
    case PROP_TRIGGER:
        g_value_set_string(value, graph->trigger_spec);
        break;
    case PROP_MESSAGE:
        g_value_set_string(value, recorder_scope_graph_get_message(graph));
        break;
    case PROP_LIVE:
        g_value_set_boolean(value, recorder_scope_graph_get_live(graph));
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    }
}

static void recorder_scope_graph_dispose(GObject *object)
{
    RecorderScopeGraph *graph = RECORDER_SCOPE_GRAPH(object);
    stop_polling(graph);
    if (graph->in_window)
    {
        /* The window deletes its source once its graphs are gone. */
        if (graph->view)
            gtk_widget_unparent(GTK_WIDGET(graph->view));
        graph->view = NULL;
    }
    drop_source(graph);
    G_OBJECT_CLASS(recorder_scope_graph_parent_class)->dispose(object);
}

static void recorder_scope_graph_finalize(GObject *object)
{
    RecorderScopeGraph *graph = RECORDER_SCOPE_GRAPH(object);
    g_free(graph->segment);
    g_free(graph->channels);
    g_free(graph->trigger_spec);
    g_array_unref(graph->states);
    scope_markers_delete(graph->markers);
    G_OBJECT_CLASS(recorder_scope_graph_parent_class)->finalize(object);
}

static void install_properties(GObjectClass *object_class)
{
    GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
                     G_PARAM_EXPLICIT_NOTIFY;
    GParamFlags ro = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
    properties[PROP_SEGMENT] = g_param_spec_string(
        "segment", "Segment", "Path of the shared segment followed, or a "
        "glob pattern naming several; NULL: $RECORDER_SHARE or the default",
        NULL, rw);
    properties[PROP_CHANNELS] = g_param_spec_string(
        "channels", "Channels", "POSIX extended regular expression the "
        "whole name of each channel shown matches; NULL: all", NULL, rw);
    properties[PROP_SPAN] = g_param_spec_double(
        "span", "Span", "Seconds the time axis shows; 0: all held",
        0, G_MAXDOUBLE, DEFAULT_SPAN, rw);
    properties[PROP_PAUSED] = g_param_spec_boolean(
        "paused", "Paused", "The graph stands still (the segment is still "
        "read); a zoom or pan with the mouse pauses it", FALSE, rw);
    properties[PROP_AUTOSCALE] = g_param_spec_boolean(
        "autoscale", "Autoscale", "The value axis fits the data; FALSE "
        "locks the range shown", TRUE, rw);
    properties[PROP_TRIGGER] = g_param_spec_string(
        "trigger", "Trigger", "CHANNEL>LEVEL, CHANNEL<LEVEL or "
        "CHANNEL<>LEVEL: show the span around each crossing (auto mode); "
        "NULL: none", NULL, rw);
    properties[PROP_MESSAGE] = g_param_spec_string(
        "message", "Message", "Where the source stands, in one line", "",
        ro);
    properties[PROP_LIVE] = g_param_spec_boolean(
        "live", "Live", "A program writes the segment", FALSE, ro);
    g_object_class_install_properties(object_class, PROP_COUNT, properties);
}

static void install_signals(GType type)
{
    /**
     * RecorderScopeGraph::source-attached:
     * @graph: the graph
     * @name: PROGRAM[PID] of the process, or the segment's path
     *
     * A process began writing a segment the graph follows.
     */
    signals[SIGNAL_SOURCE_ATTACHED] = g_signal_new(
        "source-attached", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
        G_TYPE_NONE, 1, G_TYPE_STRING);
    /**
     * RecorderScopeGraph::source-lost:
     * @graph: the graph
     * @message: what happened ("exited", "died"...), in one line
     *
     * The process writing a segment the graph follows is gone; what it
     * recorded stays shown, and the graph reattaches when another starts.
     */
    signals[SIGNAL_SOURCE_LOST] = g_signal_new(
        "source-lost", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
        G_TYPE_NONE, 1, G_TYPE_STRING);
    /**
     * RecorderScopeGraph::trigger-fired:
     * @graph: the graph
     * @time: seconds on the graph's time axis where the level was crossed
     *
     * The trigger's channel crossed its level; the graph shows the span
     * around it once recorded.
     */
    signals[SIGNAL_TRIGGER_FIRED] = g_signal_new(
        "trigger-fired", type, G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
        G_TYPE_NONE, 1, G_TYPE_DOUBLE);
}

static void recorder_scope_graph_class_init(RecorderScopeGraphClass *klass)
{
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    object_class->set_property = recorder_scope_graph_set_property;
    object_class->get_property = recorder_scope_graph_get_property;
    object_class->dispose = recorder_scope_graph_dispose;
    object_class->finalize = recorder_scope_graph_finalize;
    widget_class->map = recorder_scope_graph_map;
    widget_class->unmap = recorder_scope_graph_unmap;
    gtk_widget_class_set_layout_manager_type(widget_class,
                                             GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_css_name(widget_class, "recorderscopegraph");
    install_properties(object_class);
    install_signals(G_TYPE_FROM_CLASS(klass));
}

static void recorder_scope_graph_init(RecorderScopeGraph *graph)
{
    graph->window = &graph->own;
    scope_time_view_init(&graph->own.time, DEFAULT_SPAN);
    graph->own.palette = &scope_palette_dark;
    /* None are fed, but the drawing expects a list. */
    graph->markers = scope_markers_new(0);
    if (!graph->markers)
        g_error("RecorderScopeGraph: out of memory");
    graph->own.markers = graph->markers;
    graph->own.changed = own_view_changed;
    graph->own.data = graph;
    graph->told_span = DEFAULT_SPAN;
    graph->told_autoscale = TRUE;
    graph->trigger_shown = NAN;
    graph->states = g_array_new(FALSE, TRUE, sizeof(int));
    GtkWidget *widget = GTK_WIDGET(graph);
    gtk_widget_set_hexpand(widget, TRUE);
    gtk_widget_set_vexpand(widget, TRUE);
    /* As the view inside, which comes once there is a source. */
    gtk_widget_set_size_request(widget, 240, 150);
}
