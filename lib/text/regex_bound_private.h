/* regex_bound_private.h - regular expressions whose cost is bounded.
 *
 * Patterns come from RECORDER_TRACES, recorder_trace_set(), the command
 * ring of the shared segment (any process that can write it), export
 * requests, and the command line of readers. glibc's regcomp copies the
 * tree of every bounded repetition and computes an epsilon closure per
 * node, so a few bytes such as "((((x{64}){64}){64}){64})" cost tens of
 * seconds and gigabytes, and "(x?){4096}" costs seconds in regexec too.
 * Every pattern goes through recorder_regex_compile(), which estimates what
 * glibc would build and refuses above limits that keep one pattern under
 * 100 ms of CPU and 16 MiB (see regex_bound.c for the measurements).
 */
#ifndef RECORDER_REGEX_BOUND_PRIVATE_H
#define RECORDER_REGEX_BOUND_PRIVATE_H

#include "recorder.h"
#include "base/visibility_private.h"

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

/* Longest pattern accepted, in bytes. */
#define RECORDER_REGEX_MAX_LENGTH       1024
/* Estimated nodes once repetitions are expanded: a character counts 1, a
 * bracket or \w 4, each repeated copy 1 more; "x{8192}" is at the limit. */
#define RECORDER_REGEX_MAX_NODES        16384
/* Estimated epsilon-closure entries: nodes that can be skipped times the
 * longest run of them (what makes "(x?){N}" quadratic); "(x?){128}" is
 * at the limit. */
#define RECORDER_REGEX_MAX_CLOSURE      262144
/* Loops ('*', '+', '{n,}') around what may match empty, nested or stacked:
 * "((a*)*)*" is at the limit. */
#define RECORDER_REGEX_MAX_LOOPS        2

/* Compile 'pattern' (POSIX extended) to match whole names regardless of
 * case, as recorder 1.2 did: "^(pattern)$", REG_EXTENDED | REG_NOSUB |
 * REG_ICASE. Refuses back-references and patterns whose
 * estimated cost exceeds the limits above. On failure, returns false with
 * the reason in 'why' (if not NULL) and nothing to regfree. On success,
 * '*nodes' (if not NULL) is the estimated size, in nodes, so that callers
 * keeping many patterns can bound their total. */
bool recorder_regex_compile(regex_t *regex, const char *pattern,
                            size_t *nodes, char *why, size_t why_size)
    RECORDER_HIDDEN;

#endif /* RECORDER_REGEX_BOUND_PRIVATE_H */
