/* graph_style.h - the colours and fonts of the frame being drawn, shared
 * by the files that draw its parts (graph_draw.c and the graph_*.c files
 * beside it). Cairo only.
 */
#ifndef SCOPE_GRAPH_STYLE_H
#define SCOPE_GRAPH_STYLE_H

#include "view/palette.h"

#include <cairo.h>
#include <stdbool.h>

/* The colours of the frame being drawn, from its model's palette (dark or
 * light: view/palette.c). Copied here at the start of each frame so the
 * drawing code names them as plain colours; frames are drawn one at a
 * time, on one thread. */
typedef struct graph_colours
{
    scope_rgb channel[SCOPE_PALETTE_CHANNELS];
    scope_rgb background, plot_fill, grid, frame, text, dim, title, alert,
              focus;
    /* The trigger marker: no channel, frame or text has it (white on the
     * dark palette; the title's ink on the light one). */
    scope_rgb trigger;
} graph_colours;

extern graph_colours graph_ink;

/* Take the colours of 'palette' (NULL: the dark one) for a frame. */
void graph_ink_use(const scope_palette *palette);

void graph_paint(cairo_t *cr, scope_rgb colour, double alpha);

/* The sans-serif font of titles, names and labels. */
void graph_use_font(cairo_t *cr, double size, bool bold);
/* The monospace font of values and readouts, whose digits line up. */
void graph_use_mono(cairo_t *cr, double size);

/* How far 's' in the current font moves the pen (text_cache.h). */
double graph_text_width(cairo_t *cr, const char *s);

/* Text with its baseline at y; 'align' 0 left, 0.5 centre, 1 right of x. */
void graph_show_text(cairo_t *cr, double x, double y, double align,
                     const char *s);

#endif /* SCOPE_GRAPH_STYLE_H */
