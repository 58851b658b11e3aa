/* scope_app.h - the recorder_scope window: graphs, sliders, status line.
 *
 * A GtkApplication subclass. It polls the segment from a timer (never
 * from a draw), tells graph views when they have news, sends slider
 * positions through the command queue, and maps keys to actions:
 * t a n m toggle views of the focused graph, i c space save it, q quits.
 */
#ifndef SCOPE_APP_H
#define SCOPE_APP_H

#include "options/scope_options.h"

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SCOPE_TYPE_APP (scope_app_get_type())
G_DECLARE_FINAL_TYPE(ScopeApp, scope_app, SCOPE, APP, GtkApplication)

/* Run the window until it closes; returns the exit status. */
int scope_app_run(const scope_options *options, const char *argv0);

G_END_DECLS

#endif /* SCOPE_APP_H */
