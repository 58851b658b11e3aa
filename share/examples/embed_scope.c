/* embed_scope.c - two live recorder graphs inside an ordinary GTK 4 window.
 *
 *   cc embed_scope.c -o embed_scope $(pkg-config --cflags --libs recorder-scope-gtk4)
 *   ./embed_scope [SEGMENT [CHANNELS_LEFT [CHANNELS_RIGHT]]]
 *
 * The window holds a label that says where the segment stands, the two
 * graphs side by side, a Pause button that freezes both and a span
 * selector for the time axes. SEGMENT defaults to $RECORDER_SHARE (or
 * recorder's default path); CHANNELS_LEFT and CHANNELS_RIGHT are regular
 * expressions of the channel names each graph shows (default: all).
 *
 * For tests, EMBED_SCOPE_SCRIPT=FILE makes it read one command a line from
 * FILE as it grows: "pause", "live", "span SECONDS", "quit".
 */
#include <recorder/recorder_scope_graph.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct embed_app
{
    GtkWidget *graphs[2];
    GtkWidget *status;
    GtkWidget *pause;
    GtkWidget *span;
    GtkWidget *window;
    FILE *     script;
} embed_app;

static void on_pause_toggled(GtkToggleButton *button, gpointer data)
{
    embed_app *app = data;
    gboolean paused = gtk_toggle_button_get_active(button);
    for (int g = 0; g < 2; g++)
        recorder_scope_graph_set_paused(RECORDER_SCOPE_GRAPH(app->graphs[g]),
                                        paused);
}

static void on_span_changed(GtkSpinButton *spin, gpointer data)
{
    embed_app *app = data;
    double span = gtk_spin_button_get_value(spin);
    for (int g = 0; g < 2; g++)
        g_object_set(app->graphs[g], "span", span, NULL);
}

/* A zoom with the mouse pauses a graph: the button follows. */
static void on_paused_changed(GObject *graph, GParamSpec *pspec,
                              gpointer data)
{
    (void) pspec;
    embed_app *app = data;
    gboolean paused;
    g_object_get(graph, "paused", &paused, NULL);
    if (paused && !gtk_toggle_button_get_active(GTK_TOGGLE_BUTTON(app->pause)))
        gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(app->pause), TRUE);
}

/* A zoom with the mouse changes the span: the selector follows. */
static void on_span_notified(GObject *graph, GParamSpec *pspec, gpointer data)
{
    (void) pspec;
    embed_app *app = data;
    double span;
    g_object_get(graph, "span", &span, NULL);
    if (span > 0)
        gtk_spin_button_set_value(GTK_SPIN_BUTTON(app->span), span);
}

static void on_message(GObject *graph, GParamSpec *pspec, gpointer data)
{
    (void) pspec;
    embed_app *app = data;
    gtk_label_set_text(GTK_LABEL(app->status),
                       recorder_scope_graph_get_message(
                           RECORDER_SCOPE_GRAPH(graph)));
}

static void on_attached(RecorderScopeGraph *graph, const char *name,
                        gpointer data)
{
    (void) graph;
    (void) data;
    printf("attached: %s\n", name);
    fflush(stdout);
}

static void on_lost(RecorderScopeGraph *graph, const char *message,
                    gpointer data)
{
    (void) graph;
    (void) data;
    printf("lost: %s\n", message);
    fflush(stdout);
}

/* EMBED_SCOPE_SCRIPT: what a test would otherwise click. */
static gboolean on_script(gpointer data)
{
    embed_app *app = data;
    char line[128];
    while (fgets(line, sizeof(line), app->script))
    {
        line[strcspn(line, "\n")] = 0;
        double span;
        if (strcmp(line, "pause") == 0)
            gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(app->pause), TRUE);
        else if (strcmp(line, "live") == 0)
            gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(app->pause), FALSE);
        else if (sscanf(line, "span %lf", &span) == 1)
            for (int g = 0; g < 2; g++)
                recorder_scope_graph_set_span(
                    RECORDER_SCOPE_GRAPH(app->graphs[g]), span);
        else if (strcmp(line, "quit") == 0)
            gtk_window_destroy(GTK_WINDOW(app->window));
        else
            fprintf(stderr, "embed_scope: unknown command '%s'\n", line);
        printf("did: %s\n", line);
        fflush(stdout);
        if (strcmp(line, "quit") == 0)
            return G_SOURCE_REMOVE;
    }
    clearerr(app->script);
    return G_SOURCE_CONTINUE;
}

static GtkWidget *build_window(GtkApplication *gtk_app, embed_app *app,
                               const char *segment, const char *left,
                               const char *right)
{
    GtkWidget *window = gtk_application_window_new(gtk_app);
    gtk_window_set_title(GTK_WINDOW(window), "embed_scope");
    gtk_window_set_default_size(GTK_WINDOW(window), 760, 360);

    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    gtk_widget_set_margin_start(box, 8);
    gtk_widget_set_margin_end(box, 8);
    gtk_widget_set_margin_top(box, 8);
    gtk_widget_set_margin_bottom(box, 8);
    gtk_window_set_child(GTK_WINDOW(window), box);

    app->status = gtk_label_new("starting");
    gtk_label_set_xalign(GTK_LABEL(app->status), 0);
    gtk_box_append(GTK_BOX(box), app->status);

    GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    gtk_box_set_homogeneous(GTK_BOX(row), TRUE);
    gtk_widget_set_vexpand(row, TRUE);
    gtk_box_append(GTK_BOX(box), row);
    const char *channels[2] = { left, right };
    for (int g = 0; g < 2; g++)
    {
        app->graphs[g] = recorder_scope_graph_new(segment, channels[g]);
        g_signal_connect(app->graphs[g], "notify::paused",
                         G_CALLBACK(on_paused_changed), app);
        g_signal_connect(app->graphs[g], "notify::span",
                         G_CALLBACK(on_span_notified), app);
        gtk_box_append(GTK_BOX(row), app->graphs[g]);
    }
    g_signal_connect(app->graphs[0], "notify::message",
                     G_CALLBACK(on_message), app);
    g_signal_connect(app->graphs[0], "source-attached",
                     G_CALLBACK(on_attached), app);
    g_signal_connect(app->graphs[0], "source-lost", G_CALLBACK(on_lost), app);

    GtkWidget *controls = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    gtk_box_append(GTK_BOX(box), controls);
    app->pause = gtk_toggle_button_new_with_label("Pause");
    g_signal_connect(app->pause, "toggled", G_CALLBACK(on_pause_toggled), app);
    gtk_box_append(GTK_BOX(controls), app->pause);
    gtk_box_append(GTK_BOX(controls), gtk_label_new("Span (s)"));
    app->span = gtk_spin_button_new_with_range(0.001, 600, 0.5);
    gtk_spin_button_set_digits(GTK_SPIN_BUTTON(app->span), 3);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(app->span),
                              recorder_scope_graph_get_span(
                                  RECORDER_SCOPE_GRAPH(app->graphs[0])));
    g_signal_connect(app->span, "value-changed", G_CALLBACK(on_span_changed),
                     app);
    gtk_box_append(GTK_BOX(controls), app->span);
    return window;
}

static const char *arg(int argc, char **argv, int i)
{
    return argc > i && argv[i][0] ? argv[i] : NULL;
}

static void on_activate(GtkApplication *gtk_app, gpointer data)
{
    embed_app *app = data;
    char **argv = g_object_get_data(G_OBJECT(gtk_app), "argv");
    int argc = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(gtk_app), "argc"));
    app->window = build_window(gtk_app, app, arg(argc, argv, 1),
                               arg(argc, argv, 2), arg(argc, argv, 3));
    const char *script = getenv("EMBED_SCOPE_SCRIPT");
    if (script && (app->script = fopen(script, "r")))
        g_timeout_add(50, on_script, app);
    gtk_window_present(GTK_WINDOW(app->window));
}

int main(int argc, char **argv)
{
    embed_app app = { 0 };
    GtkApplication *gtk_app = gtk_application_new("org.recorder.EmbedScope",
                                                  G_APPLICATION_NON_UNIQUE);
    g_object_set_data(G_OBJECT(gtk_app), "argv", argv);
    g_object_set_data(G_OBJECT(gtk_app), "argc", GINT_TO_POINTER(argc));
    g_signal_connect(gtk_app, "activate", G_CALLBACK(on_activate), &app);
    /* Our arguments are not GTK's. */
    int status = g_application_run(G_APPLICATION(gtk_app), 1, argv);
    g_object_unref(gtk_app);
    if (app.script)
        fclose(app.script);
    return status;
}
