/* graph_axes.h - the axes of a frame: the value axis (linear or log), the
 * lanes' ranges, the timing axis and the time axis under the plot. Each
 * draws either its labels around the plot or its grid lines in it. */
#ifndef SCOPE_GRAPH_AXES_H
#define SCOPE_GRAPH_AXES_H

#include "draw/graph_layout.h"
#include "draw/graph_traces.h"
#include "view/palette.h"

#include <cairo.h>
#include <stdbool.h>

struct scope_kept_image;

/* A grid line across the plot at y. */
void graph_draw_grid_line(cairo_t *cr, const graph_layout *l, double y);

/* The value axis of scale 's', with about 'target' ticks, on the left or
 * the right of the plot. 'unit' (NULL: none) follows each label: the
 * timing axis says it. 'lines': the grid lines in the plot, else the
 * labels around it. */
void graph_draw_value_axis(cairo_t *cr, const graph_layout *l,
                           const graph_scale *s, bool right_side,
                           unsigned target, const char *unit, bool lines);

/* The labels of graph_draw_value_axis() through 'kept' (kept_image.h):
 * the column beside the plot they are drawn in, from 8 pixels above it to
 * 8 below, in a 'width' wide frame, kept while the scale, layout and ink
 * stay the same (a live frame draws the same labels for seconds). False,
 * drawing nothing, if it cannot be kept: the caller draws them. */
bool graph_draw_value_axis_kept(struct scope_kept_image *kept, int scale,
                                cairo_t *cr, double width,
                                const graph_layout *l, const graph_scale *s,
                                bool right_side, unsigned target,
                                const char *unit);

/* Lanes: each lane's top and bottom values in its channel's colour
 * ('lines': the line under the lane). */
void graph_draw_lane_axis(cairo_t *cr, const graph_layout *l,
                          const graph_scale *scale, scope_rgb colour,
                          bool lines);

/* The time axis of [t0, t1] under the plot, at 'step' seconds per column
 * from column 'shift' (graph_columns_shift); the frame is 'height' high. */
void graph_draw_time_axis(cairo_t *cr, const graph_layout *l, double t0,
                          double t1, double height, double step, double shift,
                          bool lines);

/* The ticks under the plot and their labels whose ink may reach columns
 * [x0, x1): as graph_draw_time_axis() draws them (marks and labels in
 * the plot's columns, a label near an end pulled in to stay whole there),
 * or ('tiled') as the tiles of a kept plot hold them, which do not depend
 * on the frame: every tick marked and labelled on it, past either end of
 * the plot too. */
void graph_draw_time_axis_part(cairo_t *cr, const graph_layout *l, double t0,
                               double t1, double height, double step,
                               double shift, double x0, double x1,
                               bool tiled);

/* Where under the plot tiled labels differ from the frame's (near an end,
 * where the frame pulls a label in or leaves it out): columns [l->x,
 * *left) at its left end and [*right, l->x + l->w) at its right end, each
 * empty if none. */
void graph_time_axis_ends(cairo_t *cr, const graph_layout *l, double t0,
                          double t1, double step, double shift, double *left,
                          double *right);

/* The time axis' tick step for [t0, t1] over the plot: tiles drawn with
 * another hold other labels. */
double graph_time_tick_step(const graph_layout *l, double t0, double t1);

#endif /* SCOPE_GRAPH_AXES_H */
