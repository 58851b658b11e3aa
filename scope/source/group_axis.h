/* group_axis.h - names and one time axis for the segments of a group.
 *
 * In a group a channel is named PROGRAM[PID]/channel; a graph regex
 * selects it when it matches the whole of either name: bytes, or
 * qemu\[12\]/bytes. Sample times are CLOCK_MONOTONIC, less the earliest
 * start of the processes present when the scope started (or of the first
 * to come): one axis, on which processes of one host line up to the
 * microsecond.
 */
#ifndef SCOPE_GROUP_AXIS_H
#define SCOPE_GROUP_AXIS_H

#include <recorder/recorder_share.h>
#include <stddef.h>

/* What the group shares with each of its segments' sources. */
typedef struct scope_group_link
{
    double   origin;                    /* CLOCK_MONOTONIC seconds at time 0
                                           of the axis; NaN: not known yet */
    unsigned colours;                   /* the next series colour */
} scope_group_link;

/* 'channel' named for the process 'label' (PROGRAM[PID]): "label/channel"
 * in buf, or 'channel' itself when 'label' is empty. */
const char *scope_group_full_name(const char *label, const char *channel,
                                  char *buf, size_t size);
/* The channel part of full name 'name': after "label/" if 'label' is given
 * (NULL if 'name' is another process's; 'name' if 'label' is empty), after
 * any PROGRAM[DIGITS]/ if 'label' is NULL ('name' if none). */
const char *scope_group_channel_of(const char *label, const char *name);

/* A segment attached to 'process': its offset on the axis, and its label. */
double scope_group_place(scope_group_link *link,
                         const recorder_share_process *process,
                         char *label, size_t size);

#endif /* SCOPE_GROUP_AXIS_H */
