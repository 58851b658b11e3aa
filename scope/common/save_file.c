/* save_file.c - numbered files, written aside and renamed into place. */
#define _GNU_SOURCE                     /* renameat2 */
#include "common/save_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_ITEMS       8
#define MAX_TRIES       100000

/* A fresh temporary file next to 'target'. */
static bool make_temporary(const char *target, char *tmp, size_t size,
                           char *error, size_t error_size)
{
    int n = snprintf(tmp, size, "%s.tmp-XXXXXX", target);
    if (n < 0 || (size_t) n >= size)
    {
        snprintf(error, error_size, "%s: name too long", target);
        return false;
    }
    int fd = mkstemp(tmp);
    if (fd < 0)
    {
        snprintf(error, error_size, "cannot create a file next to %s: %s",
                 target, strerror(errno));
        return false;
    }
    /* mkstemp makes it private; saved files get the usual mode. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    return true;
}

/* Rename without replacing: EEXIST if 'to' exists. */
static int rename_new(const char *from, const char *to)
{
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    /* A file system without RENAME_NOREPLACE: link fails if 'to' exists. */
    if (link(from, to) != 0)
        return -1;
    unlink(from);
    return 0;
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 || errno != ENOENT;
}

unsigned scope_save_numbered(const char *basename, unsigned *next,
                             const scope_save_item *items, unsigned count,
                             char *error, size_t size)
{
    if (count == 0 || count > MAX_ITEMS)
    {
        snprintf(error, size, "nothing to save");
        return 0;
    }
    char tmp[MAX_ITEMS][PATH_MAX];
    char final[MAX_ITEMS][PATH_MAX];
    unsigned written = 0;
    unsigned number = *next ? *next : 1;

    for (; written < count; written++)
    {
        snprintf(final[written], PATH_MAX, "%s%s", basename,
                 items[written].extension);
        if (!make_temporary(final[written], tmp[written], PATH_MAX, error, size))
            goto fail;
        if (!items[written].write(tmp[written], items[written].arg, error,
                                  size))
        {
            unlink(tmp[written]);
            goto fail;
        }
    }

    for (unsigned tries = 0; tries < MAX_TRIES; tries++, number++)
    {
        bool taken = false;
        for (unsigned i = 0; i < count && !taken; i++)
        {
            int n = snprintf(final[i], PATH_MAX, "%s%u%s", basename, number,
                             items[i].extension);
            if (n < 0 || n >= PATH_MAX)
            {
                snprintf(error, size, "%s: name too long", basename);
                goto fail;
            }
            taken = exists(final[i]);
        }
        if (taken)
            continue;
        unsigned moved = 0;
        for (; moved < count; moved++)
            if (rename_new(tmp[moved], final[moved]) != 0)
                break;
        if (moved == count)
        {
            *next = number + 1;
            return number;
        }
        int err = errno;
        /* Someone took this number meanwhile: take ours back, try the next. */
        for (unsigned i = 0; i < moved; i++)
            rename(final[i], tmp[i]);
        if (err != EEXIST)
        {
            snprintf(error, size, "cannot save %s: %s", final[moved],
                     strerror(err));
            goto fail;
        }
    }
    snprintf(error, size, "no free number for %s", basename);

fail:
    for (unsigned i = 0; i < written; i++)
        unlink(tmp[i]);
    return 0;
}

bool scope_save_replace(const char *path, scope_save_writer write, void *arg,
                        char *error, size_t size)
{
    char tmp[PATH_MAX];
    if (!make_temporary(path, tmp, sizeof(tmp), error, size))
        return false;
    if (!write(tmp, arg, error, size))
    {
        unlink(tmp);
        return false;
    }
    if (rename(tmp, path) != 0)
    {
        snprintf(error, size, "cannot write %s: %s", path, strerror(errno));
        unlink(tmp);
        return false;
    }
    return true;
}
