/* graph_traces.h - decimated tracks rasterised as traces.
 *
 * A track is decimated into pixel columns (decimate.h); these functions
 * turn the columns into the bands of a column_raster, which graph_plot.c
 * paints in the trace's colour. A pixel's coverage depends only on the
 * columns next to it, so a plot drawn in tiles has the pixels of the
 * plot drawn whole. Values
 * map to y through a graph_scale, which carries its own vertical extent,
 * so a lane of a graph and the whole plot are drawn the same way.
 */
#ifndef SCOPE_GRAPH_TRACES_H
#define SCOPE_GRAPH_TRACES_H

#include "draw/column_raster.h"
#include "view/column_summary.h"
#include "source/decimate.h"

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
 * multiple of their period, so a dash is where it was in the previous
 * frame. A graph drawing the columns right of c draws from the restart
 * before c: one period each keeps that short; on a level trace the
 * restart falls where the pattern would begin again anyway. */
#define GRAPH_DASH_TIMING       16      /* pixels along the line, and */
#define GRAPH_DASH_TIMING_ON    8       /* the first 8 of them drawn */
#define GRAPH_DASH_AVERAGE      11
#define GRAPH_DASH_AVERAGE_ON   7

/* The first column to draw so that the pixels right of column c are
 * those of the whole trace: a used column at least 4 before c (joins,
 * ends and dots reach no further), back to where a dash pattern restarts
 * ('anchor' as above; 0: undashed). */
unsigned graph_columns_from(const graph_columns *cols, unsigned c,
                            unsigned anchor);

/* The used column before c, or c itself if there is none. */
unsigned graph_columns_used_before(const graph_columns *cols, unsigned c);

/* Pixels beyond its columns' centres that a trace covers: half its line's
 * width, or the square of a lone sample (1); a gap dot's radius, or the
 * level end of a dense column's band, which starts at the column's edge
 * (1.5). Those edges are whole pixels, so a pixel further out stays
 * clear: a retained plot draws again no more columns than it must. */
#define GRAPH_TRACE_REACH       1.5

/* The end of the columns to draw so that the pixels left of column c
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

/* Which value of a column a line goes through: its last sample (the
 * running average, smooth by construction), or its highest (a timing
 * trace must not hide the longest interval). */
typedef double graph_trace_value(const scope_column *col);
double graph_trace_last(const scope_column *col);
double graph_trace_peak(const scope_column *col);

/* A line 2 'half' wide through 'value' of each used column, joined as
 * the columns are, dashed: 'on' pixels along it drawn of each 'period'
 * (restarting as above). A sample joined to neither neighbour is a
 * square as wide as the line. */
void graph_trace_dashed(column_raster *raster, const graph_columns *cols,
                        const graph_scale *scale, graph_trace_value *value,
                        double half, unsigned period, unsigned on);

/* Discs of 'radius' on the same line, half way through each gap of the
 * dashes graph_trace_dashed() draws with 'period' and 'on'. */
void graph_trace_gap_dots(column_raster *raster, const graph_columns *cols,
                          const graph_scale *scale, graph_trace_value *value,
                          double radius, unsigned period, unsigned on);

/* The values, solid: each column from its lowest to its highest sample
 * (taking in the step from the column before), 'half' wider each side;
 * columns apart joined by lines 2 'half' wide. */
void graph_trace_solid(column_raster *raster, const graph_columns *cols,
                       const graph_scale *scale, double half);

/* The band between a lower and an upper envelope. */
void graph_trace_band(column_raster *raster, const graph_columns *low,
                      const graph_columns *high, const graph_scale *scale);

#endif /* SCOPE_GRAPH_TRACES_H */
