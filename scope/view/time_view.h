/* time_view.h - the time span a window shows and the value range of each
 * graph, and how the user moves them.
 *
 * Every graph of a window reads the one scope_time_view, so all of them
 * show the same span at the same x positions whether live, paused or
 * zoomed. Live, the right edge follows the newest data; any zoom about a
 * point, pan or box zoom pauses the view (the source keeps reading, so
 * nothing is lost), and live() returns to following the data.
 *
 * Plain C, no GTK: the unit tests drive it directly.
 */
#ifndef SCOPE_TIME_VIEW_H
#define SCOPE_TIME_VIEW_H

#include <stdbool.h>

/* Narrowest span a zoom reaches: a microsecond over a window's width. */
#define SCOPE_MIN_SPAN          1e-6

/* What the data allows: the held samples and where live time is now. */
typedef struct scope_held
{
    double oldest, newest;              /* held samples; NaN: none */
    double live_end;                    /* right edge of a live frame */
} scope_held;

typedef struct scope_time_view
{
    double default_span;                /* -d; <= 0: everything held */
    double span;                        /* seconds shown; <= 0: all held */
    bool   paused;
    double end;                         /* right edge while paused */
    bool   cut;                         /* paused while filling: samples */
    double cut_at;                      /* after cut_at stay hidden */
} scope_time_view;

void scope_time_view_init(scope_time_view *view, double span);

/* The span [*t0, *t1] of a frame. Live, it never starts before the
 * oldest sample held: until the data covers a whole span, the span starts
 * at the oldest sample and fills towards its right edge; then it scrolls,
 * its right edge on live time. With nothing held, it starts at 0. */
void scope_time_view_window(const scope_time_view *view,
                            const scope_held *held, double *t0, double *t1);
/* True while a live span is filling: the data since the oldest sample
 * held is shorter than the span, so the right edge stands still and the
 * live edge (held->live_end) moves within it. */
bool scope_time_view_filling(const scope_time_view *view,
                             const scope_held *held);

/* Freeze the span the view shows now; resume following the data. */
void scope_time_view_pause(scope_time_view *view, const scope_held *held);
void scope_time_view_resume(scope_time_view *view);
/* Back to live with the default span (Home, double-click). */
void scope_time_view_live(scope_time_view *view);

/* Scale the span by 'factor' (< 1 zooms in) keeping time 'anchor' at the
 * same x. A live view zoomed about its right edge stays live; about any
 * other point it pauses there. */
void scope_time_view_zoom(scope_time_view *view, const scope_held *held,
                          double factor, double anchor);

/* Move by 'dt' seconds (> 0: later). Pauses. The span stays within half
 * a span of the held samples, so the data cannot be lost off-screen. */
void scope_time_view_pan(scope_time_view *view, const scope_held *held,
                         double dt);

/* Show exactly [t0, t1], paused (a box zoom, the cursors, --view). */
void scope_time_view_show(scope_time_view *view, double t0, double t1);

/* Pixel x of time t, and time at pixel x, for a plot [x0, x0 + width]. */
double scope_time_to_x(double t, double t0, double t1, double x0,
                       double width);
double scope_x_to_time(double x, double t0, double t1, double x0,
                       double width);

/* --view FROM:TO: seconds since the program started; a negative value
 * (even -0) counts back from the newest sample; an empty FROM is the
 * oldest sample held, an empty TO the newest. */
typedef struct scope_view_request
{
    bool   set;
    bool   has_from, has_to;
    double from, to;
} scope_view_request;

/* False if 'text' is not FROM:TO with numbers, or FROM is not before TO
 * when both count the same way. */
bool scope_view_request_parse(const char *text, scope_view_request *request);
/* Whether samples up to 'newest' (NaN: none yet) cover all of the span
 * the request names: an end given in seconds since start must be reached;
 * an end counted from the newest sample (or none) is there as soon as a
 * sample is. */
bool scope_view_request_complete(const scope_view_request *request,
                                 double newest);
/* The span the request names once samples [oldest, newest] are held;
 * false while nothing is held or if the span is empty. */
bool scope_view_request_resolve(const scope_view_request *request,
                                double oldest, double newest, double *t0,
                                double *t1);

/* ---- values ------------------------------------------------------------- */

typedef enum scope_scale_mode
{
    SCOPE_SCALE_SHARED,                 /* one axis for every channel */
    SCOPE_SCALE_LANES,                  /* a lane per channel, own range */
    SCOPE_SCALE_NORMALISED,             /* overlaid, each to its own range */
    SCOPE_SCALE_MODES
} scope_scale_mode;

typedef struct scope_value_view
{
    scope_scale_mode mode;
    bool   log;                         /* log10 scale where values > 0 */
    bool   manual;                      /* lo, hi set by the user: fixed */
    double lo, hi;
} scope_value_view;

/* Position of value v in [lo, hi]: 0 at lo, 1 at hi (log10 when 'log';
 * NaN for v <= 0 then). */
double scope_value_fraction(double v, double lo, double hi, bool log);
/* The value at fraction f of [lo, hi]. */
double scope_value_at_fraction(double f, double lo, double hi, bool log);

/* Zoom the range [lo, hi] the graph shows now by 'factor' about value
 * 'anchor', fixing it. */
void scope_value_view_zoom(scope_value_view *values, double lo, double hi,
                           double factor, double anchor);
/* Move [lo, hi] by 'fraction' of its height (> 0: show higher values). */
void scope_value_view_pan(scope_value_view *values, double lo, double hi,
                          double fraction);
/* Fix the range to [lo, hi] (box zoom, lock). */
void scope_value_view_set(scope_value_view *values, double lo, double hi);
/* Autoscale again. */
void scope_value_view_auto(scope_value_view *values);

#endif /* SCOPE_TIME_VIEW_H */
