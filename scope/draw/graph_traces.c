/* graph_traces.c - decimated columns rasterised as traces. */
#include "draw/graph_traces.h"
#include "view/axis_ticks.h"
#include "view/time_view.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

/* Samples further apart than this many columns, and than a few of the
 * channel's usual intervals, are not joined: the program paused or
 * restarted in between. A second until the channel's pace is known. */
#define GAP_COLUMNS     8.0
#define GAP_USUAL       2.5
#define GAP_SECONDS     1.0

double graph_join_seconds(double usual)
{
    if (!(usual > 0))
        return GAP_SECONDS;
    /* Rounded up to a quarter power of two: a steady writer's pace wobbles
     * a little, and a new join redraws a retained plot whole. */
    return exp2(ceil(4 * log2(GAP_USUAL * usual)) / 4);
}

double graph_value_y(const graph_scale *s, double v)
{
    double f = scope_value_fraction(v, s->lo, s->hi, s->log);
    if (isnan(f))
        return s->top + s->height + 2;
    /* Far outside the plot (a zoomed-in range): coordinates stay small
     * enough to rasterise exactly. */
    if (f < -100)
        f = -100;
    if (f > 100)
        f = 100;
    return s->top + s->height * (1 - f);
}

double graph_columns_shift(double t0, double step)
{
    double shift = t0 / step, whole = round(shift);
    return fabs(shift - whole) < 1e-6 ? whole : shift;
}

/* Whole numbers are exact in a double: an anchored column lands on the
 * same pixel in every frame. */
static double column_x(const graph_columns *cols, unsigned c)
{
    return cols->x0 + ((double) (cols->origin + (int64_t) c) - cols->shift) +
           0.5;
}

static unsigned columns_end(const graph_columns *cols)
{
    return cols->to && cols->to < cols->count ? cols->to : cols->count;
}

/* Which stretch of 'anchor' absolute columns column c is in. */
static int64_t stretch(const graph_columns *cols, unsigned c, unsigned anchor)
{
    int64_t a = cols->origin + (int64_t) c, n = (int64_t) anchor;
    return a >= 0 ? a / n : -((-a + n - 1) / n);
}

static bool joined(const graph_columns *cols, const scope_column *previous,
                   const scope_column *next)
{
    double gap = next->start_time - previous->end_time;
    double join = cols->join > 0 ? cols->join : GAP_SECONDS;
    return gap <= join || gap <= GAP_COLUMNS * cols->step;
}

static bool usable(const scope_column *col)
{
    return col->used && !isnan(col->min);
}

double graph_trace_last(const scope_column *col)
{
    return isnan(col->last) ? col->max : col->last;
}

double graph_trace_peak(const scope_column *col)
{
    return col->max;
}

unsigned graph_columns_to(const graph_columns *cols, unsigned c)
{
    unsigned to = c, used = 0;
    while (to < cols->count && (!used || to < c + 4))
        used += usable(&cols->at[to++]);
    return used ? to : cols->count;
}

unsigned graph_columns_used_before(const graph_columns *cols, unsigned c)
{
    if (c > cols->count)
        c = cols->count;
    for (unsigned q = c; q-- > 0; )
        if (usable(&cols->at[q]))
            return q;
    return c;
}

unsigned graph_columns_from(const graph_columns *cols, unsigned c,
                            unsigned anchor)
{
    if (c > cols->count)
        c = cols->count;
    unsigned from = c, used = 0;
    while (from > 0 && (!used || from + 4 > c))
        used += usable(&cols->at[--from]);
    if (!anchor)
        return from;
    /* A dashed line restarts where a column is not joined to the one
     * before it, and on the column before an anchor. */
    while (from > 0)
    {
        if (!usable(&cols->at[from]))
        {
            from--;
            continue;
        }
        unsigned next = from + 1;
        while (next < cols->count && !usable(&cols->at[next]))
            next++;
        if (next < cols->count &&
            joined(cols, &cols->at[from], &cols->at[next]) &&
            stretch(cols, from, anchor) != stretch(cols, next, anchor))
            return from;
        unsigned q = graph_columns_used_before(cols, from);
        if (q == from || !joined(cols, &cols->at[q], &cols->at[from]))
            return from;
        from = q;
    }
    return from;
}

/* A line's pattern: 'on' pixels along it drawn of each 'period', or a
 * disc of radius 'dot' half way through each gap instead. */
typedef struct dash_pattern
{
    double   half;                      /* half the line's width */
    unsigned period;                    /* pixels, and anchor columns */
    double   on, dot;
} dash_pattern;

/* The dashes (or dots) of segment a-b, 'length' long, 'arc' pixels into
 * the pattern at a. */
static void dash_segment(column_raster *r, const double *a, const double *b,
                         double length, double arc, const dash_pattern *d)
{
    double dx = b[0] - a[0], dy = b[1] - a[1];
    if (!(length > 0) ||
        !column_raster_reaches(r, a[0] - d->half - d->dot,
                               b[0] + d->half + d->dot))
        return;
    double p = d->period, end = arc + length;
    for (double start = floor(arc / p) * p; start < end; start += p)
    {
        if (d->dot > 0)
        {
            double at = start + d->on + (p - d->on) / 2;
            if (at >= arc && at < end)
                column_raster_disc(r, a[0] + dx * (at - arc) / length,
                                   a[1] + dy * (at - arc) / length, d->dot);
            continue;
        }
        double from = fmax(start, arc), to = fmin(start + d->on, end);
        if (to > from)
            column_raster_segment(r, a[0] + dx * (from - arc) / length,
                                  a[1] + dy * (from - arc) / length,
                                  a[0] + dx * (to - arc) / length,
                                  a[1] + dy * (to - arc) / length, d->half);
    }
}

/* A sample joined to neither neighbour: a square as wide as the line. */
static void lone(column_raster *r, const double *at, double half)
{
    column_raster_band(r, at[0] - half, at[0] + half, at[1] - half,
                       at[1] - half, at[1] + half, at[1] + half);
}

/* A line through 'value' of each used column, dashed along its length.
 * The pattern restarts where the line does, and on the column before
 * each anchor (graph_columns_from()): a dash is where it was in the last
 * frame, and a tile draws it from a few columns back. */
static void dashed(column_raster *r, const graph_columns *cols,
                   const graph_scale *s, graph_trace_value *value,
                   const dash_pattern *d)
{
    const scope_column *previous = NULL;
    unsigned previous_index = 0;
    double a[2] = { 0, 0 }, arc = 0;
    bool alone = false;                 /* a began a line */
    for (unsigned c = cols->from; c < columns_end(cols); c++)
    {
        const scope_column *col = &cols->at[c];
        if (!usable(col))
            continue;
        double b[2] = { column_x(cols, c), graph_value_y(s, value(col)) };
        if (previous && joined(cols, previous, col))
        {
            if (stretch(cols, previous_index, d->period) !=
                stretch(cols, c, d->period))
                arc = 0;
            double length = sqrt((b[0] - a[0]) * (b[0] - a[0]) +
                                 (b[1] - a[1]) * (b[1] - a[1]));
            dash_segment(r, a, b, length, arc, d);
            arc += length;
            alone = false;
        }
        else
        {
            if (alone && !(d->dot > 0))
                lone(r, a, d->half);
            alone = true;
            arc = 0;
        }
        previous = col;
        previous_index = c;
        a[0] = b[0];
        a[1] = b[1];
    }
    if (alone && !(d->dot > 0))
        lone(r, a, d->half);
}

void graph_trace_dashed(column_raster *r, const graph_columns *cols,
                        const graph_scale *s, graph_trace_value *value,
                        double half, unsigned period, unsigned on)
{
    assert(period > 0 && on <= period);
    dash_pattern d = { .half = half, .period = period, .on = on };
    dashed(r, cols, s, value, &d);
}

void graph_trace_gap_dots(column_raster *r, const graph_columns *cols,
                          const graph_scale *s, graph_trace_value *value,
                          double radius, unsigned period, unsigned on)
{
    assert(period > 0 && on <= period);
    dash_pattern d = { .period = period, .on = on, .dot = radius };
    dashed(r, cols, s, value, &d);
}

#define DENSE_SPAN      3.0

void graph_trace_solid(column_raster *r, const graph_columns *cols,
                       const graph_scale *s, double half)
{
    const scope_column *at = cols->at;
    unsigned end = columns_end(cols);
    /* A run of adjacent joined columns is one band whose edges go through
     * the top and the bottom of each column, widened to take in the step
     * from the column before: however noisy, a column is one span. Its
     * ends reach 'half' further, level. A column spanning more than
     * DENSE_SPAN pixels of data is level across a pixel: noisy data's
     * edges between columns are steep, and covering them exactly cost
     * most of a frame of a million samples, for nothing seen. */
    unsigned c = cols->from, room = end > c ? 2 * (end - c) + 2 : 0;
    double *x = malloc(3 * room * sizeof(*x));
    if (!x)
        return;
    double *t = x + room, *b = t + room;
    while (c < end)
    {
        if (!usable(&at[c]))
        {
            c++;
            continue;
        }
        unsigned start = c, stop = c + 1, n = 1;
        while (stop < end && usable(&at[stop]) &&
               joined(cols, &at[stop - 1], &at[stop]))
            stop++;
        for (unsigned i = start; i < stop; i++, n++)
        {
            double hi = at[i].max, lo = at[i].min;
            if (i > start && at[i - 1].last > hi)
                hi = at[i - 1].last;
            if (i > start && at[i - 1].last < lo)
                lo = at[i - 1].last;
            x[n] = column_x(cols, i);
            t[n] = graph_value_y(s, hi) - half;
            b[n] = graph_value_y(s, lo) + half;
            if (b[n] - t[n] - 2 * half > DENSE_SPAN)
            {
                /* On the pixel its centre is in, not astride two at half
                 * strength where the view is not anchored to columns
                 * (paused, zoomed): a spike stays a crisp bar. Anchored,
                 * that is the column's own pixel. */
                x[n] = floor(x[n]);
                x[n + 1] = x[n] + 1;
                t[n + 1] = t[n];
                b[n + 1] = b[n];
                n++;
            }
        }
        x[0] = x[1] - half;
        t[0] = t[1];
        b[0] = b[1];
        x[n] = x[n - 1] + half;
        t[n] = t[n - 1];
        b[n] = b[n - 1];
        column_raster_polyband(r, x, t, b, n + 1);
        c = stop;
    }
    free(x);

    /* Columns apart (samples sparser than pixels), joined by lines. */
    const scope_column *previous = NULL;
    unsigned previous_index = 0;
    for (c = cols->from; c < end; c++)
    {
        if (!usable(&at[c]))
            continue;
        if (previous && previous_index + 1 < c &&
            joined(cols, previous, &at[c]))
        {
            double first = isnan(at[c].first) ? at[c].min : at[c].first;
            column_raster_segment(r, column_x(cols, previous_index),
                                  graph_value_y(s, graph_trace_last(previous)),
                                  column_x(cols, c), graph_value_y(s, first),
                                  half);
        }
        previous = &at[c];
        previous_index = c;
    }
}

void graph_trace_band(column_raster *r, const graph_columns *low,
                      const graph_columns *high, const graph_scale *s)
{
    /* Between the highest and the lowest sample of each column, a band
     * per run of joined columns. */
    unsigned end = columns_end(low), room = end > low->from ? end - low->from : 0;
    double *x = malloc(3 * room * sizeof(*x));
    if (!x)
        return;
    double *t = x + room, *b = t + room;
    const scope_column *previous = NULL;
    unsigned n = 0;
    for (unsigned c = low->from; c < end; c++)
    {
        const scope_column *col = &low->at[c];
        if (!col->used || isnan(col->min) || isnan(high->at[c].max))
            continue;
        if (previous && !joined(low, previous, col))
        {
            column_raster_polyband(r, x, t, b, n);
            n = 0;
        }
        x[n] = column_x(low, c);
        t[n] = graph_value_y(s, high->at[c].max);
        b[n] = graph_value_y(s, col->min);
        n++;
        previous = col;
    }
    column_raster_polyband(r, x, t, b, n);
    free(x);
}

scope_column_summary graph_columns_summary(const graph_columns *cols)
{
    scope_column_summary sum = scope_column_summary_empty();
    if (cols->count > cols->skip)
        scope_column_summary_add(&sum, cols->at + cols->skip,
                                 cols->count - cols->skip);
    return sum;
}

void graph_scale_widen(graph_scale *s, const scope_column_summary *sum)
{
    if (s->log)
    {
        if (sum->positive_hi > 0 && sum->positive_hi > s->hi)
            s->hi = sum->positive_hi;
        if (sum->positive_lo > 0 && sum->positive_lo < s->lo)
            s->lo = sum->positive_lo;
        return;
    }
    if (sum->lo < s->lo)
        s->lo = sum->lo;
    if (sum->hi > s->hi)
        s->hi = sum->hi;
}

void graph_scale_settle(graph_scale *s, unsigned ticks, bool round)
{
    if (s->log)
    {
        if (!(s->lo > 0) || !(s->hi >= s->lo) || !isfinite(s->hi))
        {
            s->lo = 1;
            s->hi = 10;
            return;
        }
        s->lo = round ? pow(10, floor(log10(s->lo))) : s->lo / 1.1;
        s->hi = round ? pow(10, ceil(log10(s->hi))) : s->hi * 1.1;
        if (!(s->hi > s->lo))
            s->hi = s->lo * 10;
        return;
    }
    if (s->lo > s->hi)
    {
        s->lo = 0;
        s->hi = 1;
    }
    /* A little room above and below the data, so that a trace at its
     * maximum is not drawn on the frame; but not below zero for data that
     * is not. */
    double pad = (s->hi - s->lo) * 0.04;
    if (pad > 0)
    {
        s->hi += pad;
        s->lo = s->lo >= 0 && s->lo - pad < 0 ? 0 : s->lo - pad;
    }
    if (round || !(s->hi > s->lo))
        scope_range_nice(&s->lo, &s->hi, ticks);
}
