/* graph_model.h - everything one graph frame shows, decided before drawing.
 *
 * The window, the PNG and CSV exports and the headless capture fill a
 * graph_model and hand it to graph_draw() or csv_export; which samples are
 * "shown" is decided here once, so a CSV holds exactly what the picture
 * plots. Plain C: unit tests use it without cairo or GTK.
 */
#ifndef SCOPE_GRAPH_MODEL_H
#define SCOPE_GRAPH_MODEL_H

#include "channel_data.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a graph shows of each channel (-n -t -m -a, keys n t m a). */
enum
{
    SCOPE_VIEW_NORMAL   = 1,            /* the values */
    SCOPE_VIEW_TIMING   = 2,            /* interval between samples, us */
    SCOPE_VIEW_MINMAX   = 4,            /* decaying min/max envelope */
    SCOPE_VIEW_AVERAGE  = 8             /* running average */
};

typedef struct graph_model
{
    const char *         title;
    scope_series *const *series;
    unsigned             series_count;
    unsigned             views;         /* SCOPE_VIEW_* */
    double               view_end;      /* time at the right edge; NaN: none */
    double               duration;      /* seconds shown; <= 0: all kept */
    long                 max_samples;   /* per channel; < 0 all, 0: width */
    const char *         message;       /* said over the graph, or NULL */
    bool                 alert;         /* the message is bad news */
    bool                 focused;       /* keys act on this graph */
    bool                 right_axis;    /* keep room for a timing axis, so
                                           stacked graphs line up */
} graph_model;

/* Fixed margins, so the plot width is known without measuring text. */
#define GRAPH_MARGIN_LEFT       66.0
#define GRAPH_MARGIN_RIGHT      16.0
#define GRAPH_MARGIN_TIMING     62.0    /* right margin with a timing axis */
#define GRAPH_MARGIN_BOTTOM     24.0

/* Width in pixels of the plot area of a graph 'width' pixels wide. */
double graph_plot_width(const graph_model *model, double width);

/* The samples a graph of 'columns' plot pixels shows: times [*t0, *t1]
 * and, per channel s, samples [first[s], end[s]). */
void graph_model_window(const graph_model *model, unsigned columns,
                        double *t0, double *t1, uint64_t *first,
                        uint64_t *end);

/* Fill 'model' with graph 'graph' of 'source' as of monotonic time 'now'
 * (see scope_source_graph_view_end); the message goes to message[size]
 * and '*scrolling' (if not NULL) says if the graph is moving. */
void graph_model_fill(graph_model *model, scope_source *source,
                      unsigned graph, unsigned views, double duration,
                      long max_samples, double now, char *message,
                      size_t size, bool *scrolling);

#endif /* SCOPE_GRAPH_MODEL_H */
