/* share_writer.c - put the flight recorder and its channels in the segment.
 *
 * On the first export, share= command, or $RECORDER_SHARE, the process
 * creates the segment, copies the tables of recorders, tweaks and call
 * sites into it, and moves each recorder's ring there, so that readers can
 * list, plot and dump it, live or after this process died. Nothing changes
 * on the record path: it keeps writing to whatever ring its recorder
 * points to. Channels are views on those rings (an argument position of a
 * recorder's records), so exporting adds no work to a record.
 */
#define _GNU_SOURCE                     /* program_invocation_short_name */
#include "share_writer_private.h"
#include "share_commands_private.h"
#include "share_file_private.h"
#include "share_hooks_private.h"
#include "share_layout_private.h"
#include "crash_report_private.h"
#include "file_identity_private.h"
#include "output_private.h"
#include "registry_private.h"
#include "safe_output_private.h"
#include "segment_guard_private.h"
#include "sites_private.h"

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

static struct
{
    pthread_mutex_t  lock;
    int              fd;
    share_view       view;
    share_header *   header;            /* the segment's: written, never trusted */
    share_header     layout;            /* our copy: offsets, sizes and counts */
    char             path[PATH_MAX];
    share_view       retired;           /* the segment before the last move */
    int              retired_guard;     /* its segment_guard handle */
    recorder_info *  recorders[SHARE_RECORDERS];
    recorder_tweak * tweaks[SHARE_TWEAKS];
    const char *     last_file;         /* string reuse across sites */
    uint64_t         last_file_offset;
    int              guard;             /* segment_guard handle of view */
    uintptr_t        serial;            /* which segment 'guard' is for */
    bool             detached;          /* file truncated: private memory */
} writer = { .lock = PTHREAD_MUTEX_INITIALIZER, .fd = -1, .guard = -1,
             .retired_guard = -1 };

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

/* Where the crash handler writes its report: from our own copy of the
 * layout, checked against our mapping. Async-signal-safe, lock-free. */
crash_report *recorder_share_crash_area(void)
{
    if (!__atomic_load_n(&writer.header, __ATOMIC_ACQUIRE) ||
        __atomic_load_n(&writer.detached, __ATOMIC_ACQUIRE))
        return NULL;
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
                            SAFE_ARGS(SAFE_TEXT(writer.path)));
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

/* ---- tables --------------------------------------------------------------- */

/* Count one more entry in our table and publish the count to readers. */
static void publish(share_table *ours, share_table *theirs)
{
    ours->count++;
    __atomic_store_n(&theirs->count, ours->count, __ATOMIC_RELEASE);
}

static share_recorder *share_recorder_at(unsigned index)
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

    share_recorder *entry = share_recorder_at(index);
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
    if (count >= L->recorders.capacity)
    {
        record(recorder_error, "Shared recorder table full, %+s not shared",
               rec->name);
        return;
    }
    writer.recorders[count] = rec;
    share_recorder *entry = share_recorder_at(count);
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
    if (count >= L->tweaks.capacity)
        return;
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
        if (count >= L->sites.capacity)
        {
            record(recorder_error, "Shared site table full");
            break;
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
    while (fgets(line, sizeof(line), maps) && L->modules.count < L->modules.capacity)
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

/* Our copy of the names of the channels, to compare without reading the
 * segment back. */
static char *channel_names[SHARE_CHANNELS];

static void add_channel(unsigned recorder, unsigned argument, const char *name)
{
    share_header *L = &writer.layout;
    unsigned count = L->channels.count;
    share_channel *table = (share_channel *) (writer.view.base
                                              + L->channels.offset);

    /* The same channel exported again: bring its entry back, so repeated
     * requests do not fill the table. */
    for (unsigned c = 0; c < count; c++)
        if (table[c].recorder == recorder && table[c].argument == argument &&
            channel_names[c] && strcmp(channel_names[c], name) == 0)
        {
            __atomic_store_n(&table[c].active, 1, __ATOMIC_RELEASE);
            return;
        }
    if (count >= L->channels.capacity)
    {
        record(recorder_error, "Shared channel table full");
        return;
    }
    share_channel *entry = &table[count];
    free(channel_names[count]);
    channel_names[count] = strdup(name);
    entry->name = put_string(name);
    entry->recorder = recorder;
    entry->argument = argument;
    entry->active = 1;
    publish(&L->channels, &writer.header->channels);
}

/* Replace the channels of recorder 'index' with those of 'request'. */
static void export_locked(unsigned index, const recorder_export_request *req,
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
        add_channel(index, a, name);
        added++;
    }
    rec->exports = added ? (void *) req : NULL;

    /* The depth counts records; records of more than 5 arguments take two
     * slots, and exporting argument 5 or later means they have that many. */
    intptr_t depth = RECORDER_TWEAK(recorder_export_size);
    uint64_t slots = depth > 0 ? (uint64_t) depth : 0;
    if (req->count > 5)
        slots *= 2;
    if (added && slots > rec->mask + 1)
        move_ring(index, slots_for(slots));
}

/* req->regex was compiled (and its cost bounded) when the request was
 * parsed: compiling here would hold the lock that fork() waits for. */
static void apply_request_locked(const recorder_export_request *req,
                                 recorder_info *only)
{
    const regex_t *regex = &req->regex;
    unsigned count = writer.layout.recorders.count, matches = 0;
    for (unsigned i = 0; i < count; i++)
        matches += regexec(regex, writer.recorders[i]->name, 0, NULL, 0) == 0;
    for (unsigned i = 0; i < count; i++)
        if ((!only || writer.recorders[i] == only) &&
            regexec(regex, writer.recorders[i]->name, 0, NULL, 0) == 0)
            export_locked(i, req, matches > 1);
}

static void apply_all_requests_locked(recorder_info *only)
{
    for (const recorder_export_request *req = recorder_spec_exports(); req;
         req = __atomic_load_n(&req->next, __ATOMIC_ACQUIRE))
        apply_request_locked(req, only);
}

/* ---- creating the segment --------------------------------------------------- */

static uint64_t rings_needed(void)
{
    uint64_t bytes = 0;
    for (recorder_info *rec = recorder_list(); rec; rec = rec->next)
        bytes += ring_bytes(rec->mask + 1);
    return bytes;
}

static void fill_header(share_header *h, uint64_t total, uint64_t rings_size)
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
#define PLACE_TABLE(table, capacity_, entry)                            \
    h->table.offset = at;                                               \
    h->table.capacity = (capacity_);                                    \
    at = align_up(at + (uint64_t) (capacity_) * sizeof(entry), 64)
    PLACE_TABLE(recorders, SHARE_RECORDERS, share_recorder);
    PLACE_TABLE(tweaks, SHARE_TWEAKS, share_tweak);
    PLACE_TABLE(sites, SHARE_SITES, share_site);
    PLACE_TABLE(channels, SHARE_CHANNELS, share_channel);
    PLACE_TABLE(modules, SHARE_MODULES, share_module);
#undef PLACE_TABLE
    h->commands = (share_region) { at, sizeof(share_command_ring) };
    at = align_up(at + sizeof(share_command_ring), 64);
    h->clock = (share_region) { at, sizeof(recorder_time_base) };
    at = align_up(at + sizeof(recorder_time_base), 64);
    h->strings = (share_region) { at, SHARE_STRINGS_SIZE };
    h->strings_used = 1;                /* offset 0 stays "no string" */
    at = align_up(at + SHARE_STRINGS_SIZE, 4096);
    h->crash = at;                      /* a crash_report, written on a crash */
    at += CRASH_REGION_SIZE;
    h->rings = (share_region) { at, rings_size };
}

static uint64_t segment_size(uint64_t *rings_size)
{
    uint64_t rings = 2 * rings_needed();
    if (rings < SHARE_RINGS_MIN_SIZE)
        rings = SHARE_RINGS_MIN_SIZE;
    *rings_size = rings;
    share_header probe = { 0 };
    fill_header(&probe, 0, rings);
    return probe.rings.offset + rings;
}

static void mark_exited(void)
{
    share_header *h = __atomic_load_n(&writer.header, __ATOMIC_ACQUIRE);
    if (h && h->pid == (uint32_t) getpid())
        __atomic_store_n(&h->state, SHARE_STATE_EXITED, __ATOMIC_RELEASE);
}

/* After a move, let go of the segment we left: its descriptor (and so its
 * lock, so that we can come back to that path later) and its file, which
 * readers see as moved. Its mapping is kept until the next move, for
 * threads that loaded a ring pointer before the switch and write into the
 * old ring one last time. */
static void retire_locked(int old_fd, int old_guard, share_view old_view,
                          const char *old_path)
{
    segment_guard_remove(writer.retired_guard);
    if (writer.retired.base)
        munmap(writer.retired.base, writer.retired.size);
    writer.retired = old_view;
    writer.retired_guard = old_guard;
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
    retire_locked(-1, -1, (share_view) { NULL, 0 }, NULL);
    if (writer.fd >= 0)
        close(writer.fd);
    writer.fd = -1;
    writer.view = (share_view) { NULL, 0 };
    writer.path[0] = 0;
    writer.detached = false;
    __atomic_store_n(&writer.header, NULL, __ATOMIC_RELEASE);
    share_commands_forget();
}

static bool create_locked(const char *path)
{
    uint64_t rings_size;
    uint64_t size = segment_size(&rings_size);
    share_view view;
    char why[PATH_MAX + 128];
    int fd = share_file_create(path, size, &view, why, sizeof(why));
    char fallback[PATH_MAX];
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
    if (fd < 0)
    {
        /* $RECORDER_SHARE, then each export, may ask again: say it once. */
        static char said[sizeof(why)];
        if (strcmp(said, why) != 0)
            fprintf(stderr, "recorder: not sharing: %s\n", why);
        snprintf(said, sizeof(said), "%s", why);
        record(recorder_error, "Could not create the shared segment");
        return false;
    }

    char message[PATH_MAX + 32];
    snprintf(message, sizeof(message), "Creating new %s\n", path);
    recorder_output_text(message);

    /* The segment we leave, if this is a move. */
    share_header *previous = writer.header;
    int previous_fd = writer.fd, previous_guard = writer.guard;
    share_view previous_view = writer.view;
    char previous_path[PATH_MAX];
    snprintf(previous_path, sizeof(previous_path), "%s", writer.path);

    /* Guarded before we touch it: the file may be truncated any time. */
    uintptr_t serial = writer.serial + 1;
    __atomic_store_n(&writer.serial, serial, __ATOMIC_RELEASE);
    __atomic_store_n(&writer.detached, false, __ATOMIC_RELEASE);
    snprintf(writer.path, sizeof(writer.path), "%s", path);
    writer.guard = segment_guard_add(view.base, view.size,
                                     PROT_READ | PROT_WRITE, fd, true,
                                     segment_truncated, (void *) serial);

    share_header *h = (share_header *) view.base;
    fill_header(h, size, rings_size);
    h->writer_base = (uintptr_t) view.base;
    writer.layout = *h;
    writer.fd = fd;
    writer.view = view;
    writer.last_file = NULL;
    __atomic_store_n(&writer.header, h, __ATOMIC_RELEASE);

    /* Listen first, then walk: whatever the walk misses is told. What is
     * told blocks on writer.lock until this segment is complete. */
    recorder_registry_listen(RECORDER_LISTENER_SHARE, &registry_listener);
    recorder_sites_listen(share_add_sites);
    recorder_sites_each(add_sites_callback, NULL);
    add_modules_locked();
    for (recorder_tweak *t = recorder_tweak_list(); t; t = t->next)
        add_tweak_locked(t);
    for (recorder_info *r = recorder_list(); r; r = r->next)
        add_recorder_locked(r);
    apply_all_requests_locked(NULL);
    /* From now on, calibration points go to this segment as well. */
    recorder_clock_share((recorder_time_base *)
                         (view.base + writer.layout.clock.offset));

    /* Magic last: a reader that sees it sees a complete header. */
    __atomic_store_n(&h->state, SHARE_STATE_RUNNING, __ATOMIC_RELEASE);
    __atomic_store_n(&h->magic, SHARE_MAGIC, __ATOMIC_RELEASE);
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
    /* A copy in the segment, so the message survives this process. */
    uint64_t copy = put_string(writer.path);
    record(recorder, "Sharing in %+s",
           copy ? (const char *) writer.view.base + copy : "a new segment");
    return true;
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
    pthread_mutex_lock(&writer.lock);
    let_go_if_detached_locked();
    bool ok = writer.header &&
              !__atomic_load_n(&writer.detached, __ATOMIC_ACQUIRE) &&
              strcmp(writer.path, path) == 0;
    if (!ok)
        ok = create_locked(path);
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
    share_header *L = &writer.layout;
    /* Traces and tweaks are plain words the program may write at any time;
     * read them whole, atomically. */
    for (unsigned i = 0; i < L->recorders.count; i++)
        __atomic_store_n(&share_recorder_at(i)->trace,
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

void recorder_share_install(void)
{
    static const recorder_share_hooks hooks = {
        .open_path = recorder_share_open_path,
        .export = share_export,
        .refresh = share_refresh,
        .active = share_active,
    };
    recorder_share_hooks_set(&hooks);
}
