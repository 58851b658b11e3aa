/* window_chrome.c - header bar (its buttons and title) and shortcuts
 * window of the scope.
 *
 * GTK 4.8: GtkShortcutsWindow can only be filled by a builder, so its XML
 * is made from the tables (shortcuts_xml.c).
 */
#include "window/window_chrome.h"
#include "window/key_bindings_table.h"
#include "window/shortcuts_xml.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tooltips and menu labels say keys as the table binds them. */
static void tooltip(GtkWidget *widget, const char *action)
{
    char text[256];
    scope_key_tooltip(action, text, sizeof(text));
    gtk_widget_set_tooltip_text(widget, text);
}

static GtkWidget *action_button(GtkWidget *button, const char *action)
{
    gtk_actionable_set_action_name(GTK_ACTIONABLE(button), action);
    tooltip(button, action);
    return button;
}

static GtkWidget *icon_button(const char *icon, const char *action,
                              bool toggle)
{
    GtkWidget *button = toggle ? gtk_toggle_button_new() : gtk_button_new();
    gtk_button_set_icon_name(GTK_BUTTON(button), icon);
    return action_button(button, action);
}

/* The first key of 'action', as people write it ("" if none). */
static const char *first_key(const char *action, char *buf, size_t size)
{
    const scope_key_binding *binding = scope_key_binding_find(action);
    buf[0] = 0;
    if (binding && binding->keys[0])
        scope_key_text(binding->keys[0], buf, size);
    return buf;
}

static GtkWidget *save_menu(void)
{
    GMenu *menu = g_menu_new();
    g_menu_append(menu, "Save image (PNG)", "app.save-image");
    g_menu_append(menu, "Save data (CSV)", "app.save-data");
    g_menu_append(menu, "Save both", "app.save-both");
    GtkWidget *button = gtk_menu_button_new();
    gtk_menu_button_set_icon_name(GTK_MENU_BUTTON(button),
                                  "document-save-symbolic");
    gtk_menu_button_set_menu_model(GTK_MENU_BUTTON(button),
                                   G_MENU_MODEL(menu));
    g_object_unref(menu);
    char image[32], data[32], both[32], text[160];
    snprintf(text, sizeof(text),
             "Save the focused graph: image (%s), data (%s), both (%s)",
             first_key("app.save-image", image, sizeof(image)),
             first_key("app.save-data", data, sizeof(data)),
             first_key("app.save-both", both, sizeof(both)));
    gtk_widget_set_tooltip_text(button, text);
    return button;
}

static GtkWidget *main_menu(void)
{
    GMenu *menu = g_menu_new();
    GMenu *view = g_menu_new();
    g_menu_append(view, "Live", "app.live");
    g_menu_append(view, "Scale mode", "app.scale-mode");
    g_menu_append(view, "Log scale", "app.log-scale");
    g_menu_append(view, "Lock range", "app.lock-range");
    g_menu_append(view, "Clear cursors", "app.cursors-clear");
    g_menu_append_section(menu, NULL, G_MENU_MODEL(view));
    g_object_unref(view);
    GMenu *app = g_menu_new();
    g_menu_append(app, "Keyboard shortcuts", "app.shortcuts");
    g_menu_append(app, "Quit", "app.quit");
    g_menu_append_section(menu, NULL, G_MENU_MODEL(app));
    g_object_unref(app);

    GtkWidget *button = gtk_menu_button_new();
    gtk_menu_button_set_icon_name(GTK_MENU_BUTTON(button),
                                  "open-menu-symbolic");
    gtk_menu_button_set_menu_model(GTK_MENU_BUTTON(button),
                                   G_MENU_MODEL(menu));
    gtk_menu_button_set_primary(GTK_MENU_BUTTON(button), TRUE);  /* F10 */
    g_object_unref(menu);
    gtk_widget_set_tooltip_text(button, "Main menu (F10)");
    return button;
}

/* Its popover comes from scope_app.c (channel_picker.c). */
static GtkWidget *picker_button(void)
{
    GtkWidget *button = gtk_menu_button_new();
    gtk_menu_button_set_icon_name(GTK_MENU_BUTTON(button),
                                  "list-add-symbolic");
    tooltip(button, "app.pick-channels");
    return button;
}

/* A label of the title that gives up its middle when short of room. */
static GtkWidget *title_label(GtkWidget *bar, const char *key)
{
    GtkWidget *label = gtk_label_new("");
    gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_MIDDLE);
    g_object_set_data(G_OBJECT(bar), key, label);
    return label;
}

/* Two lines in the middle of the bar, as GNOME applications title a
 * window with a file: which program, then which segment, its directory
 * and its name apart so that the directory gives up its middle first. */
static GtkWidget *title_box(GtkWidget *bar)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_widget_set_valign(box, GTK_ALIGN_CENTER);
    GtkWidget *path = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_set_halign(path, GTK_ALIGN_CENTER);
    /* Smaller, dim, like a subtitle, without the theme's subtitle
     * padding, which would widen the narrowest window the bar allows. */
    gtk_widget_add_css_class(path, "dim-label");
    PangoAttrList *small = pango_attr_list_new();
    pango_attr_list_insert(small, pango_attr_scale_new(PANGO_SCALE_SMALL));
    GtkWidget *directory = title_label(bar, SCOPE_TITLE_DIRECTORY);
    GtkWidget *name = title_label(bar, SCOPE_TITLE_NAME);
    gtk_label_set_attributes(GTK_LABEL(directory), small);
    gtk_label_set_attributes(GTK_LABEL(name), small);
    pango_attr_list_unref(small);
    gtk_label_set_xalign(GTK_LABEL(directory), 1);
    gtk_label_set_xalign(GTK_LABEL(name), 0);
    gtk_box_append(GTK_BOX(path), directory);
    gtk_box_append(GTK_BOX(path), name);
    GtkWidget *heading = title_label(bar, SCOPE_TITLE_HEADING);
    gtk_widget_add_css_class(heading, "title");
    gtk_box_append(GTK_BOX(box), heading);
    gtk_box_append(GTK_BOX(box), path);
    return box;
}

static GtkWidget *set_label(GtkWidget *bar, const char *key,
                            const char *text, int length)
{
    GtkWidget *label = g_object_get_data(G_OBJECT(bar), key);
    char *copy = g_strndup(text, (gsize) length);
    if (label)
        gtk_label_set_text(GTK_LABEL(label), copy);
    g_free(copy);
    return label;
}

/* A file name up to this many characters is never cut. */
#define NAME_KEPT       40

void scope_header_bar_set_title(GtkWidget *bar, const char *heading,
                                const char *path, const char *full)
{
    const char *slash = strrchr(path, '/');
    int directory = slash ? (int) (slash - path) + 1 : 0;
    set_label(bar, SCOPE_TITLE_HEADING, heading, (int) strlen(heading));
    set_label(bar, SCOPE_TITLE_DIRECTORY, path, directory);
    GtkWidget *name = set_label(bar, SCOPE_TITLE_NAME, path + directory,
                                (int) strlen(path + directory));
    if (name)
        gtk_label_set_ellipsize(GTK_LABEL(name),
                                g_utf8_strlen(path + directory, -1) > NAME_KEPT
                                ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_NONE);
    GtkWidget *title = gtk_header_bar_get_title_widget(GTK_HEADER_BAR(bar));
    if (title)
        gtk_widget_set_tooltip_text(title, full);
}

GtkWidget *scope_header_bar_new(void)
{
    GtkWidget *bar = gtk_header_bar_new();
    gtk_header_bar_set_title_widget(GTK_HEADER_BAR(bar), title_box(bar));
    /* Narrow windows (-g 640x...) stay possible: no minimize or maximize
     * buttons beside the graph controls (the title still maximizes on a
     * double-click). */
    gtk_header_bar_set_decoration_layout(GTK_HEADER_BAR(bar), ":close");
    gtk_header_bar_pack_start(GTK_HEADER_BAR(bar),
        icon_button("media-playback-pause-symbolic", "app.pause", true));
    gtk_header_bar_pack_start(GTK_HEADER_BAR(bar),
        icon_button("go-last-symbolic", "app.live", false));

    static const struct { const char *label, *action; } views[] = {
        { "Values", "app.toggle-normal" },
        { "Avg", "app.toggle-average" },
        { "Min/max", "app.toggle-minmax" },
        { "Timing", "app.toggle-timing" },
    };
    GtkWidget *linked = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_add_css_class(linked, "linked");
    for (size_t v = 0; v < G_N_ELEMENTS(views); v++)
        gtk_box_append(GTK_BOX(linked),
                       action_button(gtk_toggle_button_new_with_label(
                                         views[v].label),
                                     views[v].action));
    gtk_header_bar_pack_start(GTK_HEADER_BAR(bar), linked);

    /* Linked, the picker, save and menu buttons leave room for a 640 px
     * window. */
    GtkWidget *picker = picker_button();
    g_object_set_data(G_OBJECT(bar), SCOPE_PICKER_BUTTON, picker);
    GtkWidget *end = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_add_css_class(end, "linked");
    gtk_box_append(GTK_BOX(end), picker);
    gtk_box_append(GTK_BOX(end), save_menu());
    gtk_box_append(GTK_BOX(end), main_menu());
    gtk_header_bar_pack_end(GTK_HEADER_BAR(bar), end);
    return bar;
}

GtkWindow *scope_shortcuts_window_new(void)
{
    char *xml = scope_shortcuts_xml();
    if (!xml)
    {
        g_warning("recorder_scope: out of memory for the shortcuts window");
        return NULL;
    }
    GtkBuilder *builder = gtk_builder_new();
    GError *error = NULL;
    GtkWindow *window = NULL;
    /* Toplevels outlive their builder: GTK keeps them until
     * gtk_window_destroy(). */
    if (gtk_builder_add_from_string(builder, xml, -1, &error))
        window = GTK_WINDOW(gtk_builder_get_object(builder,
                                                   SCOPE_SHORTCUTS_WINDOW_ID));
    else
    {
        g_warning("recorder_scope: cannot build the shortcuts window: %s",
                  error->message);
        g_clear_error(&error);
    }
    g_object_unref(builder);
    free(xml);
    return window;
}
