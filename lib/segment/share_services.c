/* share_services.c - what a writer offers readers besides its tables.
 *
 * The command ring (share_send.c posts there and reads the answers), the
 * services the writer could not start and why, and the region its crash
 * handler fills (crash_reader.c reads it).
 */
#define _GNU_SOURCE                     /* strerror_r returns the text */
#include "segment/share_reader_private.h"
#include "segment/share_commands_private.h"
#include "backtrace/crash_report_private.h"
#include "segment/share_v12_private.h"
#include "segment/share_v12_commands_private.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>


/* The region the writer's crash handler fills (crash_reader.c reads it). */
const void *recorder_share_crash_region(recorder_share *share, size_t *size)
{
    if (share->v12 || !share->header.crash || !share_reader_intact(share))
        return NULL;                    /* none, or truncated under us */
    const void *region = share_at(&share->view, share->header.crash,
                                  CRASH_REGION_SIZE, 8);
    if (region)
        *size = CRASH_REGION_SIZE;
    return region;
}

/* ---- commands ------------------------------------------------------------------ */

/* What the writer left out at its limits, from the counts it publishes. */
static bool tables_complete(const share_header *live, char *why, size_t size)
{
    static const char *const kinds[SHARE_LIMITS] = {
        [SHARE_LIMIT_RECORDERS] = "recorders",
        [SHARE_LIMIT_TWEAKS]    = "tweaks",
        [SHARE_LIMIT_SITES]     = "call sites",
        [SHARE_LIMIT_CHANNELS]  = "channels",
        [SHARE_LIMIT_MODULES]   = "modules",
        [SHARE_LIMIT_STRINGS]   = "entries for want of string room",
        [SHARE_LIMIT_RINGS]     = "entries for want of ring room",
    };
    size_t at = 0;
    for (unsigned k = 0; k < SHARE_LIMITS; k++)
    {
        uint32_t count = __atomic_load_n(&live->not_shared[k],
                                         __ATOMIC_ACQUIRE);
        if (!count)
            continue;
        int n = snprintf(why + at, size > at ? size - at : 0, "%s%u %s",
                         at ? ", " : "", count, kinds[k]);
        if (n < 0 || (size_t) n >= (size > at ? size - at : 0))
            return false;
        at += (size_t) n;
    }
    return at == 0;
}

bool recorder_share_available(recorder_share *share,
                              recorder_share_service service, char *why,
                              size_t size)
{
    if (share->v12)
        return share_v12_available(share, service, why, size);
    if (size)
        why[0] = 0;
    if (!share_reader_intact(share))
        return true;                    /* nothing to read it from */
    const share_header *live = share_reader_live_header(share);
    const uint32_t *error;
    const char *what;
    if (service == RECORDER_SHARE_TABLES)
        return tables_complete(live, why, size);
    switch (service)
    {
    case RECORDER_SHARE_COMMANDS:
        error = &live->commands_error;
        what = live->commands_why;
        break;
    case RECORDER_SHARE_MODULES:
        error = &live->modules_error;
        what = live->modules_why;
        break;
    default:
        return true;
    }
    uint32_t code = __atomic_load_n(error, __ATOMIC_ACQUIRE);
    if (!code)
        return true;
    char text[SHARE_WHY_TEXT], message[128];
    share_text_copy(text, sizeof(text), what, SHARE_WHY_TEXT);
    snprintf(why, size, "%s: %s", text[0] ? text : "failed",
             strerror_r((int) code, message, sizeof(message)));
    return false;
}

share_command_ring *share_reader_commands(recorder_share *share, bool sending,
                                          uint32_t *pid, char *error,
                                          size_t size)
{
    if (share->v12)
    {
        /* share_send.c asks share_v12_commands.c for the rest. */
        *pid = share_v12_writer(share);
        snprintf(error, size, "%s: a recorder 1.2 segment", share->path);
        return NULL;
    }
    *pid = share->header.pid;
    if (sending)
    {
        recorder_share_status status = recorder_share_state(share);
        if (status != RECORDER_SHARE_ALIVE)
        {
            snprintf(error, size, "%s: process %u %s", share->path,
                     share->header.pid, recorder_share_state_name(status));
            return NULL;
        }
        if (share->owner != geteuid())
        {
            char shown[sizeof(share->path) * 4];
            recorder_share_escape(shown, sizeof(shown), share->path,
                                  strlen(share->path));
            snprintf(error, size, "%s belongs to user %u: read as data "
                     "only, no commands sent", shown, (unsigned) share->owner);
            return NULL;
        }
        if (!share->writable)
        {
            snprintf(error, size, "%s: no write permission for commands",
                     share->path);
            return NULL;
        }
    }
    /* Validated when opened, checked again all the same. */
    share_command_ring *ring = share_at(&share->view,
                                        share->header.commands.offset,
                                        sizeof(share_command_ring), 8);
    if (!ring)
        snprintf(error, size, "%s: no command ring", share->path);
    return ring;
}
