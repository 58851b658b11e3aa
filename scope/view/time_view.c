/* time_view.c - the span a window shows and how zoom and pan move it. */
#include "view/time_view.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void scope_time_view_init(scope_time_view *view, double span)
{
    *view = (scope_time_view) {
        .default_span = span > 0 ? span : 0,
        .span = span > 0 ? span : 0,
        .end = NAN,
    };
}

static bool held_any(const scope_held *held)
{
    return held && held->oldest <= held->newest;
}

bool scope_time_view_filling(const scope_time_view *view,
                             const scope_held *held)
{
    if (view->paused || !(view->span > 0) || !held_any(held))
        return false;
    double right = isfinite(held->live_end) ? held->live_end : held->newest;
    return right - view->span < held->oldest;
}

void scope_time_view_window(const scope_time_view *view,
                            const scope_held *held, double *t0, double *t1)
{
    double right, left;
    if (view->paused && isfinite(view->end))
    {
        right = view->end;
        left = right - view->span;
    }
    else if (scope_time_view_filling(view, held))
    {
        /* Nothing before the first sample: the span fills from it. */
        left = held->oldest;
        right = left + view->span;
    }
    else
    {
        /* Nothing held yet: the span the first samples will fill. */
        right = held && isfinite(held->live_end) ? held->live_end
              : held_any(held) ? held->newest
              : view->span > 0 ? view->span : 0;
        left = view->span > 0 ? right - view->span
             : held_any(held) ? held->oldest : right;
    }
    if (!(left < right))
        left = right - 1.0;
    *t0 = left;
    *t1 = right;
}

/* Widest span worth showing: room around everything held. */
static double widest(const scope_time_view *view, const scope_held *held)
{
    double wide = fmax(1.0, view->default_span);
    if (held_any(held))
        wide = fmax(wide, 2 * (held->newest - held->oldest));
    return wide;
}

/* Keep the view within half a span of the held samples. */
static void keep_near_data(scope_time_view *view, const scope_held *held)
{
    if (!held_any(held))
        return;
    double newest = held->newest;
    if (isfinite(held->live_end) && held->live_end > newest)
        newest = held->live_end;
    double low = held->oldest + view->span / 2;
    double high = newest + view->span / 2;
    if (view->end < low)
        view->end = low;
    if (view->end > high)
        view->end = high;
}

/* A live span still filling reaches past its newest sample: paused there,
 * samples arriving later would appear in it. Hide them, as a scope on
 * hold would. */
static void hold_filling(scope_time_view *view, const scope_held *held)
{
    if (!scope_time_view_filling(view, held))
        return;
    view->cut = true;
    view->cut_at = isfinite(held->live_end) ? held->live_end : held->newest;
}

static void freeze(scope_time_view *view, double t0, double t1)
{
    view->paused = true;
    view->end = t1;
    view->span = t1 - t0;
}

void scope_time_view_pause(scope_time_view *view, const scope_held *held)
{
    double t0, t1;
    scope_time_view_window(view, held, &t0, &t1);
    hold_filling(view, held);
    freeze(view, t0, t1);
}

void scope_time_view_resume(scope_time_view *view)
{
    view->paused = false;
    view->cut = false;
}

void scope_time_view_live(scope_time_view *view)
{
    view->paused = false;
    view->cut = false;
    view->span = view->default_span;
}

void scope_time_view_zoom(scope_time_view *view, const scope_held *held,
                          double factor, double anchor)
{
    if (!(factor > 0) || !isfinite(factor))
        return;
    double t0, t1;
    scope_time_view_window(view, held, &t0, &t1);
    double span = (t1 - t0) * factor;
    double wide = widest(view, held);
    span = span < SCOPE_MIN_SPAN ? SCOPE_MIN_SPAN : span > wide ? wide : span;

    if (!view->paused && !(anchor < t1))
    {
        view->span = span;              /* live, about the newest data */
        return;
    }
    if (!isfinite(anchor))
        anchor = (t0 + t1) / 2;
    double fraction = (anchor - t0) / (t1 - t0);
    double left = anchor - fraction * span;
    hold_filling(view, held);
    freeze(view, left, left + span);
    keep_near_data(view, held);
}

void scope_time_view_pan(scope_time_view *view, const scope_held *held,
                         double dt)
{
    if (!isfinite(dt))
        return;
    double t0, t1;
    scope_time_view_window(view, held, &t0, &t1);
    hold_filling(view, held);
    freeze(view, t0 + dt, t1 + dt);
    keep_near_data(view, held);
}

void scope_time_view_show(scope_time_view *view, double t0, double t1)
{
    if (!isfinite(t0) || !isfinite(t1))
        return;
    if (t1 < t0)
    {
        double swap = t0;
        t0 = t1;
        t1 = swap;
    }
    if (t1 - t0 < SCOPE_MIN_SPAN)
    {
        double middle = (t0 + t1) / 2;
        t0 = middle - SCOPE_MIN_SPAN / 2;
        t1 = middle + SCOPE_MIN_SPAN / 2;
    }
    view->cut = false;                  /* exactly what was asked for */
    freeze(view, t0, t1);
}

double scope_time_to_x(double t, double t0, double t1, double x0,
                       double width)
{
    return x0 + (t - t0) / (t1 - t0) * width;
}

double scope_x_to_time(double x, double t0, double t1, double x0,
                       double width)
{
    return t0 + (x - x0) / width * (t1 - t0);
}

/* One end of FROM:TO: empty, or a finite number up to 'stop'. */
static bool parse_end(const char *text, const char *stop, bool *has,
                      double *value)
{
    *has = text != stop;
    if (!*has)
        return true;
    char *end;
    errno = 0;
    *value = strtod(text, &end);
    return end == stop && !errno && isfinite(*value);
}

bool scope_view_request_parse(const char *text, scope_view_request *request)
{
    *request = (scope_view_request) { .set = true };
    const char *colon = strchr(text, ':');
    if (!colon || strchr(colon + 1, ':'))
        return false;
    if (!parse_end(text, colon, &request->has_from, &request->from) ||
        !parse_end(colon + 1, colon + 1 + strlen(colon + 1),
                   &request->has_to, &request->to))
        return false;
    bool from_back = request->has_from && signbit(request->from);
    bool to_back = request->has_to && signbit(request->to);
    if (request->has_from && request->has_to && from_back == to_back &&
        !(request->from < request->to))
        return false;
    return true;
}

bool scope_view_request_complete(const scope_view_request *request,
                                 double newest)
{
    if (isnan(newest))
        return false;
    return !request->has_to || signbit(request->to) || newest >= request->to;
}

bool scope_view_request_resolve(const scope_view_request *request,
                                double oldest, double newest, double *t0,
                                double *t1)
{
    if (!(oldest <= newest))
        return false;
    double from = !request->has_from ? oldest
                : signbit(request->from) ? newest + request->from
                : request->from;
    double to = !request->has_to ? newest
              : signbit(request->to) ? newest + request->to
              : request->to;
    if (!(from < to))
        return false;
    *t0 = from;
    *t1 = to;
    return true;
}

/* ---- values ------------------------------------------------------------- */

double scope_value_fraction(double v, double lo, double hi, bool log)
{
    if (log)
    {
        if (!(v > 0) || !(lo > 0) || !(hi > 0))
            return NAN;
        v = log10(v);
        lo = log10(lo);
        hi = log10(hi);
    }
    return (v - lo) / (hi - lo);
}

double scope_value_at_fraction(double f, double lo, double hi, bool log)
{
    if (log && lo > 0 && hi > 0)
        return pow(10, log10(lo) + f * (log10(hi) - log10(lo)));
    return lo + f * (hi - lo);
}

/* Work in the scale's own space: log10 of values on a log scale. */
static bool to_space(const scope_value_view *values, double *v)
{
    if (!values->log)
        return isfinite(*v);
    if (!(*v > 0))
        return false;
    *v = log10(*v);
    return true;
}

static double from_space(const scope_value_view *values, double v)
{
    return values->log ? pow(10, v) : v;
}

static void set_from_space(scope_value_view *values, double lo, double hi)
{
    /* Not so narrow that neighbouring doubles cannot be told apart. */
    double least = fmax(fabs(lo), fabs(hi)) * 1e-12;
    if (!(hi - lo > least) || !isfinite(lo) || !isfinite(hi))
        return;
    values->manual = true;
    values->lo = from_space(values, lo);
    values->hi = from_space(values, hi);
}

void scope_value_view_zoom(scope_value_view *values, double lo, double hi,
                           double factor, double anchor)
{
    if (!(factor > 0) || !to_space(values, &lo) || !to_space(values, &hi))
        return;
    if (!to_space(values, &anchor))
        anchor = (lo + hi) / 2;
    double fraction = (anchor - lo) / (hi - lo);
    double size = (hi - lo) * factor;
    double bottom = anchor - fraction * size;
    set_from_space(values, bottom, bottom + size);
}

void scope_value_view_pan(scope_value_view *values, double lo, double hi,
                          double fraction)
{
    if (!to_space(values, &lo) || !to_space(values, &hi))
        return;
    double shift = (hi - lo) * fraction;
    set_from_space(values, lo + shift, hi + shift);
}

void scope_value_view_set(scope_value_view *values, double lo, double hi)
{
    if (hi < lo)
    {
        double swap = lo;
        lo = hi;
        hi = swap;
    }
    if (!to_space(values, &lo) || !to_space(values, &hi))
        return;
    set_from_space(values, lo, hi);
}

void scope_value_view_auto(scope_value_view *values)
{
    values->manual = false;
}
