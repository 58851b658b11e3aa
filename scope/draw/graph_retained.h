/* graph_retained.h - a graph whose plot is kept as an image between
 * frames.
 *
 * A live graph scrolls: between two frames its view moves by a few whole
 * pixel columns (the window anchors the live end to a column), and only
 * the columns new samples fall in change. The plot's content (grid,
 * traces, markers; and when the frame is drawn in parts, graph_bands,
 * the time axis under it, whose labels then move with it) is kept in an
 * image: such a frame scrolls it, draws
 * the new columns and those next to them that a line joins across, and
 * draws around and on top of it what changes every frame (labels,
 * trigger, cursors, crosshair, readout, box; the legend comes from an
 * image kept while it shows the same, kept_image.h). Anything else that
 * changes what the plot shows (size, span, ranges, views, hidden
 * channels, palette, losses of samples drawn, a restart, markers in the
 * past...) draws it whole. Either way the pixels are those of
 * graph_draw_frame() with the same ranges: a test checks it.
 *
 * Autoscaled ranges are kept while the data still fills most of them
 * (GRAPH_RETAINED_SHRINK), so a steady signal does not redraw the plot
 * whole every frame: a range grows as soon as the data needs it, with
 * room to grow into (GRAPH_RETAINED_ROOM), and shrinks once the data
 * fills less than that share of it. Likewise the
 * gap that breaks a line follows a channel's pace only when that moves
 * by a factor (GRAPH_RETAINED_JOIN). A whole redraw for another reason
 * (zoom, resize, a view toggled) fits both afresh.
 *
 * Cairo only, no GTK: the unit tests drive it offscreen.
 */
#ifndef SCOPE_GRAPH_RETAINED_H
#define SCOPE_GRAPH_RETAINED_H

#include "draw/graph_draw.h"

#include <cairo.h>
#include <stdbool.h>

/* A kept range shrinks once the data spans less than this share of it. */
#define GRAPH_RETAINED_SHRINK   0.7
/* A range the data outgrows grows past it by this share of what the data
 * spans, so that a counter rising through the view redraws the plot
 * whole every so often, not at every tick step (the demo's byte count
 * did twice a second, and those frames were most of its plot's work);
 * such a range shrinks once the data spans less than
 * GRAPH_RETAINED_SHRINK of it without that room. */
#define GRAPH_RETAINED_ROOM     0.2
/* The gap that breaks a channel's line (graph_join_seconds) is kept while
 * its pace, as measured, stays within this factor. */
#define GRAPH_RETAINED_JOIN     4.0

typedef struct graph_retained graph_retained;

/* NULL if out of memory. */
graph_retained *graph_retained_new(void);
void graph_retained_delete(graph_retained *retained);

/* Draw 'model' into (0, 0, width, height) of 'cr' as graph_draw_frame()
 * does, reusing the last frame's plot where it can. A 'cr' that does not
 * map user space to whole device pixels one to one gets a whole frame. */
void graph_retained_draw(graph_retained *retained, cairo_t *cr, double width,
                         double height, const graph_model *model,
                         graph_frame *frame);

/* The pixels per unit of user space of the output the frames are shown
 * on (GTK's scale factor: 2 on a HiDPI screen), a whole number; 1 at
 * first. The kept images are drawn at it, or they would be blurred. */
void graph_retained_set_scale(graph_retained *retained, int scale);

/* Frames drawn from now on are drawn in parts through 'bands'
 * (graph_draw.h; NULL: whole on the cr given), which must stay valid
 * while set. */
void graph_retained_set_bands(graph_retained *retained,
                              const graph_bands *bands);

/* The last frame: columns of the plot drawn (its width if whole), and
 * whether it was drawn whole. */
unsigned graph_retained_drawn(const graph_retained *retained, bool *whole);

/* Pixel columns of tracks decimated by all its frames so far: columns
 * kept from the frame before are not (column_cache.h). */
unsigned long graph_retained_decimated(const graph_retained *retained);

/* Legends drawn by all its frames so far: a frame whose legend shows what
 * the last one did paints the image of it kept (kept_image.h). */
unsigned long graph_retained_legends(const graph_retained *retained);

/* Legends laid out (texts made and measured) by all its frames so far: a
 * frame whose legend says what the last one did takes its layout. */
unsigned long graph_retained_layouts(const graph_retained *retained);

/* What the last frame should look like: 'model' drawn whole by
 * graph_draw_frame() with the ranges that frame used. */
void graph_retained_reference(const graph_retained *retained, cairo_t *cr,
                              double width, double height,
                              const graph_model *model);

/* The right edge of a live frame spanning 'span' seconds over 'columns'
 * plot columns that must show time 'end': 'end' rounded up to a whole
 * column, so each column holds the same time in every frame and the plot
 * scrolls by whole columns. */
double graph_retained_live_end(double end, double span, double columns);

/* The right edge of a live frame still filling from its first sample at
 * 'start': its left edge is 'start' rounded down to a whole column (the
 * first sample stays inside, within a column of the edge), so that the
 * plot is kept and only its new columns drawn while the span fills. */
double graph_retained_filling_end(double start, double span, double columns);

#endif /* SCOPE_GRAPH_RETAINED_H */
