/* recorder_regex.h - compile a regular expression whose cost is bounded.
 *
 *   regex_t regex;
 *   char why[160];
 *   if (!recorder_regex_compile(&regex, typed, NULL, why, sizeof(why)))
 *       fprintf(stderr, "pattern '%s' refused: %s\n", typed, why);
 *   else
 *   {
 *       if (regexec(&regex, name, 0, NULL, 0) == 0)
 *           show(name);                 // 'typed' matches the whole name
 *       regfree(&regex);
 *   }
 *
 * glibc's regcomp() copies the tree of every bounded repetition and builds
 * an epsilon closure per node, so a few bytes such as
 * "((((x{64}){64}){64}){64})" cost tens of seconds and gigabytes, and
 * "(x?){4096}" costs seconds in regexec() too. Every pattern the library
 * takes (RECORDER_TRACES, recorder_trace_set(), commands through a shared
 * segment, export requests, readers' patterns) goes through this function,
 * which estimates what glibc would build and refuses what would cost more
 * than about 100 ms of CPU or 16 MiB: see recorder_regex_compile(3) for
 * the limits. A program that matches names typed by its users, as
 * recorder_scope does, can use it the same way.
 */
#ifndef RECORDER_REGEX_H
#define RECORDER_REGEX_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compile 'pattern' (POSIX extended) to match whole names regardless of
 * case, as recorder 1.2 did: "^(pattern)$", REG_EXTENDED | REG_NOSUB |
 * REG_ICASE. Refuses back-references, a stray ')' and patterns whose
 * estimated cost exceeds the limits. On failure, returns false with the
 * reason in why[why_size] (if 'why' is not NULL) and nothing to regfree().
 * On success, '*nodes' (if 'nodes' is not NULL) is the estimated size, in
 * nodes, so that callers keeping many patterns can bound their total; the
 * caller frees 'regex' with regfree(). */
extern bool recorder_regex_compile(regex_t *regex, const char *pattern,
                                   size_t *nodes, char *why,
                                   size_t why_size);

#ifdef __cplusplus
}
#endif

#endif /* RECORDER_REGEX_H */
