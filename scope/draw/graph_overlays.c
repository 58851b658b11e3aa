/* graph_overlays.c - cursors, crosshair, zoom band, readout, trigger. */
#include "draw/graph_overlays.h"
#include "draw/graph_style.h"
#include "view/time_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A cursor: a dashed line at x with its name at the top. */
static void draw_cursor(cairo_t *cr, const graph_layout *l, double x,
                        const char *name)
{
    static const double dashes[] = { 5.0, 3.0 };
    x = round(x) + 0.5;
    if (x < l->x || x > l->x + l->w)
        return;
    graph_paint(cr, graph_ink.title, 0.9);
    cairo_set_line_width(cr, 1);
    cairo_set_dash(cr, dashes, 2, 0);
    cairo_move_to(cr, x, l->y);
    cairo_line_to(cr, x, l->y + l->h);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    graph_use_font(cr, 11, true);
    graph_show_text(cr, x + 3, l->y + 12, 0, name);
}

/* The readout: lines of text in monospace on a dark box near (x, y), or
 * in the top right corner of the plot when x < 0. */
static void draw_readout(cairo_t *cr, const graph_layout *l,
                         const char *lines, double x, double y)
{
    graph_use_mono(cr, 11);
    double widest = 0;
    unsigned count = 0;
    char line[256];
    for (const char *p = lines; *p; )
    {
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof(line), "%.*s", (int) n, p);
        widest = fmax(widest, graph_text_width(cr, line));
        count++;
        p += n + (p[n] == '\n');
    }
    if (!count)
        return;
    double w = widest + 12, h = count * 14 + 8;
    double bx = x < 0 ? l->x + l->w - w - 6 : x + 14;
    double by = x < 0 ? l->y + 6 : y + 14;
    if (bx + w > l->x + l->w)
        bx = x - 14 - w;
    if (bx < l->x)
        bx = l->x + 2;
    if (by + h > l->y + l->h)
        by = fmax(l->y + 2, l->y + l->h - h - 2);
    graph_paint(cr, graph_ink.background, 0.88);
    cairo_rectangle(cr, bx, by, w, h);
    cairo_fill(cr);
    graph_paint(cr, graph_ink.frame, 1);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, round(bx) + 0.5, round(by) + 0.5, round(w), round(h));
    cairo_stroke(cr);
    graph_paint(cr, graph_ink.title, 1);
    double ty = by + 15;
    for (const char *p = lines; *p; ty += 14)
    {
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof(line), "%.*s", (int) n, p);
        graph_show_text(cr, bx + 6, ty, 0, line);
        p += n + (p[n] == '\n');
    }
}

void graph_draw_overlays(cairo_t *cr, const graph_layout *l,
                         const graph_model *model, double t0, double t1)
{
    static const char *const names[2] = { "A", "B" };
    for (unsigned c = 0; c < 2; c++)
        if (model->has_cursor[c])
            draw_cursor(cr, l, scope_time_to_x(model->cursor[c], t0, t1,
                                               l->x, l->w), names[c]);
    if (model->crosshair && model->crosshair_x >= l->x &&
        model->crosshair_x <= l->x + l->w)
    {
        double x = round(model->crosshair_x) + 0.5;
        graph_paint(cr, graph_ink.text, 0.55);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, x, l->y);
        cairo_line_to(cr, x, l->y + l->h);
        if (model->crosshair_y >= l->y && model->crosshair_y <= l->y + l->h)
        {
            double y = round(model->crosshair_y) + 0.5;
            cairo_move_to(cr, l->x, y);
            cairo_line_to(cr, l->x + l->w, y);
        }
        cairo_stroke(cr);
    }
    if (model->band)
    {
        double x = fmin(model->band_x0, model->band_x1);
        double y = fmin(model->band_y0, model->band_y1);
        double w = fabs(model->band_x1 - model->band_x0);
        double h = fabs(model->band_y1 - model->band_y0);
        graph_paint(cr, graph_ink.focus, 0.25);
        cairo_rectangle(cr, x, y, w, h);
        cairo_fill_preserve(cr);
        graph_paint(cr, graph_ink.focus, 1);
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
    }
    if (model->readout && model->readout[0])
        draw_readout(cr, l, model->readout, model->readout_x,
                     model->readout_y);
}

/* The trigger: a line at its time with a "T" flag on top, and where its
 * channel is drawn here, an arrow at its level on the left edge and a
 * diamond where the channel crossed it. */
void graph_draw_trigger(cairo_t *cr, const graph_layout *l,
                        const graph_model *model, const graph_scale *scales,
                        double t0, double t1)
{
    double x = NAN, y = NAN;
    if (isfinite(model->trigger_time))
    {
        x = round(scope_time_to_x(model->trigger_time, t0, t1, l->x,
                                  l->w)) + 0.5;
        if (x >= l->x && x <= l->x + l->w)
        {
            graph_paint(cr, graph_ink.trigger, 0.7);
            cairo_set_line_width(cr, 1);
            cairo_move_to(cr, x, l->y);
            cairo_line_to(cr, x, l->y + l->h);
            cairo_stroke(cr);
            graph_paint(cr, graph_ink.trigger, 1);
            cairo_move_to(cr, x - 6, l->y);
            cairo_line_to(cr, x + 6, l->y);
            cairo_line_to(cr, x, l->y + 8);
            cairo_close_path(cr);
            cairo_fill(cr);
            graph_use_font(cr, 11, true);
            graph_show_text(cr, x + 8, l->y + 11, 0, "T");
        }
        else
            x = NAN;
    }
    if (model->trigger_label && model->trigger_label[0])
    {
        /* Its state, in the plot's top left corner, on a dark box. */
        graph_use_font(cr, 11, false);
        double w = graph_text_width(cr, model->trigger_label) + 10;
        graph_paint(cr, graph_ink.background, 0.85);
        cairo_rectangle(cr, l->x + 12, l->y + 3, w, 16);
        cairo_fill(cr);
        graph_paint(cr, graph_ink.text, 1);
        graph_show_text(cr, l->x + 17, l->y + 15, 0, model->trigger_label);
    }
    if (!(model->views & ~SCOPE_VIEW_TIMING))
        return;
    for (unsigned s = 0; s < model->series_count; s++)
    {
        if (model->series[s] != model->trigger_series ||
            graph_hidden(model, s))
            continue;
        y = graph_value_y(&scales[s], model->trigger_level);
        if (!(y >= l->y && y <= l->y + l->h))
            return;
        graph_paint(cr, graph_ink.trigger, 1);
        cairo_move_to(cr, l->x, y - 5);
        cairo_line_to(cr, l->x + 9, y);
        cairo_line_to(cr, l->x, y + 5);
        cairo_close_path(cr);
        cairo_fill(cr);
        if (isfinite(x))
        {
            cairo_move_to(cr, x, y - 6);
            cairo_line_to(cr, x + 6, y);
            cairo_line_to(cr, x, y + 6);
            cairo_line_to(cr, x - 6, y);
            cairo_close_path(cr);
            cairo_set_line_width(cr, 2);
            cairo_stroke(cr);
        }
        return;
    }
}
