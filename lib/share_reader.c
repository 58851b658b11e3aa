/* share_reader.c - map another process's segment and make sense of it.
 *
 * The writer may be running, dead, or replaced; the file may be truncated,
 * corrupted or hostile. So the header is checked before anything else,
 * every offset, count and size goes through share_access_private.h, rings
 * are read with the same validated reads as in-process dumps, and strings
 * are copied with a length limit.
 */
#define _GNU_SOURCE                     /* process_vm_readv */
#include "recorder_share.h"
#include "format_scan_private.h"
#include "record_line_private.h"
#include "regex_bound_private.h"
#include "render_private.h"
#include "share_access_private.h"
#include "share_commands_private.h"
#include "share_file_private.h"
#include "share_layout_private.h"
#include "crash_report_private.h"
#include "file_identity_private.h"
#include "record_merge_private.h"
#include "segment_guard_private.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <pwd.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define MAX_RING_SLOTS  (1u << 24)

typedef struct site_key
{
    uint64_t address;
    uint32_t index;
} site_key;

struct recorder_share
{
    int           fd;
    bool          writable;
    share_view    view;
    int           guard;                /* segment_guard handle of view */
    share_header  header;               /* validated copy of the fixed part */
    dev_t         device;
    ino_t         inode;
    uid_t         owner;                /* of the file */
    char          path[4096];
    site_key *    sites;                /* sorted by address */
    unsigned      site_count;
    recorder_time_cache time;           /* the writer's calibration points */
};

/* ---- opening ------------------------------------------------------------ */

static bool owned_file(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           st.st_uid == geteuid();
}

/* A writer whose default path holds another user's file shares in its
 * fallback path instead: look there when the default is not ours. */
const char *recorder_share_default_path(void)
{
    const char *path = getenv("RECORDER_SHARE");
    if (path && *path)
        return path;
    static __thread char fallback[PATH_MAX];
    if (!owned_file(RECORDER_SHARE_DEFAULT_PATH))
    {
        share_file_fallback_path(fallback, sizeof(fallback));
        if (owned_file(fallback))
            return fallback;
    }
    return RECORDER_SHARE_DEFAULT_PATH;
}

static bool region_fits(const share_view *view, share_region region)
{
    return share_at(view, region.offset, region.size, 8) != NULL;
}

static bool table_fits(const share_view *view, share_table table,
                       uint64_t entry)
{
    return table.capacity <= view->size / entry &&
           share_at(view, table.offset, table.capacity * entry, 8) != NULL;
}

/* Check that we understand this segment before we trust any of it. */
static bool validate(const share_view *view, share_header *h, char *error,
                     size_t size)
{
    if (view->size < sizeof(share_header))
    {
        snprintf(error, size, "too small for a recorder segment (%lu bytes)",
                 (unsigned long) view->size);
        return false;
    }
    memcpy(h, view->base, sizeof(*h));
    if (h->magic != SHARE_MAGIC)
    {
        snprintf(error, size, "not a recorder segment (bad magic)");
        return false;
    }
    if (h->endian != SHARE_ENDIAN_MARK)
    {
        snprintf(error, size, "written with another byte order");
        return false;
    }
    if (h->version != SHARE_VERSION)
    {
        snprintf(error, size, "layout version %u, this reader knows %u",
                 h->version, SHARE_VERSION);
        return false;
    }
    if (h->header_size != sizeof(share_header) ||
        h->recorder_size != sizeof(share_recorder) ||
        h->tweak_size != sizeof(share_tweak) ||
        h->site_size != sizeof(share_site) ||
        h->channel_size != sizeof(share_channel) ||
        h->command_size != sizeof(share_command) ||
        h->slot_size != sizeof(recorder_slot) ||
        h->ring_head_size != sizeof(recorder_buffer))
    {
        snprintf(error, size, "structure sizes differ from this reader's");
        return false;
    }
    if (h->total_size > view->size)
    {
        snprintf(error, size, "truncated: %lu of %lu bytes",
                 (unsigned long) view->size, (unsigned long) h->total_size);
        return false;
    }
    /* The writer makes tables of these capacities: larger ones only make
     * a reader work (and allocate) for nothing. */
    if (h->recorders.capacity > SHARE_RECORDERS ||
        h->tweaks.capacity > SHARE_TWEAKS || h->sites.capacity > SHARE_SITES ||
        h->channels.capacity > SHARE_CHANNELS ||
        h->modules.capacity > SHARE_MODULES)
    {
        snprintf(error, size, "corrupt: a table exceeds the layout's limits");
        return false;
    }
    if (!table_fits(view, h->recorders, sizeof(share_recorder)) ||
        !table_fits(view, h->tweaks, sizeof(share_tweak)) ||
        !table_fits(view, h->sites, sizeof(share_site)) ||
        !table_fits(view, h->channels, sizeof(share_channel)) ||
        !table_fits(view, h->modules, sizeof(share_module)) ||
        !region_fits(view, h->strings) || !region_fits(view, h->rings) ||
        h->commands.size != sizeof(share_command_ring) ||
        !region_fits(view, h->commands) ||
        h->clock.size != sizeof(recorder_time_base) ||
        !region_fits(view, h->clock) || h->clock.offset % 8)
    {
        snprintf(error, size, "corrupt: a table lies outside the file");
        return false;
    }
    if (h->utc_offset_s < -93600 || h->utc_offset_s > 93600 ||
        h->start_wall_us < 0 || h->start_wall_us > (int64_t) 1e17)
    {
        snprintf(error, size, "corrupt: start time");
        return false;
    }
    h->host[sizeof(h->host) - 1] = 0;
    h->program[sizeof(h->program) - 1] = 0;
    return true;
}

/* "user NAME (uid N)", or "uid N" for a user without a name. */
static void describe_user(uid_t uid, char *out, size_t size)
{
    struct passwd entry, *found = NULL;
    char buffer[1024];
    if (getpwuid_r(uid, &entry, buffer, sizeof(buffer), &found) == 0 && found)
        snprintf(out, size, "user %s (uid %u)", found->pw_name, (unsigned) uid);
    else
        snprintf(out, size, "uid %u", (unsigned) uid);
}

/* The writer's calibration points (the region is checked at open). */
static const recorder_time_base *clock_table(recorder_share *share)
{
    return (const recorder_time_base *)
           (share->view.base + share->header.clock.offset);
}

recorder_share *recorder_share_open(const char *path, char *error, size_t size)
{
    return recorder_share_open_flags(path, 0, error, size);
}

recorder_share *recorder_share_open_flags(const char *path, unsigned flags,
                                          char *error, size_t size)
{
    if (!path)
        path = recorder_share_default_path();
    recorder_share *share = calloc(1, sizeof(*share));
    if (!share)
    {
        snprintf(error, size, "out of memory");
        return NULL;
    }
    snprintf(share->path, sizeof(share->path), "%s", path);

    share->writable = true;
    share->fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (share->fd < 0 && (errno == EACCES || errno == EROFS))
    {
        share->writable = false;
        share->fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (share->fd < 0)
    {
        snprintf(error, size, "%s: %s", path,
                 errno == ELOOP ? "is a symbolic link; not following it"
                                : strerror(errno));
        goto fail_open;
    }
    struct stat st;
    if (fstat(share->fd, &st) != 0 || !S_ISREG(st.st_mode))
    {
        snprintf(error, size, "%s: not a regular file", path);
        goto fail_map;
    }
    if (st.st_uid != geteuid() && !(flags & RECORDER_SHARE_ANY_OWNER))
    {
        char owner[128];
        describe_user(st.st_uid, owner, sizeof(owner));
        snprintf(error, size, "%s belongs to %s, not to you; not reading it "
                 "(recorder_scope --any-owner reads it as data only)",
                 path, owner);
        goto fail_map;
    }
    if (st.st_size < (off_t) sizeof(share_header))
    {
        snprintf(error, size, "%s: too small for a recorder segment", path);
        goto fail_map;
    }
    share->device = st.st_dev;
    share->inode = st.st_ino;
    share->owner = st.st_uid;
    share->view.size = (uint64_t) st.st_size;
    share->view.base = mmap(NULL, share->view.size,
                            PROT_READ | (share->writable ? PROT_WRITE : 0),
                            MAP_SHARED, share->fd, 0);
    if (share->view.base == MAP_FAILED)
    {
        snprintf(error, size, "%s: cannot map: %s", path, strerror(errno));
        goto fail_map;
    }
    /* Truncated under us, the mapping would raise SIGBUS: guarded, it
     * reads as zeros instead, and the state says so. */
    share->guard = segment_guard_add(share->view.base, share->view.size,
                                     PROT_READ | (share->writable
                                                  ? PROT_WRITE : 0),
                                     share->fd, false, NULL, NULL);
    char why[256];
    if (!validate(&share->view, &share->header, why, sizeof(why)))
    {
        snprintf(error, size, "%s: %s", path, why);
        goto fail_validate;
    }
    recorder_time_cache_update(&share->time, clock_table(share));
    if (!share->time.count)
    {
        snprintf(error, size, "%s: corrupt: no valid calibration point", path);
        goto fail_validate;
    }
    return share;

fail_validate:
    segment_guard_remove(share->guard);
    munmap(share->view.base, share->view.size);
fail_map:
    close(share->fd);
fail_open:
    free(share);
    return NULL;
}

void recorder_share_close(recorder_share *share)
{
    if (!share)
        return;
    segment_guard_remove(share->guard);
    munmap(share->view.base, share->view.size);
    close(share->fd);
    free(share->sites);
    free(share);
}

/* ---- state ---------------------------------------------------------------- */

/* Whether the file still covers what we mapped. Truncated between this
 * check and a read, the read takes SIGBUS: segment_guard.c then replaces
 * the mapping with zeros, and this says so from then on. */
static bool intact(recorder_share *share)
{
    struct stat st;
    return !segment_guard_detached(share->guard) &&
           fstat(share->fd, &st) == 0 &&
           (uint64_t) st.st_size >= share->view.size;
}

static share_header *live_header(recorder_share *share)
{
    return (share_header *) share->view.base;
}

/* The parts of the header that never change once the writer made it:
 * anything else there means someone wrote over it. */
static bool header_unchanged(recorder_share *share)
{
    const share_header *live = live_header(share), *seen = &share->header;
    return live->magic == seen->magic && live->version == seen->version &&
           live->endian == seen->endian &&
           memcmp(&live->header_size, &seen->header_size,
                  offsetof(share_header, state) -
                  offsetof(share_header, header_size)) == 0 &&
           live->total_size == seen->total_size &&
           live->generation == seen->generation && live->pid == seen->pid &&
           live->recorders.offset == seen->recorders.offset &&
           live->recorders.capacity == seen->recorders.capacity &&
           live->tweaks.offset == seen->tweaks.offset &&
           live->tweaks.capacity == seen->tweaks.capacity &&
           live->sites.offset == seen->sites.offset &&
           live->sites.capacity == seen->sites.capacity &&
           live->channels.offset == seen->channels.offset &&
           live->channels.capacity == seen->channels.capacity &&
           live->modules.offset == seen->modules.offset &&
           live->modules.capacity == seen->modules.capacity &&
           memcmp(&live->commands, &seen->commands,
                  3 * sizeof(share_region)) == 0 &&
           live->start_mono_ns == seen->start_mono_ns &&
           memcmp(&live->clock, &seen->clock, sizeof(share_region)) == 0;
}

recorder_share_status recorder_share_state(recorder_share *share)
{
    struct stat st;
    if (stat(share->path, &st) == 0 &&
        (st.st_dev != share->device || st.st_ino != share->inode))
        return RECORDER_SHARE_REPLACED;
    if (!intact(share))
        return RECORDER_SHARE_REPLACED;     /* truncated: not ours to read */
    if (!header_unchanged(share))
        return RECORDER_SHARE_CORRUPT;
    uint32_t state = __atomic_load_n(&live_header(share)->state,
                                     __ATOMIC_ACQUIRE);
    if (state == SHARE_STATE_MOVED)
        return RECORDER_SHARE_MOVED;
    if (share_file_locked(share->fd))
        return RECORDER_SHARE_ALIVE;
    return state == SHARE_STATE_EXITED ? RECORDER_SHARE_EXITED
                                       : RECORDER_SHARE_DIED;
}

const char *recorder_share_state_name(recorder_share_status status)
{
    switch (status)
    {
    case RECORDER_SHARE_ALIVE:    return "running";
    case RECORDER_SHARE_EXITED:   return "exited";
    case RECORDER_SHARE_DIED:     return "died";
    case RECORDER_SHARE_REPLACED: return "replaced or truncated";
    case RECORDER_SHARE_MOVED:    return "sharing elsewhere now";
    case RECORDER_SHARE_CORRUPT:  return "corrupted (its header changed)";
    }
    return "unknown";
}

/* ---- trust ---------------------------------------------------------------- */

bool recorder_share_owned(recorder_share *share)
{
    return share->owner == geteuid();
}

/* Does process 'pid' run as our user and hold the file open as 'share'?
 * Anyone who can write a segment can write any pid into its header; only
 * the process that really has the file open is its writer. */
static bool writer_verified(recorder_share *share, uint32_t pid)
{
    char path[64];
    struct stat st;
    snprintf(path, sizeof(path), "/proc/%u", pid);
    if (pid == 0 || stat(path, &st) != 0 || st.st_uid != geteuid())
        return false;
    snprintf(path, sizeof(path), "/proc/%u/fd", pid);
    DIR *dir = opendir(path);
    if (!dir)
        return false;
    int dir_fd = dirfd(dir);
    bool found = false;
    for (struct dirent *entry; !found && (entry = readdir(dir)); )
        found = entry->d_name[0] != '.' &&
                fstatat(dir_fd, entry->d_name, &st, 0) == 0 &&
                st.st_dev == share->device && st.st_ino == share->inode;
    closedir(dir);
    return found;
}

/* May we read the memory of the process the header names? */
static bool writer_memory_readable(recorder_share *share)
{
    return recorder_share_owned(share) &&
           recorder_share_state(share) == RECORDER_SHARE_ALIVE &&
           writer_verified(share, share->header.pid);
}

void recorder_share_process_info(recorder_share *share,
                                 recorder_share_process *info)
{
    const share_header *h = &share->header;
    info->pid = h->pid;
    snprintf(info->program, sizeof(info->program), "%s", h->program);
    snprintf(info->host, sizeof(info->host), "%s", h->host);
    info->generation = h->generation;
    info->start_time = h->start_wall_us / 1e6;
    info->start_monotonic = h->start_mono_ns * 1e-9;
    info->owner = share->owner;
    info->owned = recorder_share_owned(share);
    info->pid_verified = info->owned && writer_verified(share, h->pid);
}

/* ---- tables ----------------------------------------------------------------- */

/* Entries published so far, clamped to the validated capacity. */
static unsigned published(const share_table *live, const share_table *checked)
{
    uint32_t count = __atomic_load_n(&live->count, __ATOMIC_ACQUIRE);
    return count < checked->capacity ? count : checked->capacity;
}

static bool string_at(recorder_share *share, uint64_t offset, char *out,
                      size_t size)
{
    return share_string(&share->view, share->header.strings.offset,
                        share->header.strings.size, offset, out, size);
}

unsigned recorder_share_recorder_count(recorder_share *share)
{
    if (!intact(share))
        return 0;
    return published(&live_header(share)->recorders, &share->header.recorders);
}

unsigned recorder_share_tweak_count(recorder_share *share)
{
    if (!intact(share))
        return 0;
    return published(&live_header(share)->tweaks, &share->header.tweaks);
}

unsigned recorder_share_channel_count(recorder_share *share)
{
    if (!intact(share))
        return 0;
    return published(&live_header(share)->channels, &share->header.channels);
}

static const share_recorder *recorder_at(recorder_share *share, unsigned index)
{
    return share_entry(&share->view, share->header.recorders.offset,
                       recorder_share_recorder_count(share),
                       sizeof(share_recorder), index);
}

/* The ring of a recorder: 'lanes' lanes of 'size' slots from 'first'. */
typedef struct ring_view
{
    const recorder_buffer *first;
    uint32_t               size;
    uint32_t               lanes;
} ring_view;

static uint64_t ring_bytes(uint32_t slots, uint32_t lanes)
{
    return (uint64_t) lanes * (sizeof(recorder_buffer) +
                               (uint64_t) slots * sizeof(recorder_slot));
}

/* The ring of recorder 'index', if all its lanes lie inside the rings
 * region. */
static bool ring_at(recorder_share *share, unsigned index, ring_view *out)
{
    const share_recorder *entry = recorder_at(share, index);
    if (!entry)
        return false;
    uint32_t slots = __atomic_load_n(&entry->ring_size, __ATOMIC_ACQUIRE);
    uint32_t lanes = entry->lanes;
    uint64_t offset = entry->ring;
    const share_region *rings = &share->header.rings;
    if (slots < 4 || slots > MAX_RING_SLOTS || (slots & (slots - 1)) ||
        lanes < 1 || lanes > RECORDER_SHARE_LANES_MAX ||
        offset < rings->offset)
        return false;
    uint64_t bytes = ring_bytes(slots, lanes);
    if (offset - rings->offset > rings->size ||
        bytes > rings->size - (offset - rings->offset))
        return false;
    out->first = share_at(&share->view, offset, bytes, 64);
    out->size = slots;
    out->lanes = lanes;
    return out->first != NULL;
}

static const recorder_buffer *lane_of(const ring_view *ring, unsigned lane)
{
    return RECORDER_LANE(ring->first, ring->size, lane);
}

bool recorder_share_recorder_info(recorder_share *share, unsigned index,
                                  recorder_share_recorder *out)
{
    const share_recorder *entry = recorder_at(share, index);
    if (!entry)
        return false;
    memset(out, 0, sizeof(*out));
    string_at(share, entry->name, out->name, sizeof(out->name));
    string_at(share, entry->description, out->description,
              sizeof(out->description));
    out->trace = (intptr_t) __atomic_load_n(&entry->trace, __ATOMIC_RELAXED);
    ring_view ring;
    if (ring_at(share, index, &ring))
    {
        out->size = ring.size;
        out->lanes = ring.lanes;
        for (unsigned lane = 0; lane < ring.lanes; lane++)
            out->records += __atomic_load_n(&lane_of(&ring, lane)->writer,
                                            __ATOMIC_ACQUIRE);
    }
    return true;
}

bool recorder_share_tweak_info(recorder_share *share, unsigned index,
                               recorder_share_tweak *out)
{
    const share_tweak *entry =
        share_entry(&share->view, share->header.tweaks.offset,
                    recorder_share_tweak_count(share), sizeof(share_tweak),
                    index);
    if (!entry)
        return false;
    memset(out, 0, sizeof(*out));
    string_at(share, entry->name, out->name, sizeof(out->name));
    string_at(share, entry->description, out->description,
              sizeof(out->description));
    out->value = (intptr_t) __atomic_load_n(&entry->value, __ATOMIC_RELAXED);
    return true;
}

static const share_channel *channel_at(recorder_share *share, unsigned index)
{
    return share_entry(&share->view, share->header.channels.offset,
                       recorder_share_channel_count(share),
                       sizeof(share_channel), index);
}

/* ---- call sites -------------------------------------------------------------- */

static int by_address(const void *a, const void *b)
{
    uint64_t x = ((const site_key *) a)->address;
    uint64_t y = ((const site_key *) b)->address;
    return x < y ? -1 : x > y;
}

/* Sorted index of the sites table, rebuilt when the writer added some. */
static void index_sites(recorder_share *share)
{
    unsigned count = published(&live_header(share)->sites, &share->header.sites);
    if (count == share->site_count && share->sites)
        return;
    site_key *keys = malloc((count ? count : 1) * sizeof(*keys));
    if (!keys)
        return;
    const share_site *table = share_at(&share->view, share->header.sites.offset,
                                       (uint64_t) count * sizeof(share_site), 8);
    for (unsigned i = 0; table && i < count; i++)
        keys[i] = (site_key) { table[i].address, i };
    qsort(keys, count, sizeof(*keys), by_address);
    free(share->sites);
    share->sites = keys;
    share->site_count = count;
}

/* The call site a record names, copied out; false if unknown. */
typedef struct site_text
{
    char     format[1024];
    char     file[256];
    char     function[128];
    uint32_t line;
} site_text;

static const share_site *find_site(recorder_share *share, uint64_t address)
{
    index_sites(share);
    site_key key = { address, 0 };
    site_key *found = bsearch(&key, share->sites, share->site_count,
                              sizeof(key), by_address);
    if (!found)
        return NULL;
    return share_entry(&share->view, share->header.sites.offset,
                       share->site_count, sizeof(share_site), found->index);
}

static bool site_of(recorder_share *share, uint64_t address, site_text *out)
{
    const share_site *site = find_site(share, address);
    if (!site || !string_at(share, site->format, out->format,
                            sizeof(out->format)))
        return false;
    string_at(share, site->file, out->file, sizeof(out->file));
    string_at(share, site->function, out->function, sizeof(out->function));
    out->line = site->line;
    return true;
}

/* ---- channels ---------------------------------------------------------------- */

/* Type and unit of 'argument' for records made at 'address'. */
typedef struct argument_kind
{
    uint64_t address;                   /* cache key */
    char     kind;                      /* 's', 'u', 'r' or 0 */
    char     unit[32];
} argument_kind;

static void kind_of(recorder_share *share, uint64_t address, unsigned argument,
                    argument_kind *cache)
{
    cache->address = address;
    cache->kind = 0;
    cache->unit[0] = 0;
    site_text site;
    recorder_conversion conversion;
    if (site_of(share, address, &site) &&
        recorder_format_argument(site.format, argument, &conversion))
    {
        cache->kind = recorder_conversion_kind(conversion.conversion);
        recorder_conversion_unit(&conversion, cache->unit, sizeof(cache->unit));
    }
}

static double as_number(uint64_t raw, char kind)
{
    switch (kind)
    {
    case 's':
        return (double) (int64_t) raw;
    case 'r':
    {
        double value;
        memcpy(&value, &raw, sizeof(value));
        return value;
    }
    default:
        return (double) raw;
    }
}

/* Nanoseconds between the writer's start and 'ticks', through the points
 * the writer published: final once read, the same for every reader, and
 * computed as the writer's own dumps do (recorder_clock_us_since_start). */
static uint64_t since_start_ns(recorder_share *share, uint64_t ticks)
{
    recorder_time_cache_update(&share->time, clock_table(share));
    uint64_t ns = recorder_time_ns(share->time.points, share->time.count, ticks);
    uint64_t start = share->header.start_mono_ns;
    return ns > start ? ns - start : 0;
}

static double seconds(recorder_share *share, uint64_t ticks)
{
    return (double) since_start_ns(share, ticks) * 1e-9;
}

static uint64_t microseconds(recorder_share *share, uint64_t ticks)
{
    return since_start_ns(share, ticks) / 1000;
}

/* Can the writer still finish a record it reserved? Asked only when a
 * record stays unfinished: a dead writer's never will be. */
static bool writer_gone(void *arg)
{
    return recorder_share_state(arg) != RECORDER_SHARE_ALIVE;
}

/* Walk records of one recorder from 'cursor', its lanes merged in time
 * order; call 'fn' for each whole record; stop after 'max' calls. Counts
 * overwritten records in '*lost'. */
static void walk(recorder_share *share, unsigned recorder,
                 recorder_share_cursor *cursor, size_t max, uint64_t *lost,
                 record_merge_fn fn, void *arg)
{
    ring_view ring;
    if (!ring_at(share, recorder, &ring))
        return;
    lane_losses losses = { .count = lost, .writers_gone = writer_gone,
                           .gone_arg = share, .gone = -1 };
    lane_cursor lanes[RECORDER_SHARE_LANES_MAX];
    for (unsigned l = 0; l < ring.lanes; l++)
        lane_cursor_open(&lanes[l], lane_of(&ring, l), ring.size,
                         cursor->next[l], &losses);
    record_merge(lanes, ring.lanes, max, &losses, fn, arg);
    for (unsigned l = 0; l < ring.lanes; l++)
        cursor->next[l] = lanes[l].index;
}

typedef struct sample_walk
{
    recorder_share * share;
    unsigned         argument;
    recorder_sample *out;
    size_t           count;
    argument_kind    kind;
    /* Summary mode, when 'out' is NULL. */
    uint64_t         seen;
    double           min, max;
} sample_walk;

static bool take_sample(const recorder_record *record, unsigned lane,
                        void *arg)
{
    (void) lane;                        /* samples carry time and value */
    sample_walk *walk_state = arg;
    recorder_share *share = walk_state->share;
    if (record->nargs <= walk_state->argument)
        return false;
    /* Records of one site follow each other: look its kind up once. */
    if (walk_state->kind.address != record->site || !record->site)
        kind_of(share, record->site, walk_state->argument, &walk_state->kind);
    uint64_t raw = record->args[walk_state->argument];
    double value = as_number(raw, walk_state->kind.kind);
    if (!walk_state->out)
    {
        if (!walk_state->seen || value < walk_state->min)
            walk_state->min = value;
        if (!walk_state->seen || value > walk_state->max)
            walk_state->max = value;
        walk_state->seen++;
        return true;
    }
    recorder_sample *sample = &walk_state->out[walk_state->count++];
    sample->time = seconds(share, record->timestamp);
    sample->value = value;
    return true;
}

bool recorder_share_channel_info(recorder_share *share, unsigned index,
                                 recorder_share_channel *out)
{
    const share_channel *channel = channel_at(share, index);
    if (!channel)
        return false;
    memset(out, 0, sizeof(*out));
    string_at(share, channel->name, out->name, sizeof(out->name));
    out->recorder = channel->recorder;
    out->argument = channel->argument;
    out->active = __atomic_load_n(&channel->active, __ATOMIC_ACQUIRE) != 0;
    const share_recorder *rec = recorder_at(share, channel->recorder);
    if (rec)
        string_at(share, rec->description, out->description,
                  sizeof(out->description));
    if (out->argument >= RECORDER_MAX_ARGS)
        return true;

    sample_walk summary = { .share = share, .argument = out->argument };
    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    walk(share, out->recorder, &cursor, SIZE_MAX, NULL, take_sample, &summary);
    out->samples = summary.seen;
    out->min = summary.min;
    out->max = summary.max;
    switch (summary.kind.kind)
    {
    case 's': out->type = RECORDER_SHARE_SIGNED; break;
    case 'u': out->type = RECORDER_SHARE_UNSIGNED; break;
    case 'r': out->type = RECORDER_SHARE_REAL; break;
    default:  out->type = RECORDER_SHARE_NONE; break;
    }
    snprintf(out->unit, sizeof(out->unit), "%s", summary.kind.unit);
    return true;
}

int recorder_share_find_channel(recorder_share *share, const char *pattern,
                                int after)
{
    regex_t regex;
    if (pattern && !recorder_regex_compile(&regex, pattern, NULL, NULL, 0))
        return -2;
    int found = -1;
    unsigned count = recorder_share_channel_count(share);
    for (unsigned c = after < 0 ? 0 : (unsigned) after + 1; c < count; c++)
    {
        const share_channel *channel = channel_at(share, c);
        char name[64];
        if (!channel || !__atomic_load_n(&channel->active, __ATOMIC_ACQUIRE) ||
            !string_at(share, channel->name, name, sizeof(name)))
            continue;
        if (!pattern || regexec(&regex, name, 0, NULL, 0) == 0)
        {
            found = (int) c;
            break;
        }
    }
    if (pattern)
        regfree(&regex);
    return found;
}

size_t recorder_share_read(recorder_share *share, unsigned channel,
                           recorder_share_cursor *cursor,
                           recorder_sample *samples, size_t max,
                           uint64_t *lost)
{
    if (lost)
        *lost = 0;
    const share_channel *entry = channel_at(share, channel);
    if (!entry || !samples || !cursor || entry->argument >= RECORDER_MAX_ARGS ||
        !intact(share))
        return 0;
    sample_walk state = { .share = share, .argument = entry->argument,
                          .out = samples };
    walk(share, entry->recorder, cursor, max, lost, take_sample, &state);
    return state.count;
}

/* A string the writer put in the segment itself is in our mapping too. */
static bool string_from_segment(recorder_share *share, uint64_t address,
                                char *out, size_t size)
{
    uint64_t base = share->header.writer_base;
    if (!base || address < base || address - base >= share->view.size)
        return false;
    uint64_t offset = address - base;
    const char *text = (const char *) share->view.base + offset;
    size_t room = share->view.size - offset;
    size_t len = strnlen(text, room < size - 1 ? room : size - 1);
    memcpy(out, text, len);
    out[len] = 0;
    return true;
}

/* A string in a read-only file mapping of the writer (a literal, say) is
 * still in that file after the writer died: read it there, if the segment
 * is ours and the file is still the one that was mapped. */
static bool string_from_module(recorder_share *share, uint64_t address,
                               char *out, size_t size)
{
    if (!recorder_share_owned(share))
        return false;
    unsigned count = published(&live_header(share)->modules,
                               &share->header.modules);
    for (unsigned m = 0; m < count; m++)
    {
        const share_module *module =
            share_entry(&share->view, share->header.modules.offset, count,
                        sizeof(share_module), m);
        if (!module || address < module->start || address >= module->end)
            continue;
        char path[4096];
        if (!string_at(share, module->path, path, sizeof(path)) ||
            path[0] != '/')
            return false;
        /* The path comes from the segment: never block on a FIFO or a
         * device it may name; read only the very file that was mapped. */
        int fd = file_identity_open(path);
        if (fd < 0)
            return false;
        file_identity expected = {
            .device = module->device, .inode = module->inode,
            .size = module->size, .owner = module->owner,
            .build_id_size = module->build_id_size,
        };
        memcpy(expected.build_id, module->build_id, sizeof(expected.build_id));
        file_identity found;
        ssize_t got = -1;
        if (file_identity_read(fd, &found) &&
            file_identity_matches(&expected, &found))
            got = pread(fd, out, size - 1,
                        (off_t) (module->offset + (address - module->start)));
        close(fd);
        if (got <= 0)
            return false;
        out[got] = 0;
        return true;
    }
    return false;
}

/* Strings of a live writer are fetched from its memory; those of a dead
 * one from the files it mapped, when they are constants there; otherwise
 * the address is all we can show. */
typedef struct fetch_context
{
    recorder_share *share;
    bool            memory;             /* writer_memory_readable() */
} fetch_context;

static const char *fetch_string(uint64_t address, char *out, size_t size,
                                void *arg)
{
    fetch_context *context = arg;
    if (context->memory && address)
    {
        struct iovec local = { out, size - 1 };
        struct iovec remote = { (void *) (uintptr_t) address, size - 1 };
        ssize_t got = process_vm_readv((pid_t) context->share->header.pid,
                                       &local, 1, &remote, 1, 0);
        if (got > 0)
        {
            out[got] = 0;
            return out;
        }
    }
    if (string_from_segment(context->share, address, out, size) ||
        string_from_module(context->share, address, out, size))
        return out;
    snprintf(out, size, "<%#lx>", (unsigned long) address);
    return out;
}

/* ---- dump --------------------------------------------------------------------- */

/* Whose lane each cursor of a dump reads. */
typedef struct dump_lane
{
    char     name[64];
    unsigned recorder;
} dump_lane;

typedef struct segment_dump
{
    recorder_share *       share;
    const dump_lane *      lanes;       /* by cursor */
    recorder_line_settings settings;
    fetch_context          fetch;
    recorder_render_options options;
    int                    indent;
    FILE *                 out;
} segment_dump;

/* The writer's line settings, from its tweaks in the segment; those it does
 * not publish keep the library's defaults. */
static recorder_line_settings segment_line_settings(recorder_share *share)
{
    recorder_line_settings settings = {
        .order = true, .reltime = true, .indent_max = 16,
        .start_local_us = share->header.start_wall_us
                        + share->header.utc_offset_s * 1000000,
    };
    unsigned count = recorder_share_tweak_count(share);
    for (unsigned t = 0; t < count; t++)
    {
        recorder_share_tweak tweak;
        if (!recorder_share_tweak_info(share, t, &tweak))
            continue;
        if (strcmp(tweak.name, "recorder_location") == 0)
            settings.location = tweak.value != 0;
        else if (strcmp(tweak.name, "recorder_function") == 0)
            settings.function = tweak.value != 0;
        else if (strcmp(tweak.name, "recorder_order") == 0)
            settings.order = tweak.value != 0;
        else if (strcmp(tweak.name, "recorder_reltime") == 0)
            settings.reltime = tweak.value != 0;
        else if (strcmp(tweak.name, "recorder_abstime") == 0)
            settings.abstime = tweak.value != 0;
        else if (strcmp(tweak.name, "recorder_indent") == 0)
            settings.indent_max = tweak.value;
    }
    return settings;
}

static bool print_record(const recorder_record *record, unsigned source,
                         void *arg)
{
    segment_dump *dump = arg;
    site_text text;
    recorder_site site;
    bool known = site_of(dump->share, record->site, &text);
    if (known)
        site = (recorder_site) { text.format, text.file, text.function,
                                 text.line, 0 };
    char message[RECORDER_MESSAGE_MAX];
    char location[RECORDER_LOCATION_MAX];
    recorder_line_text(message, location, &dump->settings,
                       known ? &site : NULL, (uintptr_t) record->site,
                       &dump->indent, record->args, record->nargs,
                       &dump->options);
    char line[RECORDER_LINE_MAX];
    size_t len = recorder_format_line(line, sizeof(line), &dump->settings,
                                      dump->lanes[source].name, location,
                                      record->index,
                                      microseconds(dump->share,
                                                   record->timestamp),
                                      message);
    /* Names, formats and strings come from the segment: no terminal
     * escapes, and no newline but the line's own. */
    char shown[4 * RECORDER_LINE_MAX];
    if (len > 0 && line[len - 1] == '\n')
        len--;
    size_t shown_len = recorder_share_escape(shown, sizeof(shown) - 1, line,
                                             len);
    shown[shown_len++] = '\n';
    fwrite(shown, 1, shown_len, dump->out);
    return true;
}

/* Does the ring of recorder 'r' overlap the ring of a recorder already
 * being dumped? The writer gives each recorder a ring of its own; a table
 * pointing many recorders at one ring would only make us print it again
 * and again. */
static bool ring_taken(recorder_share *share, const dump_lane *lanes,
                       unsigned used, unsigned r)
{
    ring_view ring, other;
    if (!ring_at(share, r, &ring))
        return false;                   /* nothing to read anyway */
    const uint8_t *start = (const uint8_t *) ring.first;
    const uint8_t *end = start + ring_bytes(ring.size, ring.lanes);
    for (unsigned u = 0; u < used; u++)
    {
        if ((u && lanes[u - 1].recorder == lanes[u].recorder) ||
            !ring_at(share, lanes[u].recorder, &other))
            continue;
        const uint8_t *other_start = (const uint8_t *) other.first;
        const uint8_t *other_end = other_start +
                                   ring_bytes(other.size, other.lanes);
        if (start < other_end && other_start < end)
            return true;
    }
    return false;
}

unsigned recorder_share_dump(recorder_share *share, const char *pattern,
                             FILE *out)
{
    regex_t regex;
    if (pattern && !recorder_regex_compile(&regex, pattern, NULL, NULL, 0))
        return 0;
    segment_dump dump = {
        .share = share, .settings = segment_line_settings(share), .out = out,
        .fetch = { share, writer_memory_readable(share) },
    };
    /* %+s arguments point into the writer: fetch or describe them. */
    dump.options = (recorder_render_options) {
        .fetch = fetch_string, .fetch_arg = &dump.fetch,
    };
    lane_losses losses = { .writers_gone = writer_gone, .gone_arg = share,
                           .gone = -1 };
    unsigned count = recorder_share_recorder_count(share), printed = 0;
    size_t most = (size_t) (count ? count : 1) * RECORDER_SHARE_LANES_MAX;
    lane_cursor *cursors = calloc(most, sizeof(*cursors));
    dump_lane *lanes = calloc(most, sizeof(*lanes));
    if (!cursors || !lanes)
        goto done;
    unsigned used = 0;
    for (unsigned r = 0; r < count; r++)
    {
        char name[64];
        const share_recorder *entry = recorder_at(share, r);
        ring_view ring;
        if (!entry || !string_at(share, entry->name, name, sizeof(name)))
            continue;
        if (pattern && regexec(&regex, name, 0, NULL, 0) != 0)
            continue;
        if (ring_taken(share, lanes, used, r) || !ring_at(share, r, &ring))
            continue;
        for (unsigned lane = 0; lane < ring.lanes; lane++)
        {
            lane_cursor_open(&cursors[used], lane_of(&ring, lane), ring.size,
                             0, &losses);
            if (!lane_cursor_any(&cursors[used]))
                continue;
            memcpy(lanes[used].name, name, sizeof(name));
            lanes[used].recorder = r;
            used++;
        }
    }
    dump.lanes = lanes;
    printed = (unsigned) record_merge(cursors, used, SIZE_MAX, &losses,
                                      print_record, &dump);
done:
    free(cursors);
    free(lanes);
    if (pattern)
        regfree(&regex);
    fflush(out);
    return printed;
}

/* ---- crash report ---------------------------------------------------------------- */

/* The region the writer's crash handler fills (crash_reader.c reads it). */
const void *recorder_share_crash_region(recorder_share *share, size_t *size)
{
    if (!share->header.crash || !intact(share))
        return NULL;                    /* none, or truncated under us */
    const void *region = share_at(&share->view, share->header.crash,
                                  CRASH_REGION_SIZE, 8);
    if (region)
        *size = CRASH_REGION_SIZE;
    return region;
}

/* ---- commands ------------------------------------------------------------------ */

bool recorder_share_available(recorder_share *share,
                              recorder_share_service service, char *why,
                              size_t size)
{
    if (size)
        why[0] = 0;
    if (!intact(share))
        return true;                    /* nothing to read it from */
    const share_header *live = live_header(share);
    const uint32_t *error;
    const char *what;
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
