/* graph_model.h - everything one graph frame shows, decided before drawing.
 *
 * The window, the PNG and CSV exports and the headless capture fill a
 * graph_model and hand it to graph_draw() or csv_export; which samples are
 * "shown" is decided here once, so a CSV holds exactly what the picture
 * plots. Plain C: unit tests use it without cairo or GTK.
 */
#ifndef SCOPE_GRAPH_MODEL_H
#define SCOPE_GRAPH_MODEL_H

#include "source/channel_data.h"
#include "view/palette.h"
#include "view/time_view.h"

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
    bool                 cut;           /* samples after cut_at hidden */
    double               cut_at;        /* (scope_time_view's) */
    double               duration;      /* seconds shown; <= 0: all kept */
    long                 max_samples;   /* per channel; < 0 all, 0: width */
    const char *         message;       /* said over the graph, or NULL */
    bool                 alert;         /* the message is bad news */
    bool                 focused;       /* keys act on this graph */
    bool                 right_axis;    /* keep room for a timing axis, so
                                           stacked graphs line up */
    const scope_palette *palette;       /* colours; NULL: dark */

    /* What the user chose; all zero: every channel on one autoscaled axis. */
    const bool *         hidden;        /* per series, not drawn; or NULL */
    scope_value_view     values;
    const double *       legend_values; /* per series, refreshed a few times
                                           a second; NULL: the latest */
    const double *       legend_intervals; /* the same for the intervals
                                           (microseconds); NULL: latest */

    /* Overlays of the window: zero for none. */
    bool                 crosshair;     /* a line at x = crosshair_x */
    double               crosshair_x, crosshair_y; /* y < 0: no level line */
    bool                 has_cursor[2]; /* A and B, at these times */
    double               cursor[2];
    bool                 band;          /* a box being dragged, in pixels */
    double               band_x0, band_y0, band_x1, band_y1;
    const char *         readout;       /* lines, or NULL */
    double               readout_x, readout_y; /* near here; < 0: corner */
    /* The trigger (trigger.h): its level on its channel, if that is in
     * this graph, and a marker where it fired (time NaN: not yet). */
    bool                 trigger;
    const scope_series * trigger_series;
    double               trigger_level, trigger_time;
    const char *         trigger_label; /* its state, or NULL */
    const struct scope_markers *markers; /* events on the time axis, or NULL */
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

/* What the source holds and where live time is at monotonic time 'now'
 * (the right edge of a live frame: every graph of a window gets the same).
 * '*scrolling' (if not NULL) says if live data is moving. */
void graph_model_held(scope_source *source, double now, scope_held *held,
                      bool *scrolling);

/* Fill 'model' with graph 'graph' of 'source' over the span 'time' shows
 * with 'held' (graph_model_held); the message goes to message[size]. */
void graph_model_fill(graph_model *model, scope_source *source,
                      unsigned graph, unsigned views,
                      const scope_time_view *time, const scope_held *held,
                      long max_samples, double now, char *message,
                      size_t size);

#endif /* SCOPE_GRAPH_MODEL_H */
