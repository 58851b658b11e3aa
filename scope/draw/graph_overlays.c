/* graph_overlays.c - cursors, crosshair, zoom band, readout, trigger. */
#include "draw/graph_overlays.h"
#include "draw/graph_style.h"
#include "view/readout_place.h"
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

/* What a readout box must leave visible, at most this many. */
#define KEEP_MAX        256

typedef struct keep_list
{
    scope_box box[KEEP_MAX];
    unsigned count;
} keep_list;

static void keep(keep_list *k, double x, double y, double w, double h)
{
    if (k->count < KEEP_MAX)
        k->box[k->count++] = (scope_box) { x, y, w, h };
}

/* What the box must leave visible, and what it spares when it can. */
typedef struct keep_lists
{
    keep_list must, spare;
} keep_lists;

/* Each shown channel's sample at time t, which the readout gives the
 * value of: from the sample to x (the crosshair, or the cursor), so the
 * sample and the trace between them stay in view. */
static void keep_samples(keep_list *k, const graph_layout *l,
                         const graph_model *model, const graph_scale *scales,
                         double t, double x, double t0, double t1)
{
    if (!isfinite(t) || !(model->views & ~SCOPE_VIEW_TIMING) ||
        !(x >= l->x && x <= l->x + l->w))
        return;
    for (unsigned s = 0; s < model->series_count; s++)
    {
        double when, value;
        if (graph_hidden(model, s) ||
            !scope_series_value_at(model->series[s], t, &when, &value))
            continue;
        double y = graph_value_y(&scales[s], value);
        double at = fmax(l->x, scope_time_to_x(when, t0, t1, l->x, l->w));
        if (!(y >= l->y - 5 && y <= l->y + l->h + 5))
            continue;
        double left = fmin(at, x), right = fmax(at, x);
        keep(k, left - 5, y - 5, right - left + 10, 10);
    }
}

/* The axis labels around the plot and the samples the readout points
 * at (under the pointer, else at the cursors) must stay visible; the
 * pointer itself, the cursors' names and, under a pointer, their samples
 * too if there is room. */
static void keep_visible(keep_lists *k, const graph_layout *l,
                         const graph_model *model, const graph_scale *scales,
                         double t0, double t1, double width)
{
    double right = l->x + l->w;
    keep(&k->must, 0, l->y - 10, l->x, l->h + 20);              /* values */
    keep(&k->must, right, l->y - 10, width - right, l->h + 20); /* timing */
    keep(&k->must, 0, l->y + l->h, width, GRAPH_MARGIN_BOTTOM); /* time */
    bool pointer = model->readout_x >= 0;
    if (pointer)
    {
        keep_samples(&k->must, l, model, scales,
                     scope_x_to_time(model->readout_x, t0, t1, l->x, l->w),
                     model->readout_x, t0, t1);
        if (model->readout_y >= l->y && model->readout_y <= l->y + l->h)
            keep(&k->spare, model->readout_x - 4, model->readout_y - 4, 8, 8);
    }
    for (unsigned c = 0; c < 2; c++)
    {
        if (!model->has_cursor[c])
            continue;
        double x = scope_time_to_x(model->cursor[c], t0, t1, l->x, l->w);
        keep(&k->spare, round(x) + 2, l->y, 12, 16);        /* its name */
        keep_samples(pointer ? &k->spare : &k->must, l, model, scales,
                     model->cursor[c], x, t0, t1);
    }
}

void graph_draw_readout(cairo_t *cr, const graph_layout *l,
                        const graph_model *model, const graph_scale *scales,
                        double t0, double t1, double width, double height,
                        scope_box *where)
{
    *where = (scope_box) { 0, 0, 0, 0 };
    const char *lines = model->readout;
    if (!lines || !lines[0])
        return;
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
    keep_lists k = { .must.count = 0, .spare.count = 0 };
    keep_visible(&k, l, model, scales, t0, t1, width);
    scope_readout_room room = {
        .plot = { l->x, l->y, l->w, l->h },
        .bounds = { 0, 0, width, height },
        .keep = k.must.box, .keep_count = k.must.count,
        .spare = k.spare.box, .spare_count = k.spare.count,
        .pointer = model->readout_x >= 0,
        .x = model->readout_x, .y = model->readout_y,
    };
    scope_box box = scope_readout_place(&room, ceil(widest + 12),
                                        count * 14 + 8);
    *where = box;
    /* Opaque: traces under it would cross its text. */
    graph_paint(cr, graph_ink.background, 1);
    cairo_rectangle(cr, box.x, box.y, box.w, box.h);
    cairo_fill(cr);
    graph_paint(cr, graph_ink.frame, 1);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, round(box.x) + 0.5, round(box.y) + 0.5,
                    round(box.w), round(box.h));
    cairo_stroke(cr);
    graph_paint(cr, graph_ink.title, 1);
    double ty = box.y + 15;
    for (const char *p = lines; *p; ty += 14)
    {
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof(line), "%.*s", (int) n, p);
        graph_show_text(cr, box.x + 6, ty, 0, line);
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
