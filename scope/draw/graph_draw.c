/* graph_draw.c - one graph: title, legend, axes, decimated traces. */
#include "draw/graph_draw.h"
#include "view/axis_ticks.h"
#include "view/column_cache.h"
#include "source/decimate.h"
#include "draw/graph_traces.h"
#include "draw/kept_image.h"
#include "source/loss_rate.h"
#include "draw/marker_draw.h"
#include "view/palette.h"
#include "view/readout.h"
#include "draw/text_cache.h"
#include "view/timing_unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef scope_rgb rgb;

/* The colours of the frame being drawn, from its model's palette (dark or
 * light: view/palette.c). Copied here at the start of each frame so the
 * drawing code names them as plain colours; frames are drawn one at a
 * time, on one thread. */
static rgb channel_colours[SCOPE_PALETTE_CHANNELS];
#define CHANNEL_COLOURS (sizeof(channel_colours) / sizeof(channel_colours[0]))

static rgb background, plot_fill, grid, frame_colour, text, dim, title_colour,
           alert, focus;
/* The trigger marker: no channel, frame or text has it (white on the dark
 * palette; the title's ink on the light one). */
static rgb trigger_colour;

static void use_palette(const scope_palette *p)
{
    if (!p)
        p = &scope_palette_dark;
    memcpy(channel_colours, p->channel, sizeof(channel_colours));
    background = p->background;
    plot_fill = p->plot_fill;
    grid = p->grid;
    frame_colour = p->frame;
    text = p->text;
    dim = p->dim;
    title_colour = p->title;
    alert = p->alert;
    focus = p->focus;
    trigger_colour = p == &scope_palette_light ? p->title
                                               : (rgb) { 0xff, 0xff, 0xff };
}

#define TITLE_HEIGHT    24.0
#define LEGEND_ROW      18.0
#define FONT            "sans-serif"
#define MONO            "monospace"

void graph_channel_colour(unsigned index, unsigned char out[3])
{
    rgb c = scope_palette_dark.channel[index % CHANNEL_COLOURS];
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
    return scope_text_advance(cr, s);
}

/* Text with its baseline at y; 'align' 0 left, 0.5 centre, 1 right of x. */
static void show_text(cairo_t *cr, double x, double y, double align,
                      const char *s)
{
    cairo_move_to(cr, round(x - align * text_width(cr, s)), round(y));
    scope_text_show(cr, s);
}

/* ---- layout ---------------------------------------------------------------- */

typedef struct legend_entry
{
    char   name[192];                   /* name and, if any, range */
    char   value[64];                   /* fixed width, in MONO */
    char   extra[48];                   /* losses */
    double x, width, name_width, value_width;
    double name_only;                   /* the name's width alone */
    unsigned row;
    bool   timing;                      /* a channel's interval trace */
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

static bool is_hidden(const graph_model *model, unsigned s)
{
    return model->hidden && model->hidden[s];
}

static bool own_scales(const graph_model *model)
{
    return model->values.mode != SCOPE_SCALE_SHARED;
}

/* A range as "lo..hi unit", short, for lanes and normalised views. */
static void range_label(const graph_scale *scale, const char *unit,
                        char *buf, size_t size)
{
    char lo[48], hi[48];
    scope_readout_short(scale->lo, "", lo, sizeof(lo));
    scope_readout_short(scale->hi, unit, hi, sizeof(hi));
    snprintf(buf, size, " [%s .. %s]", lo, hi);
}

/* Entries: one per channel, then with the timing view one per channel
 * for its intervals, which are drawn in a style of their own. */
static unsigned legend_count(const graph_model *model)
{
    unsigned n = model->series_count;
    return model->views & SCOPE_VIEW_TIMING ? 2 * n : n;
}

static void fill_legend(const graph_model *model, const graph_scale *scales,
                        legend_entry *entries)
{
    for (unsigned s = model->series_count; s < legend_count(model); s++)
    {
        unsigned c = s - model->series_count;
        const scope_series *series = model->series[c];
        legend_entry *e = &entries[s];
        e->timing = true;
        snprintf(e->name, sizeof(e->name), "%s interval", series->name);
        double interval = model->legend_intervals ? model->legend_intervals[c]
                                                  : series->latest_interval;
        scope_readout_number(interval * 1e-6, "s", e->value,
                             sizeof(e->value));
        e->extra[0] = 0;
    }
    for (unsigned s = 0; s < model->series_count; s++)
    {
        const scope_series *series = model->series[s];
        legend_entry *e = &entries[s];
        char range[128] = "";
        if (own_scales(model) && !is_hidden(model, s) && scales)
            range_label(&scales[s], series->unit, range, sizeof(range));
        snprintf(e->name, sizeof(e->name), "%s%s", series->name, range);
        double value = model->legend_values ? model->legend_values[s]
                                            : series->latest_value;
        scope_readout_number(value, series->unit, e->value, sizeof(e->value));
        /* What is being lost now; the total is in the readout. */
        e->extra[0] = ' ';
        e->extra[1] = ' ';
        scope_loss_rate_text(series->lost_recent, e->extra + 2,
                             sizeof(e->extra) - 2);
        if (!e->extra[2])
            e->extra[0] = 0;
    }
}

static unsigned place_legend(cairo_t *cr, const graph_model *model,
                             double width, legend_entry *entries)
{
    double x = 8;
    unsigned row = 0, count = legend_count(model);
    /* Font by font: choosing a font costs more than measuring with it. */
    if (count)
        use_font(cr, 12, false);
    for (unsigned s = 0; s < count; s++)
    {
        legend_entry *e = &entries[s];
        double name = text_width(cr, e->name);
        e->name_only = name;
        e->name_width = name + text_width(cr, e->extra);
    }
    if (count)
    {
        cairo_select_font_face(cr, MONO, CAIRO_FONT_SLANT_NORMAL,
                               CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, 11);
    }
    for (unsigned s = 0; s < count; s++)
        entries[s].value_width = text_width(cr, entries[s].value);
    for (unsigned s = 0; s < count; s++)
    {
        legend_entry *e = &entries[s];
        e->width = 16 + e->name_width + 4 + e->value_width;
        if (x > 8 && x + e->width > width - 8)
        {
            row++;
            x = 8;
        }
        e->x = x;
        e->row = row;
        x += e->width + 18;
    }
    return legend_count(model) ? row + 1 : 0;
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

/* ---- axes ---------------------------------------------------------------- */

static void grid_line(cairo_t *cr, const layout *l, double y)
{
    paint(cr, grid, 1);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, l->x, y);
    cairo_line_to(cr, l->x + l->w, y);
    cairo_stroke(cr);
}

/* Decades of a log scale, labelled 1, 10, 100, 1k... */
static void draw_log_axis(cairo_t *cr, const layout *l, const graph_scale *s,
                          bool lines)
{
    use_font(cr, 11, false);
    static const char *const prefixes[] = {
        "f", "p", "n", "u", "m", "", "k", "M", "G", "T", "P", "E"
    };
    for (int k = (int) ceil(log10(s->lo) - 1e-9);
         k <= (int) floor(log10(s->hi) + 1e-9); k++)
    {
        double y = round(graph_value_y(s, pow(10, k))) + 0.5;
        if (lines)
        {
            grid_line(cr, l, y);
            continue;
        }
        int group = (int) floor(k / 3.0);
        if (group < -5 || group > 6)
            continue;
        char label[32];
        snprintf(label, sizeof(label), "%.0f%s", pow(10, k - 3 * group),
                 prefixes[group + 5]);
        paint(cr, text, 1);
        show_text(cr, l->x - 6, y + 4, 1, label);
    }
}

/* 'unit' (NULL: none) follows each label: the timing axis says it.
 * 'lines': the grid lines in the plot, else the labels around it. */
static void draw_value_axis(cairo_t *cr, const layout *l, const graph_scale *s,
                            bool right_side, unsigned target,
                            const char *unit, bool lines)
{
    if (s->log && !right_side)
    {
        draw_log_axis(cr, l, s, lines);
        return;
    }
    scope_ticks ticks;
    if (!scope_ticks_make(s->lo, s->hi, target, true, &ticks))
        return;
    use_font(cr, 11, false);
    for (unsigned i = 0; i < ticks.count; i++)
    {
        double v = scope_tick_value(&ticks, i);
        double y = round(graph_value_y(s, v)) + 0.5;
        if (y < l->y - 0.5 || y > l->y + l->h + 0.5)
            continue;
        if (lines)
        {
            if (!right_side)
                grid_line(cr, l, y);
            continue;
        }
        char label[48];
        size_t n = scope_tick_label(&ticks, v, label, sizeof(label));
        if (unit)
            snprintf(label + n, sizeof(label) - n, " %s", unit);
        paint(cr, right_side ? dim : text, 1);
        if (right_side)
            show_text(cr, l->x + l->w + 6, y + 4, 0, label);
        else
            show_text(cr, l->x - 6, y + 4, 1, label);
    }
}

/* Lanes: each lane's top and bottom values in its channel's colour. */
static void draw_lane_axis(cairo_t *cr, const layout *l,
                           const graph_scale *scale, rgb colour, bool lines)
{
    char label[48];
    if (lines)
    {
        grid_line(cr, l, round(scale->top + scale->height) + 0.5);
        return;
    }
    use_font(cr, 10, false);
    paint(cr, colour, 1);
    scope_readout_short(scale->hi, "", label, sizeof(label));
    show_text(cr, l->x - 6, scale->top + 9, 1, label);
    scope_readout_short(scale->lo, "", label, sizeof(label));
    show_text(cr, l->x - 6, scale->top + scale->height - 2, 1, label);
}

/* Ticks at x of t / step - shift: a tick keeps its pixel column as an
 * anchored view scrolls. 'lines': the grid lines in the plot, else the
 * labels and the ticks under it. */
static void draw_time_axis(cairo_t *cr, const layout *l, double t0, double t1,
                           double height, double step, double shift,
                           bool lines)
{
    scope_ticks ticks;
    unsigned target = (unsigned) (l->w / 110) + 1;
    if (!scope_ticks_make(t0, t1, target, false, &ticks))
        return;
    use_font(cr, 11, false);
    /* The n-th tick at n * step, the same number in every frame; lines
     * one tick beyond each end too, for a tick that just left the span
     * but not yet the plot's first or last column. */
    double first = round(ticks.first / ticks.step);
    for (int i = lines ? -1 : 0; i < (int) ticks.count + lines; i++)
    {
        double t = (first + i) * ticks.step;
        if (fabs(t) < ticks.step * 1e-6)
            t = 0;
        double x = round(l->x + (t / step - shift)) + 0.5;
        if (x < l->x - 0.5 || x > l->x + l->w + 0.5)
            continue;
        paint(cr, grid, 1);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, x, lines ? l->y : l->y + l->h);
        cairo_line_to(cr, x, l->y + l->h + 4);
        cairo_stroke(cr);
        if (lines)
            continue;
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

static const char *views_text(const graph_model *model, char *buf,
                              size_t size)
{
    buf[0] = 0;
    static const struct { unsigned view; const char *name; } names[] = {
        { SCOPE_VIEW_NORMAL, "values" },
        { SCOPE_VIEW_AVERAGE, "average (light dashes)" },
        { SCOPE_VIEW_MINMAX, "min/max (band)" },
        { SCOPE_VIEW_TIMING, "interval (dash-dot)" },
    };
    static const char *const modes[] = {
        [SCOPE_SCALE_SHARED] = "", [SCOPE_SCALE_LANES] = ", lanes",
        [SCOPE_SCALE_NORMALISED] = ", normalised",
    };
    size_t used = 0;
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (model->views & names[i].view)
        {
            int n = snprintf(buf + used, size - used, "%s%s",
                             used ? " + " : "", names[i].name);
            if (n < 0 || (size_t) n >= size - used)
                return buf;
            used += (size_t) n;
        }
    snprintf(buf + used, size - used, "%s%s%s",
             model->values.mode < SCOPE_SCALE_MODES
             ? modes[model->values.mode] : "",
             model->values.log ? ", log" : "",
             model->values.manual && !own_scales(model) ? ", fixed range"
                                                        : "");
    return buf;
}

/* 'message': the model's, when the plot does not say it (once per graph);
 * it ends at 'right', clear of the timing axis's unit. */
static void draw_header(cairo_t *cr, const graph_model *model, double width,
                        double right, const char *message)
{
    use_font(cr, 13, true);
    paint(cr, title_colour, 1);
    const char *title = model->title ? model->title : "all channels";
    show_text(cr, 8, 17, 0, title);
    double after = 8 + text_width(cr, title) + 12;

    double message_width = 0;
    if (message && message[0])
    {
        use_font(cr, 12, false);
        paint(cr, model->alert ? alert : dim, 1);
        message_width = text_width(cr, message) + (width - 8 - right);
        show_text(cr, right, 17, 1, message);
    }
    char views[200];
    views_text(model, views, sizeof(views));
    use_font(cr, 11, false);
    if (after + text_width(cr, views) + message_width + 20 < width)
    {
        paint(cr, dim, 1);
        show_text(cr, after, 17, 0, views);
    }
}

/* The timing trace: dashes of the channel's colour with a light dot in
 * each gap, unlike the solid values, the light dashes of the average and
 * the band of min/max. Through each column's longest interval. The dots
 * of all channels are one stroke (timing_dots): a stroke's cost is
 * mostly its own, and a 16-channel timing view spent a third of its
 * frame on them one by one. */
#define TIMING_DASH     8.0
static void draw_timing(cairo_t *cr, const graph_columns *track,
                        const graph_scale *scale, rgb colour)
{
    static const double dashes[] = { TIMING_DASH, TIMING_DASH };
    graph_trace_peaks(cr, track, scale);
    cairo_set_line_width(cr, 2.0);
    cairo_set_dash(cr, dashes, 2, 0);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL);
    paint(cr, colour, 1);
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
    paint(cr, title_colour, 1);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
}

/* The same style in the legend: a dash and a dot. */
static void timing_swatch(cairo_t *cr, double x, double y, rgb colour,
                          bool hidden)
{
    paint(cr, hidden ? dim : colour, 1);
    cairo_set_line_width(cr, 2.0);
    cairo_move_to(cr, x + 1, y);
    cairo_line_to(cr, x + 6, y);
    cairo_stroke(cr);
    if (hidden)
        return;
    paint(cr, title_colour, 1);
    cairo_set_line_width(cr, 3.0);
    cairo_move_to(cr, x + 10, y);
    cairo_line_to(cr, x + 10, y);
    cairo_stroke(cr);
}

static void draw_legend(cairo_t *cr, const graph_model *model,
                        const legend_entry *entries, const unsigned *colour)
{
    unsigned count = legend_count(model),
             channels = model->series_count ? model->series_count : 1;
    for (unsigned s = 0; s < count; s++)
    {
        const legend_entry *e = &entries[s];
        double y = TITLE_HEIGHT + e->row * LEGEND_ROW;
        unsigned c = s % channels;
        bool hidden = is_hidden(model, c);
        paint(cr, channel_colours[colour[c]], 1);
        if (e->timing)
            timing_swatch(cr, round(e->x), y + 9, channel_colours[colour[c]],
                          hidden);
        else if (hidden)
        {
            /* A hollow box: this channel is hidden, click to show it. */
            cairo_set_line_width(cr, 1.5);
            cairo_rectangle(cr, e->x + 0.75, y + 3.75, 9.5, 9.5);
            cairo_stroke(cr);
        }
        else
        {
            cairo_rectangle(cr, e->x, y + 3, 11, 11);
            cairo_fill(cr);
        }
    }
    /* The texts font by font (place_legend() measured them so): names,
     * values in MONO, then losses now, in red: bad news. */
    if (!count)
        return;
    use_font(cr, 12, false);
    for (unsigned s = 0; s < count; s++)
    {
        const legend_entry *e = &entries[s];
        paint(cr, is_hidden(model, s % channels) ? dim : text, 1);
        show_text(cr, e->x + 16, TITLE_HEIGHT + e->row * LEGEND_ROW + 13, 0,
                  e->name);
    }
    cairo_select_font_face(cr, MONO, CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 11);
    for (unsigned s = 0; s < count; s++)
    {
        const legend_entry *e = &entries[s];
        paint(cr, is_hidden(model, s % channels) ? dim : text, 1);
        double after = e->x + 16 + e->name_only + 4;
        show_text(cr, after, TITLE_HEIGHT + e->row * LEGEND_ROW + 13, 0,
                  e->value);
    }
    use_font(cr, 12, false);
    paint(cr, alert, 1);
    for (unsigned s = 0; s < count; s++)
    {
        const legend_entry *e = &entries[s];
        double after = e->x + 16 + e->name_only + 4;
        if (e->extra[0])
            show_text(cr, after + e->value_width,
                      TITLE_HEIGHT + e->row * LEGEND_ROW + 13, 0, e->extra);
    }
}

/* Where the legend's entries are: clicks map to channels (timing entries
 * are not clickable). */
static void legend_boxes(const graph_model *model,
                         const legend_entry *entries, graph_frame *frame)
{
    unsigned count = legend_count(model);
    for (unsigned s = 0; frame && s < count && s < GRAPH_FRAME_LEGEND; s++)
    {
        const legend_entry *e = &entries[s];
        if (e->timing)
            continue;
        frame->legend[s].x = e->x;
        frame->legend[s].y = TITLE_HEIGHT + e->row * LEGEND_ROW;
        frame->legend[s].w = e->width;
        frame->legend[s].h = LEGEND_ROW;
        frame->legend_count = s + 1;
    }
}

/* The legend's band, its background and entries, for a kept image. */
typedef struct legend_band
{
    const graph_model * model;
    const legend_entry *entries;
    const unsigned *    colour;
    int                 y, w, h;
} legend_band;

static void draw_legend_band(cairo_t *cr, void *data)
{
    const legend_band *band = data;
    paint(cr, background, 1);
    cairo_rectangle(cr, 0, band->y, band->w, band->h);
    cairo_fill(cr);
    /* As a frame draws it: the timing swatch's dot is a round cap. */
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    draw_legend(cr, band->model, band->entries, band->colour);
}

/* The legend from the image 'kept' if it shows the same (its entries'
 * texts and places, colours, hidden channels, palette), else drawn. */
static void put_legend(cairo_t *cr, const graph_model *model,
                       const legend_entry *entries, const unsigned *colour,
                       double width, const graph_draw_hooks *hooks)
{
    scope_kept_image *kept = hooks ? hooks->legend : NULL;
    int scale = hooks && hooks->scale > 0 ? hooks->scale : 1;
    unsigned count = legend_count(model), n = model->series_count, rows = 0;
    for (unsigned s = 0; s < count; s++)
        if (entries[s].row + 1 > rows)
            rows = entries[s].row + 1;
    struct
    {
        const scope_palette *palette;
        unsigned count, n;
    } head = { model->palette, count, n };
    size_t size = sizeof(head) + count * sizeof(*entries) +
                  n * (sizeof(*colour) + sizeof(bool));
    unsigned char *key = kept && count && width == floor(width)
                       ? malloc(size) : NULL;
    if (key)
    {
        unsigned char *at = key;
        memcpy(at, &head, sizeof(head));
        at += sizeof(head);
        memcpy(at, entries, count * sizeof(*entries));
        at += count * sizeof(*entries);
        memcpy(at, colour, n * sizeof(*colour));
        at += n * sizeof(*colour);
        for (unsigned s = 0; s < n; s++)
            *at++ = is_hidden(model, s);
        legend_band band = {
            .model = model, .entries = entries, .colour = colour,
            .y = (int) TITLE_HEIGHT, .w = (int) width,
            .h = (int) (rows * LEGEND_ROW),
        };
        bool put = scope_kept_image_put(kept, cr, 0, band.y, band.w, band.h,
                                        scale, key, size, draw_legend_band,
                                        &band);
        free(key);
        if (put)
            return;
    }
    draw_legend(cr, model, entries, colour);
}

/* ---- overlays ----------------------------------------------------------- */

static void draw_cursor(cairo_t *cr, const layout *l, double x,
                        const char *name)
{
    static const double dashes[] = { 5.0, 3.0 };
    x = round(x) + 0.5;
    if (x < l->x || x > l->x + l->w)
        return;
    paint(cr, title_colour, 0.9);
    cairo_set_line_width(cr, 1);
    cairo_set_dash(cr, dashes, 2, 0);
    cairo_move_to(cr, x, l->y);
    cairo_line_to(cr, x, l->y + l->h);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    use_font(cr, 11, true);
    show_text(cr, x + 3, l->y + 12, 0, name);
}

/* The readout: lines of text in MONO on a dark box near (x, y), or in the
 * top right corner of the plot when x < 0. */
static void draw_readout(cairo_t *cr, const layout *l, const char *lines,
                         double x, double y)
{
    cairo_select_font_face(cr, MONO, CAIRO_FONT_SLANT_NORMAL,
                           CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 11);
    double widest = 0;
    unsigned count = 0;
    char line[256];
    for (const char *p = lines; *p; )
    {
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof(line), "%.*s", (int) n, p);
        widest = fmax(widest, text_width(cr, line));
        count++;
        p += n + (p[n] == '\n');
    }
    if (!count)
        return;
    double w = widest + 12, h = count * 14 + 8;
    double bx = x < 0 ? l->x + l->w - w - 6 : x + 14;
    double by = x < 0 ? l->y + 6 : y + 14;
    if (bx + w > l->x + l->w)
        bx = x - 14 - w;
    if (bx < l->x)
        bx = l->x + 2;
    if (by + h > l->y + l->h)
        by = fmax(l->y + 2, l->y + l->h - h - 2);
    paint(cr, background, 0.88);
    cairo_rectangle(cr, bx, by, w, h);
    cairo_fill(cr);
    paint(cr, frame_colour, 1);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, round(bx) + 0.5, round(by) + 0.5, round(w), round(h));
    cairo_stroke(cr);
    paint(cr, title_colour, 1);
    double ty = by + 15;
    for (const char *p = lines; *p; ty += 14)
    {
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof(line), "%.*s", (int) n, p);
        show_text(cr, bx + 6, ty, 0, line);
        p += n + (p[n] == '\n');
    }
}

static void draw_overlays(cairo_t *cr, const layout *l,
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
        paint(cr, text, 0.55);
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
        paint(cr, focus, 0.25);
        cairo_rectangle(cr, x, y, w, h);
        cairo_fill_preserve(cr);
        paint(cr, focus, 1);
        cairo_set_line_width(cr, 1);
        cairo_stroke(cr);
    }
    if (model->readout && model->readout[0])
        draw_readout(cr, l, model->readout, model->readout_x,
                     model->readout_y);
}

/* The trigger: a line at its time with a "T" flag on top, and where its
 * channel is drawn here, an arrow at its level on the left edge and a
 * diamond where the channel crossed it. */
static void draw_trigger(cairo_t *cr, const layout *l,
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
            paint(cr, trigger_colour, 0.7);
            cairo_set_line_width(cr, 1);
            cairo_move_to(cr, x, l->y);
            cairo_line_to(cr, x, l->y + l->h);
            cairo_stroke(cr);
            paint(cr, trigger_colour, 1);
            cairo_move_to(cr, x - 6, l->y);
            cairo_line_to(cr, x + 6, l->y);
            cairo_line_to(cr, x, l->y + 8);
            cairo_close_path(cr);
            cairo_fill(cr);
            use_font(cr, 11, true);
            show_text(cr, x + 8, l->y + 11, 0, "T");
        }
        else
            x = NAN;
    }
    if (model->trigger_label && model->trigger_label[0])
    {
        /* Its state, in the plot's top left corner, on a dark box. */
        use_font(cr, 11, false);
        double w = text_width(cr, model->trigger_label) + 10;
        paint(cr, background, 0.85);
        cairo_rectangle(cr, l->x + 12, l->y + 3, w, 16);
        cairo_fill(cr);
        paint(cr, text, 1);
        show_text(cr, l->x + 17, l->y + 15, 0, model->trigger_label);
    }
    if (!(model->views & ~SCOPE_VIEW_TIMING))
        return;
    for (unsigned s = 0; s < model->series_count; s++)
    {
        if (model->series[s] != model->trigger_series || is_hidden(model, s))
            continue;
        y = graph_value_y(&scales[s], model->trigger_level);
        if (!(y >= l->y && y <= l->y + l->h))
            return;
        paint(cr, trigger_colour, 1);
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

/* ---- scales --------------------------------------------------------------- */

static const bool track_for_values[SCOPE_TRACKS] = {
    [SCOPE_TRACK_VALUE] = true, [SCOPE_TRACK_AVERAGE] = true,
    [SCOPE_TRACK_MIN] = true, [SCOPE_TRACK_MAX] = true,
};

/* The shared axis, or one scale per channel (lanes, normalised), each
 * fitted to what is visible unless the user fixed the shared range. */
static void fit_scales(const graph_model *model, const layout *l,
                       const scope_column_summary *sums, unsigned value_ticks,
                       graph_scale *shared, graph_scale *own)
{
    const scope_value_view *v = &model->values;
    *shared = (graph_scale) { INFINITY, -INFINITY, v->log, l->y, l->h };
    unsigned n = model->series_count, shown = 0;
    for (unsigned s = 0; s < n; s++)
        shown += !is_hidden(model, s);
    unsigned lane = 0;
    for (unsigned s = 0; s < n; s++)
    {
        graph_scale *scale = &own[s];
        *scale = (graph_scale) { INFINITY, -INFINITY, v->log, l->y, l->h };
        if (v->mode == SCOPE_SCALE_LANES && shown && !is_hidden(model, s))
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

/* ---- the graph ------------------------------------------------------------ */

/* A frame's plot, for graph_plot_draw(): what the content depends on. */
struct graph_plot
{
    const graph_model *model;
    layout             l;
    graph_columns *    cols;
    const graph_scale *scales;          /* per series */
    graph_scale        values, timing, timing_axis;
    const unsigned *   colour;
    const bool *       dense;
    double             t0, t1, step, shift, height;
    unsigned           value_ticks;
    const char *       timing_unit;
    bool               timing_left;
};

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

void graph_plot_draw(graph_plot *p, cairo_t *cr, double x0, double x1)
{
    const graph_model *model = p->model;
    const layout *l = &p->l;
    unsigned n = model->series_count, views = model->views;
    graph_columns *cols = p->cols;
    cairo_save(cr);
    cairo_rectangle(cr, x0, l->y, x1 - x0, l->h);
    cairo_clip(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    paint(cr, plot_fill, 1);
    cairo_paint(cr);

    /* Level lines across [x0, x1), not ending inside it: drawn in parts,
     * they are drawn the same. */
    layout across = *l;
    across.x = x0 - 1;
    across.w = x1 - x0 + 2;
    if (views & ~SCOPE_VIEW_TIMING)
    {
        if (model->values.mode == SCOPE_SCALE_LANES)
        {
            for (unsigned s = 0; s < n; s++)
                if (!is_hidden(model, s))
                    draw_lane_axis(cr, &across, &p->scales[s],
                                   channel_colours[p->colour[s]], true);
        }
        else if (model->values.mode == SCOPE_SCALE_NORMALISED)
        {
            for (unsigned q = 0; q <= 4; q++)
                grid_line(cr, &across, round(l->y + l->h * q / 4) + 0.5);
        }
        else
        {
            draw_value_axis(cr, &across, &p->values, false, p->value_ticks,
                            NULL, true);
        }
    }
    if (views & SCOPE_VIEW_TIMING)
        draw_value_axis(cr, &across, &p->timing_axis, !p->timing_left,
                        p->value_ticks, p->timing_unit, true);
    draw_time_axis(cr, l, p->t0, p->t1, p->height, p->step, p->shift, true);

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
        paint(cr, channel_colours[p->colour[s]], 0.22);
        cairo_fill(cr);
    }
    for (unsigned s = 0; s < n; s++)
    {
        graph_columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_INTERVAL];
        if (!track->count)
            continue;
        draw_timing(cr, track, &p->timing, channel_colours[p->colour[s]]);
    }
    timing_dots(cr, cols, n, &p->timing);
    for (unsigned s = 0; s < n; s++)
    {
        graph_columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_VALUE];
        if (!track->count)
            continue;
        paint(cr, channel_colours[p->colour[s]], 1);
        graph_trace_solid(cr, track, &p->scales[s], 2.0, p->dense[s]);
    }
    for (unsigned s = 0; s < n; s++)
    {
        static const double dashes[] = { 7.0, 4.0 };
        graph_columns *track = &cols[s * SCOPE_TRACKS + SCOPE_TRACK_AVERAGE];
        if (!track->count)
            continue;
        /* Lighter than the values, so it shows on top of them. */
        rgb shade = channel_colours[p->colour[s]];
        rgb light = { (unsigned char) ((shade.r + 2 * 255) / 3),
                      (unsigned char) ((shade.g + 2 * 255) / 3),
                      (unsigned char) ((shade.b + 2 * 255) / 3) };
        graph_trace_line(cr, track, &p->scales[s]);
        cairo_set_dash(cr, dashes, 2, 0);
        cairo_set_line_width(cr, 2.0);
        paint(cr, light, 1);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
    }
    for (unsigned i = 0; i < n * SCOPE_TRACKS; i++)
        cols[i].from = cols[i].to = 0;
    graph_draw_markers(cr, l->x, l->y, l->w, l->h, model->markers, p->t0,
                       p->t1, model->palette == &scope_palette_light);
    cairo_restore(cr);
}

void graph_draw_frame(cairo_t *cr, double width, double height,
                      const graph_model *model, graph_frame *frame)
{
    graph_draw_frame_hooked(cr, width, height, model, frame, NULL);
}

void graph_draw_frame_hooked(cairo_t *cr, double width, double height,
                             const graph_model *model, graph_frame *frame,
                             const graph_draw_hooks *hooks)
{
    cairo_save(cr);
    use_palette(model->palette);
    cairo_rectangle(cr, 0, 0, width, height);
    cairo_clip(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    if (frame)
        *frame = (graph_frame) { .t0 = 0, .t1 = 1 };

    unsigned n = model->series_count, room = n ? n : 1;
    legend_entry *entries = calloc(2 * room, sizeof(*entries));
    uint64_t *first = calloc(room, sizeof(*first));
    uint64_t *end = calloc(room, sizeof(*end));
    graph_columns *cols = calloc(room * SCOPE_TRACKS, sizeof(*cols));
    scope_column_summary *sums = malloc(room * SCOPE_TRACKS * sizeof(*sums));
    unsigned *colour = calloc(room, sizeof(*colour));
    graph_scale *scales = calloc(room, sizeof(*scales));
    bool *dense = calloc(room, sizeof(*dense));
    double *join = calloc(room, sizeof(*join));
    scope_column_cache *cache = NULL;   /* owns the columns, if any */
    if (!entries || !first || !end || !cols || !sums || !colour || !scales ||
        !dense || !join)
    {
        paint(cr, background, 1);
        cairo_paint(cr);
        goto done;
    }
    for (unsigned i = 0; i < room * SCOPE_TRACKS; i++)
        sums[i] = scope_column_summary_empty();
    assign_colours(model, colour);

    /* The legend's height depends on its text, which in lanes and
     * normalised views holds ranges that depend on the plot's height: lay
     * out with the names first, fit, then fill the ranges in. */
    fill_legend(model, NULL, entries);
    unsigned rows = place_legend(cr, model, width, entries);
    layout l = plan(model, width, height, rows);
    /* The background around the plot, which paints all of its own: GTK
     * replays the frame every time, and would fill the plot twice. Whole
     * pixels only, where the two meet without antialiasing. */
    paint(cr, background, 1);
    cairo_rectangle(cr, 0, 0, width, height);
    if (l.w >= 1 && l.h == floor(l.h))
        cairo_rectangle(cr, l.x, l.y, l.w, l.h);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD);
    cairo_fill(cr);
    cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING);

    double t0, t1;
    unsigned width_columns = (unsigned) l.w;
    graph_model_window(model, width_columns, &t0, &t1, first, end);
    double step = (t1 - t0) / l.w;
    double shift = graph_columns_shift(t0, step);
    /* Columns left of the view too (none under a sample cap, which
     * decides what is shown): a trace enters the plot as it left it. */
    unsigned margin = model->max_samples < 0 ? GRAPH_MARGIN_COLUMNS : 0;
    int64_t origin = (int64_t) floor(shift) - (int64_t) margin;

    /* Decimate every track the views need, then scale to what is there. */
    unsigned views = model->views;
    bool wanted[SCOPE_TRACKS] = {
        [SCOPE_TRACK_VALUE] = views & SCOPE_VIEW_NORMAL,
        [SCOPE_TRACK_AVERAGE] = views & SCOPE_VIEW_AVERAGE,
        [SCOPE_TRACK_MIN] = views & SCOPE_VIEW_MINMAX,
        [SCOPE_TRACK_MAX] = views & SCOPE_VIEW_MINMAX,
        [SCOPE_TRACK_INTERVAL] = views & SCOPE_VIEW_TIMING,
    };
    graph_scale timing = { 0, -INFINITY, false, l.y, l.h };
    bool anything = false;
    /* Columns anchored left of the view (the margin) are those the cache
     * keeps: what a sample cap shows moves with the samples. */
    if (hooks && margin)
        cache = hooks->columns;
    for (unsigned s = 0; s < n; s++)
    {
        join[s] = graph_join_seconds(scope_pace_usual(
                                         &model->series[s]->pace));
        if (is_hidden(model, s))
            continue;
        uint64_t from = first[s];
        if (margin && end[s] > first[s] && !cache)
        {
            scope_track_view values = scope_series_track(model->series[s],
                                                         SCOPE_TRACK_VALUE);
            values.end = first[s];
            from = scope_track_lower_bound(&values, (double) origin * step);
        }
        for (unsigned k = 0; k < SCOPE_TRACKS; k++)
        {
            if (!wanted[k] || end[s] <= first[s])
                continue;
            graph_columns *c = &cols[s * SCOPE_TRACKS + k];
            c->count = width_columns + 2 + margin;
            c->origin = origin;
            c->step = step;
            c->x0 = l.x;
            c->t0 = t0;
            c->shift = shift;
            c->skip = margin;
            scope_track_view track = scope_series_track(model->series[s], k);
            if (cache)
                c->at = scope_column_cache_get(cache, s * SCOPE_TRACKS + k,
                                               model->series[s], &track,
                                               end[s], origin, step, c->count);
            else
                c->at = malloc(c->count * sizeof(*c->at));
            if (!c->at)
            {
                c->count = 0;
                continue;
            }
            if (!cache)
                scope_decimate(&track, from, end[s], origin, step, c->count,
                               c->at);
            c->join = join[s];
            /* What scales and the noise test need of the columns in view;
             * the cache keeps it for blocks of columns kept. */
            scope_column_summary *sum = &sums[s * SCOPE_TRACKS + k];
            *sum = cache ? scope_column_cache_summary(
                               cache, s * SCOPE_TRACKS + k,
                               origin + (int64_t) c->skip,
                               origin + (int64_t) c->count)
                         : graph_columns_summary(c);
            if (k == SCOPE_TRACK_INTERVAL)
                graph_scale_widen(&timing, sum);
            anything = true;
        }
    }
    unsigned value_ticks = (unsigned) (l.h / 38) + 1;
    graph_scale values;
    fit_scales(model, &l, sums, value_ticks, &values, scales);
    if (!(timing.hi > 0))
        timing.hi = 1;
    graph_scale_settle(&timing, value_ticks, true);
    graph_plot_info info = {
        .model = model, .x = l.x, .y = l.y, .w = l.w, .h = l.h,
        .t0 = t0, .t1 = t1, .step = step, .shift = shift,
        .series_count = n, .own = scales, .colour = colour, .dense = dense,
        .join = join,
    };
    if (hooks && hooks->ranges)
    {
        hooks->ranges(hooks->data, &info, &values, scales, &timing);
        if (model->values.mode == SCOPE_SCALE_SHARED)
            for (unsigned s = 0; s < n; s++)
                scales[s] = values;
        for (unsigned s = 0; s < n; s++)
            for (unsigned k = 0; k < SCOPE_TRACKS; k++)
                cols[s * SCOPE_TRACKS + k].join = join[s];
    }
    for (unsigned s = 0; s < n; s++)
    {
        unsigned i = s * SCOPE_TRACKS + SCOPE_TRACK_VALUE;
        dense[s] = cols[i].count &&
                   graph_trace_dense(&cols[i], &sums[i], &scales[s]);
    }
    info.values = values;
    info.timing = timing;
    /* Ticks in the unit the largest interval shown reads best in: the same
     * heights, numbers scaled. */
    scope_timing_unit unit = scope_timing_unit_for(timing.hi);
    graph_scale timing_axis = timing;
    timing_axis.lo *= unit.scale;
    timing_axis.hi *= unit.scale;
    /* Alone, the timing takes the left axis, grid and all. */
    bool timing_left = !(views & ~SCOPE_VIEW_TIMING);

    if (own_scales(model))
    {
        fill_legend(model, scales, entries);
        place_legend(cr, model, width, entries);
    }
    draw_header(cr, model, width,
                views & SCOPE_VIEW_TIMING ? l.x + l.w : width - 8,
                anything ? model->message : NULL);
    put_legend(cr, model, entries, colour, width, hooks);
    legend_boxes(model, entries, frame);

    /* The labels around the plot, then what is in it, which covers it. */
    if (views & ~SCOPE_VIEW_TIMING)
    {
        if (model->values.mode == SCOPE_SCALE_LANES)
        {
            for (unsigned s = 0; s < n; s++)
                if (!is_hidden(model, s))
                    draw_lane_axis(cr, &l, &scales[s],
                                   channel_colours[colour[s]], false);
        }
        else if (model->values.mode == SCOPE_SCALE_SHARED)
        {
            draw_value_axis(cr, &l, &values, false, value_ticks, NULL,
                            false);
        }
    }
    if (views & SCOPE_VIEW_TIMING)
        draw_value_axis(cr, &l, &timing_axis, !timing_left, value_ticks,
                        unit.name, false);
    draw_time_axis(cr, &l, t0, t1, height, step, shift, false);

    graph_plot plot = {
        .model = model, .l = l, .cols = cols, .scales = scales,
        .values = values, .timing = timing, .timing_axis = timing_axis,
        .colour = colour, .dense = dense, .t0 = t0, .t1 = t1, .step = step,
        .shift = shift, .height = height, .value_ticks = value_ticks,
        .timing_unit = unit.name, .timing_left = timing_left,
    };
    if (hooks && hooks->plot)
        hooks->plot(hooks->data, cr, &info, &plot);
    else
        graph_plot_draw(&plot, cr, l.x, l.x + l.w);

    cairo_save(cr);
    cairo_rectangle(cr, l.x, l.y, l.w, l.h);
    cairo_clip(cr);
    if (model->trigger)
        draw_trigger(cr, &l, model, scales, t0, t1);
    draw_overlays(cr, &l, model, t0, t1);
    cairo_restore(cr);

    paint(cr, frame_colour, 1);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, l.x - 0.5, l.y - 0.5, l.w + 1, l.h + 1);
    cairo_stroke(cr);

    if (!anything && model->message && model->message[0])
    {
        use_font(cr, 15, false);
        paint(cr, model->alert ? alert : dim, 1);
        show_text(cr, l.x + l.w / 2, l.y + l.h / 2 + 5, 0.5, model->message);
    }
    if (frame)
    {
        frame->x = l.x;
        frame->y = l.y;
        frame->w = l.w;
        frame->h = l.h;
        frame->t0 = t0;
        frame->t1 = t1;
        frame->lo = values.lo;
        frame->hi = values.hi;
        frame->log = values.log;
        frame->shared = !own_scales(model);
    }

done:
    if (model->focused)
    {
        paint(cr, focus, 1);
        cairo_set_line_width(cr, 2);
        cairo_rectangle(cr, 1, 1, width - 2, height - 2);
        cairo_stroke(cr);
    }
    for (unsigned i = 0; cols && !cache && i < n * SCOPE_TRACKS; i++)
        free(cols[i].at);
    free(join);
    free(dense);
    free(scales);
    free(cols);
    free(sums);
    free(colour);
    free(end);
    free(first);
    free(entries);
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
