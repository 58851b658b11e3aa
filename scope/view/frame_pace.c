/* frame_pace.c - whether a graph's picture changed enough for a frame. */
#include "view/frame_pace.h"

#include <math.h>

/* A column's worth of movement, give or take rounding: an edge that moved
 * by exactly one column in steps must not wait for the next. */
#define COLUMN_SLACK    1e-6

double scope_frame_pace_column(double t0, double t1, double width)
{
    if (!(width > 0) || !(t1 > t0) || !isfinite(t1 - t0))
        return NAN;
    return (t1 - t0) / width;
}

bool scope_frame_pace_due(const scope_frame_pace *pace, double *next)
{
    *next = pace->now;
    double column = scope_frame_pace_column(pace->t0, pace->t1, pace->width);
    /* Nothing drawn yet, or nothing to measure a column with. */
    if (!isfinite(pace->drawn_t0) || !isfinite(pace->drawn_t1) ||
        isnan(column) || pace->changed)
        return true;
    double moved = fmax(fabs(pace->t1 - pace->drawn_t1),
                        fabs(pace->t0 - pace->drawn_t0));
    /* Filling, the edge that moves is the data's, inside a still span. */
    bool filling = pace->filling && isfinite(pace->lead) &&
                   isfinite(pace->drawn_lead);
    if (filling)
        moved = fmax(moved, fabs(pace->lead - pace->drawn_lead));
    double edge = filling ? pace->lead : pace->t1;
    double drawn_edge = filling ? pace->drawn_lead : pace->drawn_t1;
    double text_due = pace->text_time + SCOPE_TEXT_REFRESH;
    double when = INFINITY;
    if (!(moved < column * (1 - COLUMN_SLACK)) ||
        (pace->stale && !(pace->now < text_due)))
        when = pace->now;
    else
    {
        if (pace->scrolling)
            when = pace->now + (drawn_edge + column - edge);
        if (pace->stale && text_due < when)
            when = text_due;
    }
    /* The ceiling: not before the interval since the last frame. */
    double allowed = pace->last_frame + pace->min_interval;
    if (pace->min_interval > 0 && isfinite(when) && when < allowed)
        when = allowed;
    if (!(when > pace->now))
        return true;
    *next = when;
    return false;
}
