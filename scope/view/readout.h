/* readout.h - the numbers a user reads off a graph: the value of each
 * channel under the pointer, and the differences between cursors A and B.
 *
 * Numbers are in engineering notation with the axis's SI prefixes, in a
 * fixed width, so that a legend or readout refreshed several times a
 * second does not jitter. Plain C: shared by the drawing, the status line
 * and --trace-view.
 */
#ifndef SCOPE_READOUT_H
#define SCOPE_READOUT_H

#include "source/channel_data.h"

#include <stdbool.h>
#include <stddef.h>

/* 'v' with 'unit' in 8 characters plus prefix and unit: "   1.235 kB",
 * "      42 B"; integers below 1000 without decimals; "-" for NaN. */
size_t scope_readout_number(double v, const char *unit, char *buf,
                            size_t size);

/* 'v' short, for range labels: 4 significant digits and an SI prefix,
 * no padding: "2.5 T", "-12.5 m", "42". */
size_t scope_readout_short(double v, const char *unit, char *buf,
                           size_t size);

/* A time on the axis, in seconds to the microsecond: "12.345678 s". */
size_t scope_readout_time(double t, char *buf, size_t size);

/* What the readout says about 'series' (those with hidden[s] set are
 * left out) at the pointer's time 'hover' and with cursors 'a' and 'b'
 * (NaN: not placed), one line each, '\n'-terminated: the time, then a
 * line per channel; with both cursors, dt and 1/dt and each channel's
 * value at A, at B and their delta. Empty when there is nothing to say. */
size_t scope_readout_text(scope_series *const *series, unsigned count,
                          const bool *hidden, double hover, double a,
                          double b, char *buf, size_t size);

#endif /* SCOPE_READOUT_H */
