/* segment_source.h - one segment as a source (scope_source_new), and what
 * a group asks of the segments it holds. */
#ifndef SCOPE_SEGMENT_SOURCE_H
#define SCOPE_SEGMENT_SOURCE_H

#include "source/group_axis.h"
#include "source/source.h"

/* Make 'source' (from scope_source_new) one of a group's segments: named
 * PROGRAM[PID]/channel, on the group's axis. */
void segment_source_join(scope_source *source, scope_group_link *link);
/* PROGRAM[PID] once attached as one of a group's, else its path. */
const char *segment_source_label(const scope_source *source);

#endif /* SCOPE_SEGMENT_SOURCE_H */
