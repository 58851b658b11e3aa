/* graph_traces.h - decimated tracks drawn as paths with cairo.
 *
 * A track is decimated into pixel columns (decimate.h); these functions
 * turn the columns into the paths graph_draw() fills or strokes. Values
 * map to y through a graph_scale, which carries its own vertical extent,
 * so a lane of a graph and the whole plot are drawn the same way.
 */
#ifndef SCOPE_GRAPH_TRACES_H
#define SCOPE_GRAPH_TRACES_H

#include "view/column_summary.h"
#include "source/decimate.h"

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
    /* t0 / step, a whole number when the view is anchored to columns
     * (graph_columns_shift): column c is centred on x0 + origin + c + 0.5
     * - shift, so a column keeps its pixels as the view scrolls. */
    double        shift;
    unsigned      skip;                 /* leading columns left of the view:
                                           drawn, not scaled to */
    unsigned      from, to;             /* columns drawn; to 0: all */
} graph_columns;

/* t0 / step, made whole when it is within rounding of a whole number. */
double graph_columns_shift(double t0, double step);

/* Dash patterns restart at columns whose absolute index (origin + c) is a
 * multiple of these, so a dash is where it was in the previous frame. A
 * graph drawing the columns right of c paths from the restart before c:
 * one period each keeps that short (four periods of the timing dashes
 * made it most of a 16-channel timing view's cost); on a level trace the
 * restart falls where the pattern would begin again anyway. */
#define GRAPH_DASH_TIMING       16      /* a period of 16 pixels */
#define GRAPH_DASH_AVERAGE      11      /* a period of 11 pixels */

/* The first column to path so that the pixels right of column c are
 * those of the whole trace: a used column at least 4 before c (joins and
 * caps reach no further), back to where a dash pattern restarts
 * ('anchor' as above; 0: undashed). */
unsigned graph_columns_from(const graph_columns *cols, unsigned c,
                            unsigned anchor);

/* The end of the columns to path so that the pixels left of column c
 * are those of the whole trace: a used column at least 4 after c (the
 * one a line from before c goes to). The column count if the data ends
 * before. */
unsigned graph_columns_to(const graph_columns *cols, unsigned c);

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

/* The summary of the columns of 'cols' in view (from 'skip' on). */
scope_column_summary graph_columns_summary(const graph_columns *cols);

/* Widen [scale->lo, scale->hi] to take in the used columns 'summary'
 * holds (only their positive extremes on a log scale). */
void graph_scale_widen(graph_scale *scale,
                       const scope_column_summary *summary);

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

/* Whether a solid trace is too noisy to antialias (graph_trace_solid);
 * 'summary' is that of the columns in view, which are read only if some
 * lie 100 heights or more outside the scale. */
bool graph_trace_dense(const graph_columns *cols,
                       const scope_column_summary *summary,
                       const graph_scale *scale);

/* The values, solid, 'width' pixels wide, filled with the current source;
 * 'dense' from graph_trace_dense(). */
void graph_trace_solid(cairo_t *cr, const graph_columns *cols,
                       const graph_scale *scale, double width, bool dense);

/* The band between a lower and an upper envelope (path only). */
void graph_trace_band(cairo_t *cr, const graph_columns *low,
                      const graph_columns *high, const graph_scale *scale);

#endif /* SCOPE_GRAPH_TRACES_H */
