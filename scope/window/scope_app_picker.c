/* scope_app_picker.c - what the channel picker (channel_picker.c) changes
 * in the application: a graph added, a channel added to a graph or
 * removed from it, an export command sent, and what it has to say. */
#include "window/scope_app_private.h"
#include "window/channel_picker.h"
#include "window/window_chrome.h"

#include <stdio.h>

static unsigned picker_focused(void *data)
{
    ScopeApp *app = data;
    GraphView *view = scope_app_focused_view(app);
    unsigned graph = 0;
    while (graph + 1 < app->view_count && app->views[graph] != view)
        graph++;
    return graph;
}

static void picker_add_graph(void *data, const char *regex)
{
    ScopeApp *app = data;
    int g = scope_source_add_graph(app->source, regex);
    GraphView **views = g < 0 ? NULL
                      : g_try_renew(GraphView *, app->views, (gsize) g + 1);
    if (!views)
    {
        scope_app_show_error(app, "out of memory for a new graph");
        return;
    }
    app->views = views;
    scope_app_add_view(app, (unsigned) g, app->options->views);
    scope_app_align_graphs(app);
    char text[300];
    snprintf(text, sizeof(text), "graph %d: %s", g + 1, regex);
    scope_app_set_action_text(app, text);
    scope_app_trace_view(app, "graphs");
}

static void picker_change(void *data, unsigned graph, const char *name,
                          bool add)
{
    ScopeApp *app = data;
    int removed_at = -1;
    bool changed = add
        ? scope_source_graph_add_channel(app->source, graph, name)
        : scope_source_graph_remove_channel(app->source, graph, name,
                                            &removed_at);
    char text[300];
    snprintf(text, sizeof(text), "graph %u %s %s", graph + 1,
             !changed ? (add ? "already shows" : "does not show")
                      : add ? "shows" : "no longer shows", name);
    scope_app_set_action_text(app, text);
    if (removed_at >= 0)
        graph_view_forget_channel(app->views[graph], (unsigned) removed_at);
    if (changed)
        scope_app_trace_view(app, "graphs");
}

static void picker_send(void *data, const char *command)
{
    ScopeApp *app = data;
    scope_app_send_command(app, command, NULL);
}

static void picker_say(void *data, const char *text, bool error)
{
    ScopeApp *app = data;
    if (error)
        scope_app_show_error(app, text);
    else
        scope_app_set_action_text(app, text);
}

/* Keys go back to the graphs (space on the picker's button would open
 * it again rather than save). */
static void on_picker_closed(GtkPopover *popover, gpointer data)
{
    (void) popover;
    ScopeApp *app = data;
    gtk_widget_grab_focus(GTK_WIDGET(scope_app_focused_view(app)));
}

/* The picker's button is in the header bar 'header_bar'. */
void scope_app_picker_attach(ScopeApp *app, GtkWidget *header_bar)
{
    app->picker = g_object_get_data(G_OBJECT(header_bar),
                                    SCOPE_PICKER_BUTTON);
    scope_picker_attach(app->picker, app->source, &(scope_picker_hooks) {
        .data = app, .focused = picker_focused, .add_graph = picker_add_graph,
        .change = picker_change, .send = picker_send, .say = picker_say });
    g_signal_connect(gtk_menu_button_get_popover(GTK_MENU_BUTTON(app->picker)),
                     "closed", G_CALLBACK(on_picker_closed), app);
}
