/* graph_model.c - which samples a graph shows. */
#include "view/graph_model.h"

#include <math.h>

double graph_plot_width(const graph_model *model, double width)
{
    bool axis = (model->views & SCOPE_VIEW_TIMING) || model->right_axis;
    double right = axis ? GRAPH_MARGIN_TIMING : GRAPH_MARGIN_RIGHT;
    double plot = width - GRAPH_MARGIN_LEFT - right;
    return plot < 1 ? 1 : floor(plot);
}

void graph_model_window(const graph_model *model, unsigned columns,
                        double *t0, double *t1, uint64_t *first,
                        uint64_t *end)
{
    double right = model->view_end;
    if (isnan(right))
    {
        /* Nothing yet: an empty window ending at the newest sample, if
         * any, else the span the first samples will fill from 0. */
        right = -INFINITY;
        for (unsigned s = 0; s < model->series_count; s++)
            if (model->series[s]->end > model->series[s]->first &&
                model->series[s]->latest_time > right)
                right = model->series[s]->latest_time;
        if (right == -INFINITY)
            right = model->duration > 0 ? model->duration : 0;
    }
    double left = right - model->duration;
    if (!(model->duration > 0))
    {
        left = right;
        for (unsigned s = 0; s < model->series_count; s++)
        {
            const scope_series *series = model->series[s];
            if (series->end > series->first)
            {
                double oldest = series->oldest_time;
                if (oldest < left)
                    left = oldest;
            }
        }
    }
    size_t cap = model->max_samples < 0 ? 0
               : model->max_samples == 0 ? columns
               : (size_t) model->max_samples;

    double earliest = INFINITY;
    bool capped = false;
    for (unsigned s = 0; s < model->series_count; s++)
    {
        const scope_series *series = model->series[s];
        double last = model->cut ? fmin(right, model->cut_at) : right;
        if (scope_series_visible(series, left, last, cap, &first[s],
                                 &end[s]))
            capped = true;
        if (end[s] > first[s])
        {
            double oldest = series->time[first[s] - series->base];
            if (oldest < earliest)
                earliest = oldest;
        }
    }
    /* Like the original tool: with a sample cap, the axis spans the
     * samples kept rather than empty time. */
    if (capped && earliest > left && earliest < right)
        left = earliest;
    if (!(left < right))
        left = right - 1.0;
    *t0 = left;
    *t1 = right;
}

void graph_model_held(scope_source *source, double now, scope_held *held,
                      bool *scrolling)
{
    held->oldest = held->newest = NAN;
    scope_source_held_range(source, &held->oldest, &held->newest);
    held->live_end = scope_source_view_end(source, now, scrolling);
}

void graph_model_fill(graph_model *model, scope_source *source,
                      unsigned graph, unsigned views,
                      const scope_time_view *time, const scope_held *held,
                      long max_samples, double now, char *message,
                      size_t size)
{
    unsigned count;
    scope_series *const *series = scope_source_graph_series(source, graph,
                                                            &count);
    scope_source_graph_message(source, graph, now, message, size);
    scope_source_state state = scope_source_get_state(source);
    double t0, t1;
    scope_time_view_window(time, held, &t0, &t1);
    /* A live view of everything held keeps its left edge on the oldest
     * sample, as the sample cap of -w may move it. */
    bool all = !time->paused && !(time->span > 0);
    /* The frame's left edge is view_end - duration: not a rounding after
     * t0, where a span filling from its first sample would lose it. */
    double duration = t1 - t0;
    while (t1 - duration > t0)
        duration = nextafter(duration, INFINITY);
    *model = (graph_model) {
        .title = scope_source_graph_regex(source, graph),
        .series = series,
        .series_count = count,
        .views = views,
        .view_end = isnan(held->live_end) && !time->paused &&
                    isnan(held->newest) ? NAN : t1,
        .duration = all ? 0 : duration,
        .cut = time->paused && time->cut,
        .cut_at = time->cut_at,
        .max_samples = max_samples,
        .message = message,
        .alert = state != SCOPE_SOURCE_LIVE && state != SCOPE_SOURCE_WAITING,
    };
}
