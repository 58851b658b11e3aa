/* channel_picker.c - the popover that chooses channels and graphs.
 *
 * Keyboard first: it opens with the focus in its entry, so "name, Return"
 * adds a channel to the graph and Tab reaches Remove and New graph; the
 * lists below carry the same actions for the mouse. GTK 4.8: the segment
 * chooser is a GtkFileChooserNative (GtkFileDialog is 4.10).
 */
#include "window/channel_picker.h"
#include "source/channel_catalog.h"
#include "source/graph_members.h"

#include <recorder/recorder_regex.h>

#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REFRESH_MS      500             /* while open: new channels, graphs */

typedef struct picker
{
    scope_source *     source;
    scope_picker_hooks hooks;
    GtkWidget *        button;
    GtkWidget *        popover;
    GtkWidget *        where;           /* segment and its state */
    GtkWidget *        graphs;          /* GtkDropDown: the graph acted on */
    GtkWidget *        entry;
    GtkWidget *        lists;           /* channels and recorders */
    GPtrArray *        checks;          /* a channel's "in the graph" box */
    unsigned           graph_count;     /* as the drop-down lists them */
    unsigned           channel_count;   /* as the lists were made from */
    unsigned           recorder_count;
    char               described[4096]; /* the graphs' descriptions, joined */
    guint              timer;
    bool               filling;         /* not the user toggling */
} picker;

static unsigned target_graph(picker *p)
{
    guint selected = gtk_drop_down_get_selected(GTK_DROP_DOWN(p->graphs));
    return selected == GTK_INVALID_LIST_POSITION ? 0 : selected;
}

static bool graph_shows(picker *p, unsigned graph, const char *name)
{
    unsigned count;
    scope_series *const *series = scope_source_graph_series(p->source, graph,
                                                            &count);
    for (unsigned s = 0; s < count; s++)
        if (strcmp(series[s]->name, name) == 0)
            return true;
    return false;
}

/* ---- the graphs ----------------------------------------------------------- */

/* "1: ramp +wave", one per graph; true if they changed since last time. */
static bool describe_graphs(picker *p, GtkStringList *list)
{
    char joined[sizeof(p->described)] = "";
    size_t used = 0;
    unsigned count = scope_source_graph_count(p->source);
    for (unsigned g = 0; g < count; g++)
    {
        char text[600], line[620];
        scope_source_graph_describe(p->source, g, text, sizeof(text));
        snprintf(line, sizeof(line), "Graph %u: %s", g + 1, text);
        if (list)
            gtk_string_list_append(list, line);
        int n = snprintf(joined + used, sizeof(joined) - used, "%s\n", line);
        if (n > 0 && (size_t) n < sizeof(joined) - used)
            used += (size_t) n;
    }
    bool changed = count != p->graph_count ||
                   strcmp(joined, p->described) != 0;
    memcpy(p->described, joined, sizeof(joined));
    p->graph_count = count;
    return changed;
}

static void fill_graphs(picker *p, unsigned selected)
{
    GtkStringList *list = gtk_string_list_new(NULL);
    describe_graphs(p, list);
    p->filling = true;
    gtk_drop_down_set_model(GTK_DROP_DOWN(p->graphs), G_LIST_MODEL(list));
    if (selected >= p->graph_count)
        selected = 0;
    gtk_drop_down_set_selected(GTK_DROP_DOWN(p->graphs), selected);
    p->filling = false;
    g_object_unref(list);
}

static void sync_checks(picker *p)
{
    unsigned graph = target_graph(p);
    p->filling = true;
    for (guint i = 0; i < p->checks->len; i++)
    {
        GtkWidget *check = g_ptr_array_index(p->checks, i);
        const char *name = g_object_get_data(G_OBJECT(check), "channel");
        gtk_check_button_set_active(GTK_CHECK_BUTTON(check),
                                    graph_shows(p, graph, name));
    }
    p->filling = false;
}

/* ---- what the user does --------------------------------------------------- */

static void say(picker *p, bool error, const char *format, ...)
    G_GNUC_PRINTF(3, 4);

static void say(picker *p, bool error, const char *format, ...)
{
    char text[600];
    va_list args;
    va_start(args, format);
    vsnprintf(text, sizeof(text), format, args);
    va_end(args);
    p->hooks.say(p->hooks.data, text, error);
}

/* A regex screened as the library compiles it, before it is used. */
static bool regex_ok(picker *p, const char *text)
{
    regex_t regex;
    char why[200];
    if (!recorder_regex_compile(&regex, text, NULL, why, sizeof(why)))
    {
        say(p, true, "bad channel regex '%s': %s", text, why);
        return false;
    }
    regfree(&regex);
    return true;
}

static void new_graph(picker *p, const char *regex)
{
    if (!regex_ok(p, regex))
        return;
    p->hooks.add_graph(p->hooks.data, regex);
    fill_graphs(p, p->graph_count);     /* the new one is the target now */
    sync_checks(p);
}

static void change(picker *p, const char *name, bool add)
{
    unsigned graph = target_graph(p);
    p->hooks.change(p->hooks.data, graph, name, add);
    fill_graphs(p, graph);
    sync_checks(p);
}

static const char *entry_text(picker *p)
{
    const char *text = gtk_editable_get_text(GTK_EDITABLE(p->entry));
    while (*text == ' ')
        text++;
    if (!*text)
        say(p, true, "type a channel name (or a regex for a new graph) first");
    return *text ? text : NULL;
}

static void export_names(picker *p, const char *recorder, const char *names);

static void on_entry_add(GtkWidget *widget, gpointer data)
{
    (void) widget;
    picker *p = data;
    const char *name = entry_text(p);
    const char *equal = name ? strchr(name, '=') : NULL;
    if (equal)
    {
        /* "RECORDER=chan1,chan2", as RECORDER_TRACES spells an export
         * (no channel name has a '='). */
        char recorder[64];
        snprintf(recorder, sizeof(recorder), "%.*s",
                 (int) (equal - name), name);
        export_names(p, recorder, equal + 1);
    }
    else if (name)
        change(p, name, true);
}

static void on_entry_remove(GtkWidget *widget, gpointer data)
{
    (void) widget;
    picker *p = data;
    const char *name = entry_text(p);
    if (name)
        change(p, name, false);
}

static void on_entry_new_graph(GtkWidget *widget, gpointer data)
{
    (void) widget;
    picker *p = data;
    const char *regex = entry_text(p);
    if (regex)
        new_graph(p, regex);
}

static void on_check(GtkCheckButton *check, gpointer data)
{
    picker *p = data;
    if (p->filling)
        return;
    change(p, g_object_get_data(G_OBJECT(check), "channel"),
           gtk_check_button_get_active(check));
}

static void on_row_new_graph(GtkWidget *button, gpointer data)
{
    picker *p = data;
    char regex[200];
    scope_regex_quote(g_object_get_data(G_OBJECT(button), "channel"), regex,
                      sizeof(regex));
    new_graph(p, regex);
}

static void export_names(picker *p, const char *recorder, const char *names)
{
    char command[600], error[300];
    if (!scope_export_command(recorder, names, command, sizeof(command),
                              error, sizeof(error)))
    {
        say(p, true, "not exported: %s", error);
        return;
    }
    p->hooks.send(p->hooks.data, command);
    say(p, false, "sent '%s': its channels appear in the list once applied",
        command);
}

static void on_export(GtkWidget *widget, gpointer data)
{
    GtkWidget *entry = g_object_get_data(G_OBJECT(widget), "names");
    export_names(data, g_object_get_data(G_OBJECT(widget), "recorder"),
           gtk_editable_get_text(GTK_EDITABLE(entry)));
}

static void on_graph_chosen(GObject *object, GParamSpec *pspec, gpointer data)
{
    (void) object;
    (void) pspec;
    picker *p = data;
    if (!p->filling)
        sync_checks(p);
}

/* ---- another segment -------------------------------------------------------- */

static void on_segment_chosen(GtkNativeDialog *dialog, int response,
                              gpointer data)
{
    picker *p = data;
    GFile *file = response == GTK_RESPONSE_ACCEPT
                ? gtk_file_chooser_get_file(GTK_FILE_CHOOSER(dialog)) : NULL;
    char *path = file ? g_file_get_path(file) : NULL;
    if (path)
    {
        /* A window per segment: this one keeps its graphs. */
        char *self = g_file_read_link("/proc/self/exe", NULL);
        char *argv[] = { self ? self : (char *) "recorder_scope",
                         (char *) "--pick", (char *) "-S", path, NULL };
        GError *error = NULL;
        if (g_spawn_async(NULL, argv, NULL,
                          self ? G_SPAWN_DEFAULT : G_SPAWN_SEARCH_PATH,
                          NULL, NULL, NULL, &error))
            say(p, false, "opened %s in a new window", path);
        else
        {
            say(p, true, "cannot open %s: %s", path, error->message);
            g_error_free(error);
        }
        g_free(self);
    }
    g_free(path);
    if (file)
        g_object_unref(file);
    g_object_unref(dialog);
}

static void on_open_segment(GtkWidget *widget, gpointer data)
{
    (void) widget;
    picker *p = data;
    GtkRoot *root = gtk_widget_get_root(p->button);
    GtkFileChooserNative *dialog =
        gtk_file_chooser_native_new("Open a recorder segment",
                                    GTK_IS_WINDOW(root) ? GTK_WINDOW(root)
                                                        : NULL,
                                    GTK_FILE_CHOOSER_ACTION_OPEN, "_Open",
                                    "_Cancel");
    gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(dialog), TRUE);
    g_signal_connect(dialog, "response", G_CALLBACK(on_segment_chosen), p);
    gtk_popover_popdown(GTK_POPOVER(p->popover));
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(dialog));
}

/* ---- the lists ---------------------------------------------------------------- */

static GtkWidget *label(const char *text, bool dim)
{
    GtkWidget *widget = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(widget), 0);
    gtk_label_set_ellipsize(GTK_LABEL(widget), PANGO_ELLIPSIZE_END);
    if (dim)
        gtk_widget_add_css_class(widget, "dim-label");
    return widget;
}

static GtkWidget *heading(const char *text)
{
    GtkWidget *widget = label(text, false);
    gtk_widget_add_css_class(widget, "heading");
    gtk_widget_set_margin_top(widget, 6);
    return widget;
}

static void name_widget(GtkWidget *widget, const char *key, const char *value)
{
    g_object_set_data_full(G_OBJECT(widget), key, g_strdup(value), g_free);
}

static void channel_rows(picker *p, GtkWidget *grid, const scope_catalog *c)
{
    for (unsigned i = 0; i < c->channel_count; i++)
    {
        const scope_catalog_channel *channel = &c->channels[i];
        GtkWidget *check = gtk_check_button_new_with_label(channel->name);
        gtk_widget_set_tooltip_text(check, "Shown in the chosen graph");
        name_widget(check, "channel", channel->name);
        g_signal_connect(check, "toggled", G_CALLBACK(on_check), p);
        g_ptr_array_add(p->checks, check);
        gtk_grid_attach(GTK_GRID(grid), check, 0, (int) i, 1, 1);
        gtk_grid_attach(GTK_GRID(grid),
                        label(channel->unit[0] ? channel->unit : "-", true),
                        1, (int) i, 1, 1);
        char from[100] = "";
        if (channel->recorder[0])
            snprintf(from, sizeof(from), "%s argument %u", channel->recorder,
                     channel->argument);
        gtk_grid_attach(GTK_GRID(grid), label(from, true), 2, (int) i, 1, 1);
        GtkWidget *button = gtk_button_new_with_label("New graph");
        name_widget(button, "channel", channel->name);
        g_signal_connect(button, "clicked", G_CALLBACK(on_row_new_graph), p);
        gtk_grid_attach(GTK_GRID(grid), button, 3, (int) i, 1, 1);
    }
}

/* The program's own recorders before the library's (recorder_...), those
 * that export channels first. */
static int recorder_rank(const scope_catalog_recorder *rec)
{
    return rec->exported[0] ? 0
         : strncmp(rec->name, "recorder_", 9) != 0 ? 1 : 2;
}

static int program_first(const void *a, const void *b)
{
    const scope_catalog_recorder *ra = a, *rb = b;
    int rank = recorder_rank(ra) - recorder_rank(rb);
    return rank ? rank : strcmp(ra->name, rb->name);
}

static void recorder_rows(picker *p, GtkWidget *grid, scope_catalog *c)
{
    qsort(c->recorders, c->recorder_count, sizeof(*c->recorders),
          program_first);
    for (unsigned i = 0; i < c->recorder_count; i++)
    {
        const scope_catalog_recorder *rec = &c->recorders[i];
        GtkWidget *name = label(rec->name, false);
        gtk_widget_set_tooltip_text(name, rec->description);
        gtk_grid_attach(GTK_GRID(grid), name, 0, (int) i, 1, 1);
        GtkWidget *names = gtk_entry_new();
        gtk_editable_set_text(GTK_EDITABLE(names), rec->exported);
        gtk_entry_set_placeholder_text(GTK_ENTRY(names), "chan1,chan2...");
        gtk_widget_set_tooltip_text(names, "Channel names for its arguments, "
                                    "in order ('_' skips one)");
        gtk_widget_set_hexpand(names, TRUE);
        gtk_grid_attach(GTK_GRID(grid), names, 1, (int) i, 1, 1);
        GtkWidget *button = gtk_button_new_with_label("Export");
        gtk_widget_set_tooltip_text(button, rec->description);
        name_widget(button, "recorder", rec->name);
        g_object_set_data(G_OBJECT(button), "names", names);
        g_object_set_data(G_OBJECT(names), "names", names);
        name_widget(names, "recorder", rec->name);
        g_signal_connect(button, "clicked", G_CALLBACK(on_export), p);
        g_signal_connect(names, "activate", G_CALLBACK(on_export), p);
        gtk_grid_attach(GTK_GRID(grid), button, 2, (int) i, 1, 1);
    }
}

static GtkWidget *grid_new(void)
{
    GtkWidget *grid = gtk_grid_new();
    gtk_grid_set_column_spacing(GTK_GRID(grid), 12);
    gtk_grid_set_row_spacing(GTK_GRID(grid), 2);
    return grid;
}

static void fill_lists(picker *p)
{
    for (GtkWidget *child; (child = gtk_widget_get_first_child(p->lists)); )
        gtk_box_remove(GTK_BOX(p->lists), child);
    g_ptr_array_set_size(p->checks, 0);
    char where[4700];
    snprintf(where, sizeof(where), "%s", scope_source_message(p->source));
    gtk_label_set_text(GTK_LABEL(p->where), where);

    recorder_share *share = scope_source_share(p->source);
    p->channel_count = share ? recorder_share_channel_count(share) : 0;
    p->recorder_count = share ? recorder_share_recorder_count(share) : 0;
    if (!share)
    {
        gtk_box_append(GTK_BOX(p->lists),
            label("No program yet. Start one with RECORDER_TRACES=recorder="
                  "chan1,chan2 (and RECORDER_SHARE=PATH for another path), "
                  "or open another segment.", true));
        return;
    }
    scope_catalog catalog;
    if (!scope_catalog_read(&catalog, share))
        say(p, true, "out of memory listing the channels");
    gtk_box_append(GTK_BOX(p->lists), heading("Channels"));
    if (catalog.channel_count)
    {
        GtkWidget *grid = grid_new();
        channel_rows(p, grid, &catalog);
        gtk_box_append(GTK_BOX(p->lists), grid);
    }
    else
        gtk_box_append(GTK_BOX(p->lists),
                       label("none exported: export a recorder's arguments "
                             "below", true));
    gtk_box_append(GTK_BOX(p->lists),
                   heading("Recorders: export their arguments as channels"));
    if (catalog.no_recorders[0])
        gtk_box_append(GTK_BOX(p->lists), label(catalog.no_recorders, true));
    else
    {
        GtkWidget *grid = grid_new();
        recorder_rows(p, grid, &catalog);
        gtk_box_append(GTK_BOX(p->lists), grid);
    }
    scope_catalog_free(&catalog);
    sync_checks(p);
}

/* While open: the program may export channels, the window's graphs may
 * find theirs. */
static gboolean on_refresh(gpointer data)
{
    picker *p = data;
    recorder_share *share = scope_source_share(p->source);
    unsigned channels = share ? recorder_share_channel_count(share) : 0;
    unsigned recorders = share ? recorder_share_recorder_count(share) : 0;
    if (channels != p->channel_count || recorders != p->recorder_count ||
        strcmp(scope_source_message(p->source),
               gtk_label_get_text(GTK_LABEL(p->where))) != 0)
        fill_lists(p);
    if (describe_graphs(p, NULL))
    {
        p->graph_count = (unsigned) -1;  /* refill below */
        fill_graphs(p, target_graph(p));
    }
    sync_checks(p);
    return G_SOURCE_CONTINUE;
}

static gboolean grab_entry(gpointer data)
{
    picker *p = data;
    gtk_widget_grab_focus(p->entry);
    return G_SOURCE_REMOVE;
}

static void on_show(GtkWidget *popover, gpointer data)
{
    (void) popover;
    picker *p = data;
    fill_graphs(p, p->hooks.focused(p->hooks.data));
    fill_lists(p);
    gtk_editable_set_text(GTK_EDITABLE(p->entry), "");
    g_idle_add(grab_entry, p);
    if (!p->timer)
        p->timer = g_timeout_add(REFRESH_MS, on_refresh, p);
}

static void on_hide(GtkWidget *popover, gpointer data)
{
    (void) popover;
    picker *p = data;
    if (p->timer)
        g_source_remove(p->timer);
    p->timer = 0;
}

static void picker_free(gpointer data)
{
    picker *p = data;
    if (p->timer)
        g_source_remove(p->timer);
    g_ptr_array_unref(p->checks);
    g_free(p);
}

static GtkWidget *text_button(const char *text, const char *tip,
                              GCallback callback, picker *p)
{
    GtkWidget *button = gtk_button_new_with_label(text);
    gtk_widget_set_tooltip_text(button, tip);
    g_signal_connect(button, "clicked", callback, p);
    return button;
}

void scope_picker_attach(GtkWidget *menu_button, scope_source *source,
                         const scope_picker_hooks *hooks)
{
    picker *p = g_new0(picker, 1);
    p->source = source;
    p->hooks = *hooks;
    p->button = menu_button;
    p->checks = g_ptr_array_new();
    p->popover = gtk_popover_new();
    g_object_set_data_full(G_OBJECT(p->popover), "picker", p, picker_free);

    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    gtk_popover_set_child(GTK_POPOVER(p->popover), box);

    GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    p->where = label("", true);
    gtk_widget_set_hexpand(p->where, TRUE);
    gtk_box_append(GTK_BOX(row), p->where);
    gtk_box_append(GTK_BOX(row),
                   text_button("Open segment...", "Open another recorder "
                               "segment in a new window",
                               G_CALLBACK(on_open_segment), p));
    gtk_box_append(GTK_BOX(box), row);

    p->graphs = gtk_drop_down_new(NULL, NULL);
    gtk_widget_set_tooltip_text(p->graphs, "The graph that Add, Remove and "
                                "the check boxes change");
    g_signal_connect(p->graphs, "notify::selected",
                     G_CALLBACK(on_graph_chosen), p);
    gtk_box_append(GTK_BOX(box), p->graphs);

    row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    p->entry = gtk_entry_new();
    gtk_entry_set_placeholder_text(GTK_ENTRY(p->entry),
                                   "channel, regex for a new graph, or "
                                   "recorder=chan1,chan2");
    gtk_widget_set_tooltip_text(p->entry, "Return adds the channel to the "
                                "graph; RECORDER=chan1,chan2 exports the "
                                "recorder's arguments as channels");
    gtk_widget_set_hexpand(p->entry, TRUE);
    g_signal_connect(p->entry, "activate", G_CALLBACK(on_entry_add), p);
    gtk_box_append(GTK_BOX(row), p->entry);
    gtk_box_append(GTK_BOX(row),
                   text_button("Add", "Show this channel in the graph "
                               "(Return)", G_CALLBACK(on_entry_add), p));
    gtk_box_append(GTK_BOX(row),
                   text_button("Remove", "Stop showing this channel in the "
                               "graph", G_CALLBACK(on_entry_remove), p));
    gtk_box_append(GTK_BOX(row),
                   text_button("New graph", "A new graph of the channels "
                               "this regex matches",
                               G_CALLBACK(on_entry_new_graph), p));
    gtk_box_append(GTK_BOX(box), row);

    p->lists = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    GtkWidget *scroller = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroller),
                                   GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_propagate_natural_height(
        GTK_SCROLLED_WINDOW(scroller), TRUE);
    gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(scroller),
                                               360);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroller), p->lists);
    gtk_box_append(GTK_BOX(box), scroller);
    gtk_widget_set_size_request(box, 520, -1);

    g_signal_connect(p->popover, "show", G_CALLBACK(on_show), p);
    g_signal_connect(p->popover, "hide", G_CALLBACK(on_hide), p);
    gtk_menu_button_set_popover(GTK_MENU_BUTTON(menu_button), p->popover);
}

void scope_picker_popup(GtkWidget *menu_button)
{
    gtk_menu_button_popup(GTK_MENU_BUTTON(menu_button));
}
