/* graph_members.h - which channels a graph shows: a regex, and the names
 * the user added or removed in the window.
 *
 * A graph starts as a channel regex (a command-line argument, or one made
 * in the picker). Adding a channel the regex does not match puts its name
 * in 'added'; removing one it matches puts it in 'removed'; an add undoes
 * a remove and the other way round. So a name is in at most one list, and
 * only where it changes what the regex says. Whether the regex matches a
 * name is the caller's to say (recorder_share_find_channel's rules: whole
 * names, any case, bounded cost), which keeps this plain bookkeeping.
 */
#ifndef SCOPE_GRAPH_MEMBERS_H
#define SCOPE_GRAPH_MEMBERS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct scope_members
{
    char **  added;                     /* shown though the regex does not
                                           match them */
    unsigned added_count;
    char **  removed;                   /* hidden though it does */
    unsigned removed_count;
} scope_members;

void scope_members_free(scope_members *members);

/* Whether the graph shows 'name'; 'matched': its regex matches it. */
bool scope_members_has(const scope_members *members, const char *name,
                       bool matched);

/* Show or stop showing 'name'. False when nothing changed: it was already
 * so, or out of memory. */
bool scope_members_add(scope_members *members, const char *name,
                       bool matched);
bool scope_members_remove(scope_members *members, const char *name,
                          bool matched);

/* "REGEX +added... -removed...", REGEX as given, ".*" for NULL. */
size_t scope_members_describe(const scope_members *members, const char *regex,
                              char *buf, size_t size);

/* 'name' as a regex that matches it and nothing else but case variants
 * (channel regexes ignore case): metacharacters escaped. */
size_t scope_regex_quote(const char *name, char *buf, size_t size);

#endif /* SCOPE_GRAPH_MEMBERS_H */
