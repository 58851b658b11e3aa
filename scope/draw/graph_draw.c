/* graph_draw.c - one graph's frame: lay it out, decimate and scale the
 * channels' tracks, then draw its parts in order (the graph_*.c files
 * beside this one draw each part); and a PNG of graphs stacked. */
#include "draw/graph_draw.h"
#include "draw/graph_axes.h"
#include "draw/graph_header.h"
#include "draw/graph_layout.h"
#include "draw/graph_draw_private.h"
#include "draw/graph_overlays.h"
#include "draw/graph_style.h"
#include "source/decimate.h"
#include "view/column_cache.h"
#include "view/timing_unit.h"

#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define CHANNEL_COLOURS (sizeof(graph_ink.channel) / \
                         sizeof(graph_ink.channel[0]))

void graph_channel_colour(unsigned index, unsigned char out[3])
{
    scope_rgb c = scope_palette_dark.channel[index % CHANNEL_COLOURS];
    out[0] = c.r;
    out[1] = c.g;
    out[2] = c.b;
}

/* ---- layout and scales -------------------------------------------------- */

/* Each channel keeps its colour in every graph, unless another channel of
 * the same graph has it already. */
static void assign_colours(const graph_model *model, unsigned *colour)
{
    for (unsigned s = 0; s < model->series_count; s++)
    {
        unsigned want = model->series[s]->colour % CHANNEL_COLOURS;
        for (unsigned tries = 0; tries < CHANNEL_COLOURS; tries++)
        {
            bool taken = false;
            for (unsigned p = 0; p < s && !taken; p++)
                taken = colour[p] == want;
            if (!taken)
                break;
            want = (want + 1) % CHANNEL_COLOURS;
        }
        colour[s] = want;
    }
}

/* The plot under the title and the legend's rows, between the margins. */
static graph_layout plan(const graph_model *model, double width,
                         double height, unsigned legend_rows)
{
    graph_layout l;
    l.legend_rows = legend_rows;
    l.x = GRAPH_MARGIN_LEFT;
    l.w = graph_plot_width(model, width);
    l.y = GRAPH_TITLE_HEIGHT + legend_rows * GRAPH_LEGEND_ROW + 8;
    l.h = height - l.y - GRAPH_MARGIN_BOTTOM;
    if (l.h < 10)
        l.h = 10;
    return l;
}

static const bool track_for_values[SCOPE_TRACKS] = {
    [SCOPE_TRACK_VALUE] = true, [SCOPE_TRACK_AVERAGE] = true,
    [SCOPE_TRACK_MIN] = true, [SCOPE_TRACK_MAX] = true,
};

/* The shared axis, or one scale per channel (lanes, normalised), each
 * fitted to what is visible unless the user fixed the shared range. */
static void fit_scales(const graph_model *model, const graph_layout *l,
                       const scope_column_summary *sums, unsigned value_ticks,
                       graph_scale *shared, graph_scale *own)
{
    const scope_value_view *v = &model->values;
    *shared = (graph_scale) { INFINITY, -INFINITY, v->log, l->y, l->h };
    unsigned n = model->series_count, shown = 0;
    for (unsigned s = 0; s < n; s++)
        shown += !graph_hidden(model, s);
    unsigned lane = 0;
    for (unsigned s = 0; s < n; s++)
    {
        graph_scale *scale = &own[s];
        *scale = (graph_scale) { INFINITY, -INFINITY, v->log, l->y, l->h };
        if (v->mode == SCOPE_SCALE_LANES && shown && !graph_hidden(model, s))
        {
            double each = l->h / shown;
            scale->top = l->y + lane * each + 3;
            scale->height = each - 6 > 4 ? each - 6 : 4;
            lane++;
        }
        for (unsigned k = 0; k < SCOPE_TRACKS; k++)
            if (track_for_values[k])
            {
                graph_scale_widen(scale, &sums[s * SCOPE_TRACKS + k]);
                graph_scale_widen(shared, &sums[s * SCOPE_TRACKS + k]);
            }
        /* Its own range is labelled by its ends, not by ticks: no need
         * to round, and the trace fills its lane. */
        graph_scale_settle(scale, 2, false);
    }
    graph_scale_settle(shared, value_ticks, true);
    if (v->manual && v->hi > v->lo && (!v->log || v->lo > 0))
    {
        shared->lo = v->lo;
        shared->hi = v->hi;
    }
    if (v->mode == SCOPE_SCALE_SHARED)
        for (unsigned s = 0; s < n; s++)
            own[s] = *shared;
}

/* ---- the frame ---------------------------------------------------------- */

/* A frame being drawn: what its steps share. */
typedef struct frame_state
{
    const graph_model *     model;
    const graph_draw_hooks *hooks;      /* or NULL */
    double                  width, height;
    unsigned                n;          /* series */
    /* The legend's entries (two a series, the timing view's): those the
     * hooks' memo kept, or laid out in 'entries' (allocated then, zeroed
     * as their bytes key kept parts); 'legend_stamp' names them, 0 if
     * only their bytes do. */
    const graph_legend_entry *shown;
    graph_legend_entry *    entries;
    unsigned long           legend_stamp;
    /* Per series, room for one at least: */
    uint64_t *              first;      /* the samples in view */
    uint64_t *              end;
    graph_columns *         cols;       /* SCOPE_TRACKS each */
    scope_column_summary *  sums;       /* one per track of cols */
    unsigned *              colour;     /* palette index */
    graph_scale *           scales;     /* its own range */
    double *                join;       /* join seconds */
    scope_column_cache *    cache;      /* owns the columns, if any */

    graph_layout            l;
    double                  t0, t1, step, shift;
    unsigned                width_columns;
    unsigned                margin;     /* columns left of the view */
    int64_t                 origin;     /* of the first column */
    bool                    anything;   /* a track has columns */
    unsigned                value_ticks;
    graph_scale             values, timing, timing_axis;
    scope_timing_unit       unit;       /* of the timing axis */
    bool                    timing_left; /* it takes the left axis */
    bool                    parts;      /* drawn in parts (graph_bands) */
    double                  below;      /* rows under the plot its part
                                           holds; 0: none apart */
} frame_state;

/* The per-series arrays in one block, each on a max_align_t boundary (a
 * frame is drawn some 40 times a second: one allocation, not seven);
 * 'first' starts it. */
static bool frame_alloc(frame_state *f)
{
    size_t room = f->n ? f->n : 1, tracks = room * SCOPE_TRACKS;
    const size_t size[7] = {
        room * sizeof(*f->first), room * sizeof(*f->end),
        tracks * sizeof(*f->cols), tracks * sizeof(*f->sums),
        room * sizeof(*f->colour), room * sizeof(*f->scales),
        room * sizeof(*f->join),
    };
    size_t at[8] = { 0 }, align = _Alignof(max_align_t);
    for (unsigned i = 0; i < 7; i++)
        at[i + 1] = (at[i] + size[i] + align - 1) & ~(align - 1);
    char *block = calloc(1, at[7]);
    if (!block)
        return false;
    f->first = (uint64_t *) block;
    f->end = (uint64_t *) (block + at[1]);
    f->cols = (graph_columns *) (block + at[2]);
    f->sums = (scope_column_summary *) (block + at[3]);
    f->colour = (unsigned *) (block + at[4]);
    f->scales = (graph_scale *) (block + at[5]);
    f->join = (double *) (block + at[6]);
    for (size_t i = 0; i < tracks; i++)
        f->sums[i] = scope_column_summary_empty();
    return true;
}

static void frame_free(frame_state *f)
{
    for (unsigned i = 0; f->cols && !f->cache && i < f->n * SCOPE_TRACKS; i++)
        free(f->cols[i].at);
    free(f->first);                     /* frame_alloc's block */
    free(f->entries);
}

/* Room for the legend's entries, zeroed; NULL if out of memory. */
static graph_legend_entry *frame_entries(frame_state *f)
{
    if (!f->entries)
        f->entries = calloc(2 * (f->n ? f->n : 1), sizeof(*f->entries));
    return f->entries;
}

/* Lay the frame out; false if out of memory. */
static bool frame_layout(cairo_t *cr, frame_state *f)
{
    const graph_model *model = f->model;
    assign_colours(model, f->colour);

    /* The legend's height depends on its text, which in lanes and
     * normalised views holds ranges that depend on the plot's height: lay
     * out with the names first, fit, then fill the ranges in. */
    graph_legend_memo *memo = f->hooks ? f->hooks->layout : NULL;
    unsigned rows;
    if (!graph_legend_memo_holds(memo, model, f->width, &f->shown, &rows,
                                 &f->legend_stamp))
    {
        if (!frame_entries(f))
            return false;
        rows = graph_legend_layout(cr, model, f->width, f->entries, memo,
                                   &f->legend_stamp);
        f->shown = f->entries;
    }
    f->l = plan(model, f->width, f->height, rows);
    return true;
}

/* The background around the plot, which paints all of its own: GTK
 * replays the frame every time, and would fill the plot twice. Whole
 * pixels only, where the two meet without antialiasing. */
static void frame_background(cairo_t *cr, const frame_state *f)
{
    graph_paint(cr, graph_ink.background, 1);
    cairo_rectangle(cr, 0, 0, f->width, f->height);
    if (f->l.w >= 1 && f->l.h == floor(f->l.h))
        cairo_rectangle(cr, f->l.x, f->l.y, f->l.w, f->l.h);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
    cairo_fill(cr);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);
}

/* The columns of track k of series s, decimated from sample 'from' or
 * taken from the cache, and what is in view of them. */
static void track_columns(frame_state *f, unsigned s, unsigned k,
                          uint64_t from)
{
    const graph_model *model = f->model;
    unsigned i = s * SCOPE_TRACKS + k;
    graph_columns *c = &f->cols[i];
    c->count = f->width_columns + 2 + f->margin;
    c->origin = f->origin;
    c->step = f->step;
    c->x0 = f->l.x;
    c->t0 = f->t0;
    c->shift = f->shift;
    c->skip = f->margin;
    scope_track_view track = scope_series_columns_track(
        model->series[s], k, (double) (f->end[s] - f->first[s]) / c->count);
    if (f->cache)
        c->at = scope_column_cache_get(f->cache, i, model->series[s], &track,
                                       f->end[s], f->origin, f->step,
                                       c->count);
    else
        c->at = malloc(c->count * sizeof(*c->at));
    if (!c->at)
    {
        c->count = 0;
        return;
    }
    if (!f->cache)
        scope_decimate(&track, from, f->end[s], f->origin, f->step, c->count,
                       c->at);
    c->join = f->join[s];
    /* What scales and the noise test need of the columns in view; the
     * cache keeps it for blocks of columns kept. */
    scope_column_summary *sum = &f->sums[i];
    *sum = f->cache ? scope_column_cache_summary(
                          f->cache, i, f->origin + (int64_t) c->skip,
                          f->origin + (int64_t) c->count)
                    : graph_columns_summary(c);
    if (k == SCOPE_TRACK_INTERVAL)
        graph_scale_widen(&f->timing, sum);
    f->anything = true;
}

/* The span shown, and the columns of every track the views need. */
static void frame_columns(frame_state *f)
{
    const graph_model *model = f->model;
    f->width_columns = (unsigned) f->l.w;
    graph_model_window(model, f->width_columns, &f->t0, &f->t1, f->first,
                       f->end);
    f->step = (f->t1 - f->t0) / f->l.w;
    f->shift = graph_columns_shift(f->t0, f->step);
    /* Columns left of the view too (none under a sample cap, which
     * decides what is shown): a trace enters the plot as it left it. */
    f->margin = model->max_samples < 0 ? GRAPH_MARGIN_COLUMNS : 0;
    f->origin = (int64_t) floor(f->shift) - (int64_t) f->margin;

    /* Decimate every track the views need, then scale to what is there. */
    unsigned views = model->views;
    bool wanted[SCOPE_TRACKS] = {
        [SCOPE_TRACK_VALUE] = views & SCOPE_VIEW_NORMAL,
        [SCOPE_TRACK_AVERAGE] = views & SCOPE_VIEW_AVERAGE,
        [SCOPE_TRACK_MIN] = views & SCOPE_VIEW_MINMAX,
        [SCOPE_TRACK_MAX] = views & SCOPE_VIEW_MINMAX,
        [SCOPE_TRACK_INTERVAL] = views & SCOPE_VIEW_TIMING,
    };
    f->timing = (graph_scale) { 0, -INFINITY, false, f->l.y, f->l.h };
    /* Columns anchored left of the view (the margin) are those the cache
     * keeps: what a sample cap shows moves with the samples. */
    if (f->hooks && f->margin)
        f->cache = f->hooks->columns;
    for (unsigned s = 0; s < f->n; s++)
    {
        f->join[s] = graph_join_seconds(scope_pace_usual(
                                            &model->series[s]->pace));
        if (graph_hidden(model, s))
            continue;
        uint64_t from = f->first[s];
        if (f->margin && f->end[s] > f->first[s] && !f->cache)
        {
            scope_track_view values = scope_series_track(model->series[s],
                                                         SCOPE_TRACK_VALUE);
            values.end = f->first[s];
            from = scope_track_lower_bound(&values,
                                           (double) f->origin * f->step);
        }
        for (unsigned k = 0; k < SCOPE_TRACKS; k++)
            if (wanted[k] && f->end[s] > f->first[s])
                track_columns(f, s, k, from);
    }
}

/* The value and timing scales fitted to the columns, as the hooks may
 * change them, and what the plot needs to know of them in 'info'. */
static void frame_scales(frame_state *f, graph_plot_info *info)
{
    const graph_model *model = f->model;
    const graph_draw_hooks *hooks = f->hooks;
    unsigned n = f->n;
    f->value_ticks = (unsigned) (f->l.h / 38) + 1;
    fit_scales(model, &f->l, f->sums, f->value_ticks, &f->values, f->scales);
    if (!(f->timing.hi > 0))
        f->timing.hi = 1;
    graph_scale_settle(&f->timing, f->value_ticks, true);
    *info = (graph_plot_info) {
        .model = model, .x = f->l.x, .y = f->l.y, .w = f->l.w, .h = f->l.h,
        .t0 = f->t0, .t1 = f->t1, .step = f->step, .shift = f->shift,
        .series_count = n, .own = f->scales, .colour = f->colour,
        .join = f->join, .below = f->below,
    };
    if (hooks && hooks->ranges)
    {
        hooks->ranges(hooks->data, info, &f->values, f->scales, &f->timing);
        if (model->values.mode == SCOPE_SCALE_SHARED)
            for (unsigned s = 0; s < n; s++)
                f->scales[s] = f->values;
        for (unsigned s = 0; s < n; s++)
            for (unsigned k = 0; k < SCOPE_TRACKS; k++)
                f->cols[s * SCOPE_TRACKS + k].join = f->join[s];
    }
    info->values = f->values;
    info->timing = f->timing;
    /* Ticks in the unit the largest interval shown reads best in: the same
     * heights, numbers scaled. */
    f->unit = scope_timing_unit_for(f->timing.hi);
    f->timing_axis = f->timing;
    f->timing_axis.lo *= f->unit.scale;
    f->timing_axis.hi *= f->unit.scale;
    /* Alone, the timing takes the left axis, grid and all. */
    f->timing_left = !(model->views & ~SCOPE_VIEW_TIMING);
}

/* Lanes and normalised views: the legend says each channel's range, now
 * fitted. */
static void frame_legend_ranges(cairo_t *cr, frame_state *f)
{
    if (!graph_own_scales(f->model))
        return;
    const graph_legend_entry *laid = f->shown;
    if (!frame_entries(f))
        return;                         /* out of memory: no ranges */
    if (laid != f->entries)
        memcpy(f->entries, laid,
               graph_legend_count(f->model) * sizeof(*f->entries));
    graph_legend_fill(f->model, f->scales, f->entries);
    graph_legend_place(cr, f->model, f->width, f->entries);
    f->shown = f->entries;
    f->legend_stamp = 0;                /* its bytes say what it shows */
}

/* Above the plot: the title line and the legend. 'kept': in a part the
 * bands keep while it shows the same, where the legend is drawn as it
 * is, not through an image of its own: the part is drawn again only when
 * the legend (or the title) changes, and an image then cost writing its
 * every pixel twice, and GTK reading them again, where text costs its
 * glyphs (a 16-channel legend is 890 x 108 pixels, redrawn four times a
 * second). */
static void frame_top(cairo_t *cr, const frame_state *f, bool kept)
{
    const graph_model *model = f->model;
    const graph_layout *l = &f->l;
    graph_draw_header(cr, model, f->width,
                      model->views & SCOPE_VIEW_TIMING ? l->x + l->w
                                                       : f->width - 8,
                      f->anything ? model->message : NULL);
    graph_legend_put(cr, model, f->shown, f->colour, f->width,
                     kept ? NULL : f->hooks);
}

/* Around the plot: the axes' labels. */
/* A value axis's labels, kept from frame to frame if the hooks keep it. */
static void value_axis(cairo_t *cr, const frame_state *f, unsigned which,
                       const graph_scale *s, bool right_side,
                       const char *unit)
{
    const graph_draw_hooks *hooks = f->hooks;
    if (!hooks || !graph_draw_value_axis_kept(
                      hooks->axes[which], hooks->scale > 0 ? hooks->scale : 1,
                      cr, f->width, &f->l, s, right_side, f->value_ticks,
                      unit))
        graph_draw_value_axis(cr, &f->l, s, right_side, f->value_ticks, unit,
                              false);
}

/* The value axes' labels beside the plot. */
static void frame_value_axes(cairo_t *cr, const frame_state *f)
{
    const graph_model *model = f->model;
    const graph_layout *l = &f->l;
    unsigned views = model->views;
    /* The labels around the plot, then what is in it, which covers it. */
    if (views & ~SCOPE_VIEW_TIMING)
    {
        if (model->values.mode == SCOPE_SCALE_LANES)
        {
            for (unsigned s = 0; s < f->n; s++)
                if (!graph_hidden(model, s))
                    graph_draw_lane_axis(cr, l, &f->scales[s],
                                         graph_ink.channel[f->colour[s]],
                                         false);
        }
        else if (model->values.mode == SCOPE_SCALE_SHARED)
        {
            value_axis(cr, f, 0, &f->values, false, NULL);
        }
    }
    if (views & SCOPE_VIEW_TIMING)
        value_axis(cr, f, 1, &f->timing_axis, !f->timing_left, f->unit.name);
}

static void frame_axes(cairo_t *cr, const frame_state *f)
{
    frame_value_axes(cr, f);
    graph_draw_time_axis(cr, &f->l, f->t0, f->t1, f->height, f->step,
                         f->shift, false);
}

/* What graph_plot.c draws the plot's columns from. */
static graph_plot plot_of(const frame_state *f)
{
    return (graph_plot) {
        .model = f->model, .l = f->l, .cols = f->cols, .scales = f->scales,
        .values = f->values, .timing = f->timing,
        .timing_axis = f->timing_axis, .colour = f->colour,
        .t0 = f->t0, .t1 = f->t1, .step = f->step,
        .shift = f->shift, .height = f->height,
        .value_ticks = f->value_ticks, .timing_unit = f->unit.name,
        .timing_left = f->timing_left,
    };
}

/* The plot's content, by the hooks if they draw it. */
static void frame_plot(cairo_t *cr, const frame_state *f,
                       const graph_plot_info *info)
{
    graph_plot plot = plot_of(f);
    if (f->hooks && f->hooks->plot)
        f->hooks->plot(f->hooks->data, cr, info, &plot);
    else
        graph_plot_draw(&plot, cr, f->l.x, f->l.x + f->l.w);
}

/* Near the plot's ends, the time axis under it as the frame shows it,
 * over the tiles' labels it does not (graph_time_axis_ends). */
static void frame_axis_ends(cairo_t *cr, const frame_state *f)
{
    double lx = f->l.x, rx = f->l.x + f->l.w, left, right;
    graph_time_axis_ends(cr, &f->l, f->t0, f->t1, f->step, f->shift, &left,
                         &right);
    graph_plot plot = plot_of(f);
    if (left > lx)
        graph_plot_draw_under(&plot, cr, lx, left, f->below, false);
    if (right < rx)
        graph_plot_draw_under(&plot, cr, right, rx, f->below, false);
}

/* In the plot, over its content: the trigger and the window's
 * overlays. */
static void frame_in_plot(cairo_t *cr, const frame_state *f)
{
    const graph_model *model = f->model;
    const graph_layout *l = &f->l;
    cairo_save(cr);
    cairo_rectangle(cr, l->x, l->y, l->w, l->h);
    cairo_clip(cr);
    if (model->trigger)
        graph_draw_trigger(cr, l, model, f->scales, f->t0, f->t1);
    graph_draw_overlays(cr, l, model, f->t0, f->t1);
    cairo_restore(cr);
}

/* The plot's frame: a line a pixel wide around it. */
static void frame_edge(cairo_t *cr, const frame_state *f)
{
    const graph_layout *l = &f->l;
    graph_paint(cr, graph_ink.frame, 1);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, l->x - 0.5, l->y - 0.5, l->w + 1, l->h + 1);
    cairo_stroke(cr);
}

/* Over the plot: what is in it, the plot's frame, the message when there
 * is nothing to plot, and the readout box, which may reach out of the
 * plot. */
static void frame_over_plot(cairo_t *cr, const frame_state *f,
                            graph_frame *frame)
{
    const graph_model *model = f->model;
    const graph_layout *l = &f->l;
    frame_in_plot(cr, f);
    frame_edge(cr, f);
    if (!f->anything)
        graph_draw_empty_message(cr, l, model);
    scope_box readout;
    graph_draw_readout(cr, l, model, f->scales, f->t0, f->t1, f->width,
                       f->height, &readout);
    if (frame)
        frame->readout = readout;
}

/* Where the plot was, for the window to map the pointer. */
static void frame_report(const frame_state *f, graph_frame *frame)
{
    if (!frame)
        return;
    frame->x = f->l.x;
    frame->y = f->l.y;
    frame->w = f->l.w;
    frame->h = f->l.h;
    frame->t0 = f->t0;
    frame->t1 = f->t1;
    frame->lo = f->values.lo;
    frame->hi = f->values.hi;
    frame->log = f->values.log;
    frame->shared = !graph_own_scales(f->model);
}

void graph_draw_frame(cairo_t *cr, double width, double height,
                      const graph_model *model, graph_frame *frame)
{
    graph_draw_frame_hooked(cr, width, height, model, frame, NULL);
}

static void frame_focus(cairo_t *cr, const frame_state *f)
{
    if (!f->model->focused)
        return;
    graph_paint(cr, graph_ink.focus, 1);
    cairo_set_line_width(cr, 2);
    cairo_rectangle(cr, 1, 1, f->width - 2, f->height - 2);
    cairo_stroke(cr);
}

/* What the top band shows: the bytes of all that decides it. NULL if out
 * of memory. */
static unsigned char *top_key(const frame_state *f, size_t *size)
{
    const graph_model *m = f->model;
    struct
    {
        double width, top, x, w;
        const scope_palette *palette;
        unsigned long legend;           /* its stamp, or 0: its bytes */
        unsigned views, mode, n;
        bool log, manual, focused, alert;
    } head;
    memset(&head, 0, sizeof(head));     /* padding compares equal */
    head.width = f->width;
    head.top = f->l.y;
    head.x = f->l.x;
    head.w = f->l.w;
    head.palette = m->palette;
    head.legend = f->legend_stamp;
    head.views = m->views;
    head.mode = m->values.mode;
    head.n = f->n;
    head.log = m->values.log;
    head.manual = m->values.manual;
    head.focused = m->focused;
    head.alert = m->alert;
    const char *title = m->title ? m->title : "";
    const char *message = f->anything && m->message ? m->message : "";
    /* A kept layout by its stamp: comparing its bytes read 11 KB for 16
     * channels at every frame, most of them from memory. */
    size_t entries = f->legend_stamp ? 0 : graph_legend_count(m) *
                                               sizeof(*f->shown);
    size_t titles = strlen(title) + 1 + strlen(message) + 1;
    *size = sizeof(head) + titles + entries + f->n * (sizeof(*f->colour) + 1);
    unsigned char *key = malloc(*size), *at = key;
    if (!key)
        return NULL;
    memcpy(at, &head, sizeof(head));
    at += sizeof(head);
    memcpy(at, title, strlen(title) + 1);
    at += strlen(title) + 1;
    memcpy(at, message, strlen(message) + 1);
    at += strlen(message) + 1;
    memcpy(at, f->shown, entries);
    at += entries;
    memcpy(at, f->colour, f->n * sizeof(*f->colour));
    at += f->n * sizeof(*f->colour);
    for (unsigned s = 0; s < f->n; s++)
        *at++ = graph_hidden(m, s);
    return key;
}

/* Whether the frame is drawn in parts, and the rows under the plot its
 * part holds (graph_bands). Not with a readout box, which may leave the
 * plot for the top band, which the window keeps. The strip under the
 * plot holds the time axis, down to the focus ring: if the plot hook
 * draws it with the plot (a kept plot's tiles then hold it), only its
 * ends are drawn apart every frame. Decided before the ranges, which the
 * hooks keep for a plot drawn the same way. */
static void frame_parts(frame_state *f)
{
    const graph_draw_hooks *hooks = f->hooks;
    const graph_layout *l = &f->l;
    const char *readout = f->model->readout;
    /* The top band ends 8 pixels above the plot, the tallest label's
     * reach. */
    double top = l->y - 8, under = l->y + l->h;
    double bottom = floor(f->height) - 3;
    f->parts = hooks && hooks->bands && !(readout && readout[0]) &&
               top > 0 && top < f->height;
    f->below = 0;
    if (f->parts && hooks->plot && bottom > under + 1 && l->w >= 1 &&
        l->x == floor(l->x) && l->w == floor(l->w) && under == floor(under))
        f->below = bottom - under;
}

/* What the parts around the plot show (GRAPH_PART_ABOVE...): the bytes of
 * all that decides it. NULL if out of memory. */
static unsigned char *around_key(const frame_state *f, double bottom,
                                 size_t *size)
{
    const graph_model *m = f->model;
    struct
    {
        double        width, height, bottom, plot[4];
        graph_colours ink;
        graph_scale   values, timing_axis;
        unsigned      views, mode, n, value_ticks;
        bool          focused, timing_left;
        char          unit[16];
    } head;
    memset(&head, 0, sizeof(head));     /* padding compares equal */
    head.width = f->width;
    head.height = f->height;
    head.bottom = bottom;
    memcpy(head.plot, (double[]) { f->l.x, f->l.y, f->l.w, f->l.h },
           sizeof(head.plot));
    head.ink = graph_ink;
    head.values = f->values;
    head.timing_axis = f->timing_axis;
    head.views = m->views;
    head.mode = m->values.mode;
    head.n = f->n;
    head.value_ticks = f->value_ticks;
    head.focused = m->focused;
    head.timing_left = f->timing_left;
    if (f->unit.name)
        snprintf(head.unit, sizeof(head.unit), "%s", f->unit.name);
    /* Lanes label each channel's range in its colour. */
    size_t each = sizeof(*f->scales) + sizeof(*f->colour) + 1;
    *size = sizeof(head) + f->n * each;
    unsigned char *key = calloc(1, *size), *at = key;
    if (!key)
        return NULL;
    memcpy(at, &head, sizeof(head));
    at += sizeof(head);
    for (unsigned s = 0; s < f->n; s++)
    {
        memcpy(at, &f->scales[s], sizeof(*f->scales));
        at += sizeof(*f->scales);
        memcpy(at, &f->colour[s], sizeof(*f->colour));
        at += sizeof(*f->colour);
        *at++ = graph_hidden(m, s);
    }
    return key;
}

/* Part 'part' of the frame from the bands hook, clipped to its rectangle
 * and set up as the frame's cr is (the palette, round caps and joins);
 * NULL for a kept part that shows the same. */
static cairo_t *open_part(const frame_state *f, graph_part part, double x,
                          double y, double w, double h, const void *key,
                          size_t size)
{
    const graph_bands *bands = f->hooks->bands;
    cairo_t *cr = bands->open(bands->data, part, x, y, w, h, key, size);
    if (!cr)
        return NULL;
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip(cr);
    graph_ink_use(f->model->palette);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    return cr;
}

static void close_part(const frame_state *f, graph_part part, cairo_t *cr)
{
    f->hooks->bands->close(f->hooks->bands->data, part, cr);
}

/* What does not move around the plot, in one of the parts around it. */
static void draw_around(cairo_t *cr, const frame_state *f)
{
    frame_background(cr, f);
    frame_value_axes(cr, f);
    frame_edge(cr, f);
    frame_focus(cr, f);
}

/* The frame in the parts the bands hook gives (graph_bands); false,
 * drawing nothing, if out of memory. */
static bool frame_in_bands(const frame_state *f, graph_plot_info *info)
{
    const graph_layout *l = &f->l;
    double top = l->y - 8;
    size_t size;
    unsigned char *key = top_key(f, &size);
    if (!key)
        return false;
    cairo_t *cr = open_part(f, GRAPH_PART_TOP, 0, 0, f->width, top, key,
                            size);
    free(key);
    if (cr)
    {
        frame_background(cr, f);
        frame_top(cr, f, true);
        frame_focus(cr, f);
        close_part(f, GRAPH_PART_TOP, cr);
    }

    double under = l->y + l->h, below = f->below;
    key = below > 0 ? around_key(f, under + below, &size) : NULL;
    if (!key)
    {
        info->below = 0;
        cr = open_part(f, GRAPH_PART_REST, 0, top, f->width,
                       f->height - top, NULL, 0);
        if (cr)
        {
            frame_background(cr, f);
            frame_axes(cr, f);
            frame_plot(cr, f, info);
            frame_over_plot(cr, f, NULL);
            frame_focus(cr, f);
            close_part(f, GRAPH_PART_REST, cr);
        }
        return true;
    }
    /* Around the plot and the strip under it: above, left, right, below
     * (the focus ring's rows). */
    double foot = under + below, right = l->x + l->w;
    double around[4][4] = {
        { 0, top, f->width, l->y - top },
        { 0, l->y, l->x, f->height - l->y },
        { right, l->y, f->width - right, f->height - l->y },
        { l->x, foot, l->w, f->height - foot },
    };
    for (unsigned a = 0; a < 4; a++)
    {
        const double *r = around[a];
        if (!(r[2] > 0 && r[3] > 0))
            continue;
        graph_part part = (graph_part) (GRAPH_PART_ABOVE + a);
        cr = open_part(f, part, r[0], r[1], r[2], r[3], key, size);
        if (cr)
        {
            draw_around(cr, f);
            close_part(f, part, cr);
        }
    }
    free(key);
    cr = open_part(f, GRAPH_PART_PLOT, l->x, l->y, l->w, l->h + below, NULL,
                   0);
    if (cr)
    {
        frame_plot(cr, f, info);
        frame_axis_ends(cr, f);
        frame_in_plot(cr, f);
        if (!f->anything)
            graph_draw_empty_message(cr, l, f->model);
        close_part(f, GRAPH_PART_PLOT, cr);
    }
    return true;
}

void graph_draw_frame_hooked(cairo_t *cr, double width, double height,
                             const graph_model *model, graph_frame *frame,
                             const graph_draw_hooks *hooks)
{
    cairo_save(cr);
    graph_ink_use(model->palette);
    cairo_rectangle(cr, 0, 0, width, height);
    cairo_clip(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    if (frame)
        *frame = (graph_frame) { .t0 = 0, .t1 = 1 };

    frame_state f = {
        .model = model, .hooks = hooks, .width = width, .height = height,
        .n = model->series_count,
    };
    if (frame_alloc(&f) && frame_layout(cr, &f))
    {
        graph_plot_info info;
        frame_parts(&f);
        frame_columns(&f);
        frame_scales(&f, &info);
        frame_legend_ranges(cr, &f);
        graph_legend_boxes(model, f.shown, frame);
        if (!f.parts || !frame_in_bands(&f, &info))
        {
            info.below = 0;
            frame_background(cr, &f);
            frame_top(cr, &f, false);
            frame_axes(cr, &f);
            frame_plot(cr, &f, &info);
            frame_over_plot(cr, &f, frame);
            frame_focus(cr, &f);
        }
        frame_report(&f, frame);
    }
    else
    {
        graph_paint(cr, graph_ink.background, 1);
        cairo_paint(cr);
        frame_focus(cr, &f);
    }
    frame_free(&f);
    cairo_restore(cr);
}

void graph_draw(cairo_t *cr, double width, double height,
                const graph_model *model)
{
    graph_draw_frame(cr, width, height, model, NULL);
}

bool graph_draw_png(const graph_model *const *models, unsigned count,
                    int width, int height, const char *path, char *error,
                    size_t size)
{
    if (width < 1 || height < 1 || width > 32767 || height > 32767)
    {
        snprintf(error, size, "bad image size %dx%d", width, height);
        return false;
    }
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                                          width, height);
    cairo_t *cr = cairo_create(surface);
    double each = count ? (double) height / count : height;
    for (unsigned g = 0; g < count; g++)
    {
        double top = round(g * each), bottom = round((g + 1) * each);
        cairo_save(cr);
        cairo_translate(cr, 0, top);
        graph_draw(cr, width, bottom - top, models[g]);
        cairo_restore(cr);
    }
    cairo_status_t status = cairo_status(cr);
    cairo_destroy(cr);
    if (status == CAIRO_STATUS_SUCCESS)
        status = cairo_surface_write_to_png(surface, path);
    cairo_surface_destroy(surface);
    if (status != CAIRO_STATUS_SUCCESS)
    {
        snprintf(error, size, "%s: %s", path, cairo_status_to_string(status));
        return false;
    }
    return true;
}
