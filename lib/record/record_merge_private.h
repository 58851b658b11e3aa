/* record_merge_private.h - merge the records of many lanes in time order.
 *
 * The one k-way merge of the library: in-process dumps (explicit,
 * background, on a signal or a crash) merge the lanes of every recorder
 * they print, channel reads of a shared segment the lanes of one
 * recorder, segment dumps the lanes of every recorder. The caller owns the
 * cursors (a signal handler keeps them on its stack), opens each on its
 * lane, and afterwards finds in each cursor's 'index' where the next read
 * of that lane starts. No allocation, lock or system call of its own:
 * async-signal-safe if 'fn' and 'losses->writers_gone' are.
 */
#ifndef RECORDER_RECORD_MERGE_PRIVATE_H
#define RECORDER_RECORD_MERGE_PRIVATE_H

#include "record/lane_cursor_private.h"

#include <stddef.h>

/* Take one record of cursors[source]; true if it counts towards 'max'. */
typedef bool (*record_merge_fn)(const recorder_record *record,
                                unsigned source, void *arg);

/* Call 'fn' for the records of 'count' cursors, oldest timestamp first
 * (ties go to the lane already being read, then to the lower position),
 * until 'fn' has returned true 'max' times or no cursor has a record
 * ready. Returns how many times it returned true. */
size_t record_merge(lane_cursor *cursors, unsigned count, size_t max,
                    lane_losses *losses, record_merge_fn fn, void *arg)
    RECORDER_HIDDEN;

#endif /* RECORDER_RECORD_MERGE_PRIVATE_H */
