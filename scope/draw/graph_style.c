/* graph_style.c - the frame's colours, fonts and text. */
#include "draw/graph_style.h"
#include "draw/text_cache.h"

#include <math.h>
#include <string.h>

#define FONT            "sans-serif"
#define MONO            "monospace"

graph_colours graph_ink;

void graph_ink_use(const scope_palette *p)
{
    if (!p)
        p = &scope_palette_dark;
    memcpy(graph_ink.channel, p->channel, sizeof(graph_ink.channel));
    graph_ink.background = p->background;
    graph_ink.plot_fill = p->plot_fill;
    graph_ink.grid = p->grid;
    graph_ink.frame = p->frame;
    graph_ink.text = p->text;
    graph_ink.dim = p->dim;
    graph_ink.title = p->title;
    graph_ink.alert = p->alert;
    graph_ink.focus = p->focus;
    graph_ink.trigger = p == &scope_palette_light
                      ? p->title : (scope_rgb) { 0xff, 0xff, 0xff };
}

void graph_paint(cairo_t *cr, scope_rgb c, double alpha)
{
    cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, alpha);
}

/* The faces, made once: cairo_select_font_face() makes (and looks up) a
 * face at every call, and a frame sets its font a few dozen times. Drawing
 * happens on one thread, as for graph_ink. */
static void use_face(cairo_t *cr, unsigned which, double size)
{
    static cairo_font_face_t *faces[3];
    static const char *const families[3] = { FONT, FONT, MONO };
    if (!faces[which])
        faces[which] = cairo_toy_font_face_create(
            families[which], CAIRO_FONT_SLANT_NORMAL,
            which == 1 ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_face(cr, faces[which]);
    cairo_set_font_size(cr, size);
}

void graph_use_font(cairo_t *cr, double size, bool bold)
{
    use_face(cr, bold ? 1 : 0, size);
}

void graph_use_mono(cairo_t *cr, double size)
{
    use_face(cr, 2, size);
}

double graph_text_width(cairo_t *cr, const char *s)
{
    return scope_text_advance(cr, s);
}

void graph_show_text(cairo_t *cr, double x, double y, double align,
                     const char *s)
{
    cairo_move_to(cr, round(x - align * graph_text_width(cr, s)), round(y));
    scope_text_show(cr, s);
}
