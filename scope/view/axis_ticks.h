/* axis_ticks.h - round tick positions and short labels for graph axes.
 *
 * Ticks step by 1, 2 or 5 times a power of ten. Labels of one axis share
 * a scale: an SI prefix (k, M, G, T; m, u, n) once values get long, and
 * just enough decimals to tell neighbouring ticks apart.
 */
#ifndef SCOPE_AXIS_TICKS_H
#define SCOPE_AXIS_TICKS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct scope_ticks
{
    double   first;                     /* first tick >= the range's low end */
    double   step;
    unsigned count;                     /* ticks within the range */
    double   scale;                     /* labels show value / scale */
    const char *prefix;                 /* SI prefix for that scale, or "" */
    int      decimals;
} scope_ticks;

/* The step closest to (hi - lo) / target among 1, 2, 5 x 10^n. */
double scope_tick_step(double lo, double hi, unsigned target);

/* Ticks for [lo, hi] (target: how many are wanted, about). 'si' allows SI
 * prefixes in labels. False if the range is not finite; an empty range
 * gets ticks around its value. */
bool scope_ticks_make(double lo, double hi, unsigned target, bool si,
                      scope_ticks *ticks);

/* Widen [*lo, *hi] to multiples of its tick step, so the data never
 * touches the frame and the scale changes by steps, not every frame.
 * A range of zero width is widened around its value; NaN becomes [0, 1]. */
void scope_range_nice(double *lo, double *hi, unsigned target);

/* Tick 'index' and its label. */
double scope_tick_value(const scope_ticks *ticks, unsigned index);
size_t scope_tick_label(const scope_ticks *ticks, double value, char *buf,
                        size_t size);

/* A single value as the legend shows it: integers in full up to 15
 * digits, others with 6 significant digits. */
size_t scope_value_label(double value, char *buf, size_t size);

#endif /* SCOPE_AXIS_TICKS_H */
