/* graph_axes.c - value, lane, timing and time axes: labels and grid. */
#include "draw/graph_axes.h"
#include "draw/column_raster.h"
#include "draw/graph_style.h"
#include "draw/kept_image.h"
#include "view/axis_ticks.h"
#include "view/readout.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Grid lines and ticks are opaque, a pixel wide on a pixel's middle: one
 * stroke of all of them gives each pixel the colour one stroke each would,
 * for a fraction of cairo's cost (a live frame draws them in every tile). */
static void grid_path(cairo_t *cr, const graph_layout *l, double y)
{
    cairo_move_to(cr, l->x, y);
    cairo_line_to(cr, l->x + l->w, y);
}

/* Butt caps and mitre joins: cairo then fills the lines as whole-pixel
 * boxes; with the round caps the traces use, it tessellates and scan
 * converts each line, which made the grid a third of a tile's cost. */
static void grid_stroke(cairo_t *cr)
{
    cairo_line_cap_t cap = cairo_get_line_cap(cr);
    cairo_line_join_t join = cairo_get_line_join(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
    graph_paint(cr, graph_ink.grid, 1);
    cairo_set_line_width(cr, 1);
    /* Into the ring's few new columns, written straight: cairo's setup
     * of even whole-pixel boxes cost more than their pixels. */
    if (!column_raster_stroke_straight(cr))
        cairo_stroke(cr);
    cairo_set_line_cap(cr, cap);
    cairo_set_line_join(cr, join);
}

void graph_draw_grid_line(cairo_t *cr, const graph_layout *l, double y)
{
    grid_path(cr, l, y);
    grid_stroke(cr);
}

/* Decades of a log scale, labelled 1, 10, 100, 1k... */
static void draw_log_axis(cairo_t *cr, const graph_layout *l,
                          const graph_scale *s, bool lines)
{
    if (!lines)
        graph_use_font(cr, 11, false);
    static const char *const prefixes[] = {
        "f", "p", "n", "u", "m", "", "k", "M", "G", "T", "P", "E"
    };
    cairo_new_path(cr);
    for (int k = (int) ceil(log10(s->lo) - 1e-9);
         k <= (int) floor(log10(s->hi) + 1e-9); k++)
    {
        double y = round(graph_value_y(s, pow(10, k))) + 0.5;
        if (lines)
        {
            grid_path(cr, l, y);
            continue;
        }
        int group = (int) floor(k / 3.0);
        if (group < -5 || group > 6)
            continue;
        char label[32];
        snprintf(label, sizeof(label), "%.0f%s", pow(10, k - 3 * group),
                 prefixes[group + 5]);
        graph_paint(cr, graph_ink.text, 1);
        graph_show_text(cr, l->x - 6, y + 4, 1, label);
    }
    if (lines)
        grid_stroke(cr);
}

void graph_draw_value_axis(cairo_t *cr, const graph_layout *l,
                           const graph_scale *s, bool right_side,
                           unsigned target, const char *unit, bool lines)
{
    if (s->log && !right_side)
    {
        draw_log_axis(cr, l, s, lines);
        return;
    }
    scope_ticks ticks;
    if (!scope_ticks_make(s->lo, s->hi, target, true, &ticks))
        return;
    if (lines)
    {
        if (right_side)
            return;
        cairo_new_path(cr);
    }
    else
        graph_use_font(cr, 11, false);
    for (unsigned i = 0; i < ticks.count; i++)
    {
        double v = scope_tick_value(&ticks, i);
        double y = round(graph_value_y(s, v)) + 0.5;
        if (y < l->y - 0.5 || y > l->y + l->h + 0.5)
            continue;
        if (lines)
        {
            grid_path(cr, l, y);
            continue;
        }
        char label[48];
        size_t n = scope_tick_label(&ticks, v, label, sizeof(label));
        if (unit)
            snprintf(label + n, sizeof(label) - n, " %s", unit);
        graph_paint(cr, right_side ? graph_ink.dim : graph_ink.text, 1);
        if (right_side)
            graph_show_text(cr, l->x + l->w + 6, y + 4, 0, label);
        else
            graph_show_text(cr, l->x - 6, y + 4, 1, label);
    }
    if (lines)
        grid_stroke(cr);
}

typedef struct axis_part
{
    const graph_layout *l;
    const graph_scale * s;
    bool                right_side;
    unsigned            target;
    const char *        unit;
    int                 x, y, w, h;
} axis_part;

static void draw_axis_part(cairo_t *cr, void *data)
{
    const axis_part *a = data;
    graph_paint(cr, graph_ink.background, 1);
    cairo_rectangle(cr, a->x, a->y, a->w, a->h);
    cairo_fill(cr);
    graph_draw_value_axis(cr, a->l, a->s, a->right_side, a->target, a->unit,
                          false);
}

bool graph_draw_value_axis_kept(scope_kept_image *kept, int scale,
                                cairo_t *cr, double width,
                                const graph_layout *l, const graph_scale *s,
                                bool right_side, unsigned target,
                                const char *unit)
{
    axis_part a = {
        .l = l, .s = s, .right_side = right_side, .target = target,
        .unit = unit, .y = (int) floor(l->y) - 8, .h = (int) ceil(l->h) + 16,
    };
    a.x = right_side ? (int) ceil(l->x + l->w) : 0;
    a.w = right_side ? (int) floor(width) - a.x : (int) floor(l->x);
    if (!kept || a.w <= 0 || (unit && strlen(unit) >= 16))
        return false;
    struct
    {
        double        plot[4], range[4];
        graph_colours ink;
        int           x, w;
        unsigned      target;
        bool          log, right_side;
        char          unit[16];
    } key;
    memset(&key, 0, sizeof(key));       /* padding compares equal */
    memcpy(key.plot, (double[]) { l->x, l->y, l->w, l->h }, sizeof(key.plot));
    memcpy(key.range, (double[]) { s->lo, s->hi, s->top, s->height },
           sizeof(key.range));
    key.ink = graph_ink;
    key.x = a.x;
    key.w = a.w;
    key.target = target;
    key.log = s->log;
    key.right_side = right_side;
    if (unit)
        memcpy(key.unit, unit, strlen(unit));
    return scope_kept_image_put(kept, cr, a.x, a.y, a.w, a.h, scale, &key,
                                sizeof(key), draw_axis_part, &a);
}

void graph_draw_lane_axis(cairo_t *cr, const graph_layout *l,
                          const graph_scale *scale, scope_rgb colour,
                          bool lines)
{
    char label[48];
    if (lines)
    {
        graph_draw_grid_line(cr, l, round(scale->top + scale->height) + 0.5);
        return;
    }
    graph_use_font(cr, 10, false);
    graph_paint(cr, colour, 1);
    scope_readout_short(scale->hi, "", label, sizeof(label));
    graph_show_text(cr, l->x - 6, scale->top + 9, 1, label);
    scope_readout_short(scale->lo, "", label, sizeof(label));
    graph_show_text(cr, l->x - 6, scale->top + scale->height - 2, 1, label);
}

/* The time of tick i of 'ticks' (whose first is tick 'first'), and its
 * pixel column's middle x; false if outside the plot (its frame's columns
 * are in it). */
static bool time_tick(const scope_ticks *ticks, double first, int i,
                      const graph_layout *l, double step, double shift,
                      double *t, double *x)
{
    *t = (first + i) * ticks->step;
    if (fabs(*t) < ticks->step * 1e-6)
        *t = 0;
    *x = round(l->x + (*t / step - shift)) + 0.5;
    return !(*x < l->x - 0.5 || *x > l->x + l->w + 0.5);
}

static bool time_ticks(const graph_layout *l, double t0, double t1,
                       scope_ticks *ticks, double *first)
{
    unsigned target = (unsigned) (l->w / 110) + 1;
    if (!scope_ticks_make(t0, t1, target, false, ticks))
        return false;
    *first = round(ticks->first / ticks->step);
    return true;
}

double graph_time_tick_step(const graph_layout *l, double t0, double t1)
{
    scope_ticks ticks;
    double first;
    return time_ticks(l, t0, t1, &ticks, &first) ? ticks.step : NAN;
}

/* A time label reaches less than this far either side of its tick. */
#define LABEL_REACH     100.0

/* Time labels made lately: a live frame finds those near the plot's
 * ends at every frame, and formatting a number was a tenth of the demo
 * window's own drawing. Drawing happens on one thread, as for graph_ink. */
#define LABELS_KEPT     8

typedef struct kept_label
{
    double      t, step, scale;
    int         decimals;
    const char *prefix;
    char        text[48];
} kept_label;

static kept_label labels_kept[LABELS_KEPT];
static unsigned labels_next;

/* The label of time t with 'ticks', and "s", in label[size]. */
static void time_label(const scope_ticks *ticks, double t, char *label,
                       size_t size)
{
    for (unsigned i = 0; i < LABELS_KEPT; i++)
    {
        const kept_label *k = &labels_kept[i];
        if (k->prefix && k->t == t && k->step == ticks->step &&
            k->scale == ticks->scale && k->decimals == ticks->decimals &&
            k->prefix == ticks->prefix)
        {
            snprintf(label, size, "%s", k->text);
            return;
        }
    }
    size_t n = scope_tick_label(ticks, t, label, size - 2);
    memcpy(label + n, "s", 2);
    kept_label *k = &labels_kept[labels_next++ % LABELS_KEPT];
    *k = (kept_label) { .t = t, .step = ticks->step, .scale = ticks->scale,
                        .decimals = ticks->decimals,
                        .prefix = ticks->prefix };
    snprintf(k->text, sizeof(k->text), "%s", label);
}

/* A glyph's ink may pass its advance by a pixel, and the label's centre
 * by half a pixel more. */
#define LABEL_INK       2.0

/* Where the frame centres the label 'half' wide each side of a tick at
 * x: on the tick, or pulled in to stay whole inside the plot's columns;
 * NAN where it does not fit. Beside those columns are the parts of the
 * frame kept while the ranges are: a label there would make them change
 * as the plot scrolls. */
static double label_at(const graph_layout *l, double x, double half)
{
    double lo = l->x + half + LABEL_INK, hi = l->x + l->w - half - LABEL_INK;
    return lo <= hi ? fmin(fmax(x, lo), hi) : NAN;
}

void graph_draw_time_axis_part(cairo_t *cr, const graph_layout *l, double t0,
                               double t1, double height, double step,
                               double shift, double x0, double x1,
                               bool tiled)
{
    scope_ticks ticks;
    double first;
    if (!time_ticks(l, t0, t1, &ticks, &first))
        return;
    int from = 0, to = (int) ticks.count;
    if (tiled)
    {
        /* x = l->x + t / step - shift, give or take a rounding. */
        double lo = (x0 - LABEL_REACH - 1 - l->x + shift) * step;
        double hi = (x1 + LABEL_REACH + 1 - l->x + shift) * step;
        from = (int) (ceil(lo / ticks.step) - first);
        to = (int) (floor(hi / ticks.step) - first) + 1;
        if (to - from > 1000)
            return;                     /* not a tile's width */
    }
    double t, x;
    cairo_new_path(cr);
    /* A tick on the frame's column is labelled, not marked (the mark
     * would be beside the plot's columns). */
    for (int i = from; i < to; i++)
        if ((time_tick(&ticks, first, i, l, step, shift, &t, &x) || tiled) &&
            x >= x0 - 1 && x <= x1 + 1 &&
            (tiled || (x > l->x && x < l->x + l->w)))
        {
            cairo_move_to(cr, x, l->y + l->h);
            cairo_line_to(cr, x, l->y + l->h + 4);
        }
    grid_stroke(cr);
    graph_use_font(cr, 11, false);
    graph_paint(cr, graph_ink.text, 1);
    for (int i = from; i < to; i++)
    {
        if ((!time_tick(&ticks, first, i, l, step, shift, &t, &x) &&
             !tiled) ||
            x < x0 - LABEL_REACH || x > x1 + LABEL_REACH)
            continue;
        char label[48];
        time_label(&ticks, t, label, sizeof(label));
        double at = tiled ? x : label_at(l, x, graph_text_width(cr, label) / 2);
        if (!isnan(at))
            graph_show_text(cr, at, fmin(l->y + l->h + 17, height - 5), 0.5,
                            label);
    }
}

/* Ticks at x of t / step - shift: a tick keeps its pixel column as an
 * anchored view scrolls. 'lines': the grid lines in the plot, else the
 * labels and the ticks under it. */
void graph_draw_time_axis(cairo_t *cr, const graph_layout *l, double t0,
                          double t1, double height, double step, double shift,
                          bool lines)
{
    if (!lines)
    {
        graph_draw_time_axis_part(cr, l, t0, t1, height, step, shift,
                                  -INFINITY, INFINITY, false);
        return;
    }
    scope_ticks ticks;
    double first, t, x;
    if (!time_ticks(l, t0, t1, &ticks, &first))
        return;
    /* The n-th tick at n * step, the same number in every frame; lines
     * one tick beyond each end too, for a tick that just left the span
     * but not yet the plot's first or last column. */
    cairo_new_path(cr);
    for (int i = -1; i < (int) ticks.count + 1; i++)
        if (time_tick(&ticks, first, i, l, step, shift, &t, &x))
        {
            cairo_move_to(cr, x, l->y);
            cairo_line_to(cr, x, l->y + l->h + 4);
        }
    grid_stroke(cr);
}

void graph_time_axis_ends(cairo_t *cr, const graph_layout *l, double t0,
                          double t1, double step, double shift, double *left,
                          double *right)
{
    double lx = l->x, rx = l->x + l->w;
    *left = lx;
    *right = rx;
    scope_ticks ticks;
    double first, t, x;
    if (!time_ticks(l, t0, t1, &ticks, &first))
        return;
    graph_use_font(cr, 11, false);
    for (int i = -2; i < (int) ticks.count + 2; i++)
    {
        /* The frame draws ticks [0, count) inside the plot, whose first
         * and last columns may hold the one before or after. */
        bool drawn = time_tick(&ticks, first, i, l, step, shift, &t, &x) &&
                     i >= 0 && i < (int) ticks.count;
        if (fabs(x - lx) >= LABEL_REACH && fabs(x - rx) >= LABEL_REACH)
            continue;
        char label[48];
        time_label(&ticks, t, label, sizeof(label));
        double half = graph_text_width(cr, label) / 2;
        double at = drawn ? label_at(l, x, half) : NAN;
        if (at == x)
            continue;                   /* as tiled */
        /* The ink of the label as tiled and as the frame shows it, in the
         * plot's columns. */
        double lo = fmin(x, isnan(at) ? x : at) - half - LABEL_INK;
        double hi = fmax(x, isnan(at) ? x : at) + half + LABEL_INK;
        lo = fmax(floor(lo), lx);
        hi = fmin(ceil(hi), rx);
        if (!(hi > lo))
            continue;
        if (x < (lx + rx) / 2)
            *left = fmax(*left, hi);
        else
            *right = fmin(*right, lo);
    }
}
