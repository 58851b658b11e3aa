/* scope_app_actions.c - the application's actions, which the keys
 * (key_bindings_table.c), the header bar's buttons and the graphs'
 * gestures activate: views of the focused graph, saving it, pausing,
 * zooming and panning time and values, cursors, hidden channels, the
 * trigger's keys; and the header bar's toggles kept in step. */
#include "window/scope_app_private.h"
#include "window/channel_picker.h"
#include "window/error_banner.h"
#include "window/key_bindings.h"
#include "window/target_choice.h"
#include "window/window_chrome.h"
#include "capture/csv_export.h"
#include "capture/graph_files.h"
#include "common/scope_message.h"
#include "view/status_text.h"

#include <math.h>
#include <stdio.h>

#define ZOOM_STEP       1.25            /* + and - */
#define PAN_STEP        0.1             /* Left and Right: of the span */

/* ---- saving ---------------------------------------------------------------- */

static void save(ScopeApp *app, bool image, bool data)
{
    GraphView *view = scope_app_focused_view(app);
    graph_model model;
    char message[256];
    graph_view_fill_model(view, &model, message, sizeof(message));
    const graph_model *models[] = { &model };
    graph_files files = {
        .models = models,
        .count = 1,
        .width = gtk_widget_get_width(GTK_WIDGET(view)),
        .height = gtk_widget_get_height(GTK_WIDGET(view)),
    };
    if (files.width <= 0 || files.height <= 0)
    {
        files.width = SCOPE_DEFAULT_WIDTH;
        files.height = SCOPE_DEFAULT_GRAPH_HEIGHT;
    }
    scope_save_item items[2];
    unsigned count = 0;
    if (image)
        items[count++] = graph_files_item(&files, GRAPH_FILE_PNG);
    if (data)
        items[count++] = graph_files_item(&files, GRAPH_FILE_CSV);

    char error[512], text[1024];
    const char *base = app->options->basename;
    unsigned number = scope_save_numbered(base, &app->save_next, items, count,
                                          error, sizeof(error));
    if (!number)
    {
        snprintf(text, sizeof(text), "not saved: %s", error);
        scope_app_show_error(app, text);
        return;
    }
    const char *why = data && files.rows == 0
                    ? scope_csv_why_empty(models, 1) : NULL;
    if (image && data)
        snprintf(text, sizeof(text), "saved %s%u.png and %s%u.csv (%ld rows%s%s)",
                 base, number, base, number, files.rows, why ? ": " : "",
                 why ? why : "");
    else if (image)
        snprintf(text, sizeof(text), "saved %s%u.png", base, number);
    else
        snprintf(text, sizeof(text), "saved %s%u.csv (%ld rows%s%s)", base,
                 number, files.rows, why ? ": " : "", why ? why : "");
    scope_message("%s", text);
    /* The status line is narrower than stderr: names first, then where. */
    scope_saved_text(text, sizeof(text), base, number, image, data,
                     files.rows, why);
    scope_app_set_action_text(app, text);
}

/* ---- actions ----------------------------------------------------------------- */

static void toggle(ScopeApp *app, unsigned view_flag)
{
    graph_view_toggle(scope_app_focused_view(app), view_flag);
    scope_app_align_graphs(app);
    scope_app_sync_actions(app);
}

static const struct
{
    const char *action;
    unsigned    view;
} view_actions[] = {
    { "toggle-timing", SCOPE_VIEW_TIMING },
    { "toggle-average", SCOPE_VIEW_AVERAGE },
    { "toggle-normal", SCOPE_VIEW_NORMAL },
    { "toggle-minmax", SCOPE_VIEW_MINMAX },
};

static void set_state(ScopeApp *app, const char *name, bool on)
{
    GAction *action = g_action_map_lookup_action(G_ACTION_MAP(app), name);
    GVariant *state = action ? g_action_get_state(action) : NULL;
    if (state && g_variant_get_boolean(state) != on)
        g_simple_action_set_state(G_SIMPLE_ACTION(action),
                                  g_variant_new_boolean(on));
    if (state)
        g_variant_unref(state);
}

/* The header bar's toggles show the focused graph and the pause state. */
void scope_app_sync_actions(ScopeApp *app)
{
    if (!app->window)
        return;
    unsigned views = graph_view_get_views(scope_app_focused_view(app));
    for (unsigned v = 0; v < G_N_ELEMENTS(view_actions); v++)
        set_state(app, view_actions[v].action,
                  (views & view_actions[v].view) != 0);
    set_state(app, "pause", app->shared.time.paused);
}

/* ---- moving the view ------------------------------------------------------ */

static void pause_or_resume(ScopeApp *app)
{
    if (app->shared.time.paused)
        scope_time_view_resume(&app->shared.time);
    else
        scope_time_view_pause(&app->shared.time, &app->shared.held);
    scope_app_shared_changed(app, "view");
}

static void go_live(ScopeApp *app)
{
    scope_time_view_live(&app->shared.time);
    for (unsigned g = 0; g < app->view_count; g++)
        graph_view_value_auto(app->views[g]);
    scope_app_shared_changed(app, "live");
}

/* Zoom about the pointer; without one, about the right edge (live stays
 * live) or the middle of a paused view. */
static void zoom_time(ScopeApp *app, double factor)
{
    graph_window *w = &app->shared;
    double anchor = INFINITY;
    if (w->hovering && w->hovered)
        anchor = graph_view_pointer_time(w->hovered);
    else if (w->time.paused)
        anchor = graph_view_pointer_time(scope_app_focused_view(app));
    scope_time_view_zoom(&w->time, &w->held, factor, anchor);
    scope_app_shared_changed(app, "view");
}

static void pan_time(ScopeApp *app, double fraction)
{
    double t0, t1;
    scope_time_view_window(&app->shared.time, &app->shared.held, &t0, &t1);
    scope_time_view_pan(&app->shared.time, &app->shared.held,
                        fraction * (t1 - t0));
    scope_app_shared_changed(app, "view");
}

static void place_cursor(ScopeApp *app, unsigned which)
{
    graph_window *w = &app->shared;
    GraphView *view = w->hovering && w->hovered ? w->hovered
                                                : scope_app_focused_view(app);
    double t = graph_view_pointer_time(view);
    if (isnan(t))
        return;
    w->has_cursor[which] = true;
    w->cursor[which] = t;
    scope_app_shared_changed(app, which ? "cursor B" : "cursor A");
}

static void clear_cursors(ScopeApp *app)
{
    app->shared.has_cursor[0] = app->shared.has_cursor[1] = false;
    scope_app_shared_changed(app, "cursor");
}

static void zoom_to_cursors(ScopeApp *app)
{
    graph_window *w = &app->shared;
    if (!w->has_cursor[0] || !w->has_cursor[1])
    {
        scope_app_set_action_text(app, "place cursors A and B first (keys "
                                       "1 and 2, or right-click and "
                                       "Shift+right-click)");
        return;
    }
    scope_time_view_show(&w->time, w->cursor[0], w->cursor[1]);
    scope_app_shared_changed(app, "view");
}

static void value_action(ScopeApp *app, const char *said)
{
    scope_app_set_action_text(app, said);
    scope_app_shared_changed(app, "values");
}

static void toggle_channel(ScopeApp *app, unsigned number)
{
    if (number < 1 || !graph_view_toggle_channel(scope_app_focused_view(app),
                                                 number - 1))
    {
        char text[80];
        snprintf(text, sizeof(text), "the focused graph has no channel %u",
                 number);
        scope_app_set_action_text(app, text);
        return;
    }
    scope_app_shared_changed(app, "channels");
}

static void show_shortcuts(ScopeApp *app)
{
    GtkWindow *shortcuts = scope_shortcuts_window_new();
    if (!shortcuts)
        return;
    gtk_window_set_transient_for(shortcuts, GTK_WINDOW(app->window));
    gtk_window_set_destroy_with_parent(shortcuts, TRUE);
    gtk_window_present(shortcuts);
}

#define ACTION(name, body)                                              \
    static void name(GSimpleAction *action, GVariant *parameter,        \
                     gpointer data)                                     \
    {                                                                   \
        (void) action;                                                  \
        (void) parameter;                                               \
        ScopeApp *app = data;                                           \
        body;                                                           \
    }

ACTION(act_quit, g_application_quit(G_APPLICATION(app)))
ACTION(act_timing, toggle(app, SCOPE_VIEW_TIMING))
ACTION(act_average, toggle(app, SCOPE_VIEW_AVERAGE))
ACTION(act_normal, toggle(app, SCOPE_VIEW_NORMAL))
ACTION(act_minmax, toggle(app, SCOPE_VIEW_MINMAX))
ACTION(act_save_image, save(app, true, false))
ACTION(act_save_data, save(app, false, true))
ACTION(act_save_both, save(app, true, true))
ACTION(act_dismiss, scope_banner_dismiss(app->banner))
ACTION(act_pause, pause_or_resume(app))
ACTION(act_live, go_live(app))
ACTION(act_zoom_in, zoom_time(app, 1 / ZOOM_STEP))
ACTION(act_zoom_out, zoom_time(app, ZOOM_STEP))
ACTION(act_pan_left, pan_time(app, -PAN_STEP))
ACTION(act_pan_right, pan_time(app, PAN_STEP))
ACTION(act_value_zoom_in,
       graph_view_value_zoom(scope_app_focused_view(app), 1 / ZOOM_STEP);
       scope_app_shared_changed(app, "values"))
ACTION(act_value_zoom_out,
       graph_view_value_zoom(scope_app_focused_view(app), ZOOM_STEP);
       scope_app_shared_changed(app, "values"))
ACTION(act_value_pan_up,
       graph_view_value_pan(scope_app_focused_view(app), PAN_STEP);
       scope_app_shared_changed(app, "values"))
ACTION(act_value_pan_down,
       graph_view_value_pan(scope_app_focused_view(app), -PAN_STEP);
       scope_app_shared_changed(app, "values"))
ACTION(act_cursor_a, place_cursor(app, 0))
ACTION(act_cursor_b, place_cursor(app, 1))
ACTION(act_cursors_clear, clear_cursors(app))
ACTION(act_zoom_cursors, zoom_to_cursors(app))
ACTION(act_scale_mode,
       value_action(app, graph_view_cycle_scale(scope_app_focused_view(app))))
ACTION(act_log_scale,
       value_action(app, graph_view_toggle_log(scope_app_focused_view(app))))
ACTION(act_lock_range,
       value_action(app, graph_view_toggle_lock(scope_app_focused_view(app))))
ACTION(act_shortcuts, show_shortcuts(app))
ACTION(act_trigger_rearm, scope_app_trigger_rearm(app))
ACTION(act_trigger_mode, scope_app_trigger_cycle_mode(app))
ACTION(act_trigger_edge, scope_app_trigger_cycle_edge(app))
ACTION(act_trigger_level, scope_app_trigger_level_here(app))
ACTION(act_pick_channels, scope_picker_popup(app->picker))

static void act_toggle_channel(GSimpleAction *action, GVariant *parameter,
                               gpointer data)
{
    (void) action;
    toggle_channel(data, g_variant_get_uint32(parameter));
}

/* Ctrl+P: commands and sliders go to the next process, or to all. */
static void act_target_next(GSimpleAction *action, GVariant *parameter,
                            gpointer data)
{
    (void) action;
    (void) parameter;
    ScopeApp *app = data;
    if (app->target_choice)
        scope_target_choice_next(app->target_choice);
}

static const GActionEntry app_actions[] = {
    { .name = "quit", .activate = act_quit },
    { .name = "toggle-timing", .activate = act_timing, .state = "false" },
    { .name = "toggle-average", .activate = act_average, .state = "false" },
    { .name = "toggle-normal", .activate = act_normal, .state = "false" },
    { .name = "toggle-minmax", .activate = act_minmax, .state = "false" },
    { .name = "save-image", .activate = act_save_image },
    { .name = "save-data", .activate = act_save_data },
    { .name = "save-both", .activate = act_save_both },
    { .name = "dismiss", .activate = act_dismiss },
    { .name = "pause", .activate = act_pause, .state = "false" },
    { .name = "live", .activate = act_live },
    { .name = "zoom-in", .activate = act_zoom_in },
    { .name = "zoom-out", .activate = act_zoom_out },
    { .name = "pan-left", .activate = act_pan_left },
    { .name = "pan-right", .activate = act_pan_right },
    { .name = "value-zoom-in", .activate = act_value_zoom_in },
    { .name = "value-zoom-out", .activate = act_value_zoom_out },
    { .name = "value-pan-up", .activate = act_value_pan_up },
    { .name = "value-pan-down", .activate = act_value_pan_down },
    { .name = "cursor-a", .activate = act_cursor_a },
    { .name = "cursor-b", .activate = act_cursor_b },
    { .name = "cursors-clear", .activate = act_cursors_clear },
    { .name = "zoom-cursors", .activate = act_zoom_cursors },
    { .name = "scale-mode", .activate = act_scale_mode },
    { .name = "log-scale", .activate = act_log_scale },
    { .name = "lock-range", .activate = act_lock_range },
    { .name = "toggle-channel", .activate = act_toggle_channel,
      .parameter_type = "u" },
    { .name = "shortcuts", .activate = act_shortcuts },
    { .name = "trigger-rearm", .activate = act_trigger_rearm },
    { .name = "trigger-mode", .activate = act_trigger_mode },
    { .name = "trigger-edge", .activate = act_trigger_edge },
    { .name = "trigger-level", .activate = act_trigger_level },
    { .name = "pick-channels", .activate = act_pick_channels },
    { .name = "target-next", .activate = act_target_next },
};

/* The actions, and the keys that activate them. */
void scope_app_install_actions(ScopeApp *app)
{
    g_action_map_add_action_entries(G_ACTION_MAP(app), app_actions,
                                    G_N_ELEMENTS(app_actions), app);
    scope_key_bindings_install(GTK_APPLICATION(app));
}
