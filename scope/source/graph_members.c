/* graph_members.c - a graph's channels: its regex, plus and minus names. */
#include "source/graph_members.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int find(char *const *list, unsigned count, const char *name)
{
    for (unsigned i = 0; i < count; i++)
        if (strcmp(list[i], name) == 0)
            return (int) i;
    return -1;
}

static bool insert(char ***list, unsigned *count, const char *name)
{
    if (find(*list, *count, name) >= 0)
        return false;
    char *copy = strdup(name);
    char **grown = copy ? realloc(*list, (*count + 1) * sizeof(**list)) : NULL;
    if (!grown)
    {
        free(copy);
        return false;
    }
    grown[(*count)++] = copy;
    *list = grown;
    return true;
}

/* Order is kept: the trace lists names in the order the user gave them. */
static bool drop(char **list, unsigned *count, const char *name)
{
    int at = find(list, *count, name);
    if (at < 0)
        return false;
    free(list[at]);
    memmove(list + at, list + at + 1,
            (*count - (unsigned) at - 1) * sizeof(*list));
    (*count)--;
    return true;
}

void scope_members_free(scope_members *members)
{
    for (unsigned i = 0; i < members->added_count; i++)
        free(members->added[i]);
    for (unsigned i = 0; i < members->removed_count; i++)
        free(members->removed[i]);
    free(members->added);
    free(members->removed);
    memset(members, 0, sizeof(*members));
}

bool scope_members_has(const scope_members *members, const char *name,
                       bool matched)
{
    if (matched)
        return find(members->removed, members->removed_count, name) < 0;
    return find(members->added, members->added_count, name) >= 0;
}

bool scope_members_add(scope_members *members, const char *name,
                       bool matched)
{
    if (matched)
        return drop(members->removed, &members->removed_count, name);
    return insert(&members->added, &members->added_count, name);
}

bool scope_members_remove(scope_members *members, const char *name,
                          bool matched)
{
    if (matched)
        return insert(&members->removed, &members->removed_count, name);
    return drop(members->added, &members->added_count, name);
}

size_t scope_members_describe(const scope_members *members, const char *regex,
                              char *buf, size_t size)
{
    size_t used = 0;
#define ADD(...)                                                        \
    do {                                                                \
        int n = snprintf(used < size ? buf + used : NULL,              \
                         used < size ? size - used : 0, __VA_ARGS__);  \
        used += n > 0 ? (size_t) n : 0;                                 \
    } while (0)
    if (size)
        buf[0] = 0;
    ADD("%s", regex ? regex : ".*");
    for (unsigned i = 0; i < members->added_count; i++)
        ADD(" +%s", members->added[i]);
    for (unsigned i = 0; i < members->removed_count; i++)
        ADD(" -%s", members->removed[i]);
#undef ADD
    return used;
}

size_t scope_regex_quote(const char *name, char *buf, size_t size)
{
    size_t used = 0, written = 0;       /* truncated: whole characters */
    for (const char *p = name; *p; p++)
    {
        size_t special = strchr("\\^$.|?*+()[]{}", *p) != NULL;
        if (written == used && used + special + 1 < size)
        {
            if (special)
                buf[written++] = '\\';
            buf[written++] = *p;
        }
        used += special + 1;
    }
    if (size)
        buf[written] = 0;
    return used;
}
