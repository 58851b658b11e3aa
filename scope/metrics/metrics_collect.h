/* metrics_collect.h - what recorder_scope --metrics reports, read from a
 * scope_source (one segment or several, channel_data.h, multi_source.h).
 *
 * After each poll the collector takes the new samples of every channel
 * the graphs hold (each channel once, whatever the graphs that show it)
 * into its interval statistics, counts restarts and failures of each
 * segment; then it writes the exposition text on demand. A channel is
 * reported for the process that has it now: a process that restarts
 * (a new pid) starts new counters.
 */
#ifndef SCOPE_METRICS_COLLECT_H
#define SCOPE_METRICS_COLLECT_H

#include "source/channel_data.h"
#include "metrics/metrics_text.h"

typedef struct metrics_collector metrics_collector;

metrics_collector *metrics_collector_new(void);
void metrics_collector_delete(metrics_collector *collector);

/* Call after every scope_source_poll() of 'source'. */
void metrics_collector_read(metrics_collector *collector,
                            scope_source *source);
/* A scrape was served; 'latest': it got the last text written. */
void metrics_collector_served(metrics_collector *collector, bool latest);
/* The exposition of what was read, in both formats; the interval
 * statistics it shows start the next scrape's (metrics_span). */
void metrics_collector_write(metrics_collector *collector,
                             scope_source *source,
                             const metrics_health *health,
                             metrics_buffer *plain,
                             metrics_buffer *openmetrics);

#endif /* SCOPE_METRICS_COLLECT_H */
