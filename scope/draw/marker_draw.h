/* marker_draw.h - draw event markers on a plot: a thin line across it at
 * each marker's time, and a glyph at its top, one shape and colour per
 * kind (none of them a channel's colour). Cairo only. */
#ifndef SCOPE_MARKER_DRAW_H
#define SCOPE_MARKER_DRAW_H

#include "view/event_markers.h"

#include <cairo.h>
#include <stdbool.h>

/* The markers of [t0, t1] on the plot (x, y, w, h); the caller clips. */
void graph_draw_markers(cairo_t *cr, double x, double y, double w, double h,
                        const scope_markers *markers, double t0, double t1,
                        bool light);

/* Colour of markers of 'kind', 0-255 per component. */
void graph_marker_colour(scope_marker_kind kind, unsigned char rgb[3]);

#endif /* SCOPE_MARKER_DRAW_H */
