/* share_writer.c - put the flight recorder and its channels in the segment.
 *
 * On the first export, share= command, or $RECORDER_SHARE, the process
 * creates the segment, copies the tables of recorders, tweaks and call
 * sites into it, and moves each recorder's ring there, so that readers can
 * list, plot and dump it, live or after this process died. Nothing changes
 * on the record path: it keeps writing to whatever ring its recorder
 * points to. Channels are views on those rings (an argument position of a
 * recorder's records), so exporting adds no work to a record.
 *
 * Tables and regions are sized to the program when the segment is made,
 * with room to spare. When a library loaded later, or a new export, needs
 * more, the writer makes a larger segment beside the file, fills it the
 * same way and renames it over the old one: readers see the old one
 * replaced and open the new one. What still cannot fit (a table at its
 * _MAX, a segment that cannot grow) is counted in the header and said on
 * stderr, once per table, and in recorder_traces.
 */
#define _GNU_SOURCE                     /* program_invocation_short_name */
#include "segment/share_writer_private.h"
#include "record/clock_private.h"
#include "segment/share_commands_private.h"
#include "segment/share_file_private.h"
#include "record/share_hooks_private.h"
#include "segment/share_layout_private.h"
#include "segment/share_path_private.h"
#include "backtrace/crash_report_private.h"
#include "segment/file_identity_private.h"
#include "record/output_private.h"
#include "record/registry_private.h"
#include "text/safe_output_private.h"
#include "segment/segment_guard_private.h"
#include "base/sites_private.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static_assert(sizeof(((share_module *) 0)->build_id) == FILE_BUILD_ID_MAX,
              "a module's build id holds a file_identity's");

/* A segment left by a move or a growth. Its mapping is kept a while, for
 * threads that loaded a ring pointer before the switch and write into the
 * old ring one last time: the last one left until the next move, older
 * ones until RETIRED_GRACE_NS have passed, at most RETIRED_KEPT in all. */
#define RETIRED_KEPT            8
#define RETIRED_GRACE_NS        1000000000ull

typedef struct retired_segment
{
    share_view view;
    int        guard;                   /* its segment_guard handle */
    uint64_t   since_ns;                /* CLOCK_MONOTONIC when left */
} retired_segment;

static struct
{
    pthread_mutex_t  lock;
    int              fd;
    share_view       view;
    share_header *   header;            /* the segment's: written, never trusted */
    share_header     layout;            /* our copy: offsets, sizes and counts */
    char             path[PATH_MAX];
    /* The path of segment 'serial', for the SIGBUS handler: written before
     * the serial is published, in the half the previous segment's handler
     * does not read (a re-share may run while that handler speaks). */
    char             guarded_path[2][PATH_MAX];
    char             asked[PATH_MAX];   /* path as given, escapes and all */
    retired_segment  retired[RETIRED_KEPT]; /* segments left, oldest first */
    recorder_info ** recorders;         /* layout.recorders.capacity */
    recorder_tweak ** tweaks;           /* layout.tweaks.capacity */
    char **          channel_names;     /* layout.channels.capacity */
    uint32_t         rooms[SHARE_LIMITS]; /* entries these arrays hold */
    bool             laying_out;        /* filling a new segment: no growth */
    bool             cannot_grow;       /* a growth failed: do not retry */
    uint32_t         not_shared[SHARE_LIMITS];
    const char *     last_file;         /* string reuse across sites */
    uint64_t         last_file_offset;
    int              guard;             /* segment_guard handle of view */
    uintptr_t        serial;            /* which segment 'guard' is for */
    bool             detached;          /* file truncated: private memory */
} writer = { .lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1, .guard = -1 };

static void share_add_recorder(recorder_info *rec);
static void share_add_tweak(recorder_tweak *tweak);
static void share_add_sites(recorder_site *first, recorder_site *last);

/* Told by the registry and sites.c of what appears once we share. */
static const recorder_registry_listener registry_listener = {
    .recorder = share_add_recorder, .tweak = share_add_tweak,
};

static uint64_t align_up(uint64_t value, uint64_t align)
{
    return (value + align - 1) / align * align;
}

static bool share_active(void)
{
    return __atomic_load_n(&writer.header, __ATOMIC_ACQUIRE) != NULL;
}

static void segment_truncated(void *arg);

/* Where the crash handler writes its report: from our own copy of the
 * layout, checked against our mapping. Async-signal-safe, lock-free. A
 * file truncated under us is found here, whatever else noticed it by
 * then (a record or the command thread faulting on it first, or nobody):
 * the report then says where the segment went and stays out of it. */
crash_report *recorder_share_crash_area(void)
{
    if (!__atomic_load_n(&writer.header, __ATOMIC_ACQUIRE) ||
        __atomic_load_n(&writer.detached, __ATOMIC_ACQUIRE))
        return NULL;
    struct stat st;
    int fd = __atomic_load_n(&writer.fd, __ATOMIC_ACQUIRE);
    if (fd >= 0 && fstat(fd, &st) == 0 &&
        (uint64_t) st.st_size < writer.view.size)
    {
        /* Private memory in its place before the dump reads the rings:
         * inside a crash handler a SIGBUS may be blocked. */
        if (!segment_guard_detach(__atomic_load_n(&writer.guard,
                                                  __ATOMIC_ACQUIRE)))
            segment_truncated((void *) __atomic_load_n(&writer.serial,
                                                       __ATOMIC_ACQUIRE));
        return NULL;
    }
    uint64_t offset = writer.layout.crash;
    if (!offset || offset % 8 || offset > writer.view.size ||
        writer.view.size - offset < CRASH_REGION_SIZE)
        return NULL;
    return (crash_report *) (writer.view.base + offset);
}

/* ---- a file truncated under us ------------------------------------------- */

/* From the SIGBUS handler (segment_guard.c): the file of segment 'arg' was
 * truncated, and its range is private memory now. Records go on there, so
 * nothing else changes for the program; it is just no longer shared.
 * Async-signal-safe: says so with write(). */
static void segment_truncated(void *arg)
{
    if ((uintptr_t) arg != __atomic_load_n(&writer.serial, __ATOMIC_ACQUIRE) ||
        __atomic_exchange_n(&writer.detached, true, __ATOMIC_ACQ_REL))
        return;                         /* an older segment, or said already */
    char line[PATH_MAX + 128];
    size_t at = safe_append(line, sizeof(line), 0,
                            "recorder: %s was truncated under us; recording "
                            "continues in private memory, no longer shared\n",
                            SAFE_ARGS(SAFE_TEXT(
                                writer.guarded_path[(uintptr_t) arg & 1])));
    safe_write_all(STDERR_FILENO, line, at);
}

/* Outside the handler: let the truncated file go (its lock with it), so
 * that share= can make a new segment, even at the same path. The mapping
 * stays: the rings are in it. */
static void let_go_if_detached_locked(void)
{
    if (!__atomic_load_n(&writer.detached, __ATOMIC_ACQUIRE) || writer.fd < 0)
        return;
    close(writer.fd);
    writer.fd = -1;
    record(recorder_warning, "Shared segment truncated under us, not shared");
}

/* ---- allocation in the segment (writer lock held) ----------------------- */

/* Readers can write the segment too, so every offset and count we use
 * comes from writer.layout; the header only publishes them. */
static uint64_t put_string(const char *text)
{
    share_header *L = &writer.layout;
    if (!text)
        return 0;
    size_t len = strlen(text) + 1;
    if (L->strings_used + len > L->strings.size)
        return 0;
    uint64_t offset = L->strings.offset + L->strings_used;
    memcpy(writer.view.base + offset, text, len);
    L->strings_used += len;
    writer.header->strings_used = L->strings_used;
    return offset;
}

/* Bytes of a ring of RECORDER_LANES lanes of 'slots' slots each. */
static uint64_t ring_bytes(uint64_t slots)
{
    return RECORDER_LANES *
           (sizeof(recorder_buffer) + slots * sizeof(recorder_slot));
}

static recorder_buffer *alloc_ring(uint32_t slots, uint64_t *offset)
{
    share_header *L = &writer.layout;
    uint64_t bytes = ring_bytes(slots);
    uint64_t at = align_up(L->rings_used, 64);
    if (at + bytes > L->rings.size)
        return NULL;
    L->rings_used = at + bytes;
    writer.header->rings_used = L->rings_used;
    *offset = L->rings.offset + at;
    return (recorder_buffer *) (writer.view.base + *offset);
}

static uint32_t slots_for(uint64_t wanted)
{
    uint32_t slots = 4;
    while (slots < wanted && slots < (1u << 24))
        slots <<= 1;
    return slots;
}

/* ---- limits and growth ------------------------------------------------------ */

static const char *const limit_names[SHARE_LIMITS] = {
    [SHARE_LIMIT_RECORDERS] = "recorder table",
    [SHARE_LIMIT_TWEAKS]    = "tweak table",
    [SHARE_LIMIT_SITES]     = "call site table",
    [SHARE_LIMIT_CHANNELS]  = "channel table",
    [SHARE_LIMIT_MODULES]   = "module table",
    [SHARE_LIMIT_STRINGS]   = "string region",
    [SHARE_LIMIT_RINGS]     = "ring region",
};

/* Capacity of each table (entries) and region (bytes) in 'h'. */
static uint64_t capacity_of(const share_header *h, enum share_limit limit)
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

/* 'kind' 'name' did not fit in the 'limit' table or region, which cannot
 * grow: count it where readers see it, say so once per limit on stderr,
 * and each time in recorder_traces. */
static void not_shared_locked(enum share_limit limit, const char *kind,
                              const char *name)
{
    uint32_t count = ++writer.not_shared[limit];
    __atomic_store_n(&writer.header->not_shared[limit], count,
                     __ATOMIC_RELEASE);
    uint64_t capacity = capacity_of(&writer.layout, limit);
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

static bool grow_locked(enum share_limit limit);

static bool share_limits(char *out, size_t size)
{
    if (!share_active() || !size)
        return false;
    pthread_mutex_lock(&writer.lock);
    size_t at = 0;
    out[0] = 0;
    for (unsigned k = 0; k < SHARE_LIMITS && writer.header; k++)
        if (writer.not_shared[k])
        {
            int n = snprintf(out + at, size - at, "%s%u left out of the %s "
                             "(%lu %s)", at ? ", " : "", writer.not_shared[k],
                             limit_names[k],
                             (unsigned long) capacity_of(&writer.layout, k),
                             k >= SHARE_LIMIT_STRINGS ? "bytes" : "entries");
            if (n < 0 || (size_t) n >= size - at)
                break;
            at += (size_t) n;
        }
    pthread_mutex_unlock(&writer.lock);
    return at > 0;
}

/* 'kind' 'name' needs more of 'limit' than the segment has. True if the
 * segment grew: the new one was filled from the registry, with this entry
 * in it, so the caller has nothing left to do (and its indexes and
 * pointers into the segment are stale). False if it could not: the entry
 * is counted as not shared. */
static bool grow_or_drop_locked(enum share_limit limit, const char *kind,
                                const char *name)
{
    if (grow_locked(limit))
        return true;
    not_shared_locked(limit, kind, name);
    return false;
}

static uint64_t text_bytes(const char *text)
{
    return text ? strlen(text) + 1 : 0;
}

static bool strings_fit(uint64_t bytes)
{
    return writer.layout.strings_used + bytes <= writer.layout.strings.size;
}

/* A ring larger than a quarter of the largest ring region (an export of
 * 2^40 records) is not shared: no segment is grown for it. */
static bool ring_too_large(uint64_t slots)
{
    return ring_bytes(slots) > SHARE_RINGS_MAX_SIZE / 4;
}

static bool ring_fits(uint32_t slots)
{
    return align_up(writer.layout.rings_used, 64) + ring_bytes(slots) <=
           writer.layout.rings.size;
}

/* ---- tables --------------------------------------------------------------- */

/* Count one more entry in our table and publish the count to readers. */
static void publish(share_table *ours, share_table *theirs)
{
    ours->count++;
    __atomic_store_n(&theirs->count, ours->count, __ATOMIC_RELEASE);
}

static share_recorder *shared_recorder(unsigned index)
{
    return (share_recorder *) (writer.view.base + writer.layout.recorders.offset)
         + index;
}

/* Move the ring of recorder 'index' into the segment, with at least 'slots'
 * slots. The newest records come along; writers switch at once. */
static bool move_ring(unsigned index, uint32_t slots)
{
    recorder_info *rec = writer.recorders[index];
    uint32_t old_size = (uint32_t) rec->mask + 1;
    if (slots < old_size)
        slots = old_size;
    uint64_t offset;
    recorder_buffer *ring = alloc_ring(slots, &offset);
    if (!ring)
    {
        record(recorder_error, "No room to share the ring of %+s", rec->name);
        return false;
    }
    for (unsigned lane = 0; lane < RECORDER_LANES; lane++)
    {
        const recorder_buffer *old = RECORDER_LANE(rec->buffer, old_size, lane);
        recorder_buffer *copy = RECORDER_LANE(ring, slots, lane);
        const recorder_slot *from = RECORDER_BUFFER_SLOTS(old);
        recorder_slot *to = RECORDER_BUFFER_SLOTS(copy);
        uint64_t end = __atomic_load_n(&old->writer, __ATOMIC_ACQUIRE);
        uint64_t start = end > old_size ? end - old_size : 0;
        for (uint64_t i = start; i < end; i++)
        {
            const recorder_slot *src = &from[i & (old_size - 1)];
            recorder_slot *dst = &to[i & (slots - 1)];
            for (unsigned w = 0; w < 7; w++)
                dst->word[w] = __atomic_load_n(&src->word[w], __ATOMIC_RELAXED);
            dst->seq = __atomic_load_n(&src->seq, __ATOMIC_ACQUIRE);
        }
        copy->writer = end;
        copy->reader = old->reader;
        copy->size = slots;
    }

    /* Ring before mask: see recorder_info. */
    __atomic_store_n(&rec->buffer, ring, __ATOMIC_RELEASE);
    __atomic_store_n(&rec->mask, (uintptr_t) slots - 1, __ATOMIC_RELEASE);

    share_recorder *entry = shared_recorder(index);
    entry->ring = offset;
    entry->lanes = RECORDER_LANES;
    __atomic_store_n(&entry->ring_size, slots, __ATOMIC_RELEASE);
    return true;
}

static void add_recorder_locked(recorder_info *rec)
{
    share_header *L = &writer.layout;
    unsigned count = L->recorders.count;
    for (unsigned i = 0; i < count; i++)
        if (writer.recorders[i] == rec)
            return;
    enum share_limit full =
        count >= L->recorders.capacity ? SHARE_LIMIT_RECORDERS
      : !strings_fit(text_bytes(rec->name) + text_bytes(rec->description))
        ? SHARE_LIMIT_STRINGS
      : !ring_fits((uint32_t) rec->mask + 1) ? SHARE_LIMIT_RINGS
      : SHARE_LIMITS;
    if (full != SHARE_LIMITS)
    {
        grow_or_drop_locked(full, "recorder", rec->name);
        return;
    }
    writer.recorders[count] = rec;
    share_recorder *entry = shared_recorder(count);
    entry->name = put_string(rec->name);
    entry->description = put_string(rec->description);
    entry->trace = rec->trace;
    if (move_ring(count, 0))
        publish(&L->recorders, &writer.header->recorders);
}

static void add_tweak_locked(recorder_tweak *tweak)
{
    share_header *L = &writer.layout;
    unsigned count = L->tweaks.count;
    for (unsigned i = 0; i < count; i++)
        if (writer.tweaks[i] == tweak)
            return;
    enum share_limit full =
        count >= L->tweaks.capacity ? SHARE_LIMIT_TWEAKS
      : !strings_fit(text_bytes(tweak->name) + text_bytes(tweak->description))
        ? SHARE_LIMIT_STRINGS
      : SHARE_LIMITS;
    if (full != SHARE_LIMITS)
    {
        grow_or_drop_locked(full, "tweak", tweak->name);
        return;
    }
    writer.tweaks[count] = tweak;
    share_tweak *entry = (share_tweak *) (writer.view.base + L->tweaks.offset)
                       + count;
    entry->name = put_string(tweak->name);
    entry->description = put_string(tweak->description);
    entry->value = tweak->trace;
    publish(&L->tweaks, &writer.header->tweaks);
}

static void add_sites_locked(recorder_site *first, recorder_site *last)
{
    share_header *L = &writer.layout;
    share_site *table = (share_site *) (writer.view.base + L->sites.offset);
    for (recorder_site *site = first; site < last; site++)
    {
        unsigned count = L->sites.count;
        enum share_limit full =
            count >= L->sites.capacity ? SHARE_LIMIT_SITES
          : !strings_fit(text_bytes(site->format) + text_bytes(site->file) +
                         text_bytes(site->function)) ? SHARE_LIMIT_STRINGS
          : SHARE_LIMITS;
        if (full != SHARE_LIMITS)
        {
            if (grow_or_drop_locked(full, "call site", site->format))
                return;                 /* the new segment has them all */
            continue;
        }
        share_site *entry = &table[count];
        entry->address = (uintptr_t) site;
        entry->format = put_string(site->format);
        if (site->file != writer.last_file)
        {
            writer.last_file = site->file;
            writer.last_file_offset = put_string(site->file);
        }
        entry->file = writer.last_file_offset;
        entry->function = put_string(site->function);
        entry->line = site->line;
        site->id = count;
        publish(&L->sites, &writer.header->sites);
    }
}

/* Without a module table, a dead writer's %+s literals show as addresses:
 * say so in the header (readers' -l shows it), once on stderr, and in
 * recorder_error; 0 clears it after a complete pass. */
static void modules_unavailable(const char *what, int error)
{
    share_header *h = writer.header;
    if (error)
        snprintf(h->modules_why, sizeof(h->modules_why), "%s", what);
    __atomic_store_n(&h->modules_error, (uint32_t) error, __ATOMIC_RELEASE);
    static bool told;
    if (!error || told)
        return;
    told = true;
    fprintf(stderr, "recorder: module table unavailable: %s: %s\n", what,
            strerror(error));
    record(recorder_error, "Module table unavailable: %+s, errno %d", what,
           error);
}

/* Identity of the file a maps line names, if it is still the file mapped
 * (same device and inode) and has a build id; cached for the run of lines
 * of one file. Sets *no_descriptor when it could not even be opened for
 * want of descriptors. */
static bool module_identity(const char *path, uint64_t device, uint64_t inode,
                            file_identity *out, int *no_descriptor)
{
    static char last_path[4096];
    static file_identity last;
    static bool last_ok;
    if (strcmp(path, last_path) != 0 || last.device != device ||
        last.inode != inode)
    {
        snprintf(last_path, sizeof(last_path), "%s", path);
        int fd = file_identity_open(path);
        if (fd < 0 && (errno == EMFILE || errno == ENFILE))
            *no_descriptor = errno;
        last_ok = fd >= 0 && file_identity_read(fd, &last) &&
                  last.device == device && last.inode == inode &&
                  last.build_id_size > 0;
        if (fd >= 0)
            close(fd);
    }
    *out = last;
    return last_ok;
}

/* Note the read-only mappings of ELF files not noted yet, from
 * /proc/self/maps: where a dead process's string literals can still be
 * read. */
static void add_modules_locked(void)
{
    share_header *L = &writer.layout;
    share_module *table = (share_module *) (writer.view.base
                                            + L->modules.offset);
    FILE *maps = fopen("/proc/self/maps", "re");
    if (!maps)
    {
        modules_unavailable("/proc/self/maps", errno);
        return;
    }
    char line[4096 + 128];
    int no_descriptor = 0;
    bool grown = false;
    while (!grown && fgets(line, sizeof(line), maps))
    {
        unsigned long start, end, offset, inode;
        unsigned major, minor;
        char perms[5];
        int path_at = 0;
        if (sscanf(line, "%lx-%lx %4s %lx %x:%x %lu %n", &start, &end, perms,
                   &offset, &major, &minor, &inode, &path_at) < 7 ||
            !path_at || line[path_at] != '/' || perms[1] == 'w' ||
            perms[0] != 'r')
            continue;
        line[strcspn(line, "\n")] = 0;
        bool known = false;
        for (unsigned m = 0; m < L->modules.count && !known; m++)
            known = table[m].start == start && table[m].end == end;
        file_identity id;
        if (known || !module_identity(line + path_at, makedev(major, minor),
                                      inode, &id, &no_descriptor))
            continue;
        enum share_limit full =
            L->modules.count >= L->modules.capacity ? SHARE_LIMIT_MODULES
          : !strings_fit(text_bytes(line + path_at)) ? SHARE_LIMIT_STRINGS
          : SHARE_LIMITS;
        if (full != SHARE_LIMITS)
        {
            /* Grown: the new segment read the whole file again. */
            grown = grow_or_drop_locked(full, "module", line + path_at);
            continue;
        }
        share_module *entry = &table[L->modules.count];
        entry->start = start;
        entry->end = end;
        entry->offset = offset;
        entry->device = id.device;
        entry->inode = id.inode;
        entry->size = id.size;
        entry->owner = id.owner;
        entry->build_id_size = id.build_id_size;
        memcpy(entry->build_id, id.build_id, sizeof(entry->build_id));
        entry->path = put_string(line + path_at);
        publish(&L->modules, &writer.header->modules);
    }
    int error = ferror(maps) ? (errno ? errno : EIO) : 0;
    fclose(maps);
    if (grown)
        return;
    if (error)
        modules_unavailable("reading /proc/self/maps", error);
    else
        modules_unavailable("opening module files", no_descriptor);
}

static void add_sites_callback(recorder_site *first, recorder_site *last,
                               void *arg)
{
    (void) arg;
    add_sites_locked(first, last);
}

/* ---- exports -------------------------------------------------------------- */

/* Add channel 'name' (argument 'argument' of recorder 'recorder'). False
 * if the segment grew instead: it has the channel, and the caller's
 * indexes are stale. */
static bool add_channel(unsigned recorder, unsigned argument, const char *name)
{
    share_header *L = &writer.layout;
    unsigned count = L->channels.count;
    share_channel *table = (share_channel *) (writer.view.base
                                              + L->channels.offset);

    /* The same channel exported again: bring its entry back, so repeated
     * requests do not fill the table. Our copy of the names is compared,
     * not the segment's, which readers may have written. */
    for (unsigned c = 0; c < count; c++)
        if (table[c].recorder == recorder && table[c].argument == argument &&
            writer.channel_names[c] &&
            strcmp(writer.channel_names[c], name) == 0)
        {
            __atomic_store_n(&table[c].active, 1, __ATOMIC_RELEASE);
            return true;
        }
    enum share_limit full =
        count >= L->channels.capacity ? SHARE_LIMIT_CHANNELS
      : !strings_fit(text_bytes(name)) ? SHARE_LIMIT_STRINGS
      : SHARE_LIMITS;
    if (full != SHARE_LIMITS)
        return !grow_or_drop_locked(full, "channel", name);
    char *copy = strdup(name);
    if (!copy)
    {
        record(recorder_error, "No memory for a shared channel name");
        return true;
    }
    share_channel *entry = &table[count];
    free(writer.channel_names[count]);
    writer.channel_names[count] = copy;
    entry->name = put_string(name);
    entry->recorder = recorder;
    entry->argument = argument;
    entry->active = 1;
    publish(&L->channels, &writer.header->channels);
    return true;
}

/* Slots per lane the ring of a recorder that 'req' exports needs. The
 * depth counts records; records of more than 5 arguments take two slots,
 * and exporting argument 5 or later means they have that many. */
static uint32_t export_slots(const recorder_export_request *req)
{
    intptr_t depth = RECORDER_TWEAK(recorder_export_size);
    uint64_t slots = depth > 0 ? (uint64_t) depth : 0;
    if (req->count > 5)
        slots *= 2;
    return slots_for(slots);
}

static unsigned named_channels(const recorder_export_request *req)
{
    unsigned named = 0;
    for (unsigned a = 0; a < req->count; a++)
        named += req->names[a] != NULL;
    return named;
}

/* Replace the channels of recorder 'index' with those of 'request'. False
 * if the segment grew meanwhile: everything was applied to the new one. */
static bool export_locked(unsigned index, const recorder_export_request *req,
                          bool qualify)
{
    share_header *L = &writer.layout;
    share_channel *table = (share_channel *) (writer.view.base
                                              + L->channels.offset);
    for (unsigned c = 0; c < L->channels.count; c++)
        if (table[c].recorder == index)
            __atomic_store_n(&table[c].active, 0, __ATOMIC_RELEASE);

    recorder_info *rec = writer.recorders[index];
    unsigned added = 0;
    for (unsigned a = 0; a < req->count; a++)
    {
        if (!req->names[a])
            continue;
        char name[256];
        if (qualify)
            snprintf(name, sizeof(name), "%s/%s", rec->name, req->names[a]);
        else
            snprintf(name, sizeof(name), "%s", req->names[a]);
        if (!add_channel(index, a, name))
            return false;
        added++;
    }
    rec->exports = added ? (void *) req : NULL;

    uint32_t slots = export_slots(req);
    if (!added || slots <= rec->mask + 1)
        return true;
    if (ring_too_large(slots))
    {
        not_shared_locked(SHARE_LIMIT_RINGS, "exported ring", rec->name);
        return true;
    }
    if (!ring_fits(slots))
        return !grow_or_drop_locked(SHARE_LIMIT_RINGS, "exported ring",
                                    rec->name);
    move_ring(index, slots);
    return true;
}

/* req->regex was compiled (and its cost bounded) when the request was
 * parsed: compiling here would hold the lock that fork() waits for. With
 * 'only', a recorder just added: matched first, so that a new recorder
 * costs one match per request, not one per request and recorder. False if
 * the segment grew meanwhile. */
static bool apply_request_locked(const recorder_export_request *req,
                                 recorder_info *only)
{
    const regex_t *regex = &req->regex;
    if (only && regexec(regex, only->name, 0, NULL, 0) != 0)
        return true;
    unsigned count = writer.layout.recorders.count, matches = 0;
    uint32_t *matched = malloc((count ? count : 1) * sizeof(*matched));
    if (!matched)
    {
        record(recorder_error, "No memory to apply an export request");
        return true;
    }
    for (unsigned i = 0; i < count; i++)
        if (regexec(regex, writer.recorders[i]->name, 0, NULL, 0) == 0)
            matched[matches++] = i;
    bool same_layout = true;
    for (unsigned m = 0; m < matches && same_layout; m++)
        if (!only || writer.recorders[matched[m]] == only)
            same_layout = export_locked(matched[m], req, matches > 1);
    free(matched);
    return same_layout;
}

static void apply_all_requests_locked(recorder_info *only)
{
    for (const recorder_export_request *req = recorder_spec_exports(); req;
         req = __atomic_load_n(&req->next, __ATOMIC_ACQUIRE))
        if (!apply_request_locked(req, only))
            return;                     /* grown: all applied there */
}

/* ---- sizing the segment ------------------------------------------------------ */

/* What the program needs now: entries of each table, bytes of strings and
 * rings, by enum share_limit. Upper bounds: what the fill will use, before
 * strings shared between sites and channels exported again. */
typedef struct share_needs
{
    uint64_t of[SHARE_LIMITS];
} share_needs;

static const uint64_t least[SHARE_LIMITS] = {
    SHARE_RECORDERS_MIN, SHARE_TWEAKS_MIN, SHARE_SITES_MIN,
    SHARE_CHANNELS_MIN, SHARE_MODULES_MIN, SHARE_STRINGS_MIN,
    SHARE_RINGS_MIN_SIZE,
};
static const uint64_t most[SHARE_LIMITS] = {
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

static void measure_needs(share_needs *needs)
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

/* Room for what the program needs, and as much again for what it may
 * load or export later (rings, which exports make large: a quarter more),
 * within least..most, and never less than 'at_least'. */
static void size_segment(const share_needs *wanted, const share_needs *at_least,
                         share_needs *room)
{
    for (unsigned k = 0; k < SHARE_LIMITS; k++)
    {
        uint64_t n = wanted->of[k];
        uint64_t r = k == SHARE_LIMIT_RINGS ? n + n / 4 : 2 * n;
        if (r < least[k])
            r = least[k];
        if (at_least && r < at_least->of[k])
            r = at_least->of[k];
        if (r > most[k])
            r = most[k];
        room->of[k] = r;
    }
    room->of[SHARE_LIMIT_STRINGS] = align_up(room->of[SHARE_LIMIT_STRINGS], 8);
}

/* Our arrays beside the tables, as large as the tables of 'room'. */
static bool make_arrays(const share_needs *room)
{
    void **arrays[] = { (void **) &writer.recorders, (void **) &writer.tweaks,
                        (void **) &writer.channel_names };
    const enum share_limit limits[] = { SHARE_LIMIT_RECORDERS,
                                        SHARE_LIMIT_TWEAKS,
                                        SHARE_LIMIT_CHANNELS };
    for (unsigned k = 0; k < 3; k++)
    {
        uint32_t had = writer.rooms[limits[k]];
        uint64_t wanted = room->of[limits[k]];
        if (wanted <= had)
            continue;
        void **grown = realloc(*arrays[k], wanted * sizeof(void *));
        if (!grown)
            return false;
        memset(grown + had, 0, (wanted - had) * sizeof(void *));
        *arrays[k] = grown;
        writer.rooms[limits[k]] = (uint32_t) wanted;
    }
    return true;
}

/* ---- creating the segment --------------------------------------------------- */

static void fill_header(share_header *h, uint64_t total, const share_needs *room)
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
    h->total_size = total;
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
    uint64_t strings = room->of[SHARE_LIMIT_STRINGS];
    h->strings = (share_region) { at, strings };
    h->strings_used = 1;                /* offset 0 stays "no string" */
    at = align_up(at + strings, 4096);
    h->crash = at;                      /* a crash_report, written on a crash */
    at += CRASH_REGION_SIZE;
    h->rings = (share_region) { at, room->of[SHARE_LIMIT_RINGS] };
}

static uint64_t segment_size(const share_needs *room)
{
    share_header probe = { 0 };
    fill_header(&probe, 0, room);
    return probe.rings.offset + probe.rings.size;
}

static void mark_exited(void)
{
    share_header *h = __atomic_load_n(&writer.header, __ATOMIC_ACQUIRE);
    if (h && h->pid == (uint32_t) getpid())
        __atomic_store_n(&h->state, SHARE_STATE_EXITED, __ATOMIC_RELEASE);
}

/* Unmap the segments left that no thread can still be writing into: all
 * of them with 'all', else those left RETIRED_GRACE_NS ago or more, but
 * never the last one (it goes at the next move). */
static void release_retired_locked(bool all)
{
    uint64_t now = recorder_monotonic_ns();
    unsigned kept = 0;
    for (unsigned r = 0; r < RETIRED_KEPT; r++)
    {
        retired_segment *old = &writer.retired[r];
        if (!old->view.base)
            continue;
        bool last = r == RETIRED_KEPT - 1 || !writer.retired[r + 1].view.base;
        if (all || (!last && now - old->since_ns >= RETIRED_GRACE_NS))
        {
            segment_guard_remove(old->guard);
            munmap(old->view.base, old->view.size);
        }
        else
            writer.retired[kept++] = *old;
    }
    for (unsigned r = kept; r < RETIRED_KEPT; r++)
        writer.retired[r] = (retired_segment) { { NULL, 0 }, -1, 0 };
}

/* After a move, let go of the segment we left: its descriptor (and so its
 * lock, so that we can come back to that path later) and its file, which
 * readers see as moved (or, after a growth, replaced). Its mapping is kept
 * a while (retired_segment). */
static void retire_locked(int old_fd, int old_guard, share_view old_view,
                          const char *old_path)
{
    /* The last one left is now an older one: it goes after its grace. */
    if (writer.retired[RETIRED_KEPT - 1].view.base)
    {
        retired_segment *oldest = &writer.retired[0];
        segment_guard_remove(oldest->guard);
        munmap(oldest->view.base, oldest->view.size);
        memmove(&writer.retired[0], &writer.retired[1],
                (RETIRED_KEPT - 1) * sizeof(writer.retired[0]));
        writer.retired[RETIRED_KEPT - 1].view.base = NULL;
    }
    unsigned free_at = 0;
    while (writer.retired[free_at].view.base)
        free_at++;
    writer.retired[free_at] = (retired_segment) {
        old_view, old_guard, recorder_monotonic_ns()
    };
    release_retired_locked(false);
    if (old_fd < 0)
        return;                         /* detached from a truncated file */
    struct stat ours, there;
    if (fstat(old_fd, &ours) == 0 && lstat(old_path, &there) == 0 &&
        ours.st_dev == there.st_dev && ours.st_ino == there.st_ino)
        unlink(old_path);
    close(old_fd);
}

/* fork(): hold the lock so the child never sees a half-made change. */
static void before_fork(void)
{
    pthread_mutex_lock(&writer.lock);
}

static void after_fork_in_parent(void)
{
    pthread_mutex_unlock(&writer.lock);
}

/* The child is another process: it must not write into the parent's rings
 * or answer its commands. Each shared ring is copied into private memory
 * and the segment let go; the child can share on its own later. */
static void after_fork_in_child(void)
{
    pthread_mutex_init(&writer.lock, NULL);
    if (!writer.header)
        return;
    for (unsigned i = 0; i < writer.layout.recorders.count; i++)
    {
        recorder_info *rec = writer.recorders[i];
        size_t bytes = ring_bytes(rec->mask + 1);
        void *copy = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (copy == MAP_FAILED)
        {
            rec->trace = -1;            /* better silent than corrupting */
            continue;
        }
        memcpy(copy, rec->buffer, bytes);
        __atomic_store_n(&rec->buffer, (recorder_buffer *) copy,
                         __ATOMIC_RELEASE);
    }
    recorder_clock_share(NULL);
    segment_guard_remove(writer.guard);
    writer.guard = -1;
    munmap(writer.view.base, writer.view.size);
    release_retired_locked(true);
    if (writer.fd >= 0)
        close(writer.fd);
    writer.fd = -1;
    writer.view = (share_view) { NULL, 0 };
    writer.path[0] = 0;
    writer.detached = false;
    writer.cannot_grow = false;
    __atomic_store_n(&writer.header, NULL, __ATOMIC_RELEASE);
    share_commands_forget();
}

/* Say once why no segment (or no larger segment) could be made. */
static void say_not_sharing(const char *what, const char *why)
{
    static char said[2 * PATH_MAX + 320];
    char text[sizeof(said)];
    snprintf(text, sizeof(text), "%s: %s", what, why);
    if (strcmp(said, text) != 0)
        fprintf(stderr, "recorder: %s\n", text);
    snprintf(said, sizeof(said), "%s", text);
}

/* Make a segment at 'path' with room for the program (as 'measured', or
 * measured now if NULL) and for 'at_least' (NULL: no minimum), fill it,
 * and switch to it. At the path we share in
 * already, this is a growth: the new file is made beside the old one and
 * renamed over it once complete. */
static bool create_locked(const char *path, const share_needs *at_least,
                          const share_needs *measured)
{
    bool growing = writer.header &&
                   !__atomic_load_n(&writer.detached, __ATOMIC_ACQUIRE) &&
                   writer.fd >= 0 && strcmp(writer.path, path) == 0;
    share_needs wanted, room;
    if (measured)
        wanted = *measured;
    else
        measure_needs(&wanted);
    size_segment(&wanted, at_least, &room);
    uint64_t size = segment_size(&room);
    if (!make_arrays(&room))
    {
        say_not_sharing(growing ? "the shared segment cannot grow"
                                : "not sharing", "out of memory");
        writer.cannot_grow |= growing;
        return false;
    }

    share_view view;
    char why[2 * PATH_MAX + 256];       /* room for the path twice */
    char temporary[PATH_MAX];
    char fallback[PATH_MAX];
    int fd;
    if (growing)
        fd = share_file_create_beside(path, size, &view, temporary,
                                      sizeof(temporary), why, sizeof(why));
    else
        fd = share_file_create(path, size, &view, why, sizeof(why));
    if (fd == SHARE_FILE_FOREIGN &&
        strcmp(path, RECORDER_SHARE_DEFAULT_PATH) == 0)
    {
        /* Another user's file holds the default path: take a path of our
         * own, where recorder_scope looks too. */
        share_file_fallback_path(fallback, sizeof(fallback));
        fprintf(stderr, "recorder: %s; sharing in %s instead\n", why, fallback);
        path = fallback;
        fd = share_file_create(path, size, &view, why, sizeof(why));
    }
    if (fd == SHARE_FILE_HELD && !share_path_per_process(writer.asked))
    {
        /* Two processes of a system on one path: say how each gets its
         * own, from the path as given (its escapes still escapes). */
        size_t used = strlen(why);
        snprintf(why + used, sizeof(why) - used, "; give each process its "
                 "own segment, e.g. RECORDER_SHARE=%s.%%p",
                 writer.asked[0] ? writer.asked : path);
    }
    if (fd < 0)
    {
        /* $RECORDER_SHARE, then each export, may ask again: say it once.
         * A growth is not tried again: each try would make a file. */
        say_not_sharing(growing ? "the shared segment cannot grow"
                                : "not sharing", why);
        writer.cannot_grow |= growing;
        if (growing)
            record(recorder_error, "Could not grow the shared segment");
        else
            record(recorder_error, "Could not create the shared segment");
        return false;
    }

    if (!growing)
    {
        char message[PATH_MAX + 32];
        snprintf(message, sizeof(message), "Creating new %s\n", path);
        recorder_output_text(message);
    }

    /* The segment we leave, if this is a move or a growth. */
    share_header *previous = writer.header;
    int previous_fd = writer.fd, previous_guard = writer.guard;
    share_view previous_view = writer.view;
    char previous_path[PATH_MAX];
    snprintf(previous_path, sizeof(previous_path), "%s", writer.path);

    /* Guarded before we touch it: the file may be truncated any time. */
    uintptr_t serial = writer.serial + 1;
    snprintf(writer.guarded_path[serial & 1], sizeof(writer.guarded_path[0]),
             "%s", path);
    __atomic_store_n(&writer.serial, serial, __ATOMIC_RELEASE);
    __atomic_store_n(&writer.detached, false, __ATOMIC_RELEASE);
    snprintf(writer.path, sizeof(writer.path), "%s", path);
    writer.guard = segment_guard_add(view.base, view.size,
                                     PROT_READ | PROT_WRITE, fd, true,
                                     segment_truncated, (void *) serial);

    share_header *h = (share_header *) view.base;
    fill_header(h, size, &room);
    h->writer_base = (uintptr_t) view.base;
    writer.layout = *h;
    writer.fd = fd;
    writer.view = view;
    writer.last_file = NULL;
    memset(writer.not_shared, 0, sizeof(writer.not_shared));
    if (!growing)
        writer.cannot_grow = false;
    __atomic_store_n(&writer.header, h, __ATOMIC_RELEASE);

    /* Listen first, then walk: whatever the walk misses is told. What is
     * told blocks on writer.lock until this segment is complete. The fill
     * does not grow: what does not fit here is counted as not shared. */
    writer.laying_out = true;
    recorder_registry_listen(RECORDER_LISTENER_SHARE, &registry_listener);
    recorder_sites_listen(share_add_sites);
    recorder_sites_each(add_sites_callback, NULL);
    add_modules_locked();
    for (recorder_tweak *t = recorder_tweak_list(); t; t = t->next)
        add_tweak_locked(t);
    for (recorder_info *r = recorder_list(); r; r = r->next)
        add_recorder_locked(r);
    apply_all_requests_locked(NULL);
    writer.laying_out = false;
    /* From now on, calibration points go to this segment as well. */
    recorder_clock_share((recorder_time_base *)
                         (view.base + writer.layout.clock.offset));

    /* Magic last: a reader that sees it sees a complete header. */
    __atomic_store_n(&h->state, SHARE_STATE_RUNNING, __ATOMIC_RELEASE);
    __atomic_store_n(&h->magic, SHARE_MAGIC, __ATOMIC_RELEASE);
    /* Complete, it takes the old one's place at the path. */
    if (growing &&
        !share_file_replace(temporary, path, previous_fd, why, sizeof(why)))
    {
        fprintf(stderr, "recorder: %s; sharing in %s instead\n", why,
                temporary);
        snprintf(writer.path, sizeof(writer.path), "%s", temporary);
    }
    if (previous)
    {
        __atomic_store_n(&previous->state, SHARE_STATE_MOVED, __ATOMIC_RELEASE);
        retire_locked(previous_fd, previous_guard, previous_view,
                      previous_path);
    }
    static bool hooked;
    if (!hooked)
    {
        hooked = true;
        atexit(mark_exited);
        pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
    }
    share_commands_start(h, (share_command_ring *)
                            (view.base + writer.layout.commands.offset));
    if (growing)
    {
        record(recorder, "Shared segment grown to %lu KiB for %u recorders, "
               "%u channels", (unsigned long) (size >> 10),
               writer.layout.recorders.count, writer.layout.channels.count);
        return true;
    }
    /* A copy in the segment, so the message survives this process. */
    uint64_t copy = put_string(writer.path);
    record(recorder, "Sharing in %+s",
           copy ? (const char *) writer.view.base + copy : "a new segment");
    return true;
}

/* Make the segment larger, for more of 'limit' than it holds: twice the
 * room it has, or more if the program needs it. False if that cannot be:
 * 'limit' at its _MAX or needed beyond it (an export of 2^40 records: no
 * point making a file of the largest size it would still not fit in), a
 * growth failed before, or not sharing. */
static bool grow_locked(enum share_limit limit)
{
    if (writer.laying_out || writer.cannot_grow || writer.fd < 0 ||
        __atomic_load_n(&writer.detached, __ATOMIC_ACQUIRE))
        return false;
    share_needs at_least;
    for (unsigned k = 0; k < SHARE_LIMITS; k++)
        at_least.of[k] = capacity_of(&writer.layout, k);
    if (at_least.of[limit] >= most[limit])
        return false;
    share_needs wanted;
    measure_needs(&wanted);
    if (wanted.of[limit] > most[limit])
        return false;
    at_least.of[limit] *= 2;
    char path[PATH_MAX];
    snprintf(path, sizeof(path), "%s", writer.path);
    return create_locked(path, &at_least, &wanted);
}

static const char *default_path(void)
{
    const char *path = recorder_spec_share_path();
    if (!path || !*path)
        path = getenv("RECORDER_SHARE");
    if (!path || !*path)
        path = RECORDER_SHARE_DEFAULT_PATH;
    return path;
}

bool recorder_share_open_path(const char *path)
{
    recorder_share_install();
    if (!path)
        path = default_path();
    /* Expanded here, in the process that shares: a child after fork()
     * gets a path with its own %p. */
    share_path_values values;
    char host[256], expanded[PATH_MAX], why[2 * PATH_MAX];
    share_path_values_here(&values, host, sizeof(host));
    if (!share_path_expand(path, &values, expanded, sizeof(expanded), why,
                           sizeof(why)))
    {
        pthread_mutex_lock(&writer.lock);
        say_not_sharing("not sharing", why);
        pthread_mutex_unlock(&writer.lock);
        record(recorder_error, "Bad shared segment path");
        return false;
    }
    pthread_mutex_lock(&writer.lock);
    snprintf(writer.asked, sizeof(writer.asked), "%s", path);
    path = expanded;
    let_go_if_detached_locked();
    release_retired_locked(false);
    bool ok = writer.header &&
              !__atomic_load_n(&writer.detached, __ATOMIC_ACQUIRE) &&
              strcmp(writer.path, path) == 0;
    if (!ok)
        ok = create_locked(path, NULL, NULL);
    pthread_mutex_unlock(&writer.lock);
    return ok;
}

void recorder_share_init(void)
{
    const char *path = getenv("RECORDER_SHARE");
    if (path && *path)
        recorder_share_open_path(path);
}

static void share_add_recorder(recorder_info *rec)
{
    if (!share_active())
        return;
    pthread_mutex_lock(&writer.lock);
    add_recorder_locked(rec);
    apply_all_requests_locked(rec);
    pthread_mutex_unlock(&writer.lock);
}

static void share_add_tweak(recorder_tweak *tweak)
{
    if (!share_active())
        return;
    pthread_mutex_lock(&writer.lock);
    add_tweak_locked(tweak);
    pthread_mutex_unlock(&writer.lock);
}

static void share_add_sites(recorder_site *first, recorder_site *last)
{
    if (!share_active())
        return;
    pthread_mutex_lock(&writer.lock);
    add_sites_locked(first, last);
    add_modules_locked();               /* a module just loaded: note it */
    pthread_mutex_unlock(&writer.lock);
}

static void share_export(const struct recorder_export_request *request)
{
    if (!share_active())
    {
        recorder_share_open_path(NULL); /* applies every request, this too */
        return;
    }
    pthread_mutex_lock(&writer.lock);
    let_go_if_detached_locked();
    apply_request_locked(request, NULL);
    pthread_mutex_unlock(&writer.lock);
}

static void share_refresh(void)
{
    if (!share_active())
        return;
    pthread_mutex_lock(&writer.lock);
    let_go_if_detached_locked();
    release_retired_locked(false);
    share_header *L = &writer.layout;
    /* Traces and tweaks are plain words the program may write at any time;
     * read them whole, atomically. */
    for (unsigned i = 0; i < L->recorders.count; i++)
        __atomic_store_n(&shared_recorder(i)->trace,
                         __atomic_load_n(&writer.recorders[i]->trace,
                                         __ATOMIC_RELAXED),
                         __ATOMIC_RELAXED);
    share_tweak *tweaks = (share_tweak *) (writer.view.base + L->tweaks.offset);
    for (unsigned i = 0; i < L->tweaks.count; i++)
        __atomic_store_n(&tweaks[i].value,
                         __atomic_load_n(&writer.tweaks[i]->trace,
                                         __ATOMIC_RELAXED),
                         __ATOMIC_RELAXED);
    pthread_mutex_unlock(&writer.lock);
}

static unsigned share_file_mode(void)
{
    struct stat st;
    pthread_mutex_lock(&writer.lock);
    bool known = writer.header && writer.fd >= 0 && fstat(writer.fd, &st) == 0;
    pthread_mutex_unlock(&writer.lock);
    return known ? (unsigned) (st.st_mode & 07777) : 0;
}

void recorder_share_install(void)
{
    static const recorder_share_hooks hooks = {
        .open_path = recorder_share_open_path,
        .export = share_export,
        .refresh = share_refresh,
        .active = share_active,
        .limits = share_limits,
        .file_mode = share_file_mode,
    };
    recorder_share_hooks_set(&hooks);
}
