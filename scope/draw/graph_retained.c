/* graph_retained.c - a graph's plot kept as images and scrolled. */
#include "draw/graph_retained.h"
#include "view/column_cache.h"
#include "view/event_markers.h"
#include "draw/kept_image.h"
#include "view/time_view.h"
#include "draw/graph_axes.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Pixels either side of a new marker drawn again: its glyph reaches over
 * them. */
#define SEAM_PIXELS     8

/* What the image shows besides the samples; any change: draw it whole. */
typedef struct plot_key
{
    double x, y, w, h, step;
    double below, tick;                 /* rows under it, time tick step */
    const scope_palette *palette;
    const scope_markers *markers;
    unsigned views, count;
    scope_value_view values;
    graph_scale value_range, timing;
} plot_key;

/* Per series, as of the image. */
typedef struct kept_series
{
    const scope_series *series;
    uint64_t first, end;
    unsigned colour;
    bool     hidden;
    double   join;
    graph_scale range;
} kept_series;

struct graph_retained
{
    /* The plot's tiles in one image used as a ring: absolute column c
     * at x = c mod ring_w. Frames paint it through a raster source
     * (paint_ring), not as a surface: GTK's frame still holds the
     * last one's recording when the next draws, and cairo would copy
     * a recorded surface whole before it is drawn on again. */
    cairo_surface_t *ring;
    int      ring_w, image_h;
    int      scale;                     /* pixels per unit of the output */
    bool     valid;
    plot_key key;
    int64_t  left;                      /* absolute column at the left edge */
    int64_t  image_left;                /* absolute column of the image's
                                           first pixel: a tile's start */
    int64_t  image_end;                 /* and of the end of what it holds */
    size_t   markers;                   /* markers held when drawn */
    double   newest_marker;
    kept_series *kept;
    unsigned capacity;

    /* The ranges of the frame being drawn (sticky), and of the last one. */
    graph_scale values, timing, *own;
    double *joins;
    unsigned own_count;
    /* Kept ranges grown with room (GRAPH_RETAINED_ROOM): the value and
     * timing axes', and per series its own. */
    bool roomy_values, roomy_timing, *roomy;

    scope_column_cache *columns;        /* decimated, kept for the next */
    scope_kept_image *legend, *axes[2];
    graph_legend_memo *layout;
    unsigned drawn;
    bool     whole;
    const graph_retained *model_of;     /* a reference: its ranges */
    const graph_bands *bands;           /* or NULL: frames drawn whole */
};

graph_retained *graph_retained_new(void)
{
    graph_retained *r = calloc(1, sizeof(graph_retained));
    if (r && (!(r->columns = scope_column_cache_new()) ||
              !(r->legend = scope_kept_image_new()) ||
              !(r->axes[0] = scope_kept_image_new()) ||
              !(r->axes[1] = scope_kept_image_new()) ||
              !(r->layout = graph_legend_memo_new())))
    {
        scope_column_cache_delete(r->columns);
        scope_kept_image_delete(r->legend);
        scope_kept_image_delete(r->axes[0]);
        scope_kept_image_delete(r->axes[1]);
        free(r);
        return NULL;
    }
    if (r)
        r->scale = 1;
    return r;
}

static void drop_ring(graph_retained *r)
{
    if (r->ring)
        cairo_surface_destroy(r->ring);
    r->ring = NULL;
    r->valid = false;
}

void graph_retained_delete(graph_retained *r)
{
    if (!r)
        return;
    drop_ring(r);
    scope_column_cache_delete(r->columns);
    scope_kept_image_delete(r->legend);
    scope_kept_image_delete(r->axes[0]);
    scope_kept_image_delete(r->axes[1]);
    graph_legend_memo_delete(r->layout);
    free(r->kept);
    free(r->own);
    free(r->joins);
    free(r->roomy);
    free(r);
}

void graph_retained_set_scale(graph_retained *r, int scale)
{
    if (scale < 1)
        scale = 1;
    if (scale == r->scale)
        return;
    drop_ring(r);
    r->scale = scale;
}

void graph_retained_set_bands(graph_retained *r, const graph_bands *bands)
{
    r->bands = bands;
}

unsigned graph_retained_drawn(const graph_retained *r, bool *whole)
{
    if (whole)
        *whole = r->whole;
    return r->drawn;
}

unsigned long graph_retained_decimated(const graph_retained *r)
{
    return (unsigned long) scope_column_cache_decimated(r->columns);
}

unsigned long graph_retained_legends(const graph_retained *r)
{
    return scope_kept_image_drawn(r->legend);
}

unsigned long graph_retained_layouts(const graph_retained *r)
{
    return graph_legend_memo_made(r->layout);
}

static bool grow(graph_retained *r, unsigned count)
{
    if (count <= r->capacity)
        return true;
    kept_series *kept = realloc(r->kept, count * sizeof(*kept));
    if (!kept)
        return false;
    r->kept = kept;
    graph_scale *own = realloc(r->own, count * sizeof(*own));
    if (!own)
        return false;
    r->own = own;
    double *joins = realloc(r->joins, count * sizeof(*joins));
    if (!joins)
        return false;
    r->joins = joins;
    bool *roomy = realloc(r->roomy, count * sizeof(*roomy));
    if (!roomy)
        return false;
    for (unsigned s = r->capacity; s < count; s++)
        roomy[s] = false;
    r->roomy = roomy;
    r->capacity = count;
    return true;
}

/* ---- what the image depends on ------------------------------------------- */

static bool same_scale(const graph_scale *a, const graph_scale *b)
{
    return a->lo == b->lo && a->hi == b->hi && a->log == b->log &&
           a->top == b->top && a->height == b->height;
}

static bool close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(a);
}

/* The time axis' tick step: the rows under the plot hold its labels. */
static double tick_step(const graph_plot_info *info)
{
    graph_layout l = { .x = info->x, .y = info->y, .w = info->w,
                       .h = info->h };
    return info->below > 0 ? graph_time_tick_step(&l, info->t0, info->t1)
                           : 0;
}

/* Everything but the samples and the ranges: what makes kept ranges
 * still mean the same. */
static bool same_view(const graph_retained *r, const graph_plot_info *info)
{
    const graph_model *m = info->model;
    const plot_key *k = &r->key;
    if (!r->valid || k->x != info->x || k->y != info->y || k->w != info->w ||
        k->h != info->h || !close_to(k->step, info->step) ||
        k->below != info->below || k->tick != tick_step(info) ||
        k->palette != m->palette || k->views != m->views ||
        k->count != info->series_count ||
        memcmp(&k->values, &m->values, sizeof(k->values)) ||
        info->series_count > r->capacity)
        return false;
    for (unsigned s = 0; s < info->series_count; s++)
    {
        const kept_series *kept = &r->kept[s];
        bool hidden = m->hidden && m->hidden[s];
        if (kept->series != m->series[s] || kept->hidden != hidden)
            return false;
    }
    return true;
}

/* A kept range stays while the fitted one is inside it and spans most
 * of it (in decades on a log scale), or of what it was before it grew
 * with room ('roomy'): a count sliding up the view fits ranges a tick
 * step shorter at times, which would shrink it at once. */
static bool keeps(const graph_scale *kept, const graph_scale *fitted,
                  bool roomy)
{
    if (kept->log != fitted->log || !(fitted->lo >= kept->lo) ||
        !(fitted->hi <= kept->hi))
        return false;
    double span = kept->hi - kept->lo, used = fitted->hi - fitted->lo;
    if (kept->log)
    {
        span = log10(kept->hi / kept->lo);
        used = log10(fitted->hi / fitted->lo);
    }
    if (roomy)
        span /= 1 + GRAPH_RETAINED_ROOM;
    return used >= GRAPH_RETAINED_SHRINK * span;
}

/* The kept range while it keeps the fitted one; else, if the data went
 * past an end of it, the fitted range grown past that end by
 * GRAPH_RETAINED_ROOM, when that would still be kept. Not rounded to a
 * tick: a tick step is about that room, and rounding could leave the
 * data less than GRAPH_RETAINED_SHRINK of the range (it would shrink at
 * the next frame). Not on a log scale, whose ranges grow by decades. */
static void stick(const graph_scale *kept, graph_scale *fitted, bool *roomy)
{
    if (keeps(kept, fitted, *roomy))
    {
        fitted->lo = kept->lo;
        fitted->hi = kept->hi;
        return;
    }
    *roomy = false;
    bool up = fitted->hi > kept->hi, down = fitted->lo < kept->lo;
    if (fitted->log || kept->log || !(fitted->hi > fitted->lo) ||
        !(kept->hi > kept->lo) || (!up && !down))
        return;
    graph_scale grown = *fitted;
    double room = GRAPH_RETAINED_ROOM * (fitted->hi - fitted->lo);
    if (up)
        grown.hi += room;
    /* Not below zero for data that is not (graph_scale_settle). */
    if (down)
        grown.lo = fitted->lo >= 0 && fitted->lo - room < 0
                 ? 0 : fitted->lo - room;
    if (keeps(&grown, fitted, false))
    {
        fitted->lo = grown.lo;
        fitted->hi = grown.hi;
        *roomy = true;
    }
}

static void sticky_ranges(void *data, const graph_plot_info *info,
                          graph_scale *values, graph_scale *own,
                          graph_scale *timing)
{
    graph_retained *r = data;
    bool same = same_view(r, info);
    if (!same || info->model->values.manual)
    {
        r->roomy_values = r->roomy_timing = false;
        for (unsigned s = 0; s < r->capacity; s++)
            r->roomy[s] = false;
    }
    if (same)
    {
        if (!info->model->values.manual)
        {
            stick(&r->key.value_range, values, &r->roomy_values);
            stick(&r->key.timing, timing, &r->roomy_timing);
            if (info->model->values.mode != SCOPE_SCALE_SHARED)
                for (unsigned s = 0; s < info->series_count; s++)
                    stick(&r->kept[s].range, &own[s], &r->roomy[s]);
        }
        /* A channel's pace, as seen, wobbles (the more so on a loaded
         * machine): the gap that breaks its line stays while within a
         * factor GRAPH_RETAINED_JOIN of it. */
        for (unsigned s = 0; s < info->series_count; s++)
        {
            double kept = r->kept[s].join, now = info->join[s];
            if (now < kept * GRAPH_RETAINED_JOIN &&
                now > kept / GRAPH_RETAINED_JOIN)
                info->join[s] = kept;
        }
    }
    /* Kept for graph_retained_reference(). */
    r->values = *values;
    r->timing = *timing;
    if (grow(r, info->series_count))
    {
        memcpy(r->own, own, info->series_count * sizeof(*own));
        for (unsigned s = 0; s < info->series_count; s++)
            r->joins[s] = info->join[s];
        r->own_count = info->series_count;
    }
    else
        r->own_count = 0;
}

/* ---- drawing -------------------------------------------------------------- */

/* The image spans whole tiles of this many columns, at multiples of it
 * in absolute columns: a plot scrolling into new columns draws a tile of
 * them at a time, not a sliver each frame. Data that changed are drawn
 * again by the column, from the first they change to the last: a trace's
 * pixels depend only on the columns near them (graph_traces.h), so a
 * column drawn in another frame, alone or with others, has the same
 * pixels. */
#define TILE            16

static int64_t floor_to(int64_t column, int64_t unit)
{
    return (column >= 0 ? column / unit : -((-column + unit - 1) / unit)) *
           unit;
}

static int64_t tile_floor(int64_t column)
{
    return floor_to(column, TILE);
}

/* The ring's x of absolute column 'column'. */
static int ring_x(const graph_retained *r, int64_t column)
{
    return (int) (column - floor_to(column, r->ring_w));
}

/* A ring for the tiles a plot 'info->w' wide shows: its whole tiles, one
 * for the rest of its width, one more each side; as high as the plot and
 * the rows under it. */
static bool make_ring(graph_retained *r, const graph_plot_info *info)
{
    int w = ((int) info->w / TILE + 3) * TILE;
    int h = (int) (info->h + info->below);
    if (h <= 0)
        return false;
    if (!r->ring || r->ring_w != w || r->image_h != h)
    {
        drop_ring(r);
        r->ring = scope_scaled_image(w, h, r->scale);
        r->ring_w = w;
        r->image_h = h;
    }
    return r->ring != NULL;
}

/* Paint ring columns [from, from + w) at graph (x, y); false if cairo
 * could not make the pattern (out of memory). */
static bool paint_ring(const graph_retained *r, cairo_t *cr, double x,
                       double y, int from, int w)
{
    return scope_paint_held(cr, r->ring, r->scale, from, x, y, w,
                            r->image_h);
}

/* The graph x of absolute column 'column' in a frame whose plot starts
 * at absolute column 'left'. */
static double graph_x(const graph_plot_info *info, int64_t left,
                      int64_t column)
{
    return info->x + (double) (column - left);
}

/* The leftmost pixel (graph x) that samples or markers added since the
 * image was drawn change; +inf if none; NaN: the image cannot be brought
 * up to date. In '*to', the pixel after the rightmost they change (a span
 * still filling has nothing right of its newest sample, drawn once). */
static double changed_from(const graph_retained *r,
                           const graph_plot_info *info, graph_plot *plot,
                           int64_t left, double *to)
{
    const graph_model *m = info->model;
    double from = INFINITY;
    *to = -INFINITY;
    /* Samples dropped that the margin or the plot still showed. */
    double oldest = (double) (left - GRAPH_MARGIN_COLUMNS) * info->step;
    for (unsigned s = 0; s < info->series_count; s++)
    {
        const scope_series *series = m->series[s];
        const kept_series *kept = &r->kept[s];
        if (series->end < kept->end || series->first < kept->first)
            return NAN;
        if (series->first != kept->first && series->end > series->first &&
            series->oldest_time > oldest)
            return NAN;
        if (series->end == kept->end || kept->hidden)
            continue;
        if (kept->end < series->first)
            return NAN;
        double t = series->time[kept->end - series->base];
        double x = graph_x(info, left, (int64_t) floor(t / info->step));
        if (x < from)
            from = x;
        double newest = series->time[series->end - 1 - series->base];
        x = graph_x(info, left, (int64_t) floor(newest / info->step));
        if (x + 0.5 + GRAPH_TRACE_REACH > *to)
            *to = x + 0.5 + GRAPH_TRACE_REACH;
    }
    if (isfinite(from))
        from = graph_plot_from(plot, from);
    size_t count = scope_markers_count(m->markers);
    if (count < r->markers)
        return NAN;
    if (count && r->markers &&
        scope_markers_get(m->markers, r->markers - 1)->time != r->newest_marker)
        return NAN;                     /* the store dropped some: redo */
    for (size_t i = r->markers; i < count; i++)
    {
        double x = scope_time_to_x(scope_markers_get(m->markers, i)->time,
                                   info->t0, info->t1, info->x, info->w);
        if (x - SEAM_PIXELS < from)
            from = floor(x) - SEAM_PIXELS;
        if (ceil(x) + 1 + SEAM_PIXELS > *to)
            *to = ceil(x) + 1 + SEAM_PIXELS;
    }
    return from;
}

static void remember(graph_retained *r, const graph_plot_info *info,
                     int64_t left, int64_t image_left, int64_t image_end)
{
    const graph_model *m = info->model;
    r->key = (plot_key) {
        .x = info->x, .y = info->y, .w = info->w, .h = info->h,
        .step = info->step, .below = info->below, .tick = tick_step(info),
        .palette = m->palette, .markers = m->markers,
        .views = m->views, .count = info->series_count, .values = m->values,
        .value_range = info->values, .timing = info->timing,
    };
    r->left = left;
    r->image_left = image_left;
    r->image_end = image_end;
    for (unsigned s = 0; s < info->series_count; s++)
        r->kept[s] = (kept_series) {
            .series = m->series[s],
            .first = m->series[s]->first,
            .end = m->series[s]->end,
            .colour = info->colour[s],
            .hidden = m->hidden && m->hidden[s],
            .join = info->join[s],
            .range = info->own[s],
        };
    r->markers = scope_markers_count(m->markers);
    r->newest_marker = r->markers
                     ? scope_markers_get(m->markers, r->markers - 1)->time
                     : NAN;
    r->valid = true;
}

/* Whether the image still shows what this frame would, but for the
 * columns it scrolled by and the samples added since. */
static bool reusable(const graph_retained *r, const graph_plot_info *info)
{
    const graph_model *m = info->model;
    if (!same_view(r, info) || m->max_samples >= 0 ||
        r->key.markers != m->markers ||
        !same_scale(&r->key.value_range, &info->values) ||
        !same_scale(&r->key.timing, &info->timing))
        return false;
    for (unsigned s = 0; s < info->series_count; s++)
    {
        const kept_series *kept = &r->kept[s];
        if (kept->colour != info->colour[s] ||
            kept->join != info->join[s] ||
            !same_scale(&kept->range, &info->own[s]))
            return false;
    }
    return true;
}

/* Draw absolute columns [from, to) into the ring, in one piece each side
 * of its wrap; the rows under the plot too if 'under' (samples do not
 * change them: columns the ring holds keep theirs). */
static void draw_columns(graph_retained *r, const graph_plot_info *info,
                         graph_plot *plot, int64_t left, int64_t from,
                         int64_t to, bool under)
{
    while (from < to)
    {
        int64_t wrap = floor_to(from, r->ring_w) + r->ring_w;
        int64_t end = to < wrap ? to : wrap;
        double x = graph_x(info, left, from), w = (double) (end - from);
        cairo_t *cr = cairo_create(r->ring);
        /* The ring takes the graph's coordinates. */
        cairo_translate(cr, ring_x(r, from) - x, -info->y);
        graph_plot_draw(plot, cr, x, x + w);
        if (under && info->below > 0)
            graph_plot_draw_under(plot, cr, x, x + w, info->below, true);
        cairo_destroy(cr);
        from = end;
    }
}

/* The plot and the rows under it drawn directly on 'cr', as the frame
 * draws them. */
static void draw_direct(cairo_t *cr, const graph_plot_info *info,
                        graph_plot *plot)
{
    graph_plot_draw(plot, cr, info->x, info->x + info->w);
    if (info->below > 0)
        graph_plot_draw_under(plot, cr, info->x, info->x + info->w,
                              info->below, false);
}

static void draw_plot(void *data, cairo_t *cr, const graph_plot_info *info,
                      graph_plot *plot)
{
    graph_retained *r = data;
    double x = info->x, w = info->w;
    /* A view not anchored to whole columns (zoomed, panned) is drawn
     * whole, directly. */
    if (info->shift != round(info->shift) || !scope_pixel_aligned(cr) ||
        !grow(r, info->series_count) || !make_ring(r, info))
    {
        r->valid = false;
        r->whole = true;
        r->drawn = (unsigned) w;
        draw_direct(cr, info, plot);
        return;
    }
    int64_t left = (int64_t) info->shift;
    int64_t image_left = tile_floor(left);
    /* Tiles the plot shows, no more. */
    int64_t image_end = tile_floor(left + (int64_t) w + TILE - 1);
    int64_t start = image_left;         /* absolute column drawn from */
    int64_t stop = image_end;           /* and to, then the new ones */
    int64_t fresh = image_end;          /* columns the tiles did not hold */
    bool kept = false;                  /* [image_left, fresh) held */
    if (reusable(r, info) && image_left >= r->image_left && left >= r->left)
    {
        double to, from = changed_from(r, info, plot, left, &to);
        if (!isnan(from))
        {
            kept = true;
            fresh = r->image_end > image_left ? r->image_end : image_left;
            start = stop = fresh;
            if (from < graph_x(info, left, fresh))
            {
                /* The columns those data changed. */
                start = left + (int64_t) floor(from - x);
                stop = left + (int64_t) ceil(to - x);
                if (start < image_left)
                    start = image_left;
            }
        }
    }
    if (stop > fresh)
        stop = fresh;
    if (start > stop)
        start = stop;
    r->whole = start == image_left && stop == fresh;      /* every column */
    r->drawn = (unsigned) (stop - start + image_end - fresh);
    draw_columns(r, info, plot, left, start, stop, !kept);
    draw_columns(r, info, plot, left, fresh, image_end, true);
    remember(r, info, left, image_left, image_end);

    /* Columns [left, left + w): to the ring's end, then from its start. */
    int from = ring_x(r, left), part = r->ring_w - from;
    int columns = (int) ceil(w);
    cairo_save(cr);
    cairo_rectangle(cr, x, info->y, w, info->h + info->below);
    cairo_clip(cr);
    bool painted = paint_ring(r, cr, x, info->y, from,
                              part < columns ? part : columns);
    if (painted && part < columns)
        painted = paint_ring(r, cr, x + part, info->y, 0, columns - part);
    cairo_restore(cr);
    if (!painted)
        draw_direct(cr, info, plot);            /* nothing is under it */
}

void graph_retained_draw(graph_retained *r, cairo_t *cr, double width,
                         double height, const graph_model *model,
                         graph_frame *frame)
{
    graph_draw_hooks hooks = {
        .data = r, .ranges = sticky_ranges, .plot = draw_plot,
        .columns = r->columns, .legend = r->legend,
        .axes = { r->axes[0], r->axes[1] }, .layout = r->layout,
        .scale = r->scale,
        .bands = r->bands,
    };
    graph_draw_frame_hooked(cr, width, height, model, frame, &hooks);
}

double graph_retained_live_end(double end, double span, double columns)
{
    if (!(span > 0) || !(columns >= 1) || !isfinite(end))
        return end;
    double column = span / columns;
    return ceil(end / column) * column;
}

double graph_retained_filling_end(double start, double span, double columns)
{
    if (!(span > 0) || !(columns >= 1) || !isfinite(start))
        return start + span;
    double column = span / columns;
    return floor(start / column) * column + span;
}

/* ---- the reference ------------------------------------------------------- */

/* The ranges of another one's last frame. */
static void kept_ranges(void *data, const graph_plot_info *info,
                        graph_scale *values, graph_scale *own,
                        graph_scale *timing)
{
    const graph_retained *r = ((const graph_retained *) data)->model_of;
    values->lo = r->values.lo;
    values->hi = r->values.hi;
    timing->lo = r->timing.lo;
    timing->hi = r->timing.hi;
    for (unsigned s = 0; s < info->series_count && s < r->own_count; s++)
    {
        own[s].lo = r->own[s].lo;
        own[s].hi = r->own[s].hi;
        info->join[s] = r->joins[s];
    }
}

void graph_retained_reference(const graph_retained *r, cairo_t *cr,
                              double width, double height,
                              const graph_model *model)
{
    graph_retained *fresh = graph_retained_new();
    if (!fresh)
        return;
    fresh->model_of = r;
    fresh->scale = r->scale;
    graph_draw_hooks hooks = {
        .data = fresh, .ranges = kept_ranges, .plot = draw_plot,
    };
    graph_draw_frame_hooked(cr, width, height, model, NULL, &hooks);
    graph_retained_delete(fresh);
}
