/* graph_traces.c - decimated columns to cairo paths. */
#include "draw/graph_traces.h"
#include "view/axis_ticks.h"
#include "view/time_view.h"

#include <math.h>

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
    /* Far outside the plot (a zoomed-in range): cairo coordinates stay
     * small enough to rasterise exactly. */
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

/* A line through the decimated columns, for dashed lines. It goes through
 * the last sample of each column: this is for the running average, smooth
 * by construction, where the extremes within a column add nothing visible
 * but four times the points to dash. */
void graph_trace_line(cairo_t *cr, const graph_columns *cols,
                      const graph_scale *s)
{
    const scope_column *previous = NULL;
    unsigned previous_index = 0;
    for (unsigned c = cols->from; c < columns_end(cols); c++)
    {
        const scope_column *col = &cols->at[c];
        if (!usable(col))
            continue;
        double x = column_x(cols, c);
        double last = isnan(col->last) ? col->max : col->last;
        if (previous && joined(cols, previous, col))
        {
            /* The dashes restart on the column before an anchor. */
            if (stretch(cols, previous_index, GRAPH_DASH_AVERAGE) !=
                stretch(cols, c, GRAPH_DASH_AVERAGE))
            {
                double before = isnan(previous->last) ? previous->max
                                                      : previous->last;
                cairo_move_to(cr, column_x(cols, previous_index),
                              graph_value_y(s, before));
            }
            cairo_line_to(cr, x, graph_value_y(s, last));
        }
        else
            cairo_move_to(cr, x, graph_value_y(s, last));
        previous = col;
        previous_index = c;
    }
}

void graph_trace_peaks(cairo_t *cr, const graph_columns *cols,
                       const graph_scale *s)
{
    const scope_column *previous = NULL;
    unsigned previous_index = 0;
    for (unsigned c = cols->from; c < columns_end(cols); c++)
    {
        const scope_column *col = &cols->at[c];
        if (!usable(col))
            continue;
        double x = column_x(cols, c), y = graph_value_y(s, col->max);
        if (previous && joined(cols, previous, col))
        {
            if (stretch(cols, previous_index, GRAPH_DASH_TIMING) !=
                stretch(cols, c, GRAPH_DASH_TIMING))
                cairo_move_to(cr, column_x(cols, previous_index),
                              graph_value_y(s, previous->max));
            cairo_line_to(cr, x, y);
        }
        else
        {
            /* A lone sample is a dot (round caps), not nothing. */
            cairo_move_to(cr, x, y);
            cairo_line_to(cr, x, y);
        }
        previous = col;
        previous_index = c;
    }
}

unsigned graph_columns_to(const graph_columns *cols, unsigned c)
{
    unsigned to = c, used = 0;
    while (to < cols->count && (!used || to < c + 4))
        used += usable(&cols->at[to++]);
    return used ? to : cols->count;
}

/* The used column before c, or c itself if there is none. */
static unsigned used_before(const graph_columns *cols, unsigned c)
{
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
    /* A dashed path restarts where a column is not joined to the one
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
        unsigned q = used_before(cols, from);
        if (q == from || !joined(cols, &cols->at[q], &cols->at[from]))
            return from;
        from = q;
    }
    return from;
}

/* The same trace, solid, drawn for speed: a run of adjacent columns is one
 * filled polygon whose edges follow the top and bottom of each column
 * (widened to take in the step from the previous column), which a
 * rasteriser crosses twice per scanline however noisy the data; stroking
 * the zigzag instead crosses every column, and costs grew with the
 * samples' spread. Columns apart (samples sparser than pixels) are joined
 * by stroked segments. Uses the current source. */
bool graph_trace_dense(const graph_columns *cols,
                       const scope_column_summary *sum, const graph_scale *s)
{
    /* Noisy data fills tall columns: there, antialiasing costs the
     * rasteriser most of the frame (under Xvfb, most of the scope's CPU)
     * and shows nothing, so it is turned off. A smooth trace, a pixel or
     * two high per column, keeps it. Without it a pixel is painted only if
     * its centre is inside: half a pixel more keeps thin slopes unbroken. */
    /* A column's height includes the step from the one before, as in the
     * polygon below: samples about a pixel apart that jump are as costly
     * as tall columns. */
    if (!sum->usable)
        return false;
    /* On a linear scale where no value is clamped (graph_value_y), the
     * heights in pixels are those in values, scaled: the summary's sum,
     * kept from frame to frame, instead of every column every frame. */
    if (!s->log && s->hi != s->lo)
    {
        double inverse = 1 / (s->hi - s->lo);
        if (fabs((sum->lo - s->lo) * inverse) <= 100 &&
            fabs((sum->hi - s->lo) * inverse) <= 100)
            return s->height * sum->heights * inverse / sum->usable > 3;
    }
    const scope_column *at = cols->at;
    double spread = 0;
    unsigned used = 0;
    const scope_column *before = NULL;
    for (unsigned i = cols->skip; i < cols->count; i++)
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
    return used && spread / used > 3;
}

void graph_trace_solid(cairo_t *cr, const graph_columns *cols,
                       const graph_scale *s, double width, bool dense)
{
    const scope_column *at = cols->at;
    unsigned end = columns_end(cols);
    double half = width / 2 + (dense ? 0.5 : 0);
    unsigned c = cols->from;
    while (c < end)
    {
        if (!usable(&at[c]))
        {
            c++;
            continue;
        }
        unsigned start = c, stop = c + 1;
        while (stop < end && usable(&at[stop]) &&
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
    for (c = cols->from; c < end; c++)
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
    unsigned c = low->from, end = columns_end(low);
    while (c < end)
    {
        if (!low->at[c].used || isnan(low->at[c].min) || isnan(high->at[c].max))
        {
            c++;
            continue;
        }
        unsigned start = c, stop = c + 1;
        const scope_column *previous = &low->at[c];
        while (stop < end)
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
