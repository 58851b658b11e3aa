/* csv_export.c - merge channels by time into CSV rows. */
#include "csv_export.h"

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
    fprintf(out, "%.17g", v);
}

long scope_csv_write(FILE *out, scope_series *const *series, unsigned count,
                     const uint64_t *first, const uint64_t *end,
                     unsigned views)
{
    static const struct { unsigned view; scope_track_kind kind; const char *suffix; }
        extra[] = {
            { SCOPE_VIEW_AVERAGE, SCOPE_TRACK_AVERAGE, ".average" },
            { SCOPE_VIEW_MINMAX, SCOPE_TRACK_MIN, ".min" },
            { SCOPE_VIEW_MINMAX, SCOPE_TRACK_MAX, ".max" },
            { SCOPE_VIEW_TIMING, SCOPE_TRACK_INTERVAL, ".interval_us" },
        };
    const unsigned extras = sizeof(extra) / sizeof(extra[0]);

    fputs("time", out);
    for (unsigned s = 0; s < count; s++)
    {
        fputc(',', out);
        write_name(out, series[s]->name, "");
    }
    for (unsigned e = 0; e < extras; e++)
        if (views & extra[e].view)
            for (unsigned s = 0; s < count; s++)
            {
                fputc(',', out);
                write_name(out, series[s]->name, extra[e].suffix);
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
            if (at[s] < end[s])
            {
                double ts = series[s]->time[at[s] - series[s]->base];
                if (ts < t)
                    t = ts;
            }
        if (t == INFINITY)
            break;
        for (unsigned s = 0; s < count; s++)
            here[s] = at[s] < end[s] &&
                      series[s]->time[at[s] - series[s]->base] == t;

        fprintf(out, "%.9f", t);
        for (unsigned s = 0; s < count; s++)
        {
            fputc(',', out);
            if (here[s])
                write_number(out, series[s]->track[SCOPE_TRACK_VALUE]
                                  [at[s] - series[s]->base], false);
        }
        for (unsigned e = 0; e < extras; e++)
            if (views & extra[e].view)
                for (unsigned s = 0; s < count; s++)
                {
                    fputc(',', out);
                    if (here[s])
                        write_number(out, series[s]->track[extra[e].kind]
                                          [at[s] - series[s]->base], true);
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
    long rows = -1;
    if (!series || !first || !end || !graph_first || !graph_end)
        goto done;

    unsigned used = 0, views = 0;
    for (unsigned g = 0; g < count; g++)
    {
        const graph_model *model = models[g];
        double t0, t1;
        graph_model_window(model, (unsigned) graph_plot_width(model, width),
                           &t0, &t1, graph_first, graph_end);
        views |= model->views;
        for (unsigned s = 0; s < model->series_count; s++)
        {
            unsigned seen = 0;
            while (seen < used && series[seen] != model->series[s])
                seen++;
            if (seen < used)
                continue;               /* the first graph showing it wins */
            series[used] = model->series[s];
            first[used] = graph_first[s];
            end[used] = graph_end[s];
            used++;
        }
    }
    rows = scope_csv_write(out, series, used, first, end, views);
done:
    free(graph_end);
    free(graph_first);
    free(end);
    free(first);
    free(series);
    return rows;
}
