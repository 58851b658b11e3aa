/* source.h - where the scope's data comes from: one segment, or several
 * read as one.
 *
 * A scope_source follows the segment at a path: it waits for it to appear,
 * reads new samples into the series of each graph (a graph is a channel
 * regex), notices channels added later, and reattaches when a new process
 * replaces the segment. Times of a later process are shifted by the gap
 * between the start times of the two processes, so one time axis (seconds
 * since the first process started) covers both.
 *
 * With several -S, or a -S pattern, the source is a group of such
 * followers (multi_source.c) behind the same calls: a channel is then
 * named PROGRAM[PID]/channel, times are on one CLOCK_MONOTONIC axis, and
 * commands go to a chosen segment or to all. The rest of the scope never
 * asks which kind it holds.
 *
 * Plain C, no GTK: the window and the headless capture share it. Nothing
 * here blocks; poll it from a timer.
 */
#ifndef SCOPE_SOURCE_H
#define SCOPE_SOURCE_H

#include "source/series.h"

#include <recorder/recorder_share.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Samples kept per channel when -w does not ask for more. */
#define SCOPE_HISTORY_DEFAULT   (1u << 20)
/* A graph that got nothing for this long, or for twice the usual gap
 * between its batches if longer (sample_pace.h), is paused: "no data
 * since". */
#define SCOPE_PAUSE_SECONDS     1.0
/* The right edge runs at most this far ahead of the newest sample (more
 * for channels that arrive in slow batches): enough to scroll smoothly
 * between polls, little enough that the newest data stays at the edge
 * when the program stops recording. */
#define SCOPE_SCROLL_LEAD       0.1

typedef enum scope_source_state
{
    SCOPE_SOURCE_WAITING,               /* no segment at the path yet */
    SCOPE_SOURCE_FAILED,                /* a file there we cannot use */
    SCOPE_SOURCE_LIVE,                  /* attached, its writer runs */
    SCOPE_SOURCE_EXITED,                /* the writer is gone: last data */
    SCOPE_SOURCE_DIED,
    SCOPE_SOURCE_MOVED                  /* the writer shares elsewhere */
} scope_source_state;

typedef struct scope_source_config
{
    double duration;                    /* seconds shown; <= 0: all kept */
    size_t keep;                        /* samples kept per channel */
    double ratio;                       /* averaging ratio, in (0, 1) */
    unsigned open_flags;                /* of recorder_share_open_flags() */
} scope_source_config;

typedef struct scope_source scope_source;

/* What a poll found; a bit set. */
enum
{
    SCOPE_POLL_DATA     = 1,            /* new samples for some graph */
    SCOPE_POLL_STATE    = 2,            /* state or message changed */
    SCOPE_POLL_ATTACHED = 4,            /* attached to a new process */
    SCOPE_POLL_CHANNELS = 8,            /* a graph got a new channel */
    SCOPE_POLL_HURRY    = 16            /* a ring filled a quarter or more
                                           since the last poll, or lost
                                           records: poll again soon */
};

/* 'path' NULL for the default. NULL if out of memory. */
scope_source *scope_source_new(const char *path,
                               const scope_source_config *config);
void scope_source_delete(scope_source *source);

/* Add a graph of the channels whose whole name matches the POSIX extended
 * 'regex' (NULL: every channel). Returns its index, -1 if out of memory.
 * A graph added while polling gets its channels at the next poll. */
int scope_source_add_graph(scope_source *source, const char *regex);

/* Open, reattach, read: everything that may touch the segment. 'now' is a
 * monotonic time in seconds (g_get_monotonic_time() / 1e6 or
 * CLOCK_MONOTONIC); it must not go backwards. */
unsigned scope_source_poll(scope_source *source, double now);

scope_source_state scope_source_get_state(const scope_source *source);
const char *scope_source_path(const scope_source *source);
/* One line saying where the source stands ("waiting for PATH", "perfdata
 * (pid 12) running", an error...). */
const char *scope_source_message(const scope_source *source);
/* The open segment, NULL when there is none. Valid until the next poll. */
recorder_share *scope_source_share(scope_source *source);
/* Current value of tweak 'name' in the attached process. */
bool scope_source_tweak(scope_source *source, const char *name,
                        intptr_t *value);

const char *scope_source_graph_regex(const scope_source *source,
                                     unsigned graph);
/* Channels added or removed in the window, beyond what the regex of
 * 'graph' says (graph_members.h). Adding takes effect at the next poll,
 * which finds the channel if the segment has it (now or later); removing
 * takes it out of the graph's channels now: '*removed_at' is the index it
 * had there, -1 if it was not there yet. False when nothing changed. */
bool scope_source_graph_add_channel(scope_source *source, unsigned graph,
                                    const char *name);
bool scope_source_graph_remove_channel(scope_source *source, unsigned graph,
                                       const char *name, int *removed_at);
/* "REGEX +added -removed" of 'graph'. */
size_t scope_source_graph_describe(const scope_source *source,
                                   unsigned graph, char *buf, size_t size);
unsigned scope_source_graph_count(const scope_source *source);
/* Channels of 'graph', in the order they were found. */
scope_series *const *scope_source_graph_series(const scope_source *source,
                                               unsigned graph,
                                               unsigned *count);
/* True once per batch of new samples for 'graph'. */
bool scope_source_graph_take_new(scope_source *source, unsigned graph);
/* Time at the right edge of 'graph' at monotonic time 'now': the writer's
 * current time while samples flow (so the graph scrolls smoothly between
 * batches), where it stopped once they pause. '*scrolling' says which. */
double scope_source_graph_view_end(scope_source *source, unsigned graph,
                                   double now, bool *scrolling);
/* Times of the oldest and newest sample held in any channel of any graph.
 * False when nothing is held. */
bool scope_source_held_range(const scope_source *source, double *oldest,
                             double *newest);
/* The right edge every graph of a window shows live at 'now': the latest
 * of the graphs' own (scope_source_graph_view_end), so that a graph with
 * no new data scrolls with the others. NaN before any data. */
double scope_source_view_end(scope_source *source, double now,
                             bool *scrolling);
/* Where time 't' of the attached process (seconds since it started, as
 * samples and records have it) is on the scope's axis; NaN before the
 * first attach. */
double scope_source_axis_time(const scope_source *source, double t);
/* Where monotonic time 'now' is on the scope's axis; NaN if unknown. */
double scope_source_axis_now(const scope_source *source, double now);
/* What to say over 'graph' (waiting, no data since..., exited), or "". */
size_t scope_source_graph_message(const scope_source *source, unsigned graph,
                                  double now, char *buf, size_t size);
/* The process whose data the source holds (running, exited...), or NULL
 * while there is none (waiting, failed). */
const recorder_share_process *scope_source_process(const scope_source *source);

/* ---- one segment or several ------------------------------------------------- */

/* The source for the -S given: one segment's, as scope_source_new(), for
 * none or one path that is no pattern; a group otherwise. NULL if out of
 * memory. */
scope_source *scope_source_new_paths(const char *const *paths, unsigned count,
                                     const scope_source_config *config);

/* Segments of 'source' in the order they joined: itself for one segment.
 * scope_source_segment_found() says what its last poll found. */
unsigned scope_source_segment_count(const scope_source *source);
scope_source *scope_source_segment(const scope_source *source, unsigned i);
unsigned scope_source_segment_found(const scope_source *source, unsigned i);
/* PROGRAM[PID] of segment 'i' once attached, else its path. */
const char *scope_source_segment_name(const scope_source *source, unsigned i);

/* The segment commands and tweaks go to: -1 for all (tweaks then read the
 * first that has one). Always -1 for one segment. */
int scope_source_target(const scope_source *source);
void scope_source_set_target(scope_source *source, int target);

/* Whether 'source' reads several segments (a group), NULL if one. */
typedef struct scope_group scope_group;
scope_group *scope_source_group(const scope_source *source);

#endif /* SCOPE_SOURCE_H */
