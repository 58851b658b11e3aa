/* scope_app.c - the application: the window and its life, the status
 * line, and what follows a change of the shared view. The rest of the
 * application is in scope_app_*.c, which share scope_app_private.h. */
#include "window/scope_app_private.h"
#include "window/channel_picker.h"
#include "window/desktop_theme.h"
#include "window/error_banner.h"
#include "window/graph_in_window.h"
#include "window/renderer_choice.h"
#include "window/status_line.h"
#include "window/still_bin.h"
#include "window/target_choice.h"
#include "window/window_chrome.h"
#include "common/scope_message.h"
#include "source/multi_source.h"
#include "view/status_text.h"
#include "view/window_title.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#if defined(SCOPE_HAVE_X11) && defined(GDK_WINDOWING_X11)
#include <gdk/x11/gdkx.h>
#define SCOPE_X11 1
#endif

#define APP_ID          "org.recorder.Scope"

G_DEFINE_TYPE(ScopeApp, scope_app, GTK_TYPE_APPLICATION)

/* ---- status line --------------------------------------------------------- */

static void show_status(ScopeApp *app)
{
    /* The trigger's state first: it decides what the graphs show. */
    char first[sizeof(app->trigger_text) + sizeof(app->action_text) + 8];
    snprintf(first, sizeof(first), "%s%s%s", app->trigger_text,
             app->trigger_text[0] && app->action_text[0] ? "   |   " : "",
             app->action_text);
    const scope_time_view *time = &app->shared.time;
    scope_status_parts parts = {
        .action = first, .paused = time->paused,
        .from = time->end - time->span, .to = time->end,
        .readout = app->readout_line,
    };
    char text[sizeof(first) + sizeof(app->readout_line) + 128];
    if (scope_status_line_show(app->status, &parts, text, sizeof(text)) &&
        app->options->trace_view)
    {
        scope_print(stdout, "status: %s\n", text);
        fflush(stdout);
    }
}

void scope_app_refit_status(ScopeApp *app)
{
    if (scope_status_line_resized(app->status))
        show_status(app);
}

void scope_app_set_action_text(ScopeApp *app, const char *text)
{
    snprintf(app->action_text, sizeof(app->action_text), "%s", text);
    show_status(app);
}

void scope_app_show_error(ScopeApp *app, const char *text)
{
    scope_message("%s", text);
    scope_app_set_action_text(app, text);
    scope_banner_show(app->banner, text);
}

/* ---- the shared view ------------------------------------------------------ */

GraphView *scope_app_focused_view(ScopeApp *app)
{
    for (GtkWidget *w = gtk_root_get_focus(GTK_ROOT(app->window)); w;
         w = gtk_widget_get_parent(w))
        if (GRAPH_IS_VIEW(w))
            return GRAPH_VIEW(w);
    return app->shared.focused ? app->shared.focused : app->views[0];
}

/* The readout of the graph under the pointer (or the focused one), on
 * one line for the status bar. */
static void collect_readout(ScopeApp *app)
{
    GraphView *view = app->shared.hovering && app->shared.hovered
                    ? app->shared.hovered : scope_app_focused_view(app);
    graph_view_refresh_readout(view);
    scope_status_readout_line(graph_view_readout(view), app->readout_line,
                              sizeof(app->readout_line));
}

void scope_app_shared_changed(void *data, const char *what)
{
    ScopeApp *app = data;
    for (unsigned g = 0; g < app->view_count; g++)
        graph_view_redraw(app->views[g]);
    if (what && (strcmp(what, "readout") == 0 ||
                 strncmp(what, "cursor", 6) == 0 ||
                 strcmp(what, "channels") == 0))
        collect_readout(app);
    else if (!app->shared.hovering && !app->shared.has_cursor[0] &&
             !app->shared.has_cursor[1])
        app->readout_line[0] = 0;
    scope_app_sync_actions(app);
    show_status(app);
    scope_app_trace_view(app, what);
}

/* ---- window ------------------------------------------------------------------- */

/* If any graph has a timing axis, all keep room for one: time axes of
 * stacked graphs line up. */
void scope_app_align_graphs(ScopeApp *app)
{
    gboolean timing = FALSE;
    for (unsigned g = 0; g < app->view_count; g++)
        if (graph_view_get_views(app->views[g]) & SCOPE_VIEW_TIMING)
            timing = TRUE;
    for (unsigned g = 0; g < app->view_count; g++)
        graph_view_set_right_axis(app->views[g], timing);
}

/* The title names the program and its pid once one is attached. */
void scope_app_update_title(ScopeApp *app)
{
    const recorder_share_process *process = scope_source_process(app->source);
    const char *path = scope_source_path(app->source);
    const char *program = process ? process->program : NULL;
    unsigned pid = process ? process->pid : 0;
    char title[4300], heading[96];
    scope_window_title(title, sizeof(title), path, program, pid);
    /* Window managers and scripts see the whole; the bar, two lines. */
    gtk_window_set_title(GTK_WINDOW(app->window), title);
    scope_window_heading(heading, sizeof(heading), program, pid);
    if (app->header)
        scope_header_bar_set_title(app->header, heading, path, title);
}

static void on_view_focus(GObject *object, GParamSpec *pspec, gpointer data)
{
    (void) pspec;
    ScopeApp *app = data;
    if (gtk_widget_has_focus(GTK_WIDGET(object)))
    {
        /* Keys act on it until another graph takes the focus, buttons
         * of the header bar included: it stays marked as long. */
        app->shared.focused = GRAPH_VIEW(object);
        for (unsigned g = 0; g < app->view_count; g++)
            graph_view_redraw(app->views[g]);
        scope_app_sync_actions(app);
    }
}

void scope_app_add_view(ScopeApp *app, unsigned graph, unsigned views)
{
    /* The widget programs embed, sharing the window's source and axis. */
    GtkWidget *widget = scope_graph_new_in_window(app->source, &app->shared,
                                                  graph, views,
                                                  app->options->max_samples);
    GraphView *view = scope_graph_view(widget);
    app->views[graph] = view;
    if (app->view_count < graph + 1)
        app->view_count = graph + 1;
    g_signal_connect(view, "notify::has-focus", G_CALLBACK(on_view_focus),
                     app);
    gtk_box_append(GTK_BOX(app->graphs_box), widget);
}

#ifdef SCOPE_X11
/* GTK 4 has no window positions; X11 still has them. */
static void on_map(GtkWidget *window, gpointer data)
{
    ScopeApp *app = data;
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface && GDK_IS_X11_SURFACE(surface))
        XMoveWindow(GDK_SURFACE_XDISPLAY(surface),
                    gdk_x11_surface_get_xid(surface), app->options->x,
                    app->options->y);
}
#endif

static void scope_app_activate(GApplication *application)
{
    ScopeApp *app = SCOPE_APP(application);
    if (app->window)
    {
        gtk_window_present(GTK_WINDOW(app->window));
        return;
    }
    const scope_options *options = app->options;
    app->window = gtk_application_window_new(GTK_APPLICATION(app));

    GtkWidget *bar = scope_header_bar_new();
    app->header = bar;
    /* Drawn once per change of the bar, not at every frame. */
    scope_still_bin_set_titlebar(GTK_WINDOW(app->window), bar);
    scope_app_update_title(app);
    scope_app_picker_attach(app, bar);
    app->target_choice = scope_target_choice_new(app->source,
                                                 scope_app_target_chosen, app);
    gtk_header_bar_pack_start(GTK_HEADER_BAR(bar), app->target_choice);

    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    gtk_window_set_child(GTK_WINDOW(app->window), box);
    app->banner = scope_banner_new();
    gtk_box_append(GTK_BOX(box), app->banner);
    /* More graphs than fit scroll; the sliders and the status line stay
     * in view below them. */
    GtkWidget *graphs = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    app->graphs_box = graphs;
    gtk_box_set_homogeneous(GTK_BOX(graphs), TRUE);
    GtkWidget *scroller = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller),
                                   GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), graphs);
    gtk_widget_set_vexpand(scroller, TRUE);
    gtk_box_append(GTK_BOX(box), scroller);
    for (unsigned g = 0; g < app->view_count; g++)
    {
        unsigned views = options->channel_count ? options->channel_views[g]
                                                : options->views;
        scope_app_add_view(app, g, views);
    }
    app->shared.focused = app->views[0];
    scope_app_align_graphs(app);
    /* Below the graphs too, what changes only now and then is drawn
     * once per change. */
    if (options->slider_count)
        gtk_box_append(GTK_BOX(box),
                       scope_still_bin_new(scope_app_sliders_new(app)));

    app->status = scope_status_line_new();
    gtk_box_append(GTK_BOX(box), scope_still_bin_new(app->status));

    int width = options->has_size ? options->width : SCOPE_DEFAULT_WIDTH;
    int height = options->has_size ? options->height
               : (int) (app->view_count * SCOPE_DEFAULT_GRAPH_HEIGHT +
                        options->slider_count * 44 + 30);
    if (!options->has_size && height > 1000)
        height = 1000;
    gtk_window_set_default_size(GTK_WINDOW(app->window), width, height);
#ifdef SCOPE_X11
    if (options->has_position)
        g_signal_connect(app->window, "map", G_CALLBACK(on_map), app);
#endif

    scope_app_start_polling(app);
    gtk_window_present(GTK_WINDOW(app->window));
    gtk_widget_grab_focus(GTK_WIDGET(app->views[0]));
    scope_app_sync_actions(app);
    scope_app_trace_view(app, "view");
    scope_app_trace_view(app, "graphs");
    if (options->pick)
        scope_picker_popup(app->picker);
}

static void scope_app_startup(GApplication *application)
{
    G_APPLICATION_CLASS(scope_app_parent_class)->startup(application);
    ScopeApp *app = SCOPE_APP(application);
    char gl_name[128];
    if (scope_renderer_avoid_software_gl(gl_name, sizeof(gl_name)))
        scope_message("GL is software here (%s): drawing with cairo, which "
                      "takes less CPU; GSK_RENDERER=gl forces GL", gl_name);
    /* The window and its graphs: one choice, light or dark. */
    scope_theme theme = scope_desktop_theme_apply(app->options->theme);
    app->shared.palette = scope_palette_of(theme);
    app->shared.min_frame_interval = app->options->max_fps > 0
                                   ? 1 / app->options->max_fps : 0;
    if (app->options->trace_view)
        printf("theme: %s\n", app->shared.palette->name);
    scope_app_install_actions(app);
}

static void scope_app_shutdown(GApplication *application)
{
    ScopeApp *app = SCOPE_APP(application);
    scope_app_stop_polling(app);
    /* The views read the source: they go first. */
    if (app->window)
    {
        gtk_window_destroy(GTK_WINDOW(app->window));
        app->window = NULL;
    }
    G_APPLICATION_CLASS(scope_app_parent_class)->shutdown(application);
}

static void scope_app_finalize(GObject *object)
{
    ScopeApp *app = SCOPE_APP(object);
    scope_targets_delete(app->commands);
    scope_marker_feed_delete(app->marker_feed);
    scope_markers_delete(app->markers);
    scope_source_delete(app->source);
    g_free(app->views);
    g_free(app->sliders);
    G_OBJECT_CLASS(scope_app_parent_class)->finalize(object);
}

static void scope_app_class_init(ScopeAppClass *klass)
{
    G_OBJECT_CLASS(klass)->finalize = scope_app_finalize;
    G_APPLICATION_CLASS(klass)->startup = scope_app_startup;
    G_APPLICATION_CLASS(klass)->activate = scope_app_activate;
    G_APPLICATION_CLASS(klass)->shutdown = scope_app_shutdown;
}

static void scope_app_init(ScopeApp *app)
{
    (void) app;
}

/* Everything the window needs that can fail, before GTK starts. */
static bool scope_app_prepare(ScopeApp *app, const scope_options *options)
{
    app->options = options;
    app->save_next = 1;
    scope_time_view_init(&app->shared.time, options->duration);
    app->shared.changed = scope_app_shared_changed;
    app->shared.data = app;
    app->view_pending = options->view.set;
    app->trigger_shown = NAN;
    if (options->has_trigger)
    {
        scope_trigger_init(&app->trigger, &options->trigger,
                           options->trigger_mode, options->trigger_pre);
        app->triggering = true;
        app->shared.trigger = &app->trigger;
    }
    scope_source_config config = {
        .duration = options->duration,
        .keep = options->max_samples > (long) SCOPE_HISTORY_DEFAULT
              ? (size_t) options->max_samples : SCOPE_HISTORY_DEFAULT,
        .ratio = options->ratio,
        .open_flags = options->open_flags,
    };
    app->source = scope_source_new_paths(options->share_paths,
                                         options->share_path_count, &config);
    if (!app->source)
        return false;
    app->commands = scope_targets_new(options->open_flags);
    if (!app->commands || !scope_targets_follow(app->commands, app->source))
        return false;
    char error[512];
    app->markers = scope_markers_new(0);
    if (!app->markers ||
        !(app->marker_feed = scope_marker_feed_new(app->markers,
                                                   options->events,
                                                   options->event_count,
                                                   error, sizeof(error))))
        return false;
    app->shared.markers = app->markers;
    if (options->trace_view)
        scope_markers_observe(app->markers, scope_marker_print, stdout);
    app->view_count = options->channel_count ? options->channel_count : 1;
    app->views = g_new0(GraphView *, app->view_count);
    for (unsigned g = 0; g < app->view_count; g++)
        if (scope_source_add_graph(app->source, options->channel_count
                                                ? options->channels[g]
                                                : NULL) < 0)
            return false;
    app->sliders = g_new0(slider, options->slider_count ? options->slider_count
                                                        : 1);
    for (unsigned i = 0; i < options->slider_count; i++)
    {
        app->sliders[i].app = app;
        app->sliders[i].spec = &options->sliders[i];
    }
    return true;
}

int scope_app_run(const scope_options *options, const char *argv0)
{
    ScopeApp *app = g_object_new(SCOPE_TYPE_APP,
                                 "application-id", APP_ID,
                                 "flags", G_APPLICATION_NON_UNIQUE,
                                 NULL);
    int status = 1;
    if (scope_app_prepare(app, options))
    {
        char *args[] = { (char *) argv0, NULL };
        status = g_application_run(G_APPLICATION(app), 1, args);
    }
    else
    {
        scope_message("cannot start (out of memory or "
                        "threads)");
    }
    g_object_unref(app);
    return status;
}
