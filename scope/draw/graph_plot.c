/* graph_plot.c - the plot's content: fill, grid lines, traces, markers. */
#include "draw/graph_draw_private.h"
#include "draw/graph_axes.h"
#include "draw/graph_style.h"
#include "draw/marker_draw.h"

#include <math.h>

/* The timing trace: dashes of the channel's colour with a light dot in
 * each gap, unlike the solid values, the light dashes of the average and
 * the band of min/max. Through each column's longest interval. The dots
 * of all channels are one stroke (timing_dots): a stroke's cost is
 * mostly its own, and a 16-channel timing view spent a third of its
 * frame on them one by one. */
#define TIMING_DASH     8.0
static void draw_timing(cairo_t *cr, const graph_columns *track,
                        const graph_scale *scale, scope_rgb colour)
{
    static const double dashes[] = { TIMING_DASH, TIMING_DASH };
    graph_trace_peaks(cr, track, scale);
    cairo_set_line_width(cr, 2.0);
    cairo_set_dash(cr, dashes, 2, 0);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL);
    graph_paint(cr, colour, 1);
    cairo_stroke(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_dash(cr, NULL, 0, 0);
}

/* A dot of 3 pixels (round caps) half way through each gap of the
 * dashes, for every timing track in 'cols' (each path restarts the
 * pattern, as the dashes do). */
static void timing_dots(cairo_t *cr, const graph_columns *cols,
                        unsigned count, const graph_scale *scale)
{
    static const double dots[] = { 0.0, 2 * TIMING_DASH };
    bool any = false;
    for (unsigned s = 0; s < count; s++)
    {
        const graph_columns *track = &cols[s * SCOPE_TRACKS +
                                           SCOPE_TRACK_INTERVAL];
        if (!track->count)
            continue;
        graph_trace_peaks(cr, track, scale);
        any = true;
    }
    if (!any)
        return;
    cairo_set_line_width(cr, 3.0);
    cairo_set_dash(cr, dots, 2, TIMING_DASH / 2);
    graph_paint(cr, graph_ink.title, 1);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
}

/* The column of a track at pixel x, within [0, count]. */
static unsigned column_at(const graph_plot *p, const graph_columns *c,
                          double x)
{
    double column = floor(x - p->l.x + p->shift - (double) c->origin);
    if (!(column > 0))
        return 0;
    return column > c->count ? c->count : (unsigned) column;
}

/* Where graph_plot_draw() starts a track's paths to draw from pixel x. */
static unsigned track_from(const graph_plot *p, const graph_columns *c,
                           double x, unsigned anchor)
{
    return graph_columns_from(c, column_at(p, c, x), anchor);
}

double graph_plot_from(const graph_plot *p, double x)
{
    double from = x;
    for (unsigned i = 0; i < p->model->series_count * SCOPE_TRACKS; i++)
    {
        const graph_columns *c = &p->cols[i];
        if (!c->count)
            continue;
        double at = p->l.x + (double) (c->origin + track_from(p, c, x, 0)) -
                    p->shift;
        if (at < from)
            from = at;
    }
    return from;
}

/* The grid lines of the plot, under its traces. */
static void plot_grid(const graph_plot *p, cairo_t *cr, double x0, double x1)
{
    const graph_model *model = p->model;
    const graph_layout *l = &p->l;
    unsigned n = model->series_count, views = model->views;
    /* Level lines across [x0, x1), not ending inside it: drawn in parts,
     * they are drawn the same. */
    graph_layout across = *l;
    across.x = x0 - 1;
    across.w = x1 - x0 + 2;
    if (views & ~SCOPE_VIEW_TIMING)
    {
        if (model->values.mode == SCOPE_SCALE_LANES)
        {
            for (unsigned s = 0; s < n; s++)
                if (!graph_hidden(model, s))
                    graph_draw_lane_axis(cr, &across, &p->scales[s],
                                         graph_ink.channel[p->colour[s]],
                                         true);
        }
        else if (model->values.mode == SCOPE_SCALE_NORMALISED)
        {
            for (unsigned q = 0; q <= 4; q++)
                graph_draw_grid_line(cr, &across,
                                     round(l->y + l->h * q / 4) + 0.5);
        }
        else
        {
            graph_draw_value_axis(cr, &across, &p->values, false,
                                  p->value_ticks, NULL, true);
        }
    }
    if (views & SCOPE_VIEW_TIMING)
        graph_draw_value_axis(cr, &across, &p->timing_axis, !p->timing_left,
                              p->value_ticks, p->timing_unit, true);
    graph_draw_time_axis(cr, l, p->t0, p->t1, p->height, p->step, p->shift,
                         true);
}

void graph_plot_draw(graph_plot *p, cairo_t *cr, double x0, double x1)
{
    const graph_model *model = p->model;
    const graph_layout *l = &p->l;
    unsigned n = model->series_count;
    graph_columns *cols = p->cols;
    cairo_save(cr);
    cairo_rectangle(cr, x0, l->y, x1 - x0, l->h);
    cairo_clip(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    graph_paint(cr, graph_ink.plot_fill, 1);
    cairo_paint(cr);

    plot_grid(p, cr, x0, x1);

    /* Paths from a little left of x0 to a little right of x1, chosen by
     * the data there: the part [x0, x1) of a plot is drawn the same
     * whatever else is drawn with it (graph_retained.c). */
    for (unsigned i = 0; i < n * SCOPE_TRACKS; i++)
        if (cols[i].count)
        {
            cols[i].from = track_from(p, &cols[i], x0,
                                      i % SCOPE_TRACKS == SCOPE_TRACK_INTERVAL
                                      ? GRAPH_DASH_TIMING
                                      : i % SCOPE_TRACKS == SCOPE_TRACK_AVERAGE
                                      ? GRAPH_DASH_AVERAGE : 0);
            cols[i].to = graph_columns_to(&cols[i],
                                          column_at(p, &cols[i], x1));
        }
    /* Layer by layer, so every channel's values lie above every band. */
    for (unsigned s = 0; s < n; s++)
    {
        graph_columns *track = &cols[s * SCOPE_TRACKS];
        if (!track[SCOPE_TRACK_MIN].count || !track[SCOPE_TRACK_MAX].count)
            continue;
        unsigned from = track[SCOPE_TRACK_MIN].from;
        if (track[SCOPE_TRACK_MAX].from < from)
            from = track[SCOPE_TRACK_MAX].from;
        track[SCOPE_TRACK_MIN].from = track[SCOPE_TRACK_MAX].from = from;
        graph_trace_band(cr, &track[SCOPE_TRACK_MIN],
                         &track[SCOPE_TRACK_MAX], &p->scales[s]);
        graph_paint(cr, graph_ink.channel[p->colour[s]], 0.22);
        cairo_fill(cr);
    }
    for (unsigned s = 0; s < n; s++)
    {
        graph_columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_INTERVAL];
        if (!track->count)
            continue;
        draw_timing(cr, track, &p->timing, graph_ink.channel[p->colour[s]]);
    }
    timing_dots(cr, cols, n, &p->timing);
    for (unsigned s = 0; s < n; s++)
    {
        graph_columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_VALUE];
        if (!track->count)
            continue;
        graph_paint(cr, graph_ink.channel[p->colour[s]], 1);
        graph_trace_solid(cr, track, &p->scales[s], 2.0, p->dense[s]);
    }
    for (unsigned s = 0; s < n; s++)
    {
        static const double dashes[] = { 7.0, 4.0 };
        graph_columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_AVERAGE];
        if (!track->count)
            continue;
        /* Lighter than the values, so it shows on top of them. */
        scope_rgb shade = graph_ink.channel[p->colour[s]];
        scope_rgb light = { (unsigned char) ((shade.r + 2 * 255) / 3),
                            (unsigned char) ((shade.g + 2 * 255) / 3),
                            (unsigned char) ((shade.b + 2 * 255) / 3) };
        graph_trace_line(cr, track, &p->scales[s]);
        cairo_set_dash(cr, dashes, 2, 0);
        cairo_set_line_width(cr, 2.0);
        graph_paint(cr, light, 1);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    for (unsigned i = 0; i < n * SCOPE_TRACKS; i++)
        cols[i].from = cols[i].to = 0;
    graph_draw_markers(cr, l->x, l->y, l->w, l->h, model->markers, p->t0,
                       p->t1, model->palette == &scope_palette_light);
    cairo_restore(cr);
}

void graph_plot_draw_under(graph_plot *p, cairo_t *cr, double x0, double x1,
                           double below, bool tiled)
{
    const graph_layout *l = &p->l;
    double top = l->y + l->h;
    cairo_save(cr);
    cairo_rectangle(cr, x0, top, x1 - x0, below);
    cairo_clip(cr);
    graph_paint(cr, graph_ink.background, 1);
    cairo_paint(cr);
    graph_draw_time_axis_part(cr, l, p->t0, p->t1, p->height, p->step,
                              p->shift, x0, x1, tiled);
    /* The frame's lower edge, opaque and a whole pixel high, over the
     * ticks as the frame strokes it. */
    graph_paint(cr, graph_ink.frame, 1);
    cairo_rectangle(cr, x0, top, x1 - x0, 1);
    cairo_fill(cr);
    cairo_restore(cr);
}
