/* share_limits.c - count and tell what did not fit in the segment
 * (share_limits_private.h). */
#include "segment/share_limits_private.h"
#include "segment/share_writer_state_private.h"
#include "recorder.h"

#include <pthread.h>
#include <stdio.h>

static const char *const limit_names[SHARE_LIMITS] = {
    [SHARE_LIMIT_RECORDERS] = "recorder table",
    [SHARE_LIMIT_TWEAKS]    = "tweak table",
    [SHARE_LIMIT_SITES]     = "call site table",
    [SHARE_LIMIT_CHANNELS]  = "channel table",
    [SHARE_LIMIT_MODULES]   = "module table",
    [SHARE_LIMIT_STRINGS]   = "string region",
    [SHARE_LIMIT_RINGS]     = "ring region",
};

uint64_t share_capacity(const share_header *h, enum share_limit limit)
{
    switch (limit)
    {
    case SHARE_LIMIT_RECORDERS: return h->recorders.capacity;
    case SHARE_LIMIT_TWEAKS:    return h->tweaks.capacity;
    case SHARE_LIMIT_SITES:     return h->sites.capacity;
    case SHARE_LIMIT_CHANNELS:  return h->channels.capacity;
    case SHARE_LIMIT_MODULES:   return h->modules.capacity;
    case SHARE_LIMIT_STRINGS:   return h->strings.size;
    case SHARE_LIMIT_RINGS:     return h->rings.size;
    case SHARE_LIMITS:          break;
    }
    return 0;
}

uint32_t share_left_out_locked(enum share_limit limit)
{
    uint32_t count = ++writer->not_shared[limit];
    __atomic_store_n(&writer->header->not_shared[limit], count,
                     __ATOMIC_RELEASE);
    return count;
}

void share_not_shared_locked(enum share_limit limit, const char *kind,
                             const char *name)
{
    uint32_t count = share_left_out_locked(limit);
    uint64_t capacity = share_capacity(&writer->layout, limit);
    static bool told[SHARE_LIMITS];
    if (!told[limit])
    {
        told[limit] = true;
        fprintf(stderr, "recorder: shared %s full (%lu %s): %s '%s' and "
                "any more like it not shared\n", limit_names[limit],
                (unsigned long) capacity,
                limit >= SHARE_LIMIT_STRINGS ? "bytes" : "entries", kind,
                name ? name : "");
    }
    /* The name may not outlive this call: only literals go in %+s. */
    record(recorder_traces, "Shared %+s full at %lu: %+s not shared, %u so far",
           limit_names[limit], (unsigned long) capacity, kind, count);
}

bool share_limits(char *out, size_t size)
{
    if (!__atomic_load_n(&writer->header, __ATOMIC_ACQUIRE) || !size)
        return false;
    pthread_mutex_lock(&writer->lock);
    size_t at = 0;
    out[0] = 0;
    for (unsigned k = 0; k < SHARE_LIMITS && writer->header; k++)
        if (writer->not_shared[k])
        {
            uint64_t capacity = share_capacity(&writer->layout, k);
            int n = snprintf(out + at, size - at, "%s%u left out of the %s "
                             "(%lu %s)", at ? ", " : "",
                             writer->not_shared[k], limit_names[k],
                             (unsigned long) capacity,
                             k >= SHARE_LIMIT_STRINGS ? "bytes" : "entries");
            if (n < 0 || (size_t) n >= size - at)
                break;
            at += (size_t) n;
        }
    pthread_mutex_unlock(&writer->lock);
    return at > 0;
}
