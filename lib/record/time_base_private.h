/* time_base_private.h - turning timestamp ticks into CLOCK_MONOTONIC time.
 *
 * The writer publishes calibration points: from 'ticks' on, time runs from
 * 'ns' at 'hz' ticks per second, until the next point. Points are appended,
 * never changed once published, and each new one starts, in the future, on
 * the line of the one before. So the time of a record is final as soon as
 * anyone converts it: it is the same before and after later calibrations,
 * for every reader, in the writer and out of it. And since every process
 * maps ticks to the same CLOCK_MONOTONIC, times of processes on one host
 * compare directly.
 *
 * The same table lives in the writer (clock.c fills it) and in the shared
 * segment (a region of its own). Readers of a segment keep a validated copy
 * (recorder_time_cache): the table is untrusted input there.
 */
#ifndef RECORDER_TIME_BASE_PRIVATE_H
#define RECORDER_TIME_BASE_PRIVATE_H

#include "base/visibility_private.h"

#include <stdbool.h>
#include <stdint.h>

/* 4 KiB: enough for the doubling intervals of the first minute and one
 * point a minute for more than two hours after; the last rate holds then. */
#define RECORDER_TIME_POINTS    170

typedef struct recorder_time_point
{
    uint64_t ticks;                     /* from this tick value on */
    uint64_t ns;                        /* CLOCK_MONOTONIC at 'ticks' */
    double   hz;                        /* ticks per second from here */
} recorder_time_point;

typedef struct recorder_time_base
{
    uint32_t            count;          /* points published (release) */
    uint32_t            claim;          /* != count while one is appended */
    uint64_t            reserved;
    recorder_time_point points[RECORDER_TIME_POINTS];
} recorder_time_base;

/* The one conversion: CLOCK_MONOTONIC nanoseconds at 'ticks', from 'count'
 * valid points (see recorder_time_points_valid). Before the first point,
 * the first point's time. Async-signal-safe, no system call. */
uint64_t recorder_time_ns(const recorder_time_point *points, unsigned count,
                          uint64_t ticks) RECORDER_HIDDEN;

/* Is 'next' a sane successor of 'previous' (NULL for the first point)? */
bool recorder_time_point_valid(const recorder_time_point *previous,
                               const recorder_time_point *next) RECORDER_HIDDEN;

/* A reader's copy of a published table, checked point by point. */
typedef struct recorder_time_cache
{
    unsigned            count;          /* valid points copied */
    bool                broken;         /* a bad point: take no more */
    recorder_time_point points[RECORDER_TIME_POINTS];
} recorder_time_cache;

/* Copy the points 'live' published since the last call. 'live' may be
 * written by anyone: a bad point stops the copy for good, and the points
 * before it still convert. */
void recorder_time_cache_update(recorder_time_cache *cache,
                                const recorder_time_base *live) RECORDER_HIDDEN;

#endif /* RECORDER_TIME_BASE_PRIVATE_H */
