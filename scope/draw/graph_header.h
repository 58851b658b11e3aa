/* graph_header.h - what a frame says in words: its title line (the title,
 * the views shown, the model's message) and, when there is nothing to
 * plot, that message across the plot instead. */
#ifndef SCOPE_GRAPH_HEADER_H
#define SCOPE_GRAPH_HEADER_H

#include "draw/graph_layout.h"

#include <cairo.h>

/* The title line of a frame 'width' wide. 'message': the model's, when
 * the plot does not say it (once per graph); it ends at 'right', clear of
 * the timing axis's unit. */
void graph_draw_header(cairo_t *cr, const graph_model *model, double width,
                       double right, const char *message);

/* The model's message, if any, in the middle of the empty plot 'l'. */
void graph_draw_empty_message(cairo_t *cr, const graph_layout *l,
                              const graph_model *model);

#endif /* SCOPE_GRAPH_HEADER_H */
