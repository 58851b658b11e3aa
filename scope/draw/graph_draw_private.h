/* graph_draw_private.h - the parts of a frame that graph_draw.c puts
 * together, drawn by the files beside it: the legend and the plot.
 */
#ifndef SCOPE_GRAPH_DRAW_PRIVATE_H
#define SCOPE_GRAPH_DRAW_PRIVATE_H

#include "draw/graph_draw.h"
#include "draw/graph_layout.h"

#include <cairo.h>
#include <stdbool.h>

/* The legend (graph_legend.c): the legend under a frame's title: an entry per channel
 * (its colour, name, range, value and losses now), and with the timing
 * view one per channel for its intervals. Measured, laid out in rows,
 * drawn or replayed from a kept image, and mapped for clicks. */

/* Its bytes key the kept image (graph_legend_put): allocate entries
 * zeroed, so that padding compares equal. */
typedef struct graph_legend_entry
{
    char   name[192];                   /* name and, if any, range */
    char   value[64];                   /* fixed width, in monospace */
    char   extra[48];                   /* losses */
    double x, width, name_width, value_width;
    double name_only;                   /* the name's width alone */
    unsigned row;
    bool   timing;                      /* a channel's interval trace */
} graph_legend_entry;

/* Entries: one per channel, then with the timing view one per channel
 * for its intervals, which are drawn in a style of their own. */
unsigned graph_legend_count(const graph_model *model);

/* The texts of the entries (up to 2 per channel); 'scales' (per series,
 * NULL: not known yet) give the ranges lanes and normalised views show. */
void graph_legend_fill(const graph_model *model, const graph_scale *scales,
                       graph_legend_entry *entries);

/* Measure the entries and place them in rows across 'width'; returns the
 * number of rows (0: no entry). */
unsigned graph_legend_place(cairo_t *cr, const graph_model *model,
                            double width, graph_legend_entry *entries);

/* The entries 'memo' kept of the last frame that had the same values,
 * names, units, losses and width, in '*shown' (the memo's own, not a
 * copy: a frame of 16 channels copied 11 KB), their rows in '*rows' and
 * in '*stamp' a number no other layout has; false if it holds none. */
bool graph_legend_memo_holds(const graph_legend_memo *memo,
                             const graph_model *model, double width,
                             const graph_legend_entry **shown,
                             unsigned *rows, unsigned long *stamp);

/* graph_legend_fill() without scales and graph_legend_place() into
 * 'entries' (zeroed), then kept in 'memo' (NULL: none) with a new stamp
 * (0 in '*stamp' if not kept); returns the number of rows. */
unsigned graph_legend_layout(cairo_t *cr, const graph_model *model,
                             double width, graph_legend_entry *entries,
                             graph_legend_memo *memo, unsigned long *stamp);

/* Draw the legend, from the hooks' kept image when it shows the same;
 * 'colour' per series: its palette index. */
void graph_legend_put(cairo_t *cr, const graph_model *model,
                      const graph_legend_entry *entries,
                      const unsigned *colour, double width,
                      const graph_draw_hooks *hooks);

/* Where the entries are, in 'frame' (NULL: nowhere to say). */
void graph_legend_boxes(const graph_model *model,
                        const graph_legend_entry *entries, graph_frame *frame);

/* The plot (graph_plot.c): the content of a frame's plot: what moves with time (its
 * fill, grid lines, traces and event markers), drawn by graph_plot_draw()
 * (graph_draw.h) from the state a frame sets up here. */

/* A frame's plot, for graph_plot_draw(): what the content depends on. */
struct graph_plot
{
    const graph_model *model;
    graph_layout       l;
    graph_columns *    cols;
    const graph_scale *scales;          /* per series */
    graph_scale        values, timing, timing_axis;
    const unsigned *   colour;
    double             t0, t1, step, shift, height;
    unsigned           value_ticks;
    const char *       timing_unit;
    bool               timing_left;
};

#endif /* SCOPE_GRAPH_DRAW_PRIVATE_H */
