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

/* A GtkShortcutsWindow listing every key and mouse gesture, for
 * gtk_application_window_set_help_overlay() or to present. NULL (with a
 * warning) if it cannot be built. */
GtkWindow *scope_shortcuts_window_new(void);

#endif /* SCOPE_WINDOW_CHROME_H */
