/* command_targets.c - a command queue per segment, one target or all. */
#include "source/command_targets.h"
#include "source/command_queue.h"
#include "source/multi_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct scope_targets
{
    unsigned         open_flags;
    scope_commands **queues;            /* by segment, in their order */
    unsigned         count;
};

scope_targets *scope_targets_new(unsigned open_flags)
{
    scope_targets *targets = calloc(1, sizeof(*targets));
    if (targets)
        targets->open_flags = open_flags;
    return targets;
}

void scope_targets_delete(scope_targets *targets)
{
    if (!targets)
        return;
    for (unsigned q = 0; q < targets->count; q++)
        scope_commands_delete(targets->queues[q]);
    free(targets->queues);
    free(targets);
}

bool scope_targets_follow(scope_targets *targets, const scope_source *source)
{
    unsigned count = scope_source_segment_count(source);
    if (count <= targets->count)
        return true;
    scope_commands **queues = realloc(targets->queues,
                                      count * sizeof(*queues));
    if (!queues)
        return false;
    targets->queues = queues;
    /* Segments only join, at the end: queue i stays segment i's. */
    while (targets->count < count)
    {
        scope_source *segment = scope_source_segment(source, targets->count);
        scope_commands *queue = scope_commands_new(scope_source_path(segment),
                                                   targets->open_flags);
        if (!queue)
            return false;
        queues[targets->count++] = queue;
    }
    return true;
}

bool scope_targets_send(scope_targets *targets, const scope_source *source,
                        const char *command, const char *key)
{
    int target = scope_source_target(source);
    if (target >= 0)
        return scope_targets_send_to(targets, (unsigned) target, command, key);
    bool ok = true;
    for (unsigned q = 0; q < targets->count; q++)
        ok &= scope_commands_send(targets->queues[q], command, key);
    return ok;
}

bool scope_targets_send_to(scope_targets *targets, unsigned segment,
                           const char *command, const char *key)
{
    return segment < targets->count &&
           scope_commands_send(targets->queues[segment], command, key);
}

void scope_targets_poll(scope_targets *targets)
{
    for (unsigned q = 0; q < targets->count; q++)
        scope_commands_poll(targets->queues[q]);
}

bool scope_targets_outcome(scope_targets *targets, const scope_source *source,
                           char *buf, size_t size, bool *failed)
{
    for (unsigned q = 0; q < targets->count; q++)
    {
        if (!scope_commands_outcome(targets->queues[q], buf, size, failed))
            continue;
        size_t used = strlen(buf);
        if (scope_source_group(source) && used < size)
            snprintf(buf + used, size - used, " (%s)",
                     scope_source_segment_name(source, q));
        return true;
    }
    return false;
}
