/* graph_plot.h - the content of a frame's plot: what moves with time (its
 * fill, grid lines, traces and event markers), drawn by graph_plot_draw()
 * (graph_draw.h) from the state a frame sets up here. */
#ifndef SCOPE_GRAPH_PLOT_H
#define SCOPE_GRAPH_PLOT_H

#include "draw/graph_draw.h"
#include "draw/graph_layout.h"

#include <stdbool.h>

/* A frame's plot, for graph_plot_draw(): what the content depends on. */
struct graph_plot
{
    const graph_model *model;
    graph_layout       l;
    graph_columns *    cols;
    const graph_scale *scales;          /* per series */
    graph_scale        values, timing, timing_axis;
    const unsigned *   colour;
    const bool *       dense;
    double             t0, t1, step, shift, height;
    unsigned           value_ticks;
    const char *       timing_unit;
    bool               timing_left;
};

#endif /* SCOPE_GRAPH_PLOT_H */
