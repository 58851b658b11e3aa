/* key_bindings.c - bind the table's keys to the application's actions.
 *
 * Detailed names carry the target of parameterised actions: GTK parses
 * "app.toggle-channel(uint32 3)" with g_action_parse_detailed_name(), so
 * the target is a GVariant text; "uint32" makes it match the action's "u"
 * parameter type (a bare "3" would be an int32, and GTK would refuse to
 * activate the action with it).
 */
#include "window/key_bindings.h"
#include "window/key_bindings_table.h"

void scope_key_bindings_install(GtkApplication *app)
{
    size_t count;
    const scope_key_binding *bindings = scope_key_bindings(&count);
    for (size_t b = 0; b < count; b++)
        gtk_application_set_accels_for_action(app, bindings[b].action,
                                              bindings[b].keys);
}
