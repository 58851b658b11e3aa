/* graph_draw.c - one graph: title, legend, axes, decimated traces. */
#include "graph_draw.h"
#include "axis_ticks.h"
#include "decimate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct rgb
{
    unsigned char r, g, b;
} rgb;

/* Bright, distinct on the dark background, and none of them used for the
 * frame or text, so a test can count a channel's pixels by colour. */
static const rgb channel_colours[] = {
    { 0xff, 0xcc, 0x33 },               /* amber */
    { 0xff, 0x5c, 0x5c },               /* red */
    { 0x4c, 0xd9, 0x64 },               /* green */
    { 0x5a, 0xc8, 0xfa },               /* sky */
    { 0xc7, 0x7d, 0xff },               /* violet */
    { 0xff, 0x9f, 0x43 },               /* orange */
    { 0xf7, 0x8f, 0xb3 },               /* pink */
    { 0xd1, 0xd1, 0xd1 },               /* grey */
};
#define CHANNEL_COLOURS (sizeof(channel_colours) / sizeof(channel_colours[0]))

static const rgb background = { 0x14, 0x16, 0x1b };
static const rgb plot_fill = { 0x1b, 0x1e, 0x25 };
static const rgb grid = { 0x2b, 0x30, 0x3b };
static const rgb frame = { 0x3a, 0x41, 0x50 };
static const rgb text = { 0xc8, 0xce, 0xd8 };
static const rgb dim = { 0x8a, 0x93, 0xa3 };
static const rgb title_colour = { 0xee, 0xf1, 0xf5 };
static const rgb alert = { 0xff, 0xb4, 0x54 };
static const rgb focus = { 0x4a, 0x78, 0xc2 };

#define TITLE_HEIGHT    24.0
#define LEGEND_ROW      18.0
#define FONT            "sans-serif"
/* Samples further apart than this many columns (and a second) are not
 * joined: the program paused or restarted in between. */
#define GAP_COLUMNS     8.0
#define GAP_SECONDS     1.0

void graph_channel_colour(unsigned index, unsigned char out[3])
{
    rgb c = channel_colours[index % CHANNEL_COLOURS];
    out[0] = c.r;
    out[1] = c.g;
    out[2] = c.b;
}

static void paint(cairo_t *cr, rgb c, double alpha)
{
    cairo_set_source_rgba(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0, alpha);
}

static void use_font(cairo_t *cr, double size, bool bold)
{
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD
                                : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
}

static double text_width(cairo_t *cr, const char *s)
{
    cairo_text_extents_t extents;
    cairo_text_extents(cr, s, &extents);
    return extents.x_advance;
}

/* Text with its baseline at y; 'align' 0 left, 0.5 centre, 1 right of x. */
static void show_text(cairo_t *cr, double x, double y, double align,
                      const char *s)
{
    cairo_move_to(cr, round(x - align * text_width(cr, s)), round(y));
    cairo_show_text(cr, s);
}

/* ---- layout ---------------------------------------------------------------- */

typedef struct legend_entry
{
    char   label[160];
    double x, width;
    unsigned row;
} legend_entry;

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

typedef struct layout
{
    double x, y, w, h;                  /* the plot area */
    unsigned legend_rows;
} layout;

static void legend_label(const scope_series *series, char *buf, size_t size)
{
    char value[64];
    scope_value_label(series->latest_value, value, sizeof(value));
    int n = snprintf(buf, size, "%s  %s%s%s", series->name, value,
                     series->unit[0] ? " " : "", series->unit);
    if (series->lost && n > 0 && (size_t) n < size)
        snprintf(buf + n, size - (size_t) n, "  (%lu lost)",
                 (unsigned long) series->lost);
}

static unsigned place_legend(cairo_t *cr, const graph_model *model,
                             double width, legend_entry *entries)
{
    use_font(cr, 12, false);
    double x = 8;
    unsigned row = 0;
    for (unsigned s = 0; s < model->series_count; s++)
    {
        legend_entry *e = &entries[s];
        legend_label(model->series[s], e->label, sizeof(e->label));
        e->width = 16 + text_width(cr, e->label);
        if (x > 8 && x + e->width > width - 8)
        {
            row++;
            x = 8;
        }
        e->x = x;
        e->row = row;
        x += e->width + 22;
    }
    return model->series_count ? row + 1 : 0;
}

static layout plan(const graph_model *model, double width, double height,
                   unsigned legend_rows)
{
    layout l;
    l.legend_rows = legend_rows;
    l.x = GRAPH_MARGIN_LEFT;
    l.w = graph_plot_width(model, width);
    l.y = TITLE_HEIGHT + legend_rows * LEGEND_ROW + 8;
    l.h = height - l.y - GRAPH_MARGIN_BOTTOM;
    if (l.h < 10)
        l.h = 10;
    return l;
}

/* ---- traces ---------------------------------------------------------------- */

typedef struct columns
{
    scope_column *at;
    unsigned      count;
    int64_t       origin;               /* column c covers (origin + c) * step */
    double        step;                 /* seconds per column */
} columns;

typedef struct scale
{
    double lo, hi;                      /* values at the bottom and top */
} scale;

static double column_x(const layout *l, const columns *cols, double t0,
                       unsigned c)
{
    return l->x + ((double) (cols->origin + (int64_t) c) + 0.5) -
           t0 / cols->step;
}

static double value_y(const layout *l, const scale *s, double v)
{
    return l->y + l->h * (s->hi - v) / (s->hi - s->lo);
}

static bool joined(const columns *cols, const scope_column *previous,
                   const scope_column *next)
{
    double gap = next->start_time - previous->end_time;
    return gap <= GAP_SECONDS || gap <= GAP_COLUMNS * cols->step;
}

static bool usable(const scope_column *col)
{
    return col->used && !isnan(col->min);
}

/* A line through the decimated columns, for dashed lines. It goes through
 * the last sample of each column: this is for the running average, smooth
 * by construction, where the extremes within a column add nothing visible
 * but four times the points to dash. */
static void trace_line(cairo_t *cr, const layout *l, const columns *cols,
                       const scale *s, double t0)
{
    const scope_column *previous = NULL;
    for (unsigned c = 0; c < cols->count; c++)
    {
        const scope_column *col = &cols->at[c];
        if (!usable(col))
            continue;
        double x = column_x(l, cols, t0, c);
        double last = isnan(col->last) ? col->max : col->last;
        if (previous && joined(cols, previous, col))
            cairo_line_to(cr, x, value_y(l, s, last));
        else
            cairo_move_to(cr, x, value_y(l, s, last));
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
static void trace_solid(cairo_t *cr, const layout *l, const columns *cols,
                        const scale *s, double t0, double width)
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
            spread += value_y(l, s, lo) - value_y(l, s, hi);
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
            double x = column_x(l, cols, t0, i);
            double y = value_y(l, s, hi) - half;
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
            double x = column_x(l, cols, t0, i);
            double y = value_y(l, s, lo) + half;
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
            cairo_move_to(cr, column_x(l, cols, t0, previous_index),
                          value_y(l, s, last));
            cairo_line_to(cr, column_x(l, cols, t0, c), value_y(l, s, first));
        }
        previous = &at[c];
        previous_index = c;
    }
    cairo_set_line_width(cr, width);
    cairo_stroke(cr);
}

/* The band between the lower and upper envelope, one polygon per run of
 * joined columns. */
static void trace_band(cairo_t *cr, const layout *l, const columns *low,
                       const columns *high, const scale *s, double t0)
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
                double x = column_x(l, high, t0, i);
                double y = value_y(l, s, high->at[i].max);
                if (begun)
                    cairo_line_to(cr, x, y);
                else
                    cairo_move_to(cr, x, y);
                begun = true;
            }
        for (unsigned i = stop; i-- > start; )
            if (low->at[i].used && !isnan(low->at[i].min))
                cairo_line_to(cr, column_x(l, low, t0, i),
                              value_y(l, s, low->at[i].min));
        cairo_close_path(cr);
        c = stop;
    }
}

static void widen(scale *s, const columns *cols)
{
    for (unsigned c = 0; c < cols->count; c++)
    {
        const scope_column *col = &cols->at[c];
        if (!col->used)
            continue;
        if (col->min < s->lo)
            s->lo = col->min;
        if (col->max > s->hi)
            s->hi = col->max;
    }
}

/* A little room above and below the data, so that a trace at its maximum
 * is not drawn on the frame; but not below zero for data that is not. */
static void headroom(scale *s)
{
    double pad = (s->hi - s->lo) * 0.04;
    if (!(pad > 0))
        return;
    s->hi += pad;
    s->lo = s->lo >= 0 && s->lo - pad < 0 ? 0 : s->lo - pad;
}

/* ---- axes ---------------------------------------------------------------- */

static void draw_value_axis(cairo_t *cr, const layout *l, const scale *s,
                            bool right_side, unsigned target)
{
    scope_ticks ticks;
    if (!scope_ticks_make(s->lo, s->hi, target, true, &ticks))
        return;
    use_font(cr, 11, false);
    for (unsigned i = 0; i < ticks.count; i++)
    {
        double v = scope_tick_value(&ticks, i);
        double y = round(value_y(l, s, v)) + 0.5;
        if (y < l->y - 0.5 || y > l->y + l->h + 0.5)
            continue;
        if (!right_side)
        {
            paint(cr, grid, 1);
            cairo_set_line_width(cr, 1);
            cairo_move_to(cr, l->x, y);
            cairo_line_to(cr, l->x + l->w, y);
            cairo_stroke(cr);
        }
        char label[48];
        scope_tick_label(&ticks, v, label, sizeof(label));
        paint(cr, right_side ? dim : text, 1);
        if (right_side)
            show_text(cr, l->x + l->w + 6, y + 4, 0, label);
        else
            show_text(cr, l->x - 6, y + 4, 1, label);
    }
}

static void draw_time_axis(cairo_t *cr, const layout *l, double t0, double t1,
                           double height)
{
    scope_ticks ticks;
    unsigned target = (unsigned) (l->w / 110) + 1;
    if (!scope_ticks_make(t0, t1, target, false, &ticks))
        return;
    use_font(cr, 11, false);
    for (unsigned i = 0; i < ticks.count; i++)
    {
        double t = scope_tick_value(&ticks, i);
        double x = round(l->x + (t - t0) / (t1 - t0) * l->w) + 0.5;
        if (x < l->x - 0.5 || x > l->x + l->w + 0.5)
            continue;
        paint(cr, grid, 1);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, x, l->y);
        cairo_line_to(cr, x, l->y + l->h + 4);
        cairo_stroke(cr);
        char label[48];
        size_t n = scope_tick_label(&ticks, t, label, sizeof(label) - 2);
        memcpy(label + n, "s", 2);
        paint(cr, text, 1);
        double tx = x;
        double half = text_width(cr, label) / 2;
        if (tx + half > l->x + l->w + GRAPH_MARGIN_RIGHT - 2)
            tx = l->x + l->w + GRAPH_MARGIN_RIGHT - 2 - half;
        show_text(cr, tx, fmin(l->y + l->h + 17, height - 5), 0.5, label);
    }
}

/* ---- the graph --------------------------------------------------------------- */

static const char *views_text(unsigned views, char *buf, size_t size)
{
    buf[0] = 0;
    static const struct { unsigned view; const char *name; } names[] = {
        { SCOPE_VIEW_NORMAL, "values" },
        { SCOPE_VIEW_AVERAGE, "average (light dashes)" },
        { SCOPE_VIEW_MINMAX, "min/max (band)" },
        { SCOPE_VIEW_TIMING, "interval \xc2\xb5s (faint, right axis)" },
    };
    size_t used = 0;
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (views & names[i].view)
        {
            int n = snprintf(buf + used, size - used, "%s%s",
                             used ? " + " : "", names[i].name);
            if (n < 0 || (size_t) n >= size - used)
                break;
            used += (size_t) n;
        }
    return buf;
}

static void draw_header(cairo_t *cr, const graph_model *model, double width)
{
    use_font(cr, 13, true);
    paint(cr, title_colour, 1);
    const char *title = model->title ? model->title : "all channels";
    show_text(cr, 8, 17, 0, title);
    double after = 8 + text_width(cr, title) + 12;

    double message_width = 0;
    if (model->message && model->message[0])
    {
        use_font(cr, 12, false);
        paint(cr, model->alert ? alert : dim, 1);
        message_width = text_width(cr, model->message);
        show_text(cr, width - 8, 17, 1, model->message);
    }
    char views[160];
    views_text(model->views, views, sizeof(views));
    use_font(cr, 11, false);
    if (after + text_width(cr, views) + message_width + 20 < width)
    {
        paint(cr, dim, 1);
        show_text(cr, after, 17, 0, views);
    }
}

static void draw_legend(cairo_t *cr, const graph_model *model,
                        const legend_entry *entries, const unsigned *colour)
{
    use_font(cr, 12, false);
    for (unsigned s = 0; s < model->series_count; s++)
    {
        const legend_entry *e = &entries[s];
        double y = TITLE_HEIGHT + e->row * LEGEND_ROW;
        paint(cr, channel_colours[colour[s]], 1);
        cairo_rectangle(cr, e->x, y + 3, 11, 11);
        cairo_fill(cr);
        paint(cr, text, 1);
        show_text(cr, e->x + 16, y + 13, 0, e->label);
    }
}

void graph_draw(cairo_t *cr, double width, double height,
                const graph_model *model)
{
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, width, height);
    cairo_clip(cr);
    paint(cr, background, 1);
    cairo_paint(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);

    unsigned n = model->series_count;
    legend_entry *entries = calloc(n ? n : 1, sizeof(*entries));
    uint64_t *first = calloc(n ? n : 1, sizeof(*first));
    uint64_t *end = calloc(n ? n : 1, sizeof(*end));
    columns *cols = calloc((n ? n : 1) * SCOPE_TRACKS, sizeof(*cols));
    unsigned *colour = calloc(n ? n : 1, sizeof(*colour));
    if (!entries || !first || !end || !cols || !colour)
        goto done;
    assign_colours(model, colour);

    unsigned rows = place_legend(cr, model, width, entries);
    layout l = plan(model, width, height, rows);
    draw_header(cr, model, width);
    draw_legend(cr, model, entries, colour);

    paint(cr, plot_fill, 1);
    cairo_rectangle(cr, l.x, l.y, l.w, l.h);
    cairo_fill(cr);

    double t0, t1;
    unsigned width_columns = (unsigned) l.w;
    graph_model_window(model, width_columns, &t0, &t1, first, end);
    double step = (t1 - t0) / l.w;
    int64_t origin = (int64_t) floor(t0 / step);

    /* Decimate every track the views need, then scale to what is there. */
    unsigned views = model->views;
    bool wanted[SCOPE_TRACKS] = {
        [SCOPE_TRACK_VALUE] = views & SCOPE_VIEW_NORMAL,
        [SCOPE_TRACK_AVERAGE] = views & SCOPE_VIEW_AVERAGE,
        [SCOPE_TRACK_MIN] = views & SCOPE_VIEW_MINMAX,
        [SCOPE_TRACK_MAX] = views & SCOPE_VIEW_MINMAX,
        [SCOPE_TRACK_INTERVAL] = views & SCOPE_VIEW_TIMING,
    };
    scale values = { INFINITY, -INFINITY }, timing = { 0, -INFINITY };
    bool anything = false;
    for (unsigned s = 0; s < n; s++)
    {
        for (unsigned k = 0; k < SCOPE_TRACKS; k++)
        {
            if (!wanted[k] || end[s] <= first[s])
                continue;
            columns *c = &cols[s * SCOPE_TRACKS + k];
            c->count = width_columns + 2;
            c->origin = origin;
            c->step = step;
            c->at = malloc(c->count * sizeof(*c->at));
            if (!c->at)
            {
                c->count = 0;
                continue;
            }
            scope_track_view track = scope_series_track(model->series[s], k);
            scope_decimate(&track, first[s], end[s], origin, step, c->count,
                           c->at);
            widen(k == SCOPE_TRACK_INTERVAL ? &timing : &values, c);
            anything = true;
        }
    }
    unsigned value_ticks = (unsigned) (l.h / 38) + 1;
    if (values.lo > values.hi)
    {
        values.lo = 0;
        values.hi = 1;
    }
    headroom(&values);
    scope_range_nice(&values.lo, &values.hi, value_ticks);
    if (!(timing.hi > 0))
        timing.hi = 1;
    headroom(&timing);
    scope_range_nice(&timing.lo, &timing.hi, value_ticks);

    if (views & ~SCOPE_VIEW_TIMING)
        draw_value_axis(cr, &l, &values, false, value_ticks);
    if (views & SCOPE_VIEW_TIMING)
    {
        draw_value_axis(cr, &l, &timing, true, value_ticks);
        use_font(cr, 11, false);
        paint(cr, dim, 1);
        show_text(cr, l.x + l.w + 6, l.y - 9, 0, "\xc2\xb5s");
    }
    draw_time_axis(cr, &l, t0, t1, height);

    cairo_save(cr);
    cairo_rectangle(cr, l.x, l.y, l.w, l.h);
    cairo_clip(cr);
    /* Layer by layer, so every channel's values lie above every band. */
    for (unsigned s = 0; s < n; s++)
    {
        columns *track = &cols[s * SCOPE_TRACKS];
        if (!track[SCOPE_TRACK_MIN].count || !track[SCOPE_TRACK_MAX].count)
            continue;
        trace_band(cr, &l, &track[SCOPE_TRACK_MIN], &track[SCOPE_TRACK_MAX],
                   &values, t0);
        paint(cr, channel_colours[colour[s]], 0.22);
        cairo_fill(cr);
    }
    for (unsigned s = 0; s < n; s++)
    {
        columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_INTERVAL];
        if (!track->count)
            continue;
        paint(cr, channel_colours[colour[s]], 0.55);
        trace_solid(cr, &l, track, &timing, t0, 1.2);
    }
    for (unsigned s = 0; s < n; s++)
    {
        columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_VALUE];
        if (!track->count)
            continue;
        paint(cr, channel_colours[colour[s]], 1);
        trace_solid(cr, &l, track, &values, t0, 2.0);
    }
    for (unsigned s = 0; s < n; s++)
    {
        static const double dashes[] = { 7.0, 4.0 };
        columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_AVERAGE];
        if (!track->count)
            continue;
        /* Lighter than the values, so it shows on top of them. */
        rgb shade = channel_colours[colour[s]];
        rgb light = { (unsigned char) ((shade.r + 2 * 255) / 3),
                      (unsigned char) ((shade.g + 2 * 255) / 3),
                      (unsigned char) ((shade.b + 2 * 255) / 3) };
        trace_line(cr, &l, track, &values, t0);
        cairo_set_dash(cr, dashes, 2, 0);
        cairo_set_line_width(cr, 2.0);
        paint(cr, light, 1);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    cairo_restore(cr);

    paint(cr, frame, 1);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, l.x - 0.5, l.y - 0.5, l.w + 1, l.h + 1);
    cairo_stroke(cr);

    if (!anything && model->message && model->message[0])
    {
        use_font(cr, 15, false);
        paint(cr, model->alert ? alert : dim, 1);
        show_text(cr, l.x + l.w / 2, l.y + l.h / 2 + 5, 0.5, model->message);
    }

done:
    if (model->focused)
    {
        paint(cr, focus, 1);
        cairo_set_line_width(cr, 2);
        cairo_rectangle(cr, 1, 1, width - 2, height - 2);
        cairo_stroke(cr);
    }
    for (unsigned i = 0; cols && i < n * SCOPE_TRACKS; i++)
        free(cols[i].at);
    free(cols);
    free(colour);
    free(end);
    free(first);
    free(entries);
    cairo_restore(cr);
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
