/* error_banner.c - errors shown at the top of the window until dismissed. */
#include "window/error_banner.h"

#include <stdio.h>

typedef struct banner_parts
{
    GtkWidget *label;
    unsigned   errors;                  /* shown since the last dismissal */
} banner_parts;

static banner_parts *parts_of(GtkWidget *banner)
{
    return g_object_get_data(G_OBJECT(banner), "scope-banner");
}

static void on_dismiss(GtkButton *button, gpointer data)
{
    (void) button;
    scope_banner_dismiss(GTK_WIDGET(data));
}

/* Once per display: the banner's colours. */
static void add_style(void)
{
    static gboolean added;
    GdkDisplay *display = gdk_display_get_default();
    if (added || !display)
        return;
    added = TRUE;
    GtkCssProvider *css = gtk_css_provider_new();
    gtk_css_provider_load_from_data(css,
        ".scope-error { background-color: #" SCOPE_BANNER_RGB "; "
        "color: #ffffff; padding: 4px 8px; }\n"
        ".scope-error label { color: #ffffff; }\n", -1);
    gtk_style_context_add_provider_for_display(
        display, GTK_STYLE_PROVIDER(css),
        GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref(css);
}

GtkWidget *scope_banner_new(void)
{
    add_style();
    GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
    gtk_widget_add_css_class(row, "scope-error");
    GtkWidget *label = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(label), 0);
    gtk_label_set_wrap(GTK_LABEL(label), TRUE);
    gtk_widget_set_hexpand(label, TRUE);
    gtk_box_append(GTK_BOX(row), label);
    GtkWidget *close = gtk_button_new_with_label("Dismiss");
    gtk_widget_set_valign(close, GTK_ALIGN_CENTER);
    gtk_widget_set_focus_on_click(close, FALSE);  /* keys stay on the graph */
    gtk_box_append(GTK_BOX(row), close);

    /* Hidden, it takes no room: the graphs get it back. */
    GtkWidget *banner = row;
    gtk_widget_set_visible(banner, FALSE);
    banner_parts *parts = g_new0(banner_parts, 1);
    parts->label = label;
    g_object_set_data_full(G_OBJECT(banner), "scope-banner", parts, g_free);
    g_signal_connect(close, "clicked", G_CALLBACK(on_dismiss), banner);
    return banner;
}

void scope_banner_show(GtkWidget *banner, const char *text)
{
    banner_parts *parts = parts_of(banner);
    parts->errors++;
    char shown[1200];
    if (parts->errors > 1)
        snprintf(shown, sizeof(shown), "%s  (%u errors, all on stderr)", text,
                 parts->errors);
    else
        snprintf(shown, sizeof(shown), "%s", text);
    gtk_label_set_text(GTK_LABEL(parts->label), shown);
    gtk_widget_set_visible(banner, TRUE);
}

void scope_banner_dismiss(GtkWidget *banner)
{
    parts_of(banner)->errors = 0;
    gtk_widget_set_visible(banner, FALSE);
}
