/* column_cache.h - decimated columns kept from one frame to the next.
 *
 * Columns are anchored to absolute indices (column a covers times
 * [a * step, (a + 1) * step), decimate.h), so as a live view scrolls, a
 * column holds the same samples in every frame until samples are added
 * to it or dropped from it. Samples are only appended (at times no
 * earlier than the newest) or dropped from the front, so a frame needs
 * to decimate only the columns from the one that held the newest sample
 * on, those that held dropped samples, and those it did not have before:
 * a few per frame instead of the plot's width, per track.
 *
 * The columns are exactly those scope_decimate() gives: a kept column is
 * reused only when the samples it holds can be shown to be the same (the
 * span's step may differ by a rounding error between frames: then each
 * kept column is checked against the new boundaries).
 *
 * Plain C, no cairo: the unit tests compare it with scope_decimate(), and
 * its summaries with those of the columns read one by one.
 */
#ifndef SCOPE_COLUMN_CACHE_H
#define SCOPE_COLUMN_CACHE_H

#include "view/column_summary.h"
#include "source/decimate.h"

#include <stdint.h>

typedef struct scope_column_cache scope_column_cache;

/* NULL if out of memory. */
scope_column_cache *scope_column_cache_new(void);
void scope_column_cache_delete(scope_column_cache *cache);

/* The 'count' columns from absolute column 'origin' of the samples
 * [track->first, end) of 'track', as scope_decimate(track, track->first,
 * end, origin, step, count, out) fills 'out'. 'slot' names the track (a
 * graph's series and kind) and 'owner' whose samples they are (its
 * series): the previous call on the slot left columns that are reused
 * where they still hold. The columns belong to the cache, valid until
 * the next call on the slot; NULL if out of memory. */
scope_column *scope_column_cache_get(scope_column_cache *cache, unsigned slot,
                                     const void *owner,
                                     const scope_track_view *track,
                                     uint64_t end, int64_t origin, double step,
                                     unsigned count);

/* The summary (column_summary.h) of absolute columns [from, to) of the
 * slot's last call (clipped to those it returned). Summaries of blocks of
 * columns are kept while later calls keep their columns, and so is their
 * join over the middle of the last range asked for: a scrolling frame
 * reads again only the columns near its ends and those new samples
 * changed, and few kept summaries. */
scope_column_summary scope_column_cache_summary(scope_column_cache *cache,
                                                unsigned slot, int64_t from,
                                                int64_t to);

/* Columns decimated, not reused, by all calls so far. */
uint64_t scope_column_cache_decimated(const scope_column_cache *cache);

/* Columns read by all summaries so far: those of blocks kept are not. */
uint64_t scope_column_cache_summarised(const scope_column_cache *cache);

/* Kept summaries of wide blocks read by all summaries so far: those of
 * the middle joined before are not. */
uint64_t scope_column_cache_blocks_read(const scope_column_cache *cache);

#endif /* SCOPE_COLUMN_CACHE_H */
