/* still_bin.h - a bin whose child is painted as one image between the
 * child's changes.
 *
 * GTK 4.8's cairo renderer (the one the scope picks where GL is software)
 * draws every render node of the window at every frame, clipped to the
 * part that changed: the header bar's hundred-odd nodes (rounded buttons,
 * icons, labels) were drawn 35 to 40 times a second under a scrolling
 * plot, for nothing seen, a tenth of a 16-channel window's CPU. In a
 * still bin they are drawn once into an image each time something in the
 * bin changes (GTK then asks the bin for a new snapshot), and the frames
 * between paint that image, clipped away. With other renderers the child
 * is snapshot as usual: GL draws nodes on the GPU, where an image would
 * only add an upload at each change.
 *
 * Input, focus, tooltips and accessibility go to the child as they would
 * without the bin: only its drawing is kept.
 */
#ifndef SCOPE_STILL_BIN_H
#define SCOPE_STILL_BIN_H

#include <gtk/gtk.h>

#define SCOPE_TYPE_STILL_BIN (scope_still_bin_get_type())
G_DECLARE_FINAL_TYPE(ScopeStillBin, scope_still_bin, SCOPE, STILL_BIN,
                     GtkWidget)

/* A bin holding 'child', which takes the bin's whole allocation. */
GtkWidget *scope_still_bin_new(GtkWidget *child);

/* Make 'bar' the window's titlebar, in a still bin. The theme styles a
 * titlebar by the class GTK gives it: the bar keeps it, not the bin. */
void scope_still_bin_set_titlebar(GtkWindow *window, GtkWidget *bar);

/* Images drawn so far: one per change of the child, not per frame. */
unsigned long scope_still_bin_drawn(ScopeStillBin *bin);

#endif /* SCOPE_STILL_BIN_H */
