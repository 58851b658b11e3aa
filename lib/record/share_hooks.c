/* share_hooks.c - the segment writer's entry points, as the writer set
 * them (share_hooks_private.h says why they are not called by name). */
#include "record/share_hooks_private.h"

#include <stdio.h>

static const recorder_share_hooks *installed;

void recorder_share_hooks_set(const recorder_share_hooks *hooks)
{
    __atomic_store_n(&installed, hooks, __ATOMIC_RELEASE);
}

static const recorder_share_hooks *hooks(void)
{
    return __atomic_load_n(&installed, __ATOMIC_ACQUIRE);
}

bool recorder_share_start(const char *path)
{
    const recorder_share_hooks *h = hooks();
    if (!h)
    {
        /* Only if a program reached trace_spec.c without trace_set.c. */
        fprintf(stderr, "recorder: cannot share, no segment writer\n");
        return false;
    }
    return h->open_path(path);
}

void recorder_share_request(const struct recorder_export_request *request)
{
    const recorder_share_hooks *h = hooks();
    if (h)
        h->export(request);
    else
        recorder_share_start(NULL);     /* says why nothing is exported */
}

void recorder_share_update(void)
{
    const recorder_share_hooks *h = hooks();
    if (h)
        h->refresh();
}

bool recorder_share_limits(char *out, size_t size)
{
    const recorder_share_hooks *h = hooks();
    return h && h->limits(out, size);
}

unsigned recorder_share_file_mode(void)
{
    const recorder_share_hooks *h = hooks();
    return h ? h->file_mode() : 0;
}

void recorder_share_first_record(struct recorder_info *rec)
{
    const recorder_share_hooks *h = hooks();
    if (h)
        h->first_record(rec);
}

bool recorder_sharing(void)
{
    const recorder_share_hooks *h = hooks();
    return h && h->active();
}
