/* column_raster.h - traces rasterised column by column into a mask.
 *
 * Every trace a plot draws is made of bands: between two x, a top edge
 * and a bottom edge that each run straight. Their coverage of each pixel
 * is computed exactly, column by column, into an 8-bit mask, which is
 * then painted in the trace's colour with one cairo operation. Cairo's
 * own fill and stroke build and sort a polygon first: for the short
 * tiles a scrolling plot draws, with many channels, that setup was most
 * of the window's drawing. A pixel's value depends only on the bands
 * that cross it, so a tile drawn alone has the pixels of the whole plot.
 */
#ifndef SCOPE_COLUMN_RASTER_H
#define SCOPE_COLUMN_RASTER_H

#include <cairo.h>
#include <stdbool.h>

typedef struct column_raster column_raster;

/* A clear mask over the rectangle [x, x + w) x [y, y + h) of cr's user
 * space, with the pixels of cr's target there (its scale, and whole
 * pixels: the rectangle is widened to them). NULL without memory or for
 * an empty rectangle. */
column_raster *column_raster_new(cairo_t *cr, double x, double y, double w,
                                 double h);
void column_raster_delete(column_raster *raster);

/* Whether anything drawn between x0 and x1 (user space) could reach the
 * mask: a trace skips the work of what lies outside a tile. */
bool column_raster_reaches(const column_raster *raster, double x0,
                           double x1);

/* Cover the band from x0 to x1 (x0 < x1, user space) whose top edge runs
 * straight from t0 to t1 and its bottom edge from b0 to b1 (top above
 * bottom). Coverages add up, to full. */
void column_raster_band(column_raster *raster, double x0, double x1,
                        double t0, double t1, double b0, double b1);

/* The band whose top edge runs straight from (x[i], t[i]) to (x[i + 1],
 * t[i + 1]) and bottom edge from (x[i], b[i]) to (x[i + 1], b[i + 1]),
 * for x increasing: a column is covered in one pass however many of its
 * stretches fall in it. The arrays are used up (made the mask's). */
void column_raster_polyband(column_raster *raster, double *x, double *t,
                            double *b, unsigned n);

/* A stroke 2 'half' wide from (xa, ya) to (xb, yb). Up to a slope of 1/2
 * its ends are cut vertically, so that the segments of a line through
 * column centres meet without a notch; steeper, they are cut square. */
void column_raster_segment(column_raster *raster, double xa, double ya,
                           double xb, double yb, double half);

/* A disc of 'radius' centred on (x, y). */
void column_raster_disc(column_raster *raster, double x, double y,
                        double radius);

/* Paint cr's source through what the mask covers, then clear it. The
 * target, transform and clip of cr are those of the mask's first paint
 * (which looks at them once). */
void column_raster_paint(column_raster *raster, cairo_t *cr);

/* Opaque boxes written straight into cr's target, where cairo's own
 * paint or stroke of them costs far more than the pixels: the background
 * and the grid of a few plot columns of the ring, every frame. Both give
 * the pixels cairo would, and return false, drawing nothing, unless cr's
 * target is an image one unit a pixel (a whole translation), its source
 * an opaque solid colour (OVER or SOURCE), and its clip one rectangle of
 * whole pixels. */

/* Fill the rectangle (whole user units). */
bool column_raster_fill_straight(cairo_t *cr, double x, double y, double w,
                                 double h);

/* Stroke cr's path, if it is made of segments (a move and a line each)
 * across or down through pixel middles between whole coordinates, at a
 * line width of 1 with butt caps; the path is then cleared. */
bool column_raster_stroke_straight(cairo_t *cr);

#endif /* SCOPE_COLUMN_RASTER_H */
