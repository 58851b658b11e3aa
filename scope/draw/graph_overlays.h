/* graph_overlays.h - what is drawn over a frame's plot, on top of its
 * traces: the cursors A and B, the crosshair, the zoom band being
 * dragged, the trigger's time, level and state, and the readout box,
 * placed where it hides neither the samples it describes nor the labels
 * around them (view/readout_place.h). */
#ifndef SCOPE_GRAPH_OVERLAYS_H
#define SCOPE_GRAPH_OVERLAYS_H

#include "draw/graph_layout.h"
#include "draw/graph_traces.h"
#include "view/readout_place.h"

#include <cairo.h>

/* The window's overlays of 'model' on the plot 'l' showing [t0, t1]. */
void graph_draw_overlays(cairo_t *cr, const graph_layout *l,
                         const graph_model *model, double t0, double t1);

/* The readout box of 'model' in a graph width x height, over the plot
 * or, when the plot has no room for it, beside it; 'scales' per series
 * place the samples it describes. Its place goes to *where (w 0: none). */
void graph_draw_readout(cairo_t *cr, const graph_layout *l,
                        const graph_model *model, const graph_scale *scales,
                        double t0, double t1, double width, double height,
                        scope_box *where);

/* The trigger's marks; 'scales' per series map its level. */
void graph_draw_trigger(cairo_t *cr, const graph_layout *l,
                        const graph_model *model, const graph_scale *scales,
                        double t0, double t1);

#endif /* SCOPE_GRAPH_OVERLAYS_H */
