/* time_base.c - ticks to CLOCK_MONOTONIC time through calibration points. */
#include "record/time_base_private.h"

#include <string.h>

bool recorder_time_point_valid(const recorder_time_point *previous,
                               const recorder_time_point *next)
{
    if (!(next->hz >= 1e3 && next->hz < 1e12))
        return false;                   /* also refuses NaN */
    return !previous ||
           (next->ticks > previous->ticks && next->ns >= previous->ns);
}

uint64_t recorder_time_ns(const recorder_time_point *points, unsigned count,
                          uint64_t ticks)
{
    if (!count)
        return 0;
    /* Records are mostly recent: look from the newest point back. */
    unsigned at = count - 1;
    while (at > 0 && points[at].ticks > ticks)
        at--;
    const recorder_time_point *p = &points[at];
    if (ticks <= p->ticks)
        return p->ns;
    double elapsed = (double) (ticks - p->ticks) * 1e9 / p->hz;
    /* Forged ticks or points: saturate rather than overflow. */
    if (!(elapsed < (double) (UINT64_MAX - p->ns)))
        return UINT64_MAX;
    return p->ns + (uint64_t) elapsed;
}

void recorder_time_cache_update(recorder_time_cache *cache,
                                const recorder_time_base *live)
{
    unsigned count = __atomic_load_n(&live->count, __ATOMIC_ACQUIRE);
    if (count > RECORDER_TIME_POINTS)
        count = RECORDER_TIME_POINTS;
    while (!cache->broken && cache->count < count)
    {
        /* Copied, then checked: what was checked is what converts. */
        recorder_time_point point;
        memcpy(&point, &live->points[cache->count], sizeof(point));
        const recorder_time_point *previous =
            cache->count ? &cache->points[cache->count - 1] : NULL;
        if (!recorder_time_point_valid(previous, &point))
        {
            cache->broken = true;
            break;
        }
        cache->points[cache->count++] = point;
    }
}
