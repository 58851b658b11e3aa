/* graph_plot.c - the plot's content: fill, grid lines, traces, markers. */
#include "draw/graph_draw_private.h"
#include "draw/graph_axes.h"
#include "draw/graph_style.h"
#include "draw/marker_draw.h"

#include <math.h>

/* The column of a track at pixel x, within [0, count]. */
static unsigned column_at(const graph_plot *p, const graph_columns *c,
                          double x)
{
    double column = floor(x - p->l.x + p->shift - (double) c->origin);
    if (!(column > 0))
        return 0;
    return column > c->count ? c->count : (unsigned) column;
}

/* Where graph_plot_draw() starts a track to draw from pixel x. */
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
        unsigned before = graph_columns_used_before(c, column_at(p, c, x));
        double at = p->l.x + (double) (c->origin + before) - p->shift + 0.5;
        if (at < from)
            from = at;
    }
    return from - GRAPH_TRACE_REACH;
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

/* The traces of all channels, layer by layer: every channel's values lie
 * above every band, and the light average above the values. */
static void plot_traces(graph_plot *p, cairo_t *cr, column_raster *raster,
                        double x0, double x1)
{
    unsigned n = p->model->series_count;
    graph_columns *cols = p->cols;
    /* The columns from a little left of x0 to a little right of x1,
     * chosen by the data there: the part [x0, x1) of a plot is drawn the
     * same whatever else is drawn with it (graph_retained.c). */
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
    for (unsigned s = 0; s < n; s++)
    {
        graph_columns *track = &cols[s * SCOPE_TRACKS];
        if (!track[SCOPE_TRACK_MIN].count || !track[SCOPE_TRACK_MAX].count)
            continue;
        unsigned from = track[SCOPE_TRACK_MIN].from;
        if (track[SCOPE_TRACK_MAX].from < from)
            from = track[SCOPE_TRACK_MAX].from;
        track[SCOPE_TRACK_MIN].from = track[SCOPE_TRACK_MAX].from = from;
        graph_trace_band(raster, &track[SCOPE_TRACK_MIN],
                         &track[SCOPE_TRACK_MAX], &p->scales[s]);
        graph_paint(cr, graph_ink.channel[p->colour[s]], 0.22);
        column_raster_paint(raster, cr);
    }
    /* The timing: dashes of the channel's colour with a light dot in each
     * gap, unlike the solid values, the light dashes of the average and
     * the band of min/max. Through each column's longest interval. */
    for (unsigned s = 0; s < n; s++)
    {
        graph_columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_INTERVAL];
        if (!track->count)
            continue;
        graph_trace_dashed(raster, track, &p->timing, graph_trace_peak, 1,
                           GRAPH_DASH_TIMING, GRAPH_DASH_TIMING_ON);
        graph_paint(cr, graph_ink.channel[p->colour[s]], 1);
        column_raster_paint(raster, cr);
    }
    /* The dots of all channels, one paint (nothing if no timing track). */
    for (unsigned s = 0; s < n; s++)
    {
        graph_columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_INTERVAL];
        if (track->count)
            graph_trace_gap_dots(raster, track, &p->timing, graph_trace_peak,
                                 1.5, GRAPH_DASH_TIMING, GRAPH_DASH_TIMING_ON);
    }
    graph_paint(cr, graph_ink.title, 1);
    column_raster_paint(raster, cr);
    for (unsigned s = 0; s < n; s++)
    {
        graph_columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_VALUE];
        if (!track->count)
            continue;
        graph_trace_solid(raster, track, &p->scales[s], 1);
        graph_paint(cr, graph_ink.channel[p->colour[s]], 1);
        column_raster_paint(raster, cr);
    }
    for (unsigned s = 0; s < n; s++)
    {
        graph_columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_AVERAGE];
        if (!track->count)
            continue;
        /* Lighter than the values, so it shows on top of them. */
        scope_rgb shade = graph_ink.channel[p->colour[s]];
        scope_rgb light = { (unsigned char) ((shade.r + 2 * 255) / 3),
                            (unsigned char) ((shade.g + 2 * 255) / 3),
                            (unsigned char) ((shade.b + 2 * 255) / 3) };
        graph_trace_dashed(raster, track, &p->scales[s], graph_trace_last, 1,
                           GRAPH_DASH_AVERAGE, GRAPH_DASH_AVERAGE_ON);
        graph_paint(cr, light, 1);
        column_raster_paint(raster, cr);
    }
    for (unsigned i = 0; i < n * SCOPE_TRACKS; i++)
        cols[i].from = cols[i].to = 0;
}

void graph_plot_draw(graph_plot *p, cairo_t *cr, double x0, double x1)
{
    const graph_model *model = p->model;
    const graph_layout *l = &p->l;
    cairo_save(cr);
    cairo_rectangle(cr, x0, l->y, x1 - x0, l->h);
    cairo_clip(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    graph_paint(cr, graph_ink.plot_fill, 1);
    if (!column_raster_fill_straight(cr, x0, l->y, x1 - x0, l->h))
        cairo_paint(cr);

    plot_grid(p, cr, x0, x1);

    column_raster *raster = column_raster_new(cr, x0, l->y, x1 - x0, l->h);
    if (raster)
    {
        plot_traces(p, cr, raster, x0, x1);
        column_raster_delete(raster);
    }
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
