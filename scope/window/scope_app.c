/* scope_app.c - the application: window, polling, actions, sliders. */
#include "window/scope_app.h"
#include "source/channel_data.h"
#include "window/channel_picker.h"
#include "source/command_targets.h"
#include "capture/csv_export.h"
#include "window/desktop_theme.h"
#include "window/error_banner.h"
#include "capture/graph_files.h"
#include "window/graph_view.h"
#include "window/key_bindings.h"
#include "view/marker_feed.h"
#include "source/multi_source.h"
#include "window/renderer_choice.h"
#include "common/scope_message.h"
#include "view/trigger.h"
#include "view/status_text.h"
#include "window/target_choice.h"
#include "window/window_chrome.h"
#include "view/window_title.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#if defined(SCOPE_HAVE_X11) && defined(GDK_WINDOWING_X11)
#include <gdk/x11/gdkx.h>
#define SCOPE_X11 1
#endif

#define POLL_MS         20              /* read the segment 50 times a second */
#define TWEAK_POLL      0.5             /* seconds between tweak reads */
#define SLIDER_SETTLE   1.5             /* a moved slider stays put this long */
#define APP_ID          "org.recorder.Scope"
#define ZOOM_STEP       1.25            /* + and - */
#define PAN_STEP        0.1             /* Left and Right: of the span */

typedef struct slider
{
    ScopeApp *               app;
    const scope_slider_spec *spec;
    GtkWidget *              scale;
    GtkWidget *              value_label, *min_label, *max_label;
    GtkWidget *              note;      /* why it does nothing, beside it */
    gboolean                 missing;   /* the program has no such tweak */
    gboolean                 chosen;    /* a value the user gave or set */
    double                   moved;     /* monotonic time of the last move */
} slider;

struct _ScopeApp
{
    GtkApplication       parent_instance;
    const scope_options *options;
    scope_source *       source;
    scope_targets *      commands;      /* a queue per segment */
    GtkWidget *          target_choice; /* where commands go */
    scope_markers *      markers;       /* events on the time axis */
    scope_marker_feed *  marker_feed;
    GtkWidget *          window;
    GtkWidget *          banner;        /* errors, until dismissed */
    GtkWidget *          status;
    GraphView **         views;
    unsigned             view_count;
    GtkWidget *          graphs_box;    /* the views, in a scroller */
    GtkWidget *          picker;        /* its GtkMenuButton */
    graph_window         shared;        /* span, crosshair, cursors */
    bool                 view_pending;  /* --view waits for samples */
    char                 readout_line[600];
    slider *             sliders;
    gboolean             setting_slider; /* not the user moving it */
    guint                poll;
    double               next_tweak_poll;
    double               frames_traced; /* --trace-view: frames told then */
    unsigned             save_next;
    char                 action_text[1200];
    char                 said[4608];    /* last state told on stderr */
    scope_trigger        trigger;       /* when 'triggering' */
    bool                 triggering;
    double               trigger_shown; /* end of the span it put in view */
    char                 trigger_text[300];
    char                 trigger_traced[96];
};

G_DEFINE_TYPE(ScopeApp, scope_app, GTK_TYPE_APPLICATION)

/* ---- status line --------------------------------------------------------- */

static void show_status(ScopeApp *app)
{
    char paused[96] = "";
    if (app->shared.time.paused)
        snprintf(paused, sizeof(paused), "PAUSED %.6g s to %.6g s (Home: "
                 "live)", app->shared.time.end - app->shared.time.span,
                 app->shared.time.end);
    /* The trigger's state first: it decides what the graphs show. */
    char first[sizeof(app->trigger_text) + sizeof(app->action_text) + 8];
    snprintf(first, sizeof(first), "%s%s%s", app->trigger_text,
             app->trigger_text[0] && app->action_text[0] ? "   |   " : "",
             app->action_text);
    char text[sizeof(first) + sizeof(app->readout_line) + sizeof(paused) +
              16];
    scope_status_compose(text, sizeof(text), first, paused,
                         app->readout_line);
    if (strcmp(gtk_label_get_text(GTK_LABEL(app->status)), text) != 0)
    {
        gtk_label_set_text(GTK_LABEL(app->status), text);
        /* Cut at the end in a narrow window: the whole of it on hover. */
        gtk_widget_set_tooltip_text(app->status, text[0] ? text : NULL);
        if (app->options->trace_view)
        {
            scope_print(stdout, "status: %s\n", text);
            fflush(stdout);
        }
    }
}

static void set_action_text(ScopeApp *app, const char *text)
{
    snprintf(app->action_text, sizeof(app->action_text), "%s", text);
    show_status(app);
}

/* An error: on stderr, and in the banner until the user dismisses it. */
static void show_error(ScopeApp *app, const char *text)
{
    scope_message("%s", text);
    set_action_text(app, text);
    scope_banner_show(app->banner, text);
}

/* ---- sliders --------------------------------------------------------------- */

/* Queue a command, and mark it on the time axis where it was sent. */
static void send_command(ScopeApp *app, const char *command, const char *key)
{
    scope_targets_send(app->commands, app->source, command, key);
    scope_marker_feed_command(app->marker_feed, app->source, command,
                              g_get_monotonic_time() / 1e6);
}

static void slider_send(slider *s)
{
    char command[128];
    long value = lround(gtk_range_get_value(GTK_RANGE(s->scale)));
    snprintf(command, sizeof(command), "%s=%ld", s->spec->name, value);
    send_command(s->app, command, s->spec->name);
    /* Until it is applied the program still has the old value. */
    s->moved = g_get_monotonic_time() / 1e6;
}

static void on_slider_moved(GtkRange *range, gpointer data)
{
    slider *s = data;
    char text[32];
    snprintf(text, sizeof(text), "%ld", lround(gtk_range_get_value(range)));
    gtk_label_set_text(GTK_LABEL(s->value_label), text);
    if (s->app->setting_slider)
        return;
    s->chosen = TRUE;
    slider_send(s);
}

static void slider_place(slider *s, long min, long max, long value)
{
    if (value < min)
        min = value;
    if (value > max)
        max = value;
    s->app->setting_slider = TRUE;
    gtk_range_set_range(GTK_RANGE(s->scale), min, max);
    gtk_range_set_value(GTK_RANGE(s->scale), value);
    s->app->setting_slider = FALSE;
    gtk_widget_set_sensitive(s->scale, !s->missing);
    char text[32];
    snprintf(text, sizeof(text), "%ld", value);
    gtk_label_set_text(GTK_LABEL(s->value_label), text);
    snprintf(text, sizeof(text), "%ld", min);
    gtk_label_set_text(GTK_LABEL(s->min_label), text);
    snprintf(text, sizeof(text), "%ld", max);
    gtk_label_set_text(GTK_LABEL(s->max_label), text);
}

/* Said beside the slider until a program that has the tweak attaches
 * (the banner, which the user dismisses, is for passing errors). */
static void slider_note(slider *s, const char *text)
{
    gtk_label_set_text(GTK_LABEL(s->note), text ? text : "");
    gtk_widget_set_visible(s->note, text != NULL);
}

static void slider_set_missing(slider *s, gboolean missing)
{
    if (missing == s->missing)
        return;
    s->missing = missing;
    gtk_widget_set_sensitive(s->scale, !missing);
    if (!missing)
    {
        slider_note(s, NULL);
        return;
    }
    char text[160];
    snprintf(text, sizeof(text), "no tweak '%s' in this program",
             s->spec->name);
    slider_note(s, text);
    scope_message("the program has no tweak '%s'",
                  s->spec->name);
}

/* Row 'row' of the sliders' grid: name | value | min | scale | max |
 * note. The names share a column, so the scales line up; the value comes
 * before the range, so neither reads as the other. (Tweaks have no unit in
 * the segment: none is shown.) */
static void slider_row(slider *s, GtkGrid *grid, int row)
{
    const scope_slider_spec *spec = s->spec;
    GtkWidget *label = gtk_label_new(spec->name);
    gtk_label_set_xalign(GTK_LABEL(label), 0);
    gtk_grid_attach(grid, label, 0, row, 1, 1);
    s->value_label = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(s->value_label), 1);
    gtk_label_set_width_chars(GTK_LABEL(s->value_label), 6);
    gtk_widget_add_css_class(s->value_label, "numeric");
    gtk_grid_attach(grid, s->value_label, 1, row, 1, 1);
    s->min_label = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(s->min_label), 1);
    gtk_widget_add_css_class(s->min_label, "dim-label");
    gtk_grid_attach(grid, s->min_label, 2, row, 1, 1);

    s->scale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 100, 1);
    gtk_scale_set_digits(GTK_SCALE(s->scale), 0);
    gtk_scale_set_draw_value(GTK_SCALE(s->scale), FALSE);
    gtk_widget_set_hexpand(s->scale, TRUE);
    gtk_widget_set_name(s->scale, spec->name);
    gtk_grid_attach(grid, s->scale, 3, row, 1, 1);
    s->max_label = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(s->max_label), 0);
    gtk_widget_add_css_class(s->max_label, "dim-label");
    gtk_grid_attach(grid, s->max_label, 4, row, 1, 1);
    s->note = gtk_label_new("");
    gtk_widget_add_css_class(s->note, "scope-error");
    gtk_widget_set_visible(s->note, FALSE);
    gtk_grid_attach(grid, s->note, 5, row, 1, 1);

    if (spec->has_value)
    {
        long min = spec->min, max = spec->max;
        if (!spec->has_range)
            scope_slider_range(spec->value, &min, &max);
        slider_place(s, min, max, spec->value);
        s->chosen = TRUE;
    }
    else
    {
        /* Its range comes from the tweak's value, once we can read it. */
        gtk_widget_set_sensitive(s->scale, FALSE);
    }
    g_signal_connect(s->scale, "value-changed", G_CALLBACK(on_slider_moved), s);
}

/* A new process (segment 'segment' of the source): send it the -c
 * commands and the sliders' values, or read the values of tweaks whose
 * sliders the user did not set. */
static void on_attached(ScopeApp *app, unsigned segment)
{
    const scope_options *options = app->options;
    for (unsigned c = 0; c < options->command_count; c++)
    {
        scope_targets_send_to(app->commands, segment, options->commands[c],
                              NULL);
        scope_marker_feed_command(app->marker_feed, app->source,
                                  options->commands[c],
                                  g_get_monotonic_time() / 1e6);
    }
    for (unsigned i = 0; i < options->slider_count; i++)
    {
        slider *s = &app->sliders[i];
        intptr_t value;
        bool found = scope_source_tweak(app->source, s->spec->name, &value);
        slider_set_missing(s, !found);
        if (!found)
            continue;
        slider_note(s, NULL);
        if (s->chosen)
        {
            slider_send(s);
            continue;
        }
        long min, max;
        scope_slider_range((long) value, &min, &max);
        slider_place(s, min, max, (long) value);
    }
}

/* Tweaks change from elsewhere too (recorder_scope -c, the program
 * itself): sliders the user is not moving show the program's value. */
static void follow_tweaks(ScopeApp *app, double now)
{
    if (now < app->next_tweak_poll)
        return;
    app->next_tweak_poll = now + TWEAK_POLL;
    if (scope_source_get_state(app->source) != SCOPE_SOURCE_LIVE)
        return;
    for (unsigned i = 0; i < app->options->slider_count; i++)
    {
        slider *s = &app->sliders[i];
        intptr_t value;
        if (s->missing)
        {
            /* Tweaks a program adds later (a module it loads). */
            if (scope_source_tweak(app->source, s->spec->name, &value))
            {
                long min, max;
                slider_set_missing(s, FALSE);
                scope_slider_range((long) value, &min, &max);
                if (s->chosen)
                    slider_send(s);
                else
                    slider_place(s, min, max, (long) value);
            }
            continue;
        }
        if (!gtk_widget_get_sensitive(s->scale) || now - s->moved < SLIDER_SETTLE ||
            !scope_source_tweak(app->source, s->spec->name, &value))
            continue;
        GtkAdjustment *adjustment = gtk_range_get_adjustment(GTK_RANGE(s->scale));
        if (lround(gtk_adjustment_get_value(adjustment)) != (long) value)
            slider_place(s, (long) gtk_adjustment_get_lower(adjustment),
                         (long) gtk_adjustment_get_upper(adjustment),
                         (long) value);
    }
}

/* ---- the shared view ------------------------------------------------------ */

static GraphView *focused_view(ScopeApp *app);

static void sync_actions(ScopeApp *app);

/* --trace-view: what the window shows, in words a script can read. */
static void trace_view(ScopeApp *app, const char *what)
{
    if (!app->options->trace_view || !what)
        return;
    const scope_time_view *time = &app->shared.time;
    GraphView *view = focused_view(app);
    unsigned graph = 0;
    while (graph < app->view_count && app->views[graph] != view)
        graph++;
    if (strcmp(what, "view") == 0 || strcmp(what, "live") == 0)
    {
        if (time->paused)
            printf("view: paused %.6f %.6f\n", time->end - time->span,
                   time->end);
        else if (time->span > 0)
            printf("view: live %.6f\n", time->span);
        else
            printf("view: live all\n");
    }
    else if (strcmp(what, "values") == 0)
    {
        static const char *const modes[] = { "shared", "lanes", "normalised" };
        const scope_value_view *values = graph_view_get_values(view);
        if (values->manual)
            printf("values: graph %u: fixed %.9g %.9g %s %s\n", graph + 1,
                   values->lo, values->hi, modes[values->mode],
                   values->log ? "log" : "linear");
        else
            printf("values: graph %u: auto %s %s\n", graph + 1,
                   modes[values->mode], values->log ? "log" : "linear");
    }
    else if (strcmp(what, "channels") == 0)
    {
        for (unsigned g = 0; g < app->view_count; g++)
        {
            unsigned count;
            scope_series *const *series =
                scope_source_graph_series(app->source, g, &count);
            printf("hidden: graph %u:", g + 1);
            for (unsigned c = 0; c < count; c++)
                if (graph_view_channel_hidden(app->views[g], c))
                    scope_print(stdout, " %s", series[c]->name);
            printf("\n");
        }
    }
    else if (strncmp(what, "cursor", 6) == 0)
    {
        for (unsigned c = 0; c < 2; c++)
            if (app->shared.has_cursor[c])
                printf("cursor %c: %.6f\n", "AB"[c], app->shared.cursor[c]);
    }
    if (strcmp(what, "trigger") == 0 && app->triggering)
        scope_print(stdout, "%s\n", app->trigger_traced);
    if (strcmp(what, "readout") == 0 || strncmp(what, "cursor", 6) == 0)
        scope_print(stdout, "readout: %s\n", app->readout_line);
    /* What each graph asks for, then what it has found. */
    if (strcmp(what, "graphs") == 0)
        for (unsigned g = 0; g < app->view_count; g++)
        {
            char text[1200];
            scope_source_graph_describe(app->source, g, text, sizeof(text));
            scope_print(stdout, "graphs: %u: %s\n", g + 1, text);
        }
    if (strcmp(what, "graphs") == 0 || strcmp(what, "shown") == 0)
        for (unsigned g = 0; g < app->view_count; g++)
        {
            unsigned count;
            scope_series *const *series =
                scope_source_graph_series(app->source, g, &count);
            printf("shown: graph %u:", g + 1);
            for (unsigned c = 0; c < count; c++)
                scope_print(stdout, " %s", series[c]->name);
            printf("\n");
        }
    fflush(stdout);
}

/* --trace-view: the frames each graph drew in the last second, so that
 * a script can see them paced by the data. */
static void trace_frames(ScopeApp *app, double now)
{
    if (!app->options->trace_view || now < app->frames_traced + 1)
        return;
    app->frames_traced = now;
    for (unsigned g = 0; g < app->view_count; g++)
        printf("frames: graph %u: %u\n", g + 1,
               graph_view_take_frames(app->views[g]));
    fflush(stdout);
}

/* The readout of the graph under the pointer (or the focused one), on
 * one line for the status bar. */
static void collect_readout(ScopeApp *app)
{
    GraphView *view = app->shared.hovering && app->shared.hovered
                    ? app->shared.hovered : focused_view(app);
    graph_view_refresh_readout(view);
    const char *lines = graph_view_readout(view);
    size_t used = 0;
    app->readout_line[0] = 0;
    for (const char *p = lines; *p && used + 1 < sizeof(app->readout_line); )
    {
        size_t n = strcspn(p, "\n");
        /* Columns line up in the box; one space is enough here. */
        int wrote = snprintf(app->readout_line + used,
                             sizeof(app->readout_line) - used, "%s%.*s",
                             used ? " | " : "", (int) n, p);
        if (wrote < 0)
            break;
        used += (size_t) wrote;
        p += n + (p[n] == '\n');
    }
    if (used >= sizeof(app->readout_line))
        used = sizeof(app->readout_line) - 1;
    /* Squeeze the padding runs of fixed-width numbers. */
    char *out = app->readout_line;
    for (const char *in = app->readout_line; *in; in++)
        if (!(*in == ' ' && (in[1] == ' ' || out == app->readout_line ||
                             out[-1] == ' ')))
            *out++ = *in;
    *out = 0;
}

static void on_shared_changed(void *data, const char *what)
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
    sync_actions(app);
    show_status(app);
    trace_view(app, what);
}

/* --view: once samples are held, pause on the span it names. */
static void apply_view_request(ScopeApp *app)
{
    double oldest, newest, t0, t1;
    if (!scope_source_held_range(app->source, &oldest, &newest) ||
        !scope_view_request_resolve(&app->options->view, oldest, newest,
                                    &t0, &t1))
        return;
    app->view_pending = false;
    scope_time_view_show(&app->shared.time, t0, t1);
    on_shared_changed(app, "view");
}

/* ---- trigger -------------------------------------------------------------- */

/* Look at the trigger channel's new samples; move the view as the trigger
 * says; tell its state (status line, --trace-view 'trigger: STATE [T]').
 * 'found' adds what an action did. */
static void follow_trigger(ScopeApp *app, unsigned found)
{
    double t0, t1;
    scope_time_view_window(&app->shared.time, &app->shared.held, &t0, &t1);
    found |= scope_trigger_follow(&app->trigger, app->source, app->view_count,
                                  t1 - t0);
    const scope_trigger *trigger = &app->trigger;
    if (found & SCOPE_TRIGGER_CAPTURED)
    {
        /* Each capture says "triggered", even when re-armed at once. */
        snprintf(app->trigger_traced, sizeof(app->trigger_traced),
                 "trigger: triggered %.6f", trigger->shown_time);
        trace_view(app, "trigger");
    }
    char traced[sizeof(app->trigger_traced)];
    const char *state = scope_trigger_state_name(trigger->state);
    if (trigger->state != SCOPE_TRIGGER_ARMED)
        snprintf(traced, sizeof(traced), "trigger: %s %.6f", state,
                 trigger->state == SCOPE_TRIGGER_WAITING
                 ? trigger->time : trigger->shown_time);
    else if (trigger->has_capture)
        snprintf(traced, sizeof(traced), "trigger: %s %.6f", state,
                 trigger->shown_time);
    else
        snprintf(traced, sizeof(traced), "trigger: %s", state);
    if (strcmp(traced, app->trigger_traced) != 0)
    {
        snprintf(app->trigger_traced, sizeof(app->trigger_traced), "%s",
                 traced);
        trace_view(app, "trigger");
    }
    char text[sizeof(app->trigger_text)];
    scope_trigger_describe(trigger, text, sizeof(text));
    bool moved = scope_trigger_steer(trigger, found, &app->shared.time,
                                     &app->trigger_shown);
    if (moved || strcmp(text, app->trigger_text) != 0 || found)
    {
        snprintf(app->trigger_text, sizeof(app->trigger_text), "%s", text);
        on_shared_changed(app, moved ? "view" : NULL);
    }
}

/* ---- polling ------------------------------------------------------------- */

/* The title names the program and its pid once one is attached. */
static void update_title(ScopeApp *app)
{
    const recorder_share_process *process = scope_source_process(app->source);
    char title[4300];
    scope_window_title(title, sizeof(title), scope_source_path(app->source),
                       process ? process->program : NULL,
                       process ? process->pid : 0);
    gtk_window_set_title(GTK_WINDOW(app->window), title);
}

/* The slider whose command an outcome ("'NAME=VALUE' refused: ...") is
 * about, or NULL. */
static slider *slider_of_outcome(ScopeApp *app, const char *outcome)
{
    for (unsigned i = 0; i < app->options->slider_count; i++)
    {
        const char *name = app->sliders[i].spec->name;
        size_t n = strlen(name);
        if (outcome[0] == '\'' && strncmp(outcome + 1, name, n) == 0 &&
            outcome[n + 1] == '=')
            return &app->sliders[i];
    }
    return NULL;
}

static gboolean on_poll(gpointer data)
{
    ScopeApp *app = data;
    double now = g_get_monotonic_time() / 1e6;
    unsigned found = scope_source_poll(app->source, now);
    bool marked = scope_marker_feed_poll(app->marker_feed, app->source,
                                         found) != 0;
    /* Each process as it comes, when there are several. */
    scope_targets_follow(app->commands, app->source);
    for (unsigned i = 0; i < scope_source_segment_count(app->source); i++)
        if (scope_source_segment_found(app->source, i) & SCOPE_POLL_ATTACHED)
            on_attached(app, i);
    if (found & (SCOPE_POLL_ATTACHED | SCOPE_POLL_STATE))
        scope_target_choice_update(app->target_choice);
    follow_tweaks(app, now);
    bool everything = found & (SCOPE_POLL_STATE | SCOPE_POLL_ATTACHED |
                               SCOPE_POLL_CHANNELS);
    /* One time axis: when any graph moves, all do. */
    bool fresh = false;
    for (unsigned g = 0; g < app->view_count; g++)
        fresh |= scope_source_graph_take_new(app->source, g);
    if (fresh || everything)
        for (unsigned g = 0; g < app->view_count; g++)
            graph_view_update(app->views[g]);
    else if (marked)
        for (unsigned g = 0; g < app->view_count; g++)
            graph_view_redraw(app->views[g]);
    if (app->view_pending)
        apply_view_request(app);
    if (app->triggering)
        follow_trigger(app, 0);
    if (found & SCOPE_POLL_CHANNELS)
        trace_view(app, "shown");
    trace_frames(app, now);

    const char *message = scope_source_message(app->source);
    if (strcmp(message, app->said) != 0)
    {
        scope_message("%s", message);
        snprintf(app->said, sizeof(app->said), "%s", message);
        update_title(app);
    }
    scope_targets_poll(app->commands);
    char outcome[480];
    bool failed;
    while (scope_targets_outcome(app->commands, app->source, outcome,
                                 sizeof(outcome), &failed))
    {
        /* A slider's refusal stays beside it until one is applied. */
        slider *s = slider_of_outcome(app, outcome);
        if (s && failed)
        {
            scope_message("%s", outcome);
            slider_note(s, outcome);
        }
        else if (failed)
            show_error(app, outcome);
        else
        {
            if (s)
                slider_note(s, NULL);
            set_action_text(app, outcome);
        }
    }
    return G_SOURCE_CONTINUE;
}

/* ---- saving ---------------------------------------------------------------- */

static GraphView *focused_view(ScopeApp *app)
{
    for (GtkWidget *w = gtk_root_get_focus(GTK_ROOT(app->window)); w;
         w = gtk_widget_get_parent(w))
        if (GRAPH_IS_VIEW(w))
            return GRAPH_VIEW(w);
    return app->shared.focused ? app->shared.focused : app->views[0];
}

static void save(ScopeApp *app, bool image, bool data)
{
    GraphView *view = focused_view(app);
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
        show_error(app, text);
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
    set_action_text(app, text);
}

/* ---- actions ----------------------------------------------------------------- */

/* If any graph has a timing axis, all keep room for one: time axes of
 * stacked graphs line up. */
static void align_graphs(ScopeApp *app)
{
    gboolean timing = FALSE;
    for (unsigned g = 0; g < app->view_count; g++)
        if (graph_view_get_views(app->views[g]) & SCOPE_VIEW_TIMING)
            timing = TRUE;
    for (unsigned g = 0; g < app->view_count; g++)
        graph_view_set_right_axis(app->views[g], timing);
}

static void toggle(ScopeApp *app, unsigned view_flag)
{
    graph_view_toggle(focused_view(app), view_flag);
    align_graphs(app);
    sync_actions(app);
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
static void sync_actions(ScopeApp *app)
{
    if (!app->window)
        return;
    unsigned views = graph_view_get_views(focused_view(app));
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
    on_shared_changed(app, "view");
}

static void go_live(ScopeApp *app)
{
    scope_time_view_live(&app->shared.time);
    for (unsigned g = 0; g < app->view_count; g++)
        graph_view_value_auto(app->views[g]);
    on_shared_changed(app, "live");
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
        anchor = graph_view_pointer_time(focused_view(app));
    scope_time_view_zoom(&w->time, &w->held, factor, anchor);
    on_shared_changed(app, "view");
}

static void pan_time(ScopeApp *app, double fraction)
{
    double t0, t1;
    scope_time_view_window(&app->shared.time, &app->shared.held, &t0, &t1);
    scope_time_view_pan(&app->shared.time, &app->shared.held,
                        fraction * (t1 - t0));
    on_shared_changed(app, "view");
}

static void place_cursor(ScopeApp *app, unsigned which)
{
    graph_window *w = &app->shared;
    GraphView *view = w->hovering && w->hovered ? w->hovered
                                                : focused_view(app);
    double t = graph_view_pointer_time(view);
    if (isnan(t))
        return;
    w->has_cursor[which] = true;
    w->cursor[which] = t;
    on_shared_changed(app, which ? "cursor B" : "cursor A");
}

static void clear_cursors(ScopeApp *app)
{
    app->shared.has_cursor[0] = app->shared.has_cursor[1] = false;
    on_shared_changed(app, "cursor");
}

static void zoom_to_cursors(ScopeApp *app)
{
    graph_window *w = &app->shared;
    if (!w->has_cursor[0] || !w->has_cursor[1])
    {
        set_action_text(app, "place cursors A and B first (keys 1 and 2, or "
                             "right-click and Shift+right-click)");
        return;
    }
    scope_time_view_show(&w->time, w->cursor[0], w->cursor[1]);
    on_shared_changed(app, "view");
}

static void value_action(ScopeApp *app, const char *said)
{
    set_action_text(app, said);
    on_shared_changed(app, "values");
}

static void toggle_channel(ScopeApp *app, unsigned number)
{
    if (number < 1 || !graph_view_toggle_channel(focused_view(app),
                                                 number - 1))
    {
        char text[80];
        snprintf(text, sizeof(text), "the focused graph has no channel %u",
                 number);
        set_action_text(app, text);
        return;
    }
    on_shared_changed(app, "channels");
}

/* r: arm again (single: for the next capture). */
static void trigger_rearm(ScopeApp *app)
{
    if (!app->triggering)
    {
        set_action_text(app, "no trigger: point at a level and press v, or "
                             "start with --trigger 'CHANNEL>LEVEL'");
        return;
    }
    scope_trigger_arm(&app->trigger);
    set_action_text(app, "trigger armed");
    follow_trigger(app, 0);
}

/* o: auto, normal, single. */
static void trigger_cycle_mode(ScopeApp *app)
{
    if (!app->triggering)
    {
        trigger_rearm(app);
        return;
    }
    scope_trigger_set_mode(&app->trigger, (app->trigger.mode + 1) %
                                          SCOPE_TRIGGER_MODES);
    char text[80];
    snprintf(text, sizeof(text), "trigger mode %s",
             scope_trigger_mode_name(app->trigger.mode));
    set_action_text(app, text);
    follow_trigger(app, 0);
}

/* e: rising, falling, either. */
static void trigger_cycle_edge(ScopeApp *app)
{
    if (!app->triggering)
    {
        trigger_rearm(app);
        return;
    }
    scope_trigger_spec *spec = &app->trigger.spec;
    spec->edge = spec->edge == SCOPE_TRIGGER_RISING ? SCOPE_TRIGGER_FALLING
               : spec->edge == SCOPE_TRIGGER_FALLING ? SCOPE_TRIGGER_EITHER
               : SCOPE_TRIGGER_RISING;
    scope_trigger_set_level(&app->trigger, spec->level);
    static const char *const edges[] = { "", "rising", "falling", "either" };
    char text[80];
    snprintf(text, sizeof(text), "trigger edge %s", edges[spec->edge]);
    set_action_text(app, text);
    follow_trigger(app, 0);
}

/* v: the level at the pointer; the graph's first channel shown becomes
 * the trigger channel unless the trigger's own is in that graph. */
static void trigger_level_here(ScopeApp *app)
{
    graph_window *w = &app->shared;
    double level;
    const scope_series *first;
    if (!w->hovering || !w->hovered ||
        !graph_view_pointer_value(w->hovered, &level, &first) || !first)
    {
        set_action_text(app, "point at the trigger level in a graph with "
                             "one value axis, then press v");
        return;
    }
    unsigned count = 0, g = 0;
    while (g < app->view_count && app->views[g] != w->hovered)
        g++;
    scope_series *const *series = scope_source_graph_series(app->source, g,
                                                            &count);
    bool here = false;
    for (unsigned s = 0; s < count && app->triggering; s++)
        here |= series[s] == app->trigger.series;
    if (!here)
    {
        scope_trigger_spec spec = app->triggering ? app->trigger.spec
            : (scope_trigger_spec) { .edge = SCOPE_TRIGGER_RISING };
        snprintf(spec.channel, sizeof(spec.channel), "%s", first->name);
        spec.level = level;
        scope_trigger_init(&app->trigger, &spec,
                           app->triggering ? app->trigger.mode
                                           : app->options->trigger_mode,
                           app->triggering ? app->trigger.pre
                                           : app->options->trigger_pre);
        app->triggering = true;
        w->trigger = &app->trigger;
    }
    scope_trigger_set_level(&app->trigger, level);
    char text[200], spec[96];
    scope_trigger_spec_text(&app->trigger.spec, spec, sizeof(spec));
    snprintf(text, sizeof(text), "trigger %s", spec);
    set_action_text(app, text);
    follow_trigger(app, 0);
}

/* ---- the channel picker's changes (channel_picker.c) ---------------------- */

static void on_view_focus(GObject *object, GParamSpec *pspec, gpointer data);

static unsigned picker_focused(void *data)
{
    ScopeApp *app = data;
    GraphView *view = focused_view(app);
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
        show_error(app, "out of memory for a new graph");
        return;
    }
    app->views = views;
    GtkWidget *view = graph_view_new(app->source, &app->shared, (unsigned) g,
                                     app->options->views,
                                     app->options->max_samples);
    app->views[g] = GRAPH_VIEW(view);
    app->view_count = (unsigned) g + 1;
    g_signal_connect(view, "notify::has-focus", G_CALLBACK(on_view_focus),
                     app);
    gtk_box_append(GTK_BOX(app->graphs_box), view);
    align_graphs(app);
    char text[300];
    snprintf(text, sizeof(text), "graph %d: %s", g + 1, regex);
    set_action_text(app, text);
    trace_view(app, "graphs");
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
    set_action_text(app, text);
    if (removed_at >= 0)
        graph_view_forget_channel(app->views[graph], (unsigned) removed_at);
    if (changed)
        trace_view(app, "graphs");
}

static void picker_send(void *data, const char *command)
{
    ScopeApp *app = data;
    send_command(app, command, NULL);
}

static void picker_say(void *data, const char *text, bool error)
{
    ScopeApp *app = data;
    if (error)
        show_error(app, text);
    else
        set_action_text(app, text);
}

/* Keys go back to the graphs (space on the picker's button would open
 * it again rather than save). */
static void on_picker_closed(GtkPopover *popover, gpointer data)
{
    (void) popover;
    ScopeApp *app = data;
    gtk_widget_grab_focus(GTK_WIDGET(focused_view(app)));
}

/* Commands and sliders now go to another process (or to all): say so,
 * and let the sliders show that process's tweaks. */
static void on_target_chosen(void *data)
{
    ScopeApp *app = data;
    const char *target = scope_target_choice_text(app->target_choice);
    char text[160];
    snprintf(text, sizeof(text), "commands go to %s", target);
    set_action_text(app, text);
    app->next_tweak_poll = 0;
    if (app->options->trace_view)
    {
        scope_print(stdout, "target: %s\n", target);
        fflush(stdout);
    }
    gtk_widget_grab_focus(GTK_WIDGET(focused_view(app)));
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
ACTION(act_value_zoom_in, graph_view_value_zoom(focused_view(app),
                                                1 / ZOOM_STEP);
       on_shared_changed(app, "values"))
ACTION(act_value_zoom_out, graph_view_value_zoom(focused_view(app),
                                                 ZOOM_STEP);
       on_shared_changed(app, "values"))
ACTION(act_value_pan_up, graph_view_value_pan(focused_view(app), PAN_STEP);
       on_shared_changed(app, "values"))
ACTION(act_value_pan_down, graph_view_value_pan(focused_view(app), -PAN_STEP);
       on_shared_changed(app, "values"))
ACTION(act_cursor_a, place_cursor(app, 0))
ACTION(act_cursor_b, place_cursor(app, 1))
ACTION(act_cursors_clear, clear_cursors(app))
ACTION(act_zoom_cursors, zoom_to_cursors(app))
ACTION(act_scale_mode, value_action(app,
                                    graph_view_cycle_scale(focused_view(app))))
ACTION(act_log_scale, value_action(app,
                                   graph_view_toggle_log(focused_view(app))))
ACTION(act_lock_range, value_action(app,
                                    graph_view_toggle_lock(focused_view(app))))
ACTION(act_shortcuts, show_shortcuts(app))
ACTION(act_trigger_rearm, trigger_rearm(app))
ACTION(act_trigger_mode, trigger_cycle_mode(app))
ACTION(act_trigger_edge, trigger_cycle_edge(app))
ACTION(act_trigger_level, trigger_level_here(app))
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

/* ---- window ------------------------------------------------------------------- */

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
        sync_actions(app);
    }
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
    update_title(app);

    GtkWidget *bar = scope_header_bar_new();
    gtk_window_set_titlebar(GTK_WINDOW(app->window), bar);
    app->picker = g_object_get_data(G_OBJECT(bar), SCOPE_PICKER_BUTTON);
    scope_picker_attach(app->picker, app->source, &(scope_picker_hooks) {
        .data = app, .focused = picker_focused, .add_graph = picker_add_graph,
        .change = picker_change, .send = picker_send, .say = picker_say });
    g_signal_connect(gtk_menu_button_get_popover(GTK_MENU_BUTTON(app->picker)),
                     "closed", G_CALLBACK(on_picker_closed), app);
    app->target_choice = scope_target_choice_new(app->source, on_target_chosen,
                                                 app);
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
        GtkWidget *view = graph_view_new(app->source, &app->shared, g, views,
                                         options->max_samples);
        app->views[g] = GRAPH_VIEW(view);
        g_signal_connect(view, "notify::has-focus", G_CALLBACK(on_view_focus),
                         app);
        gtk_box_append(GTK_BOX(graphs), view);
    }
    app->shared.focused = app->views[0];
    align_graphs(app);
    GtkWidget *sliders = gtk_grid_new();
    gtk_grid_set_column_spacing(GTK_GRID(sliders), 8);
    gtk_grid_set_row_spacing(GTK_GRID(sliders), 4);
    gtk_widget_set_margin_start(sliders, 8);
    gtk_widget_set_margin_end(sliders, 8);
    for (unsigned i = 0; i < options->slider_count; i++)
        slider_row(&app->sliders[i], GTK_GRID(sliders), (int) i);
    if (options->slider_count)
        gtk_box_append(GTK_BOX(box), sliders);

    app->status = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(app->status), 0);
    gtk_label_set_ellipsize(GTK_LABEL(app->status), PANGO_ELLIPSIZE_END);
    gtk_widget_set_margin_start(app->status, 8);
    gtk_widget_set_margin_end(app->status, 8);
    gtk_widget_set_margin_bottom(app->status, 4);
    gtk_box_append(GTK_BOX(box), app->status);

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

    on_poll(app);
    app->poll = g_timeout_add(POLL_MS, on_poll, app);
    gtk_window_present(GTK_WINDOW(app->window));
    gtk_widget_grab_focus(GTK_WIDGET(app->views[0]));
    sync_actions(app);
    trace_view(app, "view");
    trace_view(app, "graphs");
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
    g_action_map_add_action_entries(G_ACTION_MAP(app), app_actions,
                                    G_N_ELEMENTS(app_actions), app);
    scope_key_bindings_install(GTK_APPLICATION(app));
}

static void scope_app_shutdown(GApplication *application)
{
    ScopeApp *app = SCOPE_APP(application);
    if (app->poll)
    {
        g_source_remove(app->poll);
        app->poll = 0;
    }
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
    app->shared.changed = on_shared_changed;
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
