/* target_choice.c - the drop-down choosing where commands go. */
#include "window/target_choice.h"
#include "source/multi_source.h"

#include <string.h>

#define ALL_TEXT        "all processes"

typedef struct target_choice
{
    scope_source *source;
    void        (*changed)(void *data);
    void *        data;
    GtkStringList *names;
    gboolean      updating;             /* not the user choosing */
} target_choice;

static target_choice *choice_of(GtkWidget *widget)
{
    return g_object_get_data(G_OBJECT(widget), "scope-target-choice");
}

static void on_selected(GObject *object, GParamSpec *pspec, gpointer data)
{
    (void) pspec;
    target_choice *choice = data;
    if (choice->updating)
        return;
    guint selected = gtk_drop_down_get_selected(GTK_DROP_DOWN(object));
    /* Row 0 is "all", row i + 1 segment i. */
    scope_source_set_target(choice->source, selected == GTK_INVALID_LIST_POSITION
                                            || selected == 0
                                            ? -1 : (int) selected - 1);
    if (choice->changed)
        choice->changed(choice->data);
}

GtkWidget *scope_target_choice_new(scope_source *source,
                                   void (*changed)(void *data), void *data)
{
    target_choice *choice = g_new0(target_choice, 1);
    choice->source = source;
    choice->changed = changed;
    choice->data = data;
    const char *const first[] = { ALL_TEXT, NULL };
    choice->names = gtk_string_list_new(first);
    GtkWidget *widget = gtk_drop_down_new(G_LIST_MODEL(choice->names), NULL);
    g_object_set_data_full(G_OBJECT(widget), "scope-target-choice", choice,
                           g_free);
    gtk_widget_set_tooltip_text(widget, "Where commands and sliders go "
                                "(Ctrl+P: the next)");
    gtk_widget_set_visible(widget, scope_source_group(source) != NULL);
    g_signal_connect(widget, "notify::selected", G_CALLBACK(on_selected),
                     choice);
    scope_target_choice_update(widget);
    return widget;
}

void scope_target_choice_update(GtkWidget *widget)
{
    target_choice *choice = choice_of(widget);
    unsigned count = scope_source_segment_count(choice->source);
    guint rows = g_list_model_get_n_items(G_LIST_MODEL(choice->names));
    bool same = rows == count + 1;
    for (unsigned i = 0; same && i < count; i++)
        same = strcmp(gtk_string_list_get_string(choice->names, i + 1),
                      scope_source_segment_name(choice->source, i)) == 0;
    if (same)
        return;
    const char **names = g_new0(const char *, count + 1);
    for (unsigned i = 0; i < count; i++)
        names[i] = scope_source_segment_name(choice->source, i);
    choice->updating = TRUE;
    guint selected = gtk_drop_down_get_selected(GTK_DROP_DOWN(widget));
    gtk_string_list_splice(choice->names, 1, rows - 1, names);
    /* Segments only join at the end: the chosen row keeps its place. */
    gtk_drop_down_set_selected(GTK_DROP_DOWN(widget), selected);
    choice->updating = FALSE;
    g_free(names);
}

void scope_target_choice_next(GtkWidget *widget)
{
    target_choice *choice = choice_of(widget);
    guint rows = g_list_model_get_n_items(G_LIST_MODEL(choice->names));
    guint selected = gtk_drop_down_get_selected(GTK_DROP_DOWN(widget));
    gtk_drop_down_set_selected(GTK_DROP_DOWN(widget),
                               rows ? (selected + 1) % rows : 0);
}

const char *scope_target_choice_text(GtkWidget *widget)
{
    target_choice *choice = choice_of(widget);
    int target = scope_source_target(choice->source);
    return target < 0 ? "all"
                      : scope_source_segment_name(choice->source,
                                                  (unsigned) target);
}
