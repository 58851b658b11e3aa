/* window_title.c - "recorder_scope: PROGRAM[PID] PATH". */
#include "view/window_title.h"

#include <stdio.h>

void scope_window_heading(char *buf, size_t size, const char *program,
                          unsigned pid)
{
    if (!program || !program[0])
    {
        snprintf(buf, size, "recorder_scope");
        return;
    }
    char name[64];
    size_t n = 0;
    for (const char *p = program; *p && n + 1 < sizeof(name); p++)
        name[n++] = *p >= ' ' && *p < 0x7f ? *p : '?';
    name[n] = 0;
    snprintf(buf, size, "%s[%u]", name, pid);
}

void scope_window_title(char *buf, size_t size, const char *path,
                        const char *program, unsigned pid)
{
    if (!program || !program[0])
    {
        snprintf(buf, size, "recorder_scope: %s", path);
        return;
    }
    char heading[96];
    scope_window_heading(heading, sizeof(heading), program, pid);
    snprintf(buf, size, "recorder_scope: %s %s", heading, path);
}
