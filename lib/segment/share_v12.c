/* share_v12.c - open a recorder 1.2 segment and follow its writer.
 *
 * A 1.2 segment names no process: no pid, program, host or start time, no
 * lock held while the writer runs. Its writer is found as our own user's
 * process that has the file open and is not a reader (not us, not a
 * recorder_scope, not one of our readers, which open it O_NOFOLLOW), the
 * same test as for our segments' pid (a process of ours holding this very
 * file). Without one, the segment reads as exited: 1.2 leaves nothing that
 * tells an exit from a crash.
 */
#include "segment/share_v12_private.h"
#include "segment/share_v12_channels_private.h"
#include "segment/share_v12_layout_private.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How often to look for a writer again while there is none. */
#define SEARCH_SECONDS  1.0

static double clock_seconds(clockid_t clock)
{
    struct timespec now;
    clock_gettime(clock, &now);
    return (double) now.tv_sec + now.tv_nsec * 1e-9;
}

/* ---- the writer ------------------------------------------------------------- */

/* Read a small /proc file into out[size], terminated; false if none. */
static bool read_small(const char *path, char *out, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t got = read(fd, out, size - 1);
    close(fd);
    if (got < 0)
        return false;
    out[got] = 0;
    return true;
}

/* Whether descriptor 'fd' of 'pid' was opened as our readers open. */
static bool reader_descriptor(pid_t pid, const char *fd)
{
    char path[320], text[512];
    snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", (int) pid, fd);
    if (!read_small(path, text, sizeof(text)))
        return false;
    const char *flags = strstr(text, "flags:");
    return flags && (strtoul(flags + 6, NULL, 8) & O_NOFOLLOW);
}

/* Does 'pid', a process of our user other than us and not a reader, have
 * the file of 'share' open? */
static bool holds_file(recorder_share *share, pid_t pid)
{
    char path[64], comm[64];
    struct stat st;
    snprintf(path, sizeof(path), "/proc/%d", (int) pid);
    if (pid <= 0 || pid == getpid() || stat(path, &st) != 0 ||
        st.st_uid != geteuid())
        return false;
    snprintf(path, sizeof(path), "/proc/%d/comm", (int) pid);
    if (read_small(path, comm, sizeof(comm)) &&
        strcmp(comm, "recorder_scope\n") == 0)
        return false;
    snprintf(path, sizeof(path), "/proc/%d/fd", (int) pid);
    DIR *dir = opendir(path);
    if (!dir)
        return false;
    int dir_fd = dirfd(dir);
    bool found = false;
    for (struct dirent *entry; !found && (entry = readdir(dir)); )
        found = entry->d_name[0] != '.' &&
                fstatat(dir_fd, entry->d_name, &st, 0) == 0 &&
                st.st_dev == share->device && st.st_ino == share->inode &&
                !reader_descriptor(pid, entry->d_name);
    closedir(dir);
    return found;
}

static pid_t search_writer(recorder_share *share)
{
    DIR *proc = opendir("/proc");
    if (!proc)
        return 0;
    pid_t found = 0;
    for (struct dirent *entry; !found && (entry = readdir(proc)); )
    {
        if (!isdigit((unsigned char) entry->d_name[0]))
            continue;
        pid_t pid = (pid_t) strtol(entry->d_name, NULL, 10);
        if (holds_file(share, pid))
            found = pid;
    }
    closedir(proc);
    return found;
}

uint32_t share_v12_writer(recorder_share *share)
{
    struct share_v12 *v12 = share->v12;
    if (v12->writer && holds_file(share, (pid_t) v12->writer))
        return v12->writer;
    double now = clock_seconds(CLOCK_MONOTONIC);
    if (v12->writer || now >= v12->next_search)
    {
        v12->writer = (uint32_t) search_writer(share);
        v12->next_search = now + SEARCH_SECONDS;
    }
    return v12->writer;
}

/* When 'pid' started, in seconds since the epoch; 0 if unknown. */
static double process_start(pid_t pid)
{
    char path[64], text[1024], uptime[128];
    snprintf(path, sizeof(path), "/proc/%d/stat", (int) pid);
    if (!read_small(path, text, sizeof(text)) ||
        !read_small("/proc/uptime", uptime, sizeof(uptime)))
        return 0;
    /* Field 22, counted after the command name, which may hold spaces. */
    const char *field = strrchr(text, ')');
    for (unsigned f = 2; field && f < 22; f++)
        field = strchr(field + 1, ' ');
    long hz = sysconf(_SC_CLK_TCK);
    if (!field || hz <= 0)
        return 0;
    double since_boot = strtod(field + 1, NULL) / (double) hz;
    double age = strtod(uptime, NULL) - since_boot;
    return age >= 0 ? clock_seconds(CLOCK_REALTIME) - age : 0;
}

/* ---- opening -------------------------------------------------------------------- */

bool share_v12_detect(const share_view *view)
{
    const uint32_t *magic = share_at(view, 0, sizeof(uint32_t), 4);
    return magic && (*magic == V12_MAGIC || *magic == V12_MAGIC_32BIT);
}

/* Why a 1.2 header cannot be read, or NULL. */
static const char *header_problem(recorder_share *share, char *text,
                                  size_t size)
{
    const v12_header *h = share_at(&share->view, 0, sizeof(v12_header), 8);
    uint32_t magic;
    memcpy(&magic, share->view.base, sizeof(magic));
    if (magic == V12_MAGIC_32BIT)
        return "written by a 32-bit recorder 1.2 program; this reader reads "
               "those of 64-bit programs";
    if (!h)
    {
        snprintf(text, size, "truncated recorder 1.2 segment: %lu bytes, "
                 "its header alone takes %lu", (unsigned long) share->view.size,
                 (unsigned long) sizeof(v12_header));
        return text;
    }
    if (h->version != V12_VERSION)
    {
        snprintf(text, size, "recorder 1.x segment of version 0x%x; this "
                 "reader knows 0x%x (1.0.5 to 1.2)", h->version, V12_VERSION);
        return text;
    }
    int64_t head = __atomic_load_n(&h->head, __ATOMIC_ACQUIRE);
    if (head < 0 || (head > 0 && !share->v12->count))
    {
        bool past = head < 0 || (uint64_t) head > share->view.size ||
                    share->view.size - (uint64_t) head < sizeof(v12_channel);
        snprintf(text, size, "corrupt recorder 1.2 segment: its newest "
                 "channel (offset %lld) %s the %lu bytes of the file",
                 (long long) head, past ? "lies past" : "is invalid within",
                 (unsigned long) share->view.size);
        return text;
    }
    return NULL;
}

bool share_v12_attach(recorder_share *share, char *error, size_t size)
{
    share->v12 = calloc(1, sizeof(*share->v12));
    if (!share->v12)
    {
        snprintf(error, size, "out of memory");
        return false;
    }
    struct share_v12 *v12 = share->v12;
    char text[256];
    const char *problem = NULL;
    if (share->view.size >= sizeof(v12_header))
    {
        if (!share_v12_refresh(share))
            problem = "out of memory";
    }
    if (!problem)
        problem = header_problem(share, text, sizeof(text));
    if (problem)
    {
        snprintf(error, size, "%s", problem);
        share_v12_free(share);
        return false;
    }
    const v12_header *h = v12_live(share);
    v12->serial = h->serial;
    v12->commands_ok = h->commands.size == V12_COMMAND_BYTES &&
                       h->commands.item_size == 1;
    pid_t writer = (pid_t) share_v12_writer(share);
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/comm", (int) writer);
    if (!writer || !read_small(path, v12->program, sizeof(v12->program)))
        snprintf(v12->program, sizeof(v12->program), "recorder 1.2 program");
    v12->program[strcspn(v12->program, "\n")] = 0;
    /* Time 0 of its samples is its first tick, about when it started;
     * without the process, the file's last change less its newest sample. */
    v12->start_time = writer ? process_start(writer) : 0;
    struct stat st;
    if (!v12->start_time && fstat(share->fd, &st) == 0)
        v12->start_time = (double) st.st_mtim.tv_sec +
                          st.st_mtim.tv_nsec * 1e-9 - share_v12_newest(share);
    return true;
}

void share_v12_free(recorder_share *share)
{
    if (share->v12)
        free(share->v12->channels);
    free(share->v12);
    share->v12 = NULL;
}

/* ---- state ------------------------------------------------------------------------ */

recorder_share_status share_v12_state(recorder_share *share)
{
    struct stat st;
    if (stat(share->path, &st) == 0 &&
        (st.st_dev != share->device || st.st_ino != share->inode))
        return RECORDER_SHARE_REPLACED;
    if (!v12_intact(share))
        return RECORDER_SHARE_REPLACED;     /* truncated: made again */
    const v12_header *h = v12_live(share);
    if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != V12_MAGIC ||
        __atomic_load_n(&h->version, __ATOMIC_ACQUIRE) != V12_VERSION)
        return RECORDER_SHARE_CORRUPT;
    if (__atomic_load_n(&h->serial, __ATOMIC_ACQUIRE) != share->v12->serial)
        return RECORDER_SHARE_REPLACED;
    /* The writer grew the file for new channels: open again to map them. */
    if (fstat(share->fd, &st) == 0 && (uint64_t) st.st_size > share->view.size)
        return RECORDER_SHARE_REPLACED;
    return share_v12_writer(share) ? RECORDER_SHARE_ALIVE
                                   : RECORDER_SHARE_EXITED;
}

void share_v12_process_info(recorder_share *share,
                            recorder_share_process *info)
{
    struct share_v12 *v12 = share->v12;
    memset(info, 0, sizeof(*info));
    info->pid = share_v12_writer(share);
    snprintf(info->program, sizeof(info->program), "%s", v12->program);
    if (!info->pid || gethostname(info->host, sizeof(info->host)) != 0)
        snprintf(info->host, sizeof(info->host), "?");
    info->host[sizeof(info->host) - 1] = 0;
    info->generation = v12->serial;
    info->start_time = v12->start_time;
    info->start_monotonic = v12->start_time -
                            (clock_seconds(CLOCK_REALTIME) -
                             clock_seconds(CLOCK_MONOTONIC));
    info->owner = share->owner;
    info->owned = share->owner == geteuid();
    info->pid_verified = info->owned && info->pid != 0;
}
