/* graph_legend.c - the legend: entries' texts, rows, drawing, kept image. */
#include "draw/graph_draw_private.h"
#include "draw/graph_layout.h"
#include "draw/graph_style.h"
#include "draw/kept_image.h"
#include "source/loss_rate.h"
#include "view/readout.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A range as "lo..hi unit", short, for lanes and normalised views. */
static void range_label(const graph_scale *scale, const char *unit,
                        char *buf, size_t size)
{
    char lo[48], hi[48];
    scope_readout_short(scale->lo, "", lo, sizeof(lo));
    scope_readout_short(scale->hi, unit, hi, sizeof(hi));
    snprintf(buf, size, " [%s .. %s]", lo, hi);
}

unsigned graph_legend_count(const graph_model *model)
{
    unsigned n = model->series_count;
    return model->views & SCOPE_VIEW_TIMING ? 2 * n : n;
}

/* The top of the legend's row 'row'. */
static double row_top(unsigned row)
{
    return GRAPH_TITLE_HEIGHT + row * GRAPH_LEGEND_ROW;
}

void graph_legend_fill(const graph_model *model, const graph_scale *scales,
                       graph_legend_entry *entries)
{
    for (unsigned s = model->series_count; s < graph_legend_count(model); s++)
    {
        unsigned c = s - model->series_count;
        const scope_series *series = model->series[c];
        graph_legend_entry *e = &entries[s];
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
        graph_legend_entry *e = &entries[s];
        char range[128] = "";
        if (graph_own_scales(model) && !graph_hidden(model, s) && scales)
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

unsigned graph_legend_place(cairo_t *cr, const graph_model *model,
                            double width, graph_legend_entry *entries)
{
    double x = 8;
    unsigned row = 0, count = graph_legend_count(model);
    /* Font by font: choosing a font costs more than measuring with it. */
    if (count)
        graph_use_font(cr, 12, false);
    for (unsigned s = 0; s < count; s++)
    {
        graph_legend_entry *e = &entries[s];
        double name = graph_text_width(cr, e->name);
        e->name_only = name;
        e->name_width = name + graph_text_width(cr, e->extra);
    }
    if (count)
        graph_use_mono(cr, 11);
    for (unsigned s = 0; s < count; s++)
        entries[s].value_width = graph_text_width(cr, entries[s].value);
    for (unsigned s = 0; s < count; s++)
    {
        graph_legend_entry *e = &entries[s];
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
    return graph_legend_count(model) ? row + 1 : 0;
}

/* ---- kept from frame to frame ------------------------------------------ */

/* What the texts of a channel's entries say (graph_legend_fill without
 * scales): its name, unit, legend value and interval, losses. */
typedef struct memo_channel
{
    const scope_series *series;
    double value, interval, lost;
    char   name[sizeof(((scope_series *) 0)->name)];
    char   unit[sizeof(((scope_series *) 0)->unit)];
} memo_channel;

struct graph_legend_memo
{
    double        width;
    unsigned      count, channels;      /* entries, channels */
    unsigned      rows;
    memo_channel *key;                  /* per channel */
    graph_legend_entry *entries;        /* 'count' of them */
    unsigned long made;
    unsigned long stamp;                /* of the layout kept */
};

/* Stamps of the layouts kept, by every memo: a frame keys its legend by
 * the stamp, so that no other layout, in any graph, may have it. Drawing
 * happens on one thread, as for graph_ink. */
static unsigned long layouts_kept;

graph_legend_memo *graph_legend_memo_new(void)
{
    return calloc(1, sizeof(graph_legend_memo));
}

void graph_legend_memo_delete(graph_legend_memo *memo)
{
    if (!memo)
        return;
    free(memo->key);
    free(memo->entries);
    free(memo);
}

unsigned long graph_legend_memo_made(const graph_legend_memo *memo)
{
    return memo ? memo->made : 0;
}

static void memo_key(const graph_model *model, unsigned s, memo_channel *k)
{
    const scope_series *series = model->series[s];
    memset(k, 0, sizeof(*k));           /* padding compares equal */
    k->series = series;
    k->value = model->legend_values ? model->legend_values[s]
                                    : series->latest_value;
    k->interval = model->legend_intervals ? model->legend_intervals[s]
                                          : series->latest_interval;
    k->lost = series->lost_recent;
    memcpy(k->name, series->name, sizeof(k->name));
    memcpy(k->unit, series->unit, sizeof(k->unit));
}

/* True if 'memo' holds the layout of these channels at this width. */
static bool memo_holds(const graph_legend_memo *memo,
                       const graph_model *model, double width)
{
    if (!memo)
        return false;
    if (!memo->entries || memo->width != width ||
        memo->count != graph_legend_count(model) ||
        memo->channels != model->series_count)
        return false;
    for (unsigned s = 0; s < model->series_count; s++)
    {
        memo_channel k;
        memo_key(model, s, &k);
        if (memcmp(&k, &memo->key[s], sizeof(k)) != 0)
            return false;
    }
    return true;
}

static void memo_keep(graph_legend_memo *memo, const graph_model *model,
                      double width, const graph_legend_entry *entries,
                      unsigned rows)
{
    unsigned count = graph_legend_count(model), n = model->series_count;
    memo_channel *key = realloc(memo->key, (n ? n : 1) * sizeof(*key));
    if (key)
        memo->key = key;
    graph_legend_entry *kept =
        key ? realloc(memo->entries, (count ? count : 1) * sizeof(*kept))
            : NULL;
    if (!kept)
    {
        free(memo->entries);            /* nothing kept: laid out again */
        memo->entries = NULL;
        return;
    }
    memo->entries = kept;
    for (unsigned s = 0; s < n; s++)
        memo_key(model, s, &key[s]);
    memcpy(kept, entries, count * sizeof(*kept));
    memo->width = width;
    memo->count = count;
    memo->channels = n;
    memo->rows = rows;
    memo->stamp = ++layouts_kept;
}

bool graph_legend_memo_holds(const graph_legend_memo *memo,
                             const graph_model *model, double width,
                             const graph_legend_entry **shown,
                             unsigned *rows, unsigned long *stamp)
{
    if (!memo_holds(memo, model, width))
        return false;
    *shown = memo->entries;
    *rows = memo->rows;
    *stamp = memo->stamp;
    return true;
}

unsigned graph_legend_layout(cairo_t *cr, const graph_model *model,
                             double width, graph_legend_entry *entries,
                             graph_legend_memo *memo, unsigned long *stamp)
{
    graph_legend_fill(model, NULL, entries);
    unsigned rows = graph_legend_place(cr, model, width, entries);
    *stamp = 0;
    if (memo)
    {
        memo->made++;
        memo_keep(memo, model, width, entries, rows);
        if (memo->entries)
            *stamp = memo->stamp;
    }
    return rows;
}

/* ---- drawing ------------------------------------------------------------- */

/* The timing trace's style (graph_plot.c) in the legend: a dash and a
 * dot. */
static void timing_swatch(cairo_t *cr, double x, double y, scope_rgb colour,
                          bool hidden)
{
    graph_paint(cr, hidden ? graph_ink.dim : colour, 1);
    cairo_set_line_width(cr, 2.0);
    cairo_move_to(cr, x + 1, y);
    cairo_line_to(cr, x + 6, y);
    cairo_stroke(cr);
    if (hidden)
        return;
    graph_paint(cr, graph_ink.title, 1);
    cairo_set_line_width(cr, 3.0);
    cairo_move_to(cr, x + 10, y);
    cairo_line_to(cr, x + 10, y);
    cairo_stroke(cr);
}

static void draw_legend(cairo_t *cr, const graph_model *model,
                        const graph_legend_entry *entries,
                        const unsigned *colour)
{
    unsigned count = graph_legend_count(model),
             channels = model->series_count ? model->series_count : 1;
    for (unsigned s = 0; s < count; s++)
    {
        const graph_legend_entry *e = &entries[s];
        double y = row_top(e->row);
        unsigned c = s % channels;
        bool hidden = graph_hidden(model, c);
        graph_paint(cr, graph_ink.channel[colour[c]], 1);
        if (e->timing)
            timing_swatch(cr, round(e->x), y + 9,
                          graph_ink.channel[colour[c]], hidden);
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
    /* The texts font by font (graph_legend_place() measured them so):
     * names, values in monospace, then losses now, in red: bad news. */
    if (!count)
        return;
    graph_use_font(cr, 12, false);
    for (unsigned s = 0; s < count; s++)
    {
        const graph_legend_entry *e = &entries[s];
        graph_paint(cr, graph_hidden(model, s % channels) ? graph_ink.dim
                                                          : graph_ink.text, 1);
        graph_show_text(cr, e->x + 16, row_top(e->row) + 13, 0, e->name);
    }
    graph_use_mono(cr, 11);
    for (unsigned s = 0; s < count; s++)
    {
        const graph_legend_entry *e = &entries[s];
        graph_paint(cr, graph_hidden(model, s % channels) ? graph_ink.dim
                                                          : graph_ink.text, 1);
        double after = e->x + 16 + e->name_only + 4;
        graph_show_text(cr, after, row_top(e->row) + 13, 0, e->value);
    }
    graph_use_font(cr, 12, false);
    graph_paint(cr, graph_ink.alert, 1);
    for (unsigned s = 0; s < count; s++)
    {
        const graph_legend_entry *e = &entries[s];
        double after = e->x + 16 + e->name_only + 4;
        if (e->extra[0])
            graph_show_text(cr, after + e->value_width,
                            row_top(e->row) + 13, 0, e->extra);
    }
}

/* Clicks map to channels: timing entries are not clickable. */
void graph_legend_boxes(const graph_model *model,
                        const graph_legend_entry *entries, graph_frame *frame)
{
    unsigned count = graph_legend_count(model);
    for (unsigned s = 0; frame && s < count && s < GRAPH_FRAME_LEGEND; s++)
    {
        const graph_legend_entry *e = &entries[s];
        if (e->timing)
            continue;
        frame->legend[s].x = e->x;
        frame->legend[s].y = row_top(e->row);
        frame->legend[s].w = e->width;
        frame->legend[s].h = GRAPH_LEGEND_ROW;
        frame->legend_count = s + 1;
    }
}

/* The legend's band, its background and entries, for a kept image. */
typedef struct legend_band
{
    const graph_model *       model;
    const graph_legend_entry *entries;
    const unsigned *          colour;
    int                       y, w, h;
} legend_band;

static void draw_legend_band(cairo_t *cr, void *data)
{
    const legend_band *band = data;
    graph_paint(cr, graph_ink.background, 1);
    cairo_rectangle(cr, 0, band->y, band->w, band->h);
    cairo_fill(cr);
    /* As a frame draws it: the timing swatch's dot is a round cap. */
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    draw_legend(cr, band->model, band->entries, band->colour);
}

/* The legend from the image 'kept' if it shows the same (its entries'
 * texts and places, colours, hidden channels, palette), else drawn. */
void graph_legend_put(cairo_t *cr, const graph_model *model,
                      const graph_legend_entry *entries,
                      const unsigned *colour, double width,
                      const graph_draw_hooks *hooks)
{
    scope_kept_image *kept = hooks ? hooks->legend : NULL;
    int scale = hooks && hooks->scale > 0 ? hooks->scale : 1;
    unsigned count = graph_legend_count(model), n = model->series_count;
    unsigned rows = 0;
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
            *at++ = graph_hidden(model, s);
        legend_band band = {
            .model = model, .entries = entries, .colour = colour,
            .y = (int) GRAPH_TITLE_HEIGHT, .w = (int) width,
            .h = (int) (rows * GRAPH_LEGEND_ROW),
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
