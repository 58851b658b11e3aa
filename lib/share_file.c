/* share_file.c - the segment file: create, check, lock, reserve, map. */
#define _GNU_SOURCE                     /* F_OFD_SETLK */
#include "share_file_private.h"
#include "share_layout_private.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
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

/* The pid a segment's header names, for messages. */
static unsigned header_pid(int fd)
{
    share_header header;
    if (pread(fd, &header, sizeof(header), 0) != (ssize_t) sizeof(header) ||
        header.magic != SHARE_MAGIC)
        return 0;
    return header.pid;
}

/* Is an existing file at 'path' ours to replace? Moves it aside if so. */
static bool clear_path(const char *path, char *why, size_t why_size)
{
    struct stat st;
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
        snprintf(why, why_size, "%s belongs to user %u, not to us (%u)",
                 path, (unsigned) st.st_uid, (unsigned) geteuid());
        return false;
    }

    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0)
    {
        bool held = share_file_locked(fd);
        unsigned holder = held ? header_pid(fd) : 0;
        close(fd);
        if (held)
        {
            snprintf(why, why_size, "%s is in use by live process %u",
                     path, holder);
            return false;
        }
    }

    /* A dead process's segment: keep it for a post-mortem look. */
    char previous[PATH_MAX];
    if (snprintf(previous, sizeof(previous), "%s.prev", path) >=
        (int) sizeof(previous) || rename(path, previous) != 0)
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

/* Reserve the blocks. The limit may have been lowered since we asked
 * (another thread, prlimit from outside): SIGXFSZ stays blocked meanwhile,
 * and one the reservation raised is taken back (it is sent to this
 * thread), so the answer is EFBIG, never the end of the process. */
static int reserve(int fd, uint64_t size)
{
    sigset_t xfsz, saved, pending;
    sigemptyset(&xfsz);
    sigaddset(&xfsz, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &xfsz, &saved);
    bool was_pending = sigpending(&pending) == 0 &&
                       sigismember(&pending, SIGXFSZ);
    int err = posix_fallocate(fd, 0, (off_t) size);
    if (err == EFBIG && !was_pending)
    {
        struct timespec now = { 0, 0 };
        sigtimedwait(&xfsz, NULL, &now);
    }
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    return err;
}

int share_file_create(const char *path, uint64_t size, share_view *view,
                      char *why, size_t why_size)
{
    if (!within_file_size_limit(path, size, why, why_size) ||
        !directory_is_safe(path, why, why_size) ||
        !clear_path(path, why, why_size))
        return -1;

    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                  0600);
    if (fd < 0)
    {
        snprintf(why, why_size, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }

    struct flock lock = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    if (fcntl(fd, F_OFD_SETLK, &lock) != 0)
    {
        snprintf(why, why_size, "cannot lock %s: %s", path, strerror(errno));
        goto fail_created;
    }

    /* Reserve every block now, so a full disk fails here and not as a
     * SIGBUS on some later record. */
    int err = reserve(fd, size);
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
