/* graph_traces.h - decimated tracks drawn as paths with cairo.
 *
 * A track is decimated into pixel columns (decimate.h); these functions
 * turn the columns into the paths graph_draw() fills or strokes. Values
 * map to y through a graph_scale, which carries its own vertical extent,
 * so a lane of a graph and the whole plot are drawn the same way.
 */
#ifndef SCOPE_GRAPH_TRACES_H
#define SCOPE_GRAPH_TRACES_H

#include "decimate.h"

#include <cairo.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct graph_columns
{
    scope_column *at;
    unsigned      count;
    int64_t       origin;               /* column c covers (origin + c) * step */
    double        step;                 /* seconds per column */
    double        x0, t0;               /* plot left edge and its time */
    double        join;                 /* seconds: samples further apart
                                           (and GAP_COLUMNS) are not joined;
                                           0: a second */
} graph_columns;

typedef struct graph_scale
{
    double lo, hi;                      /* values at the bottom and top */
    bool   log;
    double top, height;                 /* pixels */
} graph_scale;

/* The 'join' of a channel whose samples are usually 'usual' seconds apart
 * (scope_pace_usual; NaN: not known yet). */
double graph_join_seconds(double usual);

/* y of value v; values a log scale cannot show go just below the bottom. */
double graph_value_y(const graph_scale *scale, double v);

/* Widen [scale->lo, scale->hi] to take in the used columns (only their
 * positive extremes on a log scale). */
void graph_scale_widen(graph_scale *scale, const graph_columns *cols);

/* Room above and below the data and, if 'round', round limits: linear
 * or decades. An empty range becomes [0, 1] ([1, 10] on a log scale). */
void graph_scale_settle(graph_scale *scale, unsigned ticks, bool round);

/* A line through the last sample of each column (the running average). */
void graph_trace_line(cairo_t *cr, const graph_columns *cols,
                      const graph_scale *scale);

/* A line through the highest sample of each column: the longest interval
 * between samples is what a timing trace must not hide. */
void graph_trace_peaks(cairo_t *cr, const graph_columns *cols,
                       const graph_scale *scale);

/* The values, solid, 'width' pixels wide, filled with the current source. */
void graph_trace_solid(cairo_t *cr, const graph_columns *cols,
                       const graph_scale *scale, double width);

/* The band between a lower and an upper envelope (path only). */
void graph_trace_band(cairo_t *cr, const graph_columns *low,
                      const graph_columns *high, const graph_scale *scale);

#endif /* SCOPE_GRAPH_TRACES_H */
