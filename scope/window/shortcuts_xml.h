/* shortcuts_xml.h - the shortcuts window as GtkBuilder XML.
 *
 * GTK 4.8 has no API to fill a GtkShortcutsWindow (sections and groups can
 * only come from a builder), so the window is described in XML made at
 * run time from the tables of key_bindings_table.h. Plain C: a test can
 * check the XML without a display.
 */
#ifndef SCOPE_SHORTCUTS_XML_H
#define SCOPE_SHORTCUTS_XML_H

#include <stddef.h>

/* Builder id of the window. */
#define SCOPE_SHORTCUTS_WINDOW_ID       "shortcuts-window"

/* A GtkShortcutsWindow listing every key binding (grouped as the table
 * groups them, in its order) and every mouse gesture. Malloc'd, NULL if
 * out of memory. */
char *scope_shortcuts_xml(void);

#endif /* SCOPE_SHORTCUTS_XML_H */
