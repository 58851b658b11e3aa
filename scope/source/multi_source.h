/* multi_source.h - several segments shown as one source.
 *
 * With several -S, or a -S pattern, the window and the headless capture
 * follow each segment with its own scope_source (one per path: it waits,
 * attaches, follows restarts as alone) inside a group, which is itself
 * a scope_source: graphs, polls and the rest go through the usual calls
 * (channel_data.h) and the group answers them from its segments. So the
 * window, the trigger, the CSV and PNG need no change.
 *
 * In a group:
 * - a channel is named PROGRAM[PID]/channel; a graph regex selects it when
 *   it matches the whole of either name: bytes, or qemu\[12\]/bytes;
 * - sample times are CLOCK_MONOTONIC, less the earliest start of the
 *   processes present when the scope started (or of the first to come):
 *   one axis, on which processes of one host line up to the microsecond;
 * - patterns are globbed again every second: new segments join;
 * - commands and tweaks go to the chosen segment ("target"), or to all.
 * A single -S that is no pattern is no group: names, axis and output are
 * exactly those of one segment.
 */
#ifndef SCOPE_MULTI_SOURCE_H
#define SCOPE_MULTI_SOURCE_H

#include "source/channel_data.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct scope_group scope_group;

/* What the group shares with each of its segments' sources. */
typedef struct scope_group_link
{
    double   origin;                    /* CLOCK_MONOTONIC seconds at time 0
                                           of the axis; NaN: not known yet */
    unsigned colours;                   /* the next series colour */
} scope_group_link;

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

/* ---- names (plain functions, for channel_data.c and tests) ---------------- */

/* 'channel' named for the process 'label' (PROGRAM[PID]): "label/channel"
 * in buf, or 'channel' itself when 'label' is empty. */
const char *scope_group_full_name(const char *label, const char *channel,
                                  char *buf, size_t size);
/* The channel part of full name 'name': after "label/" if 'label' is given
 * (NULL if 'name' is another process's; 'name' if 'label' is empty), after
 * any PROGRAM[DIGITS]/ if 'label' is NULL ('name' if none). */
const char *scope_group_channel_of(const char *label, const char *name);

/* ---- for channel_data.c --------------------------------------------------- */

/* A source that hands its calls to 'group'. */
scope_source *scope_source_new_group(scope_group *group, const char *path,
                                     const scope_source_config *config);
/* Make 'source' one of a group's segments. */
void scope_source_join_group(scope_source *source, scope_group_link *link);
scope_group *scope_source_group(const scope_source *source);
unsigned scope_source_last_found(const scope_source *source);
/* PROGRAM[PID] of a group's segment once attached, else its path. */
const char *scope_source_label(const scope_source *source);

/* A segment attached to 'process': its offset on the axis, and its label. */
double scope_group_place(scope_group_link *link,
                         const recorder_share_process *process,
                         char *label, size_t size);

void scope_group_delete(scope_group *group);
int scope_group_add_graph(scope_group *group, const char *regex);
unsigned scope_group_poll(scope_group *group, double now);
scope_source_state scope_group_state(const scope_group *group);
const char *scope_group_path(const scope_group *group);
const char *scope_group_message(const scope_group *group);
recorder_share *scope_group_share(scope_group *group);
bool scope_group_tweak(scope_group *group, const char *name, intptr_t *value);
scope_series *const *scope_group_graph_series(const scope_group *group,
                                              unsigned graph, unsigned *count);
bool scope_group_graph_take_new(scope_group *group, unsigned graph);
double scope_group_graph_view_end(scope_group *group, unsigned graph,
                                  double now, bool *scrolling);
double scope_group_view_end(scope_group *group, double now, bool *scrolling);
bool scope_group_held_range(const scope_group *group, double *oldest,
                            double *newest);
size_t scope_group_graph_message(const scope_group *group, unsigned graph,
                                 double now, char *buf, size_t size);
double scope_group_axis_time(const scope_group *group, double t);
double scope_group_axis_now(const scope_group *group, double now);
const recorder_share_process *scope_group_process(const scope_group *group);
void scope_group_graph_add_channel(scope_group *group, unsigned graph,
                                   const char *name);
int scope_group_graph_remove_channel(scope_group *group, unsigned graph,
                                     const char *name);

#endif /* SCOPE_MULTI_SOURCE_H */
