/* share_sizing.c - measure what the program needs in a segment, size the
 * segment, lay out its header (share_sizing_private.h). */
#define _GNU_SOURCE                     /* program_invocation_short_name */
#include "segment/share_sizing_private.h"
#include "record/clock_private.h"
#include "record/registry_private.h"
#include "backtrace/crash_report_private.h"
#include "segment/share_snapshot_layout_private.h"
#include "base/sites_private.h"
#include "segment/share_commands_private.h"

#include <errno.h>                      /* program_invocation_short_name */
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

const uint64_t share_least[SHARE_LIMITS] = {
    SHARE_RECORDERS_MIN, SHARE_TWEAKS_MIN, SHARE_SITES_MIN,
    SHARE_CHANNELS_MIN, SHARE_MODULES_MIN, SHARE_STRINGS_MIN,
    SHARE_RINGS_MIN_SIZE,
};
const uint64_t share_most[SHARE_LIMITS] = {
    SHARE_RECORDERS_MAX, SHARE_TWEAKS_MAX, SHARE_SITES_MAX,
    SHARE_CHANNELS_MAX, SHARE_MODULES_MAX, SHARE_STRINGS_MAX,
    SHARE_RINGS_MAX_SIZE,
};

/* The channels and ring the export requests will give 'rec'. */
static void export_needs(recorder_info *rec, share_needs *needs)
{
    uint64_t slots = rec->mask + 1;
    needs->of[SHARE_LIMIT_RINGS] += ring_bytes(slots);
    uint64_t largest = slots;
    for (const recorder_export_request *req = recorder_spec_exports(); req;
         req = __atomic_load_n(&req->next, __ATOMIC_ACQUIRE))
    {
        unsigned named = named_channels(req);
        if (!named || regexec(&req->regex, rec->name, 0, NULL, 0) != 0)
            continue;
        needs->of[SHARE_LIMIT_CHANNELS] += named;
        for (unsigned a = 0; a < req->count; a++)
            if (req->names[a])
                needs->of[SHARE_LIMIT_STRINGS] +=
                    text_bytes(rec->name) + text_bytes(req->names[a]);
        if (export_slots(req) > largest && !ring_too_large(export_slots(req)))
            largest = export_slots(req);
    }
    if (largest > slots)                /* moved once more when exported */
        needs->of[SHARE_LIMIT_RINGS] += ring_bytes(largest) + 64;
}

static void site_needs(recorder_site *first, recorder_site *last, void *arg)
{
    share_needs *needs = arg;
    needs->of[SHARE_LIMIT_SITES] += (uint64_t) (last - first);
    for (recorder_site *site = first; site < last; site++)
        needs->of[SHARE_LIMIT_STRINGS] += text_bytes(site->format) +
                                          text_bytes(site->file) +
                                          text_bytes(site->function);
}

/* Read-only file mappings /proc/self/maps lists: more than the module
 * table will hold (files without a build id are left out). */
static void module_needs(share_needs *needs)
{
    FILE *maps = fopen("/proc/self/maps", "re");
    char line[4096 + 128];
    while (maps && fgets(line, sizeof(line), maps))
    {
        const char *path = strchr(line, '/');
        if (!path || strstr(line, " rw") || strstr(line, " -w"))
            continue;
        needs->of[SHARE_LIMIT_MODULES]++;
        needs->of[SHARE_LIMIT_STRINGS] += strlen(path) + 1;
    }
    if (maps)
        fclose(maps);
}

void share_measure_needs(share_needs *needs)
{
    *needs = (share_needs) { { 0 } };
    for (recorder_info *rec = recorder_list(); rec; rec = rec->next)
    {
        needs->of[SHARE_LIMIT_RECORDERS]++;
        needs->of[SHARE_LIMIT_STRINGS] += text_bytes(rec->name) +
                                          text_bytes(rec->description);
        export_needs(rec, needs);
    }
    for (recorder_tweak *t = recorder_tweak_list(); t; t = t->next)
    {
        needs->of[SHARE_LIMIT_TWEAKS]++;
        needs->of[SHARE_LIMIT_STRINGS] += text_bytes(t->name) +
                                          text_bytes(t->description);
    }
    recorder_sites_each(site_needs, needs);
    module_needs(needs);
    needs->of[SHARE_LIMIT_STRINGS] += PATH_MAX + 4096;   /* path, messages */
}

void share_size_segment(const share_needs *wanted, const share_needs *at_least,
                        share_needs *room)
{
    for (unsigned k = 0; k < SHARE_LIMITS; k++)
    {
        uint64_t n = wanted->of[k];
        uint64_t r = k == SHARE_LIMIT_RINGS ? n + n / 4 : 2 * n;
        if (r < share_least[k])
            r = share_least[k];
        if (at_least && r < at_least->of[k])
            r = at_least->of[k];
        if (r > share_most[k])
            r = share_most[k];
        room->of[k] = r;
    }
    room->of[SHARE_LIMIT_STRINGS] = align_up(room->of[SHARE_LIMIT_STRINGS], 8);
}

void share_fill_header(share_header *h, uint64_t total, const share_needs *room)
{
    h->version = SHARE_VERSION;
    h->endian = SHARE_ENDIAN_MARK;
    h->word_size = sizeof(void *);
    h->header_size = sizeof(share_header);
    h->recorder_size = sizeof(share_recorder);
    h->tweak_size = sizeof(share_tweak);
    h->site_size = sizeof(share_site);
    h->channel_size = sizeof(share_channel);
    h->command_size = sizeof(share_command);
    h->slot_size = sizeof(recorder_slot);
    h->ring_head_size = sizeof(recorder_buffer);
    if (getrandom(&h->generation, sizeof(h->generation), GRND_NONBLOCK) !=
        sizeof(h->generation))
        h->generation = recorder_ticks() ^ ((uint64_t) getpid() << 32);
    h->pid = (uint32_t) getpid();
    gethostname(h->host, sizeof(h->host) - 1);
    snprintf(h->program, sizeof(h->program), "%s", program_invocation_short_name);

    int64_t local_us = recorder_clock_start_local_us();
    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    struct tm tm;
    localtime_r(&wall.tv_sec, &tm);
    h->utc_offset_s = tm.tm_gmtoff;
    h->start_wall_us = local_us - tm.tm_gmtoff * 1000000;
    h->start_mono_ns = recorder_clock_start_mono_ns();
    share_place_regions(h, total, room);
}

void share_place_regions(share_header *h, uint64_t total,
                         const share_needs *room)
{
    h->total_size = total;
    uint64_t at = align_up(sizeof(share_header), 64);
#define PLACE_TABLE(table, limit, entry)                                \
    h->table.offset = at;                                               \
    h->table.capacity = (uint32_t) room->of[limit];                     \
    at = align_up(at + room->of[limit] * sizeof(entry), 64)
    PLACE_TABLE(recorders, SHARE_LIMIT_RECORDERS, share_recorder);
    PLACE_TABLE(tweaks, SHARE_LIMIT_TWEAKS, share_tweak);
    PLACE_TABLE(sites, SHARE_LIMIT_SITES, share_site);
    PLACE_TABLE(channels, SHARE_LIMIT_CHANNELS, share_channel);
    PLACE_TABLE(modules, SHARE_LIMIT_MODULES, share_module);
#undef PLACE_TABLE
    h->commands = (share_region) { at, sizeof(share_command_ring) };
    at = align_up(at + sizeof(share_command_ring), 64);
    h->clock = (share_region) { at, sizeof(recorder_time_base) };
    at = align_up(at + sizeof(recorder_time_base), 64);
    h->snapshots = (share_region) { at, sizeof(share_snapshot_table) };
    at = align_up(at + sizeof(share_snapshot_table), 64);
    uint64_t strings = room->of[SHARE_LIMIT_STRINGS];
    h->strings = (share_region) { at, strings };
    h->strings_used = 1;                /* offset 0 stays "no string" */
    at = align_up(at + strings, 4096);
    h->crash = at;                      /* a crash_report, written on a crash */
    at += CRASH_REGION_SIZE;
    h->rings = (share_region) { at, room->of[SHARE_LIMIT_RINGS] };
}

uint64_t share_segment_size(const share_needs *room)
{
    share_header probe = { 0 };
    share_place_regions(&probe, 0, room);
    return probe.rings.offset + probe.rings.size;
}
