/* timing_unit.h - the unit of the timing view's axis.
 *
 * Intervals between samples are kept in microseconds (the CSV's
 * .interval_us columns); the axis shows them in ns, us, ms or s, whichever
 * keeps the largest one shown between 1 and 1000, so that a 2 s period
 * does not read "2000000" and a 300 ns one "0.3".
 */
#ifndef SCOPE_TIMING_UNIT_H
#define SCOPE_TIMING_UNIT_H

typedef struct scope_timing_unit
{
    double      scale;                  /* axis value = microseconds * scale */
    const char *name;                   /* "ns", "us", "ms" or "s" */
} scope_timing_unit;

/* The unit for an axis whose largest interval is 'largest_us'
 * microseconds (NaN or <= 0: microseconds). */
scope_timing_unit scope_timing_unit_for(double largest_us);

#endif /* SCOPE_TIMING_UNIT_H */
