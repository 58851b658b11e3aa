/* event_markers.h - events marked on the time axis of every graph.
 *
 * A flight recorder knows why a curve jumped: the program restarted, the
 * scope sent it a command or moved a slider, it recorded something in a
 * recorder the user follows (-e REGEX), or a snapshot condition held and
 * it wrote a snapshot. Each is a marker: a time on the
 * scope's axis, a kind and a line of text, shown as a tick on the plot
 * and, when the pointer is near it, in the readout. The store keeps the
 * newest SCOPE_MARKERS_MAX; the oldest go first. Plain C.
 */
#ifndef SCOPE_EVENT_MARKERS_H
#define SCOPE_EVENT_MARKERS_H

#include <stdbool.h>
#include <stddef.h>

#define SCOPE_MARKERS_MAX       4096
#define SCOPE_MARKER_TEXT       240     /* bytes kept of a marker's text */
#define SCOPE_MARKER_SLOP       4.0     /* pixels the pointer may be off */

typedef enum scope_marker_kind
{
    SCOPE_MARKER_RESTART,               /* a new process took the segment */
    SCOPE_MARKER_COMMAND,               /* a command or slider value sent */
    SCOPE_MARKER_RECORD,                /* a record of an -e recorder */
    SCOPE_MARKER_SNAPSHOT,              /* the program wrote a snapshot */
    SCOPE_MARKER_KINDS
} scope_marker_kind;

typedef struct scope_marker
{
    double            time;             /* on the scope's axis */
    scope_marker_kind kind;
    char              text[SCOPE_MARKER_TEXT];
} scope_marker;

typedef struct scope_markers scope_markers;

/* Told of each marker as it is added (--trace-view). */
typedef void (*scope_marker_fn)(const scope_marker *marker, void *arg);

/* A store of at most 'capacity' markers (0: SCOPE_MARKERS_MAX). NULL if
 * out of memory. */
scope_markers *scope_markers_new(size_t capacity);
void scope_markers_delete(scope_markers *markers);
void scope_markers_observe(scope_markers *markers, scope_marker_fn fn,
                           void *arg);

/* Add a marker ('text' cut at SCOPE_MARKER_TEXT bytes, on a character
 * boundary); the oldest goes when the store is full. Ignored for a time
 * that is not a number. */
void scope_markers_add(scope_markers *markers, scope_marker_kind kind,
                       double time, const char *text);

/* Markers held (none in a NULL store), and the index-th, oldest added
 * first. */
size_t scope_markers_count(const scope_markers *markers);
const scope_marker *scope_markers_get(const scope_markers *markers,
                                      size_t index);

/* A scope_marker_fn for --trace-view: "marker: KIND TIME TEXT" on the
 * FILE 'file', flushed. */
void scope_marker_print(const scope_marker *marker, void *file);

/* "restart", "command", "record". */
const char *scope_marker_kind_name(scope_marker_kind kind);

/* The marker drawn nearest to pixel 'x' on a plot [x0, x0 + width] that
 * spans times [t0, t1], if one is within 'slop' pixels; NULL otherwise.
 * Of markers at the same pixel, the one added last. */
const scope_marker *scope_markers_near(const scope_markers *markers,
                                       double x, double slop, double t0,
                                       double t1, double x0, double width);

#endif /* SCOPE_EVENT_MARKERS_H */
