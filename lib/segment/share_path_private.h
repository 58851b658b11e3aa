/* share_path_private.h - expand the escapes of a segment path.
 *
 * RECORDER_SHARE and share= may hold %p (pid), %n (program name), %u (user
 * id), %h (host name) and %% (a '%'), so that each process of a system
 * shares in a segment of its own. Plain: the values come in a struct, so
 * a test drives the expansion with any it likes.
 */
#ifndef RECORDER_SHARE_PATH_PRIVATE_H
#define RECORDER_SHARE_PATH_PRIVATE_H

#include "base/visibility_private.h"

#include <stdbool.h>
#include <stddef.h>

/* What the escapes stand for. Names may be anything (NULL: empty): the
 * expansion makes them safe for a file name. */
typedef struct share_path_values
{
    unsigned long pid;                  /* %p */
    const char *  program;              /* %n */
    unsigned long uid;                  /* %u */
    const char *  host;                 /* %h */
} share_path_values;

/* The escapes a segment path knows, for messages and help. */
#define SHARE_PATH_ESCAPES      "%p %n %u %h %%"

/* Expand 'path' into out[size]. %n and %h become their value with every
 * byte outside [A-Za-z0-9._-] replaced by '_' (so no '/', control
 * character or pattern character), "_" if empty, and '.' or '..' made
 * '_' or '__' (never a directory of their own). False, with a message in
 * why[why_size] naming the problem, for an unknown escape, a '%' at the
 * end, or a result that does not fit: truncating it could make two
 * processes' paths the same. */
bool share_path_expand(const char *path, const share_path_values *values,
                       char *out, size_t size, char *why, size_t why_size)
    RECORDER_HIDDEN;

/* This process's values: its pid, program_invocation_short_name (the
 * program the segment header names), effective user id (the owner of the
 * files it makes) and host name (gethostname, written in host[host_size]). */
void share_path_values_here(share_path_values *values, char *host,
                            size_t host_size) RECORDER_HIDDEN;

/* Whether 'path' names a different file in each process: it has %p or %n.
 * A reader cannot expand those for the writer it wants. */
bool share_path_per_process(const char *path) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_PATH_PRIVATE_H */
