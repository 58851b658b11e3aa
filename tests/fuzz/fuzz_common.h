/* fuzz_common.h - what every fuzz target shares. Each target defines
 * LLVMFuzzerTestOneInput; with libFuzzer (make fuzz) it is driven by
 * clang's fuzzer, in make check by replay_main.c over the seeds and the
 * regression inputs of earlier crashes. */
#ifndef RECORDER_FUZZ_COMMON_H
#define RECORDER_FUZZ_COMMON_H

#include "recorder.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Recorder output goes nowhere: dumps and help are exercised, not shown. */
static unsigned fuzz_discard(const char *text, size_t len, void *arg)
{
    (void) text;
    (void) arg;
    return (unsigned) len;
}

static inline void fuzz_quiet(void)
{
    recorder_configure_show(fuzz_discard);
}

/* ---- a scratch directory that does not outlive the process ---------------
 * Segments are made in ${TMPDIR:-/tmp}/recorder_fuzz_XXXXXX (11 MB each).
 * It is removed at exit, and by a watchdog child when the process ends
 * otherwise: libFuzzer leaves by _Exit on a crash, a timeout or an OOM. */
static char fuzz_scratch[512];

/* Files in the directory, then the directory; no malloc (the watchdog is
 * forked from a threaded process). */
static void fuzz_remove_scratch(void)
{
    if (!fuzz_scratch[0])
        return;
    int dir = open(fuzz_scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0)
    {
        char entries[4096];
        long got;
        while ((got = syscall(SYS_getdents64, dir, entries,
                              sizeof(entries))) > 0)
            for (long at = 0; at < got;)
            {
                struct { uint64_t ino; int64_t off; unsigned short reclen;
                         unsigned char type; char name[]; } *entry =
                    (void *) (entries + at);
                if (strcmp(entry->name, ".") && strcmp(entry->name, ".."))
                    unlinkat(dir, entry->name, 0);
                at += entry->reclen;
            }
        close(dir);
    }
    rmdir(fuzz_scratch);
}

static inline const char *fuzz_scratch_directory(void)
{
    if (fuzz_scratch[0])
        return fuzz_scratch;
    const char *tmp = getenv("TMPDIR");
    snprintf(fuzz_scratch, sizeof(fuzz_scratch), "%s/recorder_fuzz_XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(fuzz_scratch))
        abort();
    atexit(fuzz_remove_scratch);
    int alive[2];
    if (pipe(alive) != 0)
        return fuzz_scratch;
    fcntl(alive[1], F_SETFD, FD_CLOEXEC);   /* programs we exec don't hold it */
    pid_t watchdog = fork();
    if (watchdog == 0)
    {
        /* Hold nothing of the parent's (its output pipes) but 'alive'. */
        for (int fd = 0; fd < 1024; fd++)
            if (fd != alive[0])
                close(fd);
        signal(SIGINT, SIG_IGN);
        signal(SIGTERM, SIG_IGN);
        signal(SIGHUP, SIG_IGN);
        char byte;
        while (read(alive[0], &byte, 1) < 0 && errno == EINTR)
            continue;
        fuzz_remove_scratch();          /* the parent is gone */
        _exit(0);
    }
    close(alive[0]);                    /* alive[1] closes when we end */
    return fuzz_scratch;
}

/* Exports in the inputs create a segment: make it a private one, once. */
static inline void fuzz_private_share(void)
{
    static int done;
    if (done++)
        return;
    char spec[600];
    snprintf(spec, sizeof(spec), "share=%s/segment", fuzz_scratch_directory());
    /* Snapshot files, should an input arm a condition that holds, go to
     * the scratch directory too (read once, before the first spec). */
    setenv("RECORDER_SNAPSHOT_DIR", fuzz_scratch_directory(), 1);
    fuzz_quiet();
    recorder_trace_set(spec);
}

/* Inputs that would make the library create or overwrite files where the
 * fuzzer runs (output=, output_append=, share=), or directories in the
 * scratch one (snapshot_format=ctf), are not run: that is the job of the
 * tests, in temporary directories. */
static inline int fuzz_touches_files(const uint8_t *data, size_t size)
{
    static const char *const words[] = { "output", "share", "ctf" };
    for (unsigned w = 0; w < 3; w++)
    {
        size_t len = strlen(words[w]);
        for (size_t i = 0; i + len <= size; i++)
            if (memcmp(data + i, words[w], len) == 0)
                return 1;
    }
    return 0;
}

/* ---- cost: what one input may spend ---------------------------------------
 * Issue 11: no specification item may cost more than 100 ms of CPU or
 * 16 MiB. Targets measure each item and abort (a crash for libFuzzer, a
 * failure for the replays of make check) when it does. Memory is the
 * growth of peak RSS, whose mark /proc/self/clear_refs resets; without it,
 * the growth of ru_maxrss (which can only under-count). */
#define FUZZ_MAX_CPU_MS         100
#define FUZZ_MAX_GROWTH_KB      (16 * 1024)

typedef struct fuzz_cost
{
    double cpu_ms;
    long   rss_kb;
    bool   reset;
} fuzz_cost;

static inline double fuzz_cpu_ms(void)
{
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

static inline long fuzz_status_kb(const char *key)
{
    char text[4096];
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t got = read(fd, text, sizeof(text) - 1);
    close(fd);
    if (got <= 0)
        return -1;
    text[got] = 0;
    const char *at = strstr(text, key);
    return at ? atol(at + strlen(key)) : -1;
}

static inline void fuzz_cost_start(fuzz_cost *cost)
{
    int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
    cost->reset = fd >= 0 && write(fd, "5", 1) == 1;
    if (fd >= 0)
        close(fd);
    if (cost->reset)
        cost->rss_kb = fuzz_status_kb("VmRSS:");
    else
    {
        struct rusage usage;
        getrusage(RUSAGE_SELF, &usage);
        cost->rss_kb = usage.ru_maxrss;
    }
    cost->cpu_ms = fuzz_cpu_ms();
}

static inline void fuzz_cost_check(const fuzz_cost *cost, const char *what,
                                   const char *text, size_t length)
{
    double spent = fuzz_cpu_ms() - cost->cpu_ms;
    long peak;
    if (cost->reset)
        peak = fuzz_status_kb("VmHWM:");
    else
    {
        struct rusage usage;
        getrusage(RUSAGE_SELF, &usage);
        peak = usage.ru_maxrss;
    }
    long grown = peak >= 0 && cost->rss_kb >= 0 ? peak - cost->rss_kb : 0;
    if (spent <= FUZZ_MAX_CPU_MS && grown <= FUZZ_MAX_GROWTH_KB)
        return;
    fprintf(stderr, "fuzz: %s '%.*s' cost %.1f ms of CPU and %ld KiB, "
            "over %d ms or %d KiB\n", what, (int) (length < 300 ? length : 300),
            text, spent, grown, FUZZ_MAX_CPU_MS, FUZZ_MAX_GROWTH_KB);
    abort();
}

#endif /* RECORDER_FUZZ_COMMON_H */
