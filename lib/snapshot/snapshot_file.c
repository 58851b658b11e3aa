/* snapshot_file.c - where a snapshot goes, and how it gets there.
 *
 * The directory is fixed once, from the program's own environment
 * (RECORDER_SNAPSHOT_DIR, else $XDG_RUNTIME_DIR, else the segment's
 * directory): no item of a specification, so no command of another
 * process, can move it. Each snapshot is first written under a hidden
 * temporary name, created 0600, exclusively, following no symbolic link,
 * then renamed to its final name (never over an existing file): a process
 * killed while writing leaves at most a ".tmp" file, never a partial
 * file under a final name. A failure is said once per kind on stderr.
 */
#define _GNU_SOURCE                     /* renameat2, program name */
#include "snapshot/snapshot_private.h"
#include "segment/share_snapshots_private.h"
#include "trace/chrome_json_private.h"
#include "recorder_share.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static pthread_once_t fixed = PTHREAD_ONCE_INIT;
static char directory[PATH_MAX];
static unsigned counter;                /* snapshot thread only */

static void fix_directory(void)
{
    const char *dir = getenv("RECORDER_SNAPSHOT_DIR");
    if (!dir || !*dir)
        dir = getenv("XDG_RUNTIME_DIR");
    if (dir && *dir)
        snprintf(directory, sizeof(directory), "%s", dir);
    else if (!recorder_share_directory(directory, sizeof(directory)))
        snprintf(directory, sizeof(directory), "/tmp");
}

void snapshot_file_fix_directory(void)
{
    pthread_once(&fixed, fix_directory);
}

/* Failure kinds said so far: one line each for the run. */
enum { FAIL_CREATE, FAIL_WRITE, FAIL_RENAME, FAIL_CTF, FAIL_KINDS };
static bool said[FAIL_KINDS];

static void say_failure(unsigned kind, const char *what, int error)
{
    if (said[kind])
        return;
    said[kind] = true;
    fprintf(stderr, "recorder: snapshot not written: %s in %s: %s\n", what,
            directory, strerror(error));
    record(recorder_error, "Snapshot not written: %+s", what);
}

/* PROGRAM-PID-YYYYMMDDTHHMMSS-N, the start of both names. */
static void name_start(char *out, size_t size)
{
    time_t now = time(NULL);
    struct tm local;
    char when[32] = "";
    if (localtime_r(&now, &local))
        strftime(when, sizeof(when), "%Y%m%dT%H%M%S", &local);
    char program[64];
    snprintf(program, sizeof(program), "%s", program_invocation_short_name);
    for (char *p = program; *p; p++)
        if (*p == '/' || *p == '.' || (unsigned char) *p < ' ')
            *p = '_';
    snprintf(out, size, "%s-%d-%s-%u", program, (int) getpid(), when,
             ++counter);
}

static bool write_file(int fd, const char *header, uint64_t until_ns,
                       snapshot_format format)
{
    if (format == SNAPSHOT_TEXT)
        return snapshot_text_write(fd, header, until_ns);
    int copy = dup(fd);
    FILE *out = copy >= 0 ? fdopen(copy, "w") : NULL;
    if (!out)
    {
        if (copy >= 0)
            close(copy);
        return false;
    }
    bool ok = recorder_chrome_json_self(out, until_ns) >= 0;
    int saved = errno;
    ok = fclose(out) == 0 && ok;
    if (!ok && !errno)
        errno = saved ? saved : EIO;
    return ok;
}

/* The segment this process writes, exported as CTF into new directory
 * 'dir'. */
static bool write_ctf(const char *dir)
{
    char segment[PATH_MAX], why[200];
    if (!recorder_share_writing(segment, sizeof(segment)))
    {
        errno = ENOENT;
        say_failure(FAIL_CTF, "a CTF snapshot needs a shared segment "
                    "(share= or RECORDER_SHARE)", errno);
        return false;
    }
    /* Private, like the files of the other formats; the CTF writer takes
     * an empty directory that exists. */
    if (mkdir(dir, 0700) != 0)
    {
        say_failure(FAIL_CREATE, "cannot create a directory", errno);
        return false;
    }
    recorder_share *share = recorder_share_open(segment, why, sizeof(why));
    long records = share ? recorder_share_ctf(&share, 1, ".*", dir, why,
                                              sizeof(why))
                         : -1;
    int saved = errno;
    if (share)
        recorder_share_close(share);
    if (records < 0)
    {
        errno = saved ? saved : EIO;
        say_failure(FAIL_CTF, "CTF export failed", errno);
        return false;
    }
    return true;
}

/* Rename 'from' to 'to', which must not exist. A file system without
 * RENAME_NOREPLACE gets a hard link then an unlink, as exclusive; a
 * directory (CTF) a plain rename, which fails on an existing non-empty
 * directory and replaces none that exists as a file. */
static bool rename_new(const char *from, const char *to, bool is_directory)
{
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
        return true;
    if (errno != EINVAL && errno != ENOSYS)
        return false;
    if (is_directory)
        return rename(from, to) == 0;
    if (link(from, to) != 0)
        return false;
    unlink(from);
    return true;
}

bool snapshot_file_write(const char *text, uint64_t at_ns, uint64_t until_ns,
                         snapshot_format format, char *path, size_t size)
{
    snapshot_file_fix_directory();
    char base[160], temporary[PATH_MAX + 200];
    name_start(base, sizeof(base));
    static const char *const suffixes[] = { ".txt", ".json", "" };
    snprintf(temporary, sizeof(temporary), "%s/.%s.tmp", directory, base);
    int length = snprintf(path, size, "%s/%s%s", directory, base,
                          suffixes[format]);
    if (length < 0 || (size_t) length >= size)
        return false;

    if (format == SNAPSHOT_CTF)
    {
        if (!write_ctf(temporary))
            return false;
    }
    else
    {
        int fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
                      O_CLOEXEC, 0600);
        if (fd < 0)
        {
            say_failure(FAIL_CREATE, "cannot create a file", errno);
            return false;
        }
        char header[400];
        snprintf(header, sizeof(header),
                 "# recorder snapshot: %s pid %d, condition 'snapshot=%s' "
                 "at %.6f s, records up to %.6f s\n",
                 program_invocation_short_name, (int) getpid(), text,
                 at_ns * 1e-9, until_ns * 1e-9);
        bool ok = write_file(fd, header, until_ns, format);
        int saved = errno;
        ok = close(fd) == 0 && ok;
        if (!ok)
        {
            unlink(temporary);
            say_failure(FAIL_WRITE, "cannot write a file",
                        saved ? saved : EIO);
            return false;
        }
    }
    if (!rename_new(temporary, path, format == SNAPSHOT_CTF))
    {
        say_failure(FAIL_RENAME, "cannot rename a file", errno);
        return false;
    }
    record(recorder_traces, "Snapshot written");
    return true;
}
