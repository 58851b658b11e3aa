/* csv_export.h - the samples a graph shows, as comma-separated values.
 *
 *   time,bytes,loops[,bytes.average,...]
 *   12.000105000,32926,1
 *
 * One row per distinct time, merged across channels in time order; a
 * channel with no sample at that time leaves its cell empty. Times are
 * seconds (nanosecond precision) on the graph's axis; values print with
 * the fewest digits that read back exactly as recorded (0.1, not
 * 0.10000000000000001). A channel has the columns of the views that are
 * on for it: its values (-n), then .average, .min and .max, .interval_us.
 */
#ifndef SCOPE_CSV_EXPORT_H
#define SCOPE_CSV_EXPORT_H

#include "source/channel_data.h"
#include "view/graph_model.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Write samples [first[s], end[s]) of each of the 'count' series; 'views'
 * is a set of SCOPE_VIEW_*. Returns the number of rows written, or -1 if
 * writing failed. */
long scope_csv_write(FILE *out, scope_series *const *series, unsigned count,
                     const uint64_t *first, const uint64_t *end,
                     unsigned views);

/* The same with views[s], a set of SCOPE_VIEW_*, for each series: a
 * series with none has no column and adds no row. */
long scope_csv_write_views(FILE *out, scope_series *const *series,
                           unsigned count, const uint64_t *first,
                           const uint64_t *end, const unsigned *views);

/* The samples 'count' graphs 'width' pixels wide show, as graph_draw()
 * would: each channel once, with the columns of the views of the graphs
 * that show it. */
long scope_csv_write_graphs(FILE *out, const graph_model *const *models,
                            unsigned count, double width);

/* Why a CSV of these graphs holds no row, in words for a user. */
const char *scope_csv_why_empty(const graph_model *const *models,
                                unsigned count);

#endif /* SCOPE_CSV_EXPORT_H */
