/* window_chrome.h - the scope window's header bar and shortcuts window.
 *
 * Both name the application's actions ("app.pause"...) and take their
 * titles and key names from key_bindings_table.h; the application
 * registers the actions (the view toggles and pause as stateful booleans,
 * so the buttons show their state).
 */
#ifndef SCOPE_WINDOW_CHROME_H
#define SCOPE_WINDOW_CHROME_H

#include <gtk/gtk.h>

/* A GtkHeaderBar: pause, live, the four view toggles, a save menu and the
 * main menu, each with a tooltip naming its key. For
 * gtk_window_set_titlebar(). */
GtkWidget *scope_header_bar_new(void);
/* The bar's channel-picker GtkMenuButton, as g_object_get_data(bar, this). */
#define SCOPE_PICKER_BUTTON     "scope-picker-button"

/* The bar's title: 'heading' in bold (view/window_title.h) over 'path',
 * whose directory loses its middle, not the file's name, when the bar is
 * short of room; 'full', the whole window title, in their tooltip. */
void scope_header_bar_set_title(GtkWidget *bar, const char *heading,
                                const char *path, const char *full);
/* Its labels, as g_object_get_data(bar, these), for tests. */
#define SCOPE_TITLE_HEADING     "scope-title-heading"
#define SCOPE_TITLE_DIRECTORY   "scope-title-directory"
#define SCOPE_TITLE_NAME        "scope-title-name"

/* A GtkShortcutsWindow listing every key and mouse gesture, for
 * gtk_application_window_set_help_overlay() or to present. NULL (with a
 * warning) if it cannot be built. */
GtkWindow *scope_shortcuts_window_new(void);

#endif /* SCOPE_WINDOW_CHROME_H */
