/* share_file.c - the segment file: create, check, lock, reserve, map. */
#define _GNU_SOURCE                     /* F_OFD_SETLK */
#include "segment/share_file_private.h"
#include "segment/share_layout_private.h"
#include "backtrace/crash_report_private.h"
#include "recorder_share.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

bool share_file_locked(int fd)
{
    struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    return fcntl(fd, F_OFD_GETLK, &lock) == 0 && lock.l_type != F_UNLCK;
}

/* Read the header of the file open as 'fd'; false if it is too short. */
static bool read_header(int fd, share_header *header)
{
    return pread(fd, header, sizeof(*header), 0) == (ssize_t) sizeof(*header);
}

/* Is the file open as 'fd' a recorder segment, or what is left of one
 * whose writer died while making it (empty, or no magic yet: it is written
 * last)? Nothing else is ours to move aside. */
static bool is_segment(int fd)
{
    struct stat st;
    share_header header;
    if (fstat(fd, &st) != 0)
        return false;
    if (st.st_size == 0)
        return true;
    if (!read_header(fd, &header))
        return false;
    return header.magic == SHARE_MAGIC ||
           (header.magic == 0 && header.endian == SHARE_ENDIAN_MARK &&
            header.header_size == sizeof(share_header));
}

/* Is whatever is at 'path' ours to replace: nothing, or a recorder segment
 * of our own user (then open as *fd_out)? If not, says why in 'why', and
 * sets *foreign when it is another user's file. */
static bool ours_to_replace(const char *path, int *fd_out, bool *foreign,
                            char *why, size_t why_size)
{
    struct stat st;
    *fd_out = -1;
    if (lstat(path, &st) != 0)
    {
        if (errno == ENOENT)
            return true;
        snprintf(why, why_size, "cannot inspect %s: %s", path, strerror(errno));
        return false;
    }
    if (S_ISLNK(st.st_mode))
    {
        snprintf(why, why_size, "%s is a symbolic link; refusing to follow it",
                 path);
        return false;
    }
    if (!S_ISREG(st.st_mode))
    {
        snprintf(why, why_size, "%s is not a regular file", path);
        return false;
    }
    if (st.st_uid != geteuid())
    {
        *foreign = true;
        snprintf(why, why_size, "%s belongs to user %u, not to us (%u)",
                 path, (unsigned) st.st_uid, (unsigned) geteuid());
        return false;
    }
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat opened;
    if (fd < 0 || fstat(fd, &opened) != 0 || opened.st_ino != st.st_ino ||
        opened.st_dev != st.st_dev || !is_segment(fd))
    {
        snprintf(why, why_size, "%s is not a recorder segment; not replacing it",
                 path);
        if (fd >= 0)
            close(fd);
        return false;
    }
    *fd_out = fd;
    return true;
}

/* Is an existing file at 'path' ours to replace? Moves it aside if so.
 * Sets *held when a live process holds it. */
static bool clear_path(const char *path, bool *foreign, bool *held,
                       char *why, size_t why_size)
{
    int fd;
    if (!ours_to_replace(path, &fd, foreign, why, why_size))
        return false;
    if (fd < 0)
        return true;                    /* nothing there */
    *held = share_file_locked(fd);
    share_header header;
    bool named = *held && read_header(fd, &header);
    close(fd);
    if (*held)
    {
        /* The header is the holder's word, in a file of our own user:
         * shown, never trusted (its name may hold anything). */
        char program[4 * SHARE_NAME_MAX + 1] = "";
        if (named)
            recorder_share_escape(program, sizeof(program), header.program,
                                  strnlen(header.program,
                                          sizeof(header.program)));
        snprintf(why, why_size, "%s is held by live process %u (%s)", path,
                 named ? header.pid : 0u, program[0] ? program : "?");
        return false;
    }

    /* A dead process's segment: keep it for a post-mortem look, in place
     * of an older one, which must be a segment of ours too. */
    char previous[PATH_MAX];
    if (snprintf(previous, sizeof(previous), "%s.prev", path) >=
        (int) sizeof(previous))
    {
        snprintf(why, why_size, "path too long: %s", path);
        return false;
    }
    int previous_fd;
    if (!ours_to_replace(previous, &previous_fd, foreign, why, why_size))
        return false;
    if (previous_fd >= 0)
        close(previous_fd);
    if (rename(path, previous) != 0)
    {
        snprintf(why, why_size, "cannot move stale %s aside: %s", path,
                 strerror(errno));
        return false;
    }
    return true;
}

static bool directory_is_safe(const char *path, char *why, size_t why_size)
{
    char copy[PATH_MAX];
    snprintf(copy, sizeof(copy), "%s", path);
    const char *dir = dirname(copy);
    struct stat st;
    if (stat(dir, &st) != 0)
    {
        snprintf(why, why_size, "directory %s: %s", dir, strerror(errno));
        return false;
    }
    if ((st.st_mode & (S_IWOTH | S_IWGRP)) && !(st.st_mode & S_ISVTX))
    {
        snprintf(why, why_size,
                 "directory %s is writable by others without the sticky bit",
                 dir);
        return false;
    }
    return true;
}

/* A file may not grow past RLIMIT_FSIZE ('ulimit -f'): trying raises
 * SIGXFSZ, whose default action kills the process. Ask first. */
static bool within_file_size_limit(const char *path, uint64_t size,
                                   char *why, size_t why_size)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_FSIZE, &limit) != 0 ||
        limit.rlim_cur == RLIM_INFINITY || size <= limit.rlim_cur)
        return true;
    snprintf(why, why_size,
             "%s would be %lu KiB, above the file size limit (ulimit -f) "
             "of %lu KiB", path, (unsigned long) (size >> 10),
             (unsigned long) (limit.rlim_cur >> 10));
    return false;
}

/* Run 'grow' on 'fd', which may make the file larger: the file size limit
 * may have been lowered since within_file_size_limit asked (another
 * thread, prlimit from outside). SIGXFSZ stays blocked meanwhile, and one
 * it raised is taken back (it is sent to this thread), so the answer is
 * EFBIG, never the end of the process. Returns 0 or an errno value. */
static int without_sigxfsz(int fd, uint64_t offset, uint64_t size,
                           int (*grow)(int fd, uint64_t offset, uint64_t size))
{
    sigset_t xfsz, saved, pending;
    sigemptyset(&xfsz);
    sigaddset(&xfsz, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &xfsz, &saved);
    bool was_pending = sigpending(&pending) == 0 &&
                       sigismember(&pending, SIGXFSZ);
    int err = grow(fd, offset, size);
    if (err == EFBIG && !was_pending)
    {
        struct timespec now = { 0, 0 };
        sigtimedwait(&xfsz, NULL, &now);
    }
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    return err;
}

/* Within the file's length only: a file truncated under the writer must
 * not grow back by a reservation the command thread makes afterwards
 * (sharing again at that path would find a file of zeros, not a segment,
 * and refuse to replace it). */
static int allocate(int fd, uint64_t offset, uint64_t size)
{
    if (fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t) offset, (off_t) size) == 0)
        return 0;
    if (errno != EOPNOTSUPP)
        return errno;
    return posix_fallocate(fd, (off_t) offset, (off_t) size);
}

static int set_length(int fd, uint64_t offset, uint64_t size)
{
    return ftruncate(fd, (off_t) (offset + size)) == 0 ? 0 : errno;
}

int share_file_reserve(int fd, uint64_t offset, uint64_t size)
{
    return without_sigxfsz(fd, offset, size, allocate);
}

/* The regions written from the start, by anyone, or in a signal handler:
 * the header, the command ring (readers write it), the clock and the
 * crash region. Everything else gets its blocks as it comes into use. */
static int reserve_fixed(int fd, const share_header *layout)
{
    const share_region fixed[] = {
        { 0, sizeof(share_header) },
        layout->commands,
        layout->clock,
        { layout->crash, layout->crash ? CRASH_REGION_SIZE : 0 },
    };
    for (unsigned r = 0; r < sizeof(fixed) / sizeof(fixed[0]); r++)
    {
        int err = fixed[r].size
            ? share_file_reserve(fd, fixed[r].offset, fixed[r].size) : 0;
        if (err)
            return err;
    }
    return 0;
}

/* Lock the new file open as 'fd' (created as 'path'), give it the size of
 * 'layout', reserve the blocks of its fixed regions and map it. On
 * failure, says why, removes the file and closes 'fd'. */
static int lock_reserve_map(int fd, const char *path,
                            const share_header *layout, share_view *view,
                            char *why, size_t why_size)
{
    uint64_t size = layout->total_size;
    struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    if (fcntl(fd, F_OFD_SETLK, &lock) != 0)
    {
        snprintf(why, why_size, "cannot lock %s: %s", path, strerror(errno));
        goto fail_created;
    }

    /* A sparse file of the full size: pages get blocks when reserved, so
     * a full disk fails here or in a later reservation, never as a SIGBUS
     * on some later record. */
    int err = without_sigxfsz(fd, 0, size, set_length);
    if (!err)
        err = reserve_fixed(fd, layout);
    if (err)
    {
        snprintf(why, why_size, "cannot reserve %lu KiB for %s: %s",
                 (unsigned long) (size >> 10), path, strerror(err));
        goto fail_created;
    }

    void *base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED)
    {
        snprintf(why, why_size, "cannot map %s: %s", path, strerror(errno));
        goto fail_created;
    }
    view->base = base;
    view->size = size;
    return fd;

fail_created:
    unlink(path);
    close(fd);
    return -1;
}

int share_file_create(const char *path, const share_header *layout,
                      share_view *view, char *why, size_t why_size)
{
    uint64_t size = layout->total_size;
    bool foreign = false, held = false;
    if (!within_file_size_limit(path, size, why, why_size) ||
        !directory_is_safe(path, why, why_size) ||
        !clear_path(path, &foreign, &held, why, why_size))
        return foreign ? SHARE_FILE_FOREIGN : held ? SHARE_FILE_HELD : -1;

    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                  0600);
    if (fd < 0)
    {
        snprintf(why, why_size, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    return lock_reserve_map(fd, path, layout, view, why, why_size);
}

int share_file_create_beside(const char *path, const share_header *layout,
                             share_view *view, char *temporary,
                             size_t temporary_size, char *why,
                             size_t why_size)
{
    uint64_t size = layout->total_size;
    if (!within_file_size_limit(path, size, why, why_size) ||
        !directory_is_safe(path, why, why_size))
        return -1;
    if (snprintf(temporary, temporary_size, "%s.grow.XXXXXX", path) >=
        (int) temporary_size)
    {
        snprintf(why, why_size, "path too long: %s", path);
        return -1;
    }
    /* O_EXCL with a name of its own: nothing planted there is followed. */
    int fd = mkostemp(temporary, O_CLOEXEC);
    if (fd < 0)
    {
        snprintf(why, why_size, "cannot create a file beside %s: %s", path,
                 strerror(errno));
        return -1;
    }
    return lock_reserve_map(fd, temporary, layout, view, why, why_size);
}

bool share_file_replace(const char *temporary, const char *path, int old_fd,
                        char *why, size_t why_size)
{
    struct stat ours, there;
    if (lstat(path, &there) == 0 &&
        (fstat(old_fd, &ours) != 0 || ours.st_dev != there.st_dev ||
         ours.st_ino != there.st_ino))
    {
        snprintf(why, why_size, "%s is no longer our segment", path);
        return false;
    }
    if (rename(temporary, path) != 0)
    {
        snprintf(why, why_size, "cannot rename %s to %s: %s", temporary, path,
                 strerror(errno));
        return false;
    }
    return true;
}

/* A directory only we can write: no one can plant a file in it. */
static bool private_directory(const char *dir)
{
    struct stat st;
    return dir && dir[0] == '/' && stat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
           st.st_uid == geteuid() && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

void share_file_fallback_path(char *out, size_t size)
{
    const char *runtime = getenv("XDG_RUNTIME_DIR");
    if (private_directory(runtime))
        snprintf(out, size, "%s/recorder_share", runtime);
    else
        snprintf(out, size, "%s.%u", RECORDER_SHARE_DEFAULT_PATH,
                 (unsigned) geteuid());
}
