/* key_bindings.h - the scope window's accelerators, from the one table of
 * key_bindings_table.h. */
#ifndef SCOPE_KEY_BINDINGS_H
#define SCOPE_KEY_BINDINGS_H

#include <gtk/gtk.h>

/* Bind every key of the table to its action (gtk_application_set_accels_
 * for_action, which replaces what the action had). The actions themselves
 * are the application's; a key whose action is missing does nothing. */
void scope_key_bindings_install(GtkApplication *app);

#endif /* SCOPE_KEY_BINDINGS_H */
