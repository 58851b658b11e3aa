/* share_open.c - map another process's segment, check it, follow its state.
 *
 * The writer may be running, dead, or replaced; the file may be truncated,
 * corrupted or hostile. So the header is checked before anything else
 * (every later offset, count and size goes through share_access_private.h),
 * and who owns the file and who writes it decides what else a reader may
 * trust: files it names, the memory of the process it names.
 */
#include "segment/share_reader_private.h"
#include "segment/share_file_private.h"
#include "segment/share_path_private.h"
#include "segment/segment_guard_private.h"
#include "segment/share_v12_private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- opening ------------------------------------------------------------ */

static bool owned_file(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
           st.st_uid == geteuid();
}

/* A writer whose default path holds another user's file shares in its
 * fallback path instead: look there when the default is not ours.
 * $RECORDER_SHARE is expanded as the writer expands it, except that a
 * reader cannot know another process's %p or %n: such a path is returned
 * as it is, and opening it says how to find the segments it stands for. */
const char *recorder_share_default_path(void)
{
    const char *path = getenv("RECORDER_SHARE");
    if (path && *path)
    {
        if (!strchr(path, '%') || share_path_per_process(path))
            return path;
        static __thread char expanded[PATH_MAX];
        share_path_values values;
        char host[256], why[2 * PATH_MAX];
        share_path_values_here(&values, host, sizeof(host));
        return share_path_expand(path, &values, expanded, sizeof(expanded),
                                 why, sizeof(why)) ? expanded : path;
    }
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
    if (h->word_size != sizeof(void *))
    {
        snprintf(error, size, "written with %u-byte words, this reader's "
                 "are %u", h->word_size, (unsigned) sizeof(void *));
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
    /* The writer sizes its tables to the program, up to these limits:
     * larger ones only make a reader work (and allocate) for nothing.
     * Whether they fit in the file is checked next. */
    if (h->recorders.capacity > SHARE_RECORDERS_MAX ||
        h->tweaks.capacity > SHARE_TWEAKS_MAX ||
        h->sites.capacity > SHARE_SITES_MAX ||
        h->channels.capacity > SHARE_CHANNELS_MAX ||
        h->modules.capacity > SHARE_MODULES_MAX ||
        h->strings.size > SHARE_STRINGS_MAX ||
        h->rings.size > SHARE_RINGS_MAX_SIZE)
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
    share->intact_at = -1;
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
        int error_number = errno;
        struct stat file;
        if (error_number == EACCES && lstat(path, &file) == 0 &&
            file.st_uid != geteuid())
        {
            /* Whose it is says more than "Permission denied". */
            char owner[128];
            describe_user(file.st_uid, owner, sizeof(owner));
            snprintf(error, size, "%s belongs to %s, not to you, who may not "
                     "read it", path, owner);
        }
        else if (error_number == ENOENT && share_path_per_process(path))
            snprintf(error, size, "%s: no such segment: %%p and %%n stand for "
                     "each writer's pid and program; open one segment by its "
                     "path (recorder_scope -L lists them)", path);
        else
            snprintf(error, size, "%s: %s", path,
                     error_number == ELOOP
                     ? "is a symbolic link; not following it"
                     : strerror(error_number));
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
    if (st.st_size < (off_t) sizeof(uint64_t))
    {
        snprintf(error, size, "%s: too small for a recorder segment", path);
        goto fail_map;
    }
    share->device = st.st_dev;
    share->inode = st.st_ino;
    share->owner = st.st_uid;
    /* Another user's segment is data to look at, never a way into that
     * user's process: mapped read only, no command is sent through it
     * even when its mode would let us write it. */
    if (st.st_uid != geteuid())
        share->writable = false;
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
    /* A recorder 1.2 program's segment: share_v12.c reads it. */
    if (share_v12_detect(&share->view))
    {
        if (share_v12_attach(share, why, sizeof(why)))
            return share;
        snprintf(error, size, "%s: %s", path, why);
        goto fail_validate;
    }
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
    share_v12_free(share);
    free(share->sites);
    share_forget_find_regex(share);
    free(share);
}

void share_forget_find_regex(recorder_share *share)
{
    if (!share->find_pattern)
        return;
    regfree(&share->find_regex);
    free(share->find_pattern);
    share->find_pattern = NULL;
}

/* ---- state ---------------------------------------------------------------- */

/* A file found whole is looked at again after this long at most: a
 * window polls 50 times a second, and an fstat() costs 5-10 us on a VM. */
#define INTACT_NS       50000000

/* The coarse clock is read without a system call (vDSO). */
static int64_t coarse_now(void)
{
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC_COARSE, &now) != 0)
        return -1;
    return (int64_t) now.tv_sec * 1000000000 + now.tv_nsec;
}

static bool file_covers_view(recorder_share *share)
{
    struct stat st;
    return fstat(share->fd, &st) == 0 &&
           (uint64_t) st.st_size >= share->view.size;
}

/* Whether the file still covers what we mapped. Truncated between this
 * check and a read, the read takes SIGBUS: segment_guard.c then replaces
 * the mapping with zeros, and this says so from then on. */
bool share_reader_intact(recorder_share *share)
{
    if (segment_guard_detached(share->guard))
        return false;
    int64_t now = coarse_now();
    int64_t checked = __atomic_load_n(&share->intact_at, __ATOMIC_RELAXED);
    if (share->guard >= 0 && now >= 0 && checked >= 0 &&
        now - checked < INTACT_NS)
        return true;
    if (!file_covers_view(share))
        return false;
    __atomic_store_n(&share->intact_at, now, __ATOMIC_RELAXED);
    return true;
}

/* The parts of the header that never change once the writer made it:
 * anything else there means someone wrote over it. */
static bool header_unchanged(recorder_share *share)
{
    const share_header *live = share_reader_live_header(share);
    const share_header *seen = &share->header;
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
    if (share->v12)
        return share_v12_state(share);
    struct stat st;
    if (stat(share->path, &st) == 0 &&
        (st.st_dev != share->device || st.st_ino != share->inode))
        return RECORDER_SHARE_REPLACED;
    /* Asked now, not as of the last read. */
    if (segment_guard_detached(share->guard) || !file_covers_view(share))
        return RECORDER_SHARE_REPLACED;     /* truncated: not ours to read */
    if (!header_unchanged(share))
        return RECORDER_SHARE_CORRUPT;
    uint32_t state = __atomic_load_n(&share_reader_live_header(share)->state,
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

bool share_reader_writer_readable(recorder_share *share)
{
    return recorder_share_owned(share) &&
           recorder_share_state(share) == RECORDER_SHARE_ALIVE &&
           writer_verified(share, share->header.pid);
}

void recorder_share_process_info(recorder_share *share,
                                 recorder_share_process *info)
{
    if (share->v12)
    {
        share_v12_process_info(share, info);
        return;
    }
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

/* ---- time ------------------------------------------------------------------- */

/* Nanoseconds between the writer's start and 'ticks', through the points
 * the writer published: final once read, the same for every reader, and
 * computed as the writer's own dumps do (recorder_clock_us_since_start). */
static uint64_t since_start_ns(recorder_share *share, uint64_t ticks)
{
    return share_reader_monotonic_ns(share, ticks) -
           share->header.start_mono_ns;
}

uint64_t share_reader_monotonic_ns(recorder_share *share, uint64_t ticks)
{
    recorder_time_cache_update(&share->time, clock_table(share));
    uint64_t ns = recorder_time_ns(share->time.points, share->time.count,
                                   ticks);
    uint64_t start = share->header.start_mono_ns;
    return ns > start ? ns : start;
}

double share_reader_seconds(recorder_share *share, uint64_t ticks)
{
    return (double) since_start_ns(share, ticks) * 1e-9;
}

uint64_t share_reader_microseconds(recorder_share *share, uint64_t ticks)
{
    return since_start_ns(share, ticks) / 1000;
}

/* Asked only when a record stays unfinished: a dead writer's never will
 * be. */
bool share_reader_writer_gone(void *share)
{
    return recorder_share_state(share) != RECORDER_SHARE_ALIVE;
}
