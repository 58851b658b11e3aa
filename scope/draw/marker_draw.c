/* marker_draw.c - event markers: a line and a glyph per marker. */
#include "draw/marker_draw.h"
#include "view/time_view.h"

#include <math.h>

#define GLYPH   7.0                     /* pixels: glyph width and height */

/* Distinct from the channel colours of view/palette.c and from its frame and
 * text colours, so a test can count a kind's pixels by colour. */
static const unsigned char kind_colours[SCOPE_MARKER_KINDS][3] = {
    [SCOPE_MARKER_RESTART] = { 0xff, 0xff, 0xff },      /* white */
    [SCOPE_MARKER_COMMAND] = { 0x00, 0xff, 0x9c },      /* spring green */
    [SCOPE_MARKER_RECORD]  = { 0xff, 0x70, 0x40 },      /* coral */
    [SCOPE_MARKER_SNAPSHOT] = { 0xff, 0x3c, 0xe6 },     /* magenta */
};

void graph_marker_colour(scope_marker_kind kind, unsigned char rgb[3])
{
    const unsigned char *c = kind_colours[kind < SCOPE_MARKER_KINDS ? kind : 0];
    rgb[0] = c[0];
    rgb[1] = c[1];
    rgb[2] = c[2];
}

/* Restarts are white on a dark plot; on a light one, near black. */
static const unsigned char restart_on_light[3] = { 0x33, 0x33, 0x33 };

static void use_colour(cairo_t *cr, scope_marker_kind kind, double alpha,
                       bool light)
{
    const unsigned char *c = light && kind == SCOPE_MARKER_RESTART
                           ? restart_on_light : kind_colours[kind];
    cairo_set_source_rgba(cr, c[0] / 255.0, c[1] / 255.0, c[2] / 255.0,
                          alpha);
}

/* Restart: a triangle pointing down; command: a square; snapshot: a
 * triangle pointing up; record: a diamond. Whole pixels, so their inside is the kind's exact colour. */
static void glyph(cairo_t *cr, scope_marker_kind kind, double cx, double top)
{
    double half = GLYPH / 2;
    switch (kind)
    {
    case SCOPE_MARKER_RESTART:
        cairo_move_to(cr, cx - half - 1, top);
        cairo_line_to(cr, cx + half + 1, top);
        cairo_line_to(cr, cx, top + GLYPH + 1);
        cairo_close_path(cr);
        break;
    case SCOPE_MARKER_COMMAND:
        cairo_rectangle(cr, cx - half, top, GLYPH, GLYPH);
        break;
    case SCOPE_MARKER_SNAPSHOT:
        cairo_move_to(cr, cx, top);
        cairo_line_to(cr, cx + half + 1, top + GLYPH + 1);
        cairo_line_to(cr, cx - half - 1, top + GLYPH + 1);
        cairo_close_path(cr);
        break;
    default:
        cairo_move_to(cr, cx, top);
        cairo_line_to(cr, cx + half + 0.5, top + half + 0.5);
        cairo_line_to(cr, cx, top + GLYPH + 1);
        cairo_line_to(cr, cx - half - 0.5, top + half + 0.5);
        cairo_close_path(cr);
        break;
    }
    cairo_fill(cr);
}

void graph_draw_markers(cairo_t *cr, double x, double y, double w, double h,
                        const scope_markers *markers, double t0, double t1,
                        bool light)
{
    if (!markers || !(t1 > t0) || !(w > 0))
        return;
    size_t count = scope_markers_count(markers);
    cairo_save(cr);
    cairo_set_line_width(cr, 1);
    for (size_t i = 0; i < count; i++)
    {
        const scope_marker *m = scope_markers_get(markers, i);
        double at = round(scope_time_to_x(m->time, t0, t1, x, w)) + 0.5;
        /* Half a glyph shows at an edge, as it did before it scrolled
         * there. */
        if (!(at > x - GLYPH && at < x + w + GLYPH))
            continue;
        use_colour(cr, m->kind, 0.45, light);
        cairo_move_to(cr, at, y + GLYPH);
        cairo_line_to(cr, at, y + h);
        cairo_stroke(cr);
        use_colour(cr, m->kind, 1, light);
        glyph(cr, m->kind, at, y + 1);
    }
    cairo_restore(cr);
}
