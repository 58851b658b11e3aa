/* sample_pace.c - the usual gap between a channel's samples. */
#include "source/sample_pace.h"

#include <math.h>

void scope_pace_init(scope_pace *pace)
{
    *pace = (scope_pace) { .count = 0 };
}

void scope_pace_add(scope_pace *pace, double gap)
{
    if (!isfinite(gap) || gap < 0)
        return;
    pace->gap[pace->next] = gap;
    pace->next = (pace->next + 1) % SCOPE_PACE_GAPS;
    if (pace->count < SCOPE_PACE_GAPS)
        pace->count++;
}

double scope_pace_usual(const scope_pace *pace)
{
    if (!pace->count)
        return NAN;
    /* The RANK longest so far, longest first: a few passes over 32
     * numbers, cheaper than sorting them. */
    double top[SCOPE_PACE_RANK];
    unsigned held = 0;
    for (unsigned i = 0; i < pace->count; i++)
    {
        double g = pace->gap[i];
        unsigned at = held;
        while (at > 0 && top[at - 1] < g)
            at--;
        if (at >= SCOPE_PACE_RANK)
            continue;
        unsigned last = held < SCOPE_PACE_RANK ? held : SCOPE_PACE_RANK - 1;
        for (unsigned j = last; j > at; j--)
            top[j] = top[j - 1];
        top[at] = g;
        if (held < SCOPE_PACE_RANK)
            held++;
    }
    return top[held - 1];
}
