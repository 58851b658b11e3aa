/* graph_draw.h - draw a graph with cairo: the window, PNG exports and the
 * headless capture all go through graph_draw(), so what a test renders is
 * what a user sees. Cairo only: no GTK, no display needed.
 */
#ifndef SCOPE_GRAPH_DRAW_H
#define SCOPE_GRAPH_DRAW_H

#include "graph_model.h"

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>

/* Where things were drawn, for the window to map the pointer. */
#define GRAPH_FRAME_LEGEND 64
typedef struct graph_frame
{
    double x, y, w, h;                  /* the plot area */
    double t0, t1;                      /* times at its left and right edge */
    double lo, hi;                      /* the shared value axis */
    bool   log, shared;                 /* shared: lo, hi apply to all */
    unsigned legend_count;
    struct { double x, y, w, h; } legend[GRAPH_FRAME_LEGEND];
} graph_frame;

/* Draw 'model' into the rectangle (0, 0, width, height) of 'cr'. Reads
 * the series; never touches the segment. */
void graph_draw(cairo_t *cr, double width, double height,
                const graph_model *model);
/* The same, and say where the plot and legend entries were. */
void graph_draw_frame(cairo_t *cr, double width, double height,
                      const graph_model *model, graph_frame *frame);

/* Colour of the index-th channel of a graph in the dark palette, 0-255
 * per component (palette.h has both). */
void graph_channel_colour(unsigned index, unsigned char rgb[3]);

/* Draw 'count' graphs stacked in one 'width' x 'height' image and write it
 * as a PNG at 'path' (as is: the caller picks a temporary name). False
 * with a reason in error[size]. */
bool graph_draw_png(const graph_model *const *models, unsigned count,
                    int width, int height, const char *path, char *error,
                    size_t size);

#endif /* SCOPE_GRAPH_DRAW_H */
