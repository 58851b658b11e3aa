/* error_banner.h - errors shown at the top of the window until dismissed.
 *
 * A refused command, a slider on a tweak the program lacks, a file that
 * could not be saved: the status line is overwritten by the next message,
 * so errors also go to a banner that stays until the user closes it (its
 * Dismiss button, or Escape). Its background is SCOPE_BANNER_RGB, a colour
 * no graph uses, so a test can see it on a screenshot.
 */
#ifndef SCOPE_ERROR_BANNER_H
#define SCOPE_ERROR_BANNER_H

#include <gtk/gtk.h>

#define SCOPE_BANNER_RGB        "8B1E1E"

/* A hidden banner, to put in the window's box. */
GtkWidget *scope_banner_new(void);

/* Show 'text' (the latest error; earlier ones not dismissed are counted). */
void scope_banner_show(GtkWidget *banner, const char *text);

/* Hide it and forget its errors. */
void scope_banner_dismiss(GtkWidget *banner);

#endif /* SCOPE_ERROR_BANNER_H */
