/* segment_list.h - which segments -S names, and recorder_scope -L. */
#ifndef SEGMENT_LIST_H
#define SEGMENT_LIST_H

#include <stdbool.h>
#include <stdio.h>

/* The segments named by a list of -S values, each a path or a glob(3)
 * pattern, in the order given (a pattern's matches sorted), each file once
 * (by name, then by device and inode). */
typedef struct scope_segment_set
{
    char **  paths;
    unsigned count;
    bool     several;                   /* more than one -S, or a pattern:
                                           lines name their process */
    unsigned empty_patterns;            /* patterns that matched nothing */
} scope_segment_set;

/* Expand patterns[count] into 'set'. A path without pattern characters is
 * kept even if nothing is there (opening it says why); a pattern matching
 * nothing adds nothing, and with 'complain' says so on stderr. The
 * library's temporaries (PATH.grow.XXXXXX) are never matches. False, with
 * a message on stderr, if out of memory. */
bool scope_segment_set_expand(scope_segment_set *set,
                              const char *const *patterns, unsigned count,
                              bool complain);
void scope_segment_set_free(scope_segment_set *set);

/* Where -L looks when given no pattern and no -S: $RECORDER_SHARE (its
 * %p %n %u %h as '*'), /tmp/recorder_share*, $XDG_RUNTIME_DIR/recorder_share*.
 * Fills out[max] with pointers to static storage; returns the count. */
unsigned scope_segment_default_patterns(const char **out, unsigned max);

/* Whether 'text' has glob(3) pattern characters. */
bool scope_segment_is_pattern(const char *text);

/* The -L table of the segments of 'set' (see recorder_scope(1)): one
 * header line, then one tab-separated line per file. 'open_flags' as
 * recorder_share_open_flags(): without RECORDER_SHARE_ANY_OWNER, another
 * user's file is listed as refused, never opened. Returns an exit
 * status. */
int scope_segment_table(const scope_segment_set *set, unsigned open_flags,
                        FILE *out);

#endif /* SEGMENT_LIST_H */
