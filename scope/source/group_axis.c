/* group_axis.c - names and one time axis for the segments of a group. */
#include "source/group_axis.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *scope_group_full_name(const char *label, const char *channel,
                                  char *buf, size_t size)
{
    if (!label || !label[0])
        return channel;
    snprintf(buf, size, "%s/%s", label, channel);
    return buf;
}

const char *scope_group_channel_of(const char *label, const char *name)
{
    if (label)
    {
        size_t n = strlen(label);
        if (!n)
            return name;
        return strncmp(name, label, n) == 0 && name[n] == '/' ? name + n + 1
                                                             : NULL;
    }
    /* PROGRAM[DIGITS]/: the first "]/" with digits before it. */
    for (const char *end = strstr(name, "]/"); end; end = strstr(end + 1, "]/"))
    {
        const char *digit = end;
        while (digit > name && isdigit((unsigned char) digit[-1]))
            digit--;
        if (digit < end && digit > name + 1 && digit[-1] == '[')
            return end + 2;
    }
    return name;
}

double scope_group_place(scope_group_link *link,
                         const recorder_share_process *process,
                         char *label, size_t size)
{
    /* The program name comes from the segment: show it escaped. */
    char program[4 * sizeof(process->program)];
    recorder_share_escape(program, sizeof(program), process->program,
                          strnlen(process->program, sizeof(process->program)));
    snprintf(label, size, "%s[%u]", program, process->pid);
    if (isnan(link->origin))
        link->origin = process->start_monotonic;
    return process->start_monotonic - link->origin;
}
