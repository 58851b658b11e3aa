/* csv_export.c - merge channels by time into CSV rows. */
#include "capture/csv_export.h"
#include "common/number_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Names are channel names from the segment: quote them if they need it. */
static void write_name(FILE *out, const char *name, const char *suffix)
{
    if (strpbrk(name, ",\"\n\r"))
    {
        fputc('"', out);
        for (const char *p = name; *p; p++)
        {
            if (*p == '"')
                fputc('"', out);
            fputc(*p, out);
        }
        fprintf(out, "%s\"", suffix);
    }
    else
    {
        fprintf(out, "%s%s", name, suffix);
    }
}

static void write_number(FILE *out, double v, bool empty_if_nan)
{
    if (isnan(v) && empty_if_nan)
        return;
    char text[40];
    scope_shortest_double(v, text, sizeof(text));
    fputs(text, out);
}

/* The columns a channel may have, in the order they are written: all the
 * values, then all the averages... */
static const struct
{
    unsigned view;
    scope_track_kind kind;
    const char *suffix;
} column[] = {
    { SCOPE_VIEW_NORMAL, SCOPE_TRACK_VALUE, "" },
    { SCOPE_VIEW_AVERAGE, SCOPE_TRACK_AVERAGE, ".average" },
    { SCOPE_VIEW_MINMAX, SCOPE_TRACK_MIN, ".min" },
    { SCOPE_VIEW_MINMAX, SCOPE_TRACK_MAX, ".max" },
    { SCOPE_VIEW_TIMING, SCOPE_TRACK_INTERVAL, ".interval_us" },
};
#define COLUMNS (sizeof(column) / sizeof(column[0]))

long scope_csv_write(FILE *out, scope_series *const *series, unsigned count,
                     const uint64_t *first, const uint64_t *end,
                     unsigned views)
{
    unsigned *each = malloc((count ? count : 1) * sizeof(*each));
    if (!each)
        return -1;
    for (unsigned s = 0; s < count; s++)
        each[s] = views;
    long rows = scope_csv_write_views(out, series, count, first, end, each);
    free(each);
    return rows;
}

long scope_csv_write_views(FILE *out, scope_series *const *series,
                           unsigned count, const uint64_t *first,
                           const uint64_t *end, const unsigned *views)
{
    for (unsigned s = 0; s < count; s++)
        if (views[s] & (SCOPE_VIEW_AVERAGE | SCOPE_VIEW_MINMAX))
            scope_series_derive(series[s]);
    fputs("time", out);
    for (unsigned c = 0; c < COLUMNS; c++)
        for (unsigned s = 0; s < count; s++)
            if (views[s] & column[c].view)
            {
                fputc(',', out);
                write_name(out, series[s]->name, column[c].suffix);
            }
    fputc('\n', out);

    uint64_t *at = malloc((count ? count : 1) * sizeof(*at));
    bool *here = malloc((count ? count : 1) * sizeof(*here));
    if (!at || !here)
    {
        free(at);
        free(here);
        return -1;
    }
    memcpy(at, first, count * sizeof(*at));
    long rows = 0;
    for (;;)
    {
        /* The earliest time among the channels' next samples. */
        double t = INFINITY;
        for (unsigned s = 0; s < count; s++)
            if (at[s] < end[s] && views[s])
            {
                double ts = series[s]->time[at[s] - series[s]->base];
                if (ts < t)
                    t = ts;
            }
        if (t == INFINITY)
            break;
        for (unsigned s = 0; s < count; s++)
            here[s] = at[s] < end[s] && views[s] &&
                      series[s]->time[at[s] - series[s]->base] == t;

        fprintf(out, "%.9f", t);
        for (unsigned c = 0; c < COLUMNS; c++)
            for (unsigned s = 0; s < count; s++)
                if (views[s] & column[c].view)
                {
                    fputc(',', out);
                    /* A value is never NaN; a derived track is until it
                     * has enough samples (the first interval). */
                    if (here[s])
                        write_number(out, series[s]->track[column[c].kind]
                                          [at[s] - series[s]->base],
                                     column[c].kind != SCOPE_TRACK_VALUE);
                }
        fputc('\n', out);
        for (unsigned s = 0; s < count; s++)
            if (here[s])
                at[s]++;
        rows++;
    }
    free(here);
    free(at);
    if (fflush(out) != 0 || ferror(out))
        return -1;
    return rows;
}

long scope_csv_write_graphs(FILE *out, const graph_model *const *models,
                            unsigned count, double width)
{
    unsigned total = 0;
    for (unsigned g = 0; g < count; g++)
        total += models[g]->series_count;
    scope_series **series = malloc((total ? total : 1) * sizeof(*series));
    uint64_t *first = malloc((total ? total : 1) * sizeof(*first));
    uint64_t *end = malloc((total ? total : 1) * sizeof(*end));
    uint64_t *graph_first = malloc((total ? total : 1) * sizeof(*graph_first));
    uint64_t *graph_end = malloc((total ? total : 1) * sizeof(*graph_end));
    unsigned *views = malloc((total ? total : 1) * sizeof(*views));
    long rows = -1;
    if (!series || !first || !end || !graph_first || !graph_end || !views)
        goto done;

    unsigned used = 0;
    for (unsigned g = 0; g < count; g++)
    {
        const graph_model *model = models[g];
        double t0, t1;
        graph_model_window(model, (unsigned) graph_plot_width(model, width),
                           &t0, &t1, graph_first, graph_end);
        for (unsigned s = 0; s < model->series_count; s++)
        {
            unsigned seen = 0;
            while (seen < used && series[seen] != model->series[s])
                seen++;
            if (seen < used)
            {
                /* The first graph showing it gives its samples; each
                 * graph's views add their columns. */
                views[seen] |= model->views;
                continue;
            }
            series[used] = model->series[s];
            first[used] = graph_first[s];
            end[used] = graph_end[s];
            views[used] = model->views;
            used++;
        }
    }
    rows = scope_csv_write_views(out, series, used, first, end, views);
done:
    free(views);
    free(graph_end);
    free(graph_first);
    free(end);
    free(first);
    free(series);
    return rows;
}

const char *scope_csv_why_empty(const graph_model *const *models,
                                unsigned count)
{
    bool channel = false, columns = false;
    for (unsigned g = 0; g < count; g++)
    {
        channel |= models[g]->series_count > 0;
        columns |= models[g]->series_count > 0 &&
                  (models[g]->views & (SCOPE_VIEW_NORMAL | SCOPE_VIEW_AVERAGE |
                                       SCOPE_VIEW_MINMAX | SCOPE_VIEW_TIMING));
    }
    if (!channel)
        return "no channel to export (none matched, or no program shared "
               "any)";
    if (!columns)
        return "no view is on (values, average, min/max or timing)";
    return "no sample in the span shown";
}
