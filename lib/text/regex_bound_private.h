/* regex_bound_private.h - the limits of recorder_regex_compile().
 *
 * recorder_regex.h (public) says why a pattern's cost must be bounded;
 * these limits keep one pattern under 100 ms of CPU and 16 MiB (see
 * regex_bound.c for the measurements).
 */
#ifndef RECORDER_REGEX_BOUND_PRIVATE_H
#define RECORDER_REGEX_BOUND_PRIVATE_H

#include "recorder_regex.h"

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

#endif /* RECORDER_REGEX_BOUND_PRIVATE_H */
