/* graph_draw.h - draw a graph with cairo: the window, PNG exports and the
 * headless capture all go through graph_draw(), so what a test renders is
 * what a user sees. Cairo only: no GTK, no display needed.
 */
#ifndef SCOPE_GRAPH_DRAW_H
#define SCOPE_GRAPH_DRAW_H

#include "view/graph_model.h"
#include "view/readout_place.h"
#include "draw/graph_traces.h"

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
    scope_box readout;                  /* the readout box; w 0: none */
} graph_frame;

/* Draw 'model' into the rectangle (0, 0, width, height) of 'cr'. Reads
 * the series; never touches the segment. */
void graph_draw(cairo_t *cr, double width, double height,
                const graph_model *model);
/* The same, and say where the plot and legend entries were. */
void graph_draw_frame(cairo_t *cr, double width, double height,
                      const graph_model *model, graph_frame *frame);

/* ---- for a retained plot (graph_retained.h) ------------------------------ */

/* Columns of a plot decimated left of its view, so that dashes and joins
 * near its left edge are drawn as they were when that time was on the
 * right: at least the dash anchors of graph_traces.h. */
#define GRAPH_MARGIN_COLUMNS    72

/* What the content of a frame's plot depends on, besides the samples. */
typedef struct graph_plot_info
{
    const graph_model *model;
    double   x, y, w, h;                /* the plot area, whole pixels */
    double   t0, t1, step;              /* step: seconds per column */
    double   shift;                     /* t0 / step (graph_columns_shift) */
    unsigned series_count;
    const graph_scale *own;             /* per series: its values' range */
    graph_scale values, timing;         /* the value and timing axes */
    const unsigned *colour;             /* per series: palette index */
    double *join;                       /* per series: join seconds (the
                                           ranges hook may change them) */
    double   below;                     /* rows under the plot the plot
                                           hook draws too, 0: none (bands,
                                           graph_plot_draw_under) */
} graph_plot_info;

typedef struct graph_plot graph_plot;   /* a plot being drawn */

typedef struct graph_draw_hooks
{
    void *data;
    /* Once the ranges are fitted to the data: may change them ('own'
     * holds series_count scales; in the shared mode they follow 'values'
     * whatever the hook does to them). */
    void (*ranges)(void *data, const graph_plot_info *info,
                   graph_scale *values, graph_scale *own,
                   graph_scale *timing);
    /* Put the plot's content on 'cr' (graph_plot_draw draws any part of
     * it, on any surface), and the 'info->below' rows under it
     * (graph_plot_draw_under); NULL: it is drawn on 'cr' whole. */
    void (*plot)(void *data, cairo_t *cr, const graph_plot_info *info,
                 graph_plot *plot);
    /* Columns kept from the graph's previous frame (column_cache.h);
     * NULL: every column is decimated. */
    struct scope_column_cache *columns;
    /* The legend kept from frame to frame while it shows the same
     * (kept_image.h); NULL: drawn every frame. */
    struct scope_kept_image *legend;
    /* The value axis's labels and the timing axis's, kept the same way
     * (graph_draw_value_axis_kept); NULL: drawn every frame. */
    struct scope_kept_image *axes[2];
    /* The legend's texts and rows, kept while what they say and the width
     * are the same (graph_legend_memo_new); NULL: laid out every frame. */
    struct graph_legend_memo *layout;
    /* Pixels per unit of the output the frame is replayed on (kept images
     * are drawn at it); 0: 1. */
    int scale;
    /* The frame in parts, each on a cairo_t of its own; NULL: all of
     * it on the frame's cr. */
    const struct graph_bands *bands;
} graph_draw_hooks;

/* A legend laid out (its texts made and measured, its rows placed) kept
 * from one frame to the next: a live frame's legend says what the last
 * one did but a few times a second. */
typedef struct graph_legend_memo graph_legend_memo;
graph_legend_memo *graph_legend_memo_new(void);
void graph_legend_memo_delete(graph_legend_memo *memo);
/* Layouts made, not taken from the memo, so far. */
unsigned long graph_legend_memo_made(const graph_legend_memo *memo);

/* A frame drawn in parts, each on a cairo_t of its own: the top band, the
 * title line and the legend (what changes a few times a second at most);
 * around the plot, the background, value axes and frame (what changes
 * when the ranges do); and what changes every frame while data scrolls:
 * the plot with the time axis under it (whose labels stay inside the
 * plot's columns, so that nothing beside it moves). A window keeps the
 * drawing of a part while it shows the same, so that it is neither drawn
 * nor repainted again; the frame's cr then only measures text. The pixels
 * are those of the frame drawn whole (a window must paint the parts in
 * the order they are opened). For frames with nothing drawn
 * over the plot and around it (cursors, crosshair, readout, box): the
 * caller checks. */
typedef enum graph_part
{
    GRAPH_PART_TOP,                     /* kept while its key is the same */
    /* Around the plot, kept likewise: four nodes whose bounds miss the
     * plot, as cairo replays a node the repaint touches in full. */
    GRAPH_PART_ABOVE,
    GRAPH_PART_LEFT,
    GRAPH_PART_RIGHT,
    GRAPH_PART_BELOW,
    GRAPH_PART_PLOT,                    /* new every frame */
    GRAPH_PART_REST,                    /* all under the top band, new every
                                           frame: a plot not drawn in tiles */
    GRAPH_PARTS
} graph_part;

/* Parts before this one have keys and may be kept. */
#define GRAPH_PARTS_KEPT        GRAPH_PART_PLOT

typedef struct graph_bands
{
    void *data;
    /* Part 'part', the rectangle (x, y, w, h) of the frame: the cairo_t
     * to draw it on, clipped to it, or NULL for a kept part if the one
     * drawn for the same 'size' bytes of 'key' shows it (a part drawn
     * every frame has no key). */
    cairo_t *(*open)(void *data, graph_part part, double x, double y,
                     double w, double h, const void *key, size_t size);
    /* The part opened last is drawn. */
    void (*close)(void *data, graph_part part, cairo_t *cr);
} graph_bands;

/* graph_draw_frame() with hooks (NULL: none). */
void graph_draw_frame_hooked(cairo_t *cr, double width, double height,
                             const graph_model *model, graph_frame *frame,
                             const graph_draw_hooks *hooks);

/* Draw the plot content (background, grid, traces, markers: what moves
 * with time) of pixel columns [x0, x1) of the graph, clipped to them. */
void graph_plot_draw(graph_plot *plot, cairo_t *cr, double x0, double x1);

/* Draw the 'below' rows under pixel columns [x0, x1) of the plot, clipped
 * to them: the frame's lower edge and the time axis' ticks and labels, as
 * the frame draws them or ('tiled') as tiles kept from frame to frame
 * hold them (graph_draw_time_axis_part). */
void graph_plot_draw_under(graph_plot *plot, cairo_t *cr, double x0,
                           double x1, double below, bool tiled);

/* The leftmost pixel that samples added to the column at pixel x change:
 * the line to them starts at the used column before. */
double graph_plot_from(const graph_plot *plot, double x);

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
