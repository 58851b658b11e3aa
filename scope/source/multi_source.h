/* multi_source.h - several segments read as one source.
 *
 * With several -S, or a -S pattern, scope_source_new_paths() (source.h)
 * gives a group: one follower per segment path (it waits, attaches,
 * follows restarts as alone), their graphs' channels side by side on one
 * axis (group_axis.h). Patterns are globbed again every second: new
 * segments join. Commands and tweaks go to the chosen segment ("target"),
 * or to all. A single -S that is no pattern is no group: names, axis and
 * output are exactly those of one segment.
 *
 * Everything goes through source.h; this header only names the file that
 * implements it.
 */
#ifndef SCOPE_MULTI_SOURCE_H
#define SCOPE_MULTI_SOURCE_H

#include "source/group_axis.h"
#include "source/source.h"

#endif /* SCOPE_MULTI_SOURCE_H */
