/* metrics_run.h - recorder_scope --metrics [ADDR:]PORT
 *
 * Headless: no window, no display. Follows the segments of -S (waiting,
 * restarts, patterns watched for new processes, as the window does) and
 * serves their channels as Prometheus metrics until SIGINT or SIGTERM.
 */
#ifndef SCOPE_METRICS_RUN_H
#define SCOPE_METRICS_RUN_H

#include "options/scope_options.h"

/* Samples each channel keeps: more than a poll ever brings. */
#define METRICS_HISTORY         (1u << 16)
/* The text served is rebuilt this often while anything changes. */
#define METRICS_BUILD_SECONDS   0.1

/* Returns the exit status: 0 once stopped by a signal, 1 if the address
 * cannot be served (said on stderr). */
int scope_metrics_run(const scope_options *options);

#endif /* SCOPE_METRICS_RUN_H */
