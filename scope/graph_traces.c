/* graph_traces.c - decimated columns to cairo paths. */
#include "graph_traces.h"
#include "axis_ticks.h"
#include "time_view.h"

#include <math.h>

/* Samples further apart than this many columns, and than a few of the
 * channel's usual intervals, are not joined: the program paused or
 * restarted in between. A second until the channel's pace is known. */
#define GAP_COLUMNS     8.0
#define GAP_USUAL       2.5
#define GAP_SECONDS     1.0

double graph_join_seconds(double usual)
{
    return usual > 0 ? GAP_USUAL * usual : GAP_SECONDS;
}

double graph_value_y(const graph_scale *s, double v)
{
    double f = scope_value_fraction(v, s->lo, s->hi, s->log);
    if (isnan(f))
        return s->top + s->height + 2;
    /* Far outside the plot (a zoomed-in range): cairo coordinates stay
     * small enough to rasterise exactly. */
    if (f < -100)
        f = -100;
    if (f > 100)
        f = 100;
    return s->top + s->height * (1 - f);
}

static double column_x(const graph_columns *cols, unsigned c)
{
    return cols->x0 + ((double) (cols->origin + (int64_t) c) + 0.5) -
           cols->t0 / cols->step;
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

/* A line through the decimated columns, for dashed lines. It goes through
 * the last sample of each column: this is for the running average, smooth
 * by construction, where the extremes within a column add nothing visible
 * but four times the points to dash. */
void graph_trace_line(cairo_t *cr, const graph_columns *cols,
                      const graph_scale *s)
{
    const scope_column *previous = NULL;
    for (unsigned c = 0; c < cols->count; c++)
    {
        const scope_column *col = &cols->at[c];
        if (!usable(col))
            continue;
        double x = column_x(cols, c);
        double last = isnan(col->last) ? col->max : col->last;
        if (previous && joined(cols, previous, col))
            cairo_line_to(cr, x, graph_value_y(s, last));
        else
            cairo_move_to(cr, x, graph_value_y(s, last));
        previous = col;
    }
}

void graph_trace_peaks(cairo_t *cr, const graph_columns *cols,
                       const graph_scale *s)
{
    const scope_column *previous = NULL;
    for (unsigned c = 0; c < cols->count; c++)
    {
        const scope_column *col = &cols->at[c];
        if (!usable(col))
            continue;
        double x = column_x(cols, c), y = graph_value_y(s, col->max);
        if (previous && joined(cols, previous, col))
            cairo_line_to(cr, x, y);
        else
        {
            /* A lone sample is a dot (round caps), not nothing. */
            cairo_move_to(cr, x, y);
            cairo_line_to(cr, x, y);
        }
        previous = col;
    }
}

/* The same trace, solid, drawn for speed: a run of adjacent columns is one
 * filled polygon whose edges follow the top and bottom of each column
 * (widened to take in the step from the previous column), which a
 * rasteriser crosses twice per scanline however noisy the data; stroking
 * the zigzag instead crosses every column, and costs grew with the
 * samples' spread. Columns apart (samples sparser than pixels) are joined
 * by stroked segments. Uses the current source. */
void graph_trace_solid(cairo_t *cr, const graph_columns *cols,
                       const graph_scale *s, double width)
{
    const scope_column *at = cols->at;

    /* Noisy data fills tall columns: there, antialiasing costs the
     * rasteriser most of the frame (under Xvfb, most of the scope's CPU)
     * and shows nothing, so it is turned off. A smooth trace, a pixel or
     * two high per column, keeps it. Without it a pixel is painted only if
     * its centre is inside: half a pixel more keeps thin slopes unbroken. */
    /* A column's height includes the step from the one before, as in the
     * polygon below: samples about a pixel apart that jump are as costly
     * as tall columns. */
    double spread = 0;
    unsigned used = 0;
    const scope_column *before = NULL;
    for (unsigned i = 0; i < cols->count; i++)
        if (usable(&at[i]))
        {
            double hi = at[i].max, lo = at[i].min;
            if (before && !isnan(before->last))
            {
                hi = fmax(hi, before->last);
                lo = fmin(lo, before->last);
            }
            spread += graph_value_y(s, lo) - graph_value_y(s, hi);
            used++;
            before = &at[i];
        }
    bool dense = used && spread / used > 3;
    double half = width / 2 + (dense ? 0.5 : 0);
    unsigned c = 0;
    while (c < cols->count)
    {
        if (!usable(&at[c]))
        {
            c++;
            continue;
        }
        unsigned start = c, stop = c + 1;
        while (stop < cols->count && usable(&at[stop]) &&
               joined(cols, &at[stop - 1], &at[stop]))
            stop++;
        for (unsigned i = start; i < stop; i++)
        {
            double hi = at[i].max;
            if (i > start && at[i - 1].last > hi)
                hi = at[i - 1].last;
            double x = column_x(cols, i);
            double y = graph_value_y(s, hi) - half;
            if (i == start)
                cairo_move_to(cr, x - half, y);
            cairo_line_to(cr, x, y);
            if (i + 1 == stop)
                cairo_line_to(cr, x + half, y);
        }
        for (unsigned i = stop; i-- > start; )
        {
            double lo = at[i].min;
            if (i > start && at[i - 1].last < lo)
                lo = at[i - 1].last;
            double x = column_x(cols, i);
            double y = graph_value_y(s, lo) + half;
            if (i + 1 == stop)
                cairo_line_to(cr, x + half, y);
            cairo_line_to(cr, x, y);
            if (i == start)
                cairo_line_to(cr, x - half, y);
        }
        cairo_close_path(cr);
        c = stop;
    }
    cairo_antialias_t antialias = cairo_get_antialias(cr);
    if (dense)
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    cairo_fill(cr);
    cairo_set_antialias(cr, antialias);

    const scope_column *previous = NULL;
    unsigned previous_index = 0;
    for (c = 0; c < cols->count; c++)
    {
        if (!usable(&at[c]))
            continue;
        if (previous && previous_index + 1 < c && joined(cols, previous, &at[c]))
        {
            double last = isnan(previous->last) ? previous->max : previous->last;
            double first = isnan(at[c].first) ? at[c].min : at[c].first;
            cairo_move_to(cr, column_x(cols, previous_index),
                          graph_value_y(s, last));
            cairo_line_to(cr, column_x(cols, c), graph_value_y(s, first));
        }
        previous = &at[c];
        previous_index = c;
    }
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

/* The band between the lower and upper envelope, one polygon per run of
 * joined columns. */
void graph_trace_band(cairo_t *cr, const graph_columns *low,
                      const graph_columns *high, const graph_scale *s)
{
    unsigned c = 0;
    while (c < low->count)
    {
        if (!low->at[c].used || isnan(low->at[c].min) || isnan(high->at[c].max))
        {
            c++;
            continue;
        }
        unsigned start = c, stop = c + 1;
        const scope_column *previous = &low->at[c];
        while (stop < low->count)
        {
            const scope_column *col = &low->at[stop];
            if (col->used && !isnan(col->min) && !isnan(high->at[stop].max))
            {
                if (!joined(low, previous, col))
                    break;
                previous = col;
            }
            stop++;
        }
        bool begun = false;
        for (unsigned i = start; i < stop; i++)
            if (high->at[i].used && !isnan(high->at[i].max))
            {
                double x = column_x(high, i);
                double y = graph_value_y(s, high->at[i].max);
                if (begun)
                    cairo_line_to(cr, x, y);
                else
                    cairo_move_to(cr, x, y);
                begun = true;
            }
        for (unsigned i = stop; i-- > start; )
            if (low->at[i].used && !isnan(low->at[i].min))
                cairo_line_to(cr, column_x(low, i),
                              graph_value_y(s, low->at[i].min));
        cairo_close_path(cr);
        c = stop;
    }
}

void graph_scale_widen(graph_scale *s, const graph_columns *cols)
{
    for (unsigned c = 0; c < cols->count; c++)
    {
        const scope_column *col = &cols->at[c];
        if (!col->used)
            continue;
        if (s->log)
        {
            if (col->max > 0 && col->max > s->hi)
                s->hi = col->max;
            double low = col->min > 0 ? col->min : col->max;
            if (low > 0 && low < s->lo)
                s->lo = low;
            continue;
        }
        if (col->min < s->lo)
            s->lo = col->min;
        if (col->max > s->hi)
            s->hi = col->max;
    }
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
