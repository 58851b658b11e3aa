/* status_line.h - the window's status line: a label whose text is fitted
 * to its width (view/status_text.h), nothing cut at its end, with all of
 * it in its tooltip. */
#ifndef SCOPE_STATUS_LINE_H
#define SCOPE_STATUS_LINE_H

#include "view/status_text.h"

#include <gtk/gtk.h>
#include <stdbool.h>

GtkWidget *scope_status_line_new(void);

/* Show 'parts'; all of it goes to full[size]. False if that is what
 * the line said already (fitted again, maybe). */
bool scope_status_line_show(GtkWidget *line, const scope_status_parts *parts,
                            char *full, size_t size);

/* True if the line's width changed since its text was fitted. */
bool scope_status_line_resized(GtkWidget *line);

#endif /* SCOPE_STATUS_LINE_H */
