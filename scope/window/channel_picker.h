/* channel_picker.h - the popover that chooses what the window shows.
 *
 * It lists what recorder_scope -l lists (channels with their units and
 * recorders, recorders with the channels their arguments export) and lets
 * the user add a graph (for a channel or a regex), add or remove a channel
 * in a graph (the focused one unless another is chosen), export a
 * recorder's arguments as new channels (a RECORDER_TRACES command sent to
 * the program), or open another segment (in a new window). The window
 * does the changes through the hooks; the picker only reads the source.
 */
#ifndef SCOPE_CHANNEL_PICKER_H
#define SCOPE_CHANNEL_PICKER_H

#include "source/channel_data.h"

#include <gtk/gtk.h>
#include <stdbool.h>

typedef struct scope_picker_hooks
{
    void *data;
    /* The graph to act on when the popover opens: the focused one. */
    unsigned (*focused)(void *data);
    /* A new graph of the channels matching 'regex'. */
    void (*add_graph)(void *data, const char *regex);
    /* Show ('add') or stop showing channel 'name' in 'graph'. */
    void (*change)(void *data, unsigned graph, const char *name, bool add);
    /* Send 'command' to the program. */
    void (*send)(void *data, const char *command);
    /* Say what happened (or what is wrong) in the status line. */
    void (*say)(void *data, const char *text, bool error);
} scope_picker_hooks;

/* Give 'menu_button' (a GtkMenuButton) the picker's popover, filled from
 * 'source' each time it opens. The hooks are copied. */
void scope_picker_attach(GtkWidget *menu_button, scope_source *source,
                         const scope_picker_hooks *hooks);

/* Open it (the pick-channels action). */
void scope_picker_popup(GtkWidget *menu_button);

#endif /* SCOPE_CHANNEL_PICKER_H */
