/* marker_feed.h - what adds markers: restarts of the program, commands the
 * scope sends, snapshots the program wrote, and the records of the
 * recorders named with -e.
 *
 * Call scope_marker_feed_poll() after each scope_source_poll(): it marks
 * a restart when the source attached to a new process (not the first one
 * it found) and reads the records of the followed recorders that are new
 * since the last poll (recorder_share_records_read), each a marker at its
 * own time on the scope's axis. Plain C.
 */
#ifndef SCOPE_MARKER_FEED_H
#define SCOPE_MARKER_FEED_H

#include "source/channel_data.h"
#include "view/event_markers.h"

#include <stddef.h>

typedef struct scope_marker_feed scope_marker_feed;

/* Markers into 'markers' for the recorders whose whole names match one of
 * the 'count' POSIX extended 'regexes' (none: restarts and commands only).
 * NULL with the reason in error[size] for a bad regex or no memory. */
scope_marker_feed *scope_marker_feed_new(scope_markers *markers,
                                         const char *const *regexes,
                                         unsigned count, char *error,
                                         size_t size);
void scope_marker_feed_delete(scope_marker_feed *feed);

/* After scope_source_poll() returned 'found'.
 * Returns the markers added. */
unsigned scope_marker_feed_poll(scope_marker_feed *feed, scope_source *source,
                                unsigned found);

/* 'command' was sent to the program at monotonic time 'now'. */
void scope_marker_feed_command(scope_marker_feed *feed,
                               const scope_source *source,
                               const char *command, double now);

#endif /* SCOPE_MARKER_FEED_H */
