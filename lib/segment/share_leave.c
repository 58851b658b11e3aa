/* share_leave.c - let go of the segments the writer leaves behind: after
 * a move or growth, a truncation, a fork, and at exit
 * (share_leave_private.h). */
#include "segment/share_leave_private.h"
#include "segment/share_writer_state_private.h"
#include "segment/share_sizing_private.h"
#include "record/clock_private.h"
#include "segment/share_commands_private.h"
#include "segment/segment_guard_private.h"
#include "segment/share_ring_claims_private.h"
#include "text/safe_output_private.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define EXIT_LOCK_WAIT_NS 200000000L    /* see mark_exited */

/* From the SIGBUS handler (segment_guard.c): the file of segment 'arg' was
 * truncated, and its range is private memory now. Records go on there, so
 * nothing else changes for the program; it is just no longer shared.
 * Async-signal-safe: says so with write(). */
void share_segment_truncated(void *arg)
{
    if ((uintptr_t) arg !=
        __atomic_load_n(&writer->serial, __ATOMIC_ACQUIRE) ||
        __atomic_exchange_n(&writer->detached, true, __ATOMIC_ACQ_REL))
        return;                         /* an older segment, or said already */
    /* A page of a file still whole that its file system could not give
     * (full, the page not reserved yet: share_ring_claims.c) faults too. */
    struct stat st;
    int fd = __atomic_load_n(&writer->fd, __ATOMIC_ACQUIRE);
    bool whole = fd >= 0 && fstat(fd, &st) == 0 &&
                 (uint64_t) st.st_size >= writer->view.size;
    char line[PATH_MAX + 160];
    size_t at = safe_append(line, sizeof(line), 0,
                            whole ? "recorder: no room for a page of %s on its "
                                    "file system; recording continues in "
                                    "private memory, no longer shared\n"
                                  : "recorder: %s was truncated under us; "
                                    "recording continues in private memory, "
                                    "no longer shared\n",
                            SAFE_ARGS(SAFE_TEXT(
                                writer->guarded_path[(uintptr_t) arg & 1])));
    safe_write_all(STDERR_FILENO, line, at);
}

/* Outside the handler: let the truncated file go (its lock with it), so
 * that share= can make a new segment, even at the same path. The mapping
 * stays: the rings are in it. */
void share_let_go_if_detached_locked(void)
{
    if (!__atomic_load_n(&writer->detached, __ATOMIC_ACQUIRE) ||
        writer->fd < 0)
        return;
    ring_claims_close(writer->claims);  /* new rings stay in process memory */
    close(writer->fd);
    writer->fd = -1;
    record(recorder_warning, "Shared segment truncated under us, not shared");
}

/* At exit: place the rings of recorders that recorded since the command
 * thread last tended (it does so some 50 ms after), so that a program
 * that records and exits at once leaves all it can in the segment, then
 * mark it exited. The lock is waited for (the command thread may be
 * tending, and exit would stop it midway), but not forever: exit may come
 * from a thread that holds it. */
static void mark_exited(void)
{
    share_header *h = __atomic_load_n(&writer->header, __ATOMIC_ACQUIRE);
    if (!h || h->pid != (uint32_t) getpid())
        return;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += EXIT_LOCK_WAIT_NS;
    until.tv_sec += until.tv_nsec / 1000000000;
    until.tv_nsec %= 1000000000;
    if (pthread_mutex_timedlock(&writer->lock, &until) == 0)
    {
        if (writer->fd >= 0 && writer->header == h)
            ring_claims_tend(writer->claims);
        pthread_mutex_unlock(&writer->lock);
    }
    __atomic_store_n(&h->state, SHARE_STATE_EXITED, __ATOMIC_RELEASE);
}

/* Unmap the segments left that no thread can still be writing into: all
 * of them with 'all', else those left RETIRED_GRACE_NS ago or more, but
 * never the last one (it goes at the next move). */
void share_release_retired_locked(bool all)
{
    uint64_t now = recorder_monotonic_ns();
    unsigned kept = 0;
    for (unsigned r = 0; r < RETIRED_KEPT; r++)
    {
        retired_segment *old = &writer->retired[r];
        if (!old->view.base)
            continue;
        bool last = r == RETIRED_KEPT - 1 || !writer->retired[r + 1].view.base;
        if (all || (!last && now - old->since_ns >= RETIRED_GRACE_NS))
        {
            segment_guard_remove(old->guard);
            munmap(old->view.base, old->view.size);
        }
        else
            writer->retired[kept++] = *old;
    }
    for (unsigned r = kept; r < RETIRED_KEPT; r++)
        writer->retired[r] = (retired_segment) { { NULL, 0 }, -1, 0 };
}

/* After a move, let go of the segment we left: its descriptor (and so its
 * lock, so that we can come back to that path later) and its file, which
 * readers see as moved (or, after a growth, replaced). Its mapping is kept
 * a while (retired_segment). */
void share_retire_locked(int old_fd, int old_guard, share_view old_view,
                         const char *old_path)
{
    /* The last one left is now an older one: it goes after its grace. */
    if (writer->retired[RETIRED_KEPT - 1].view.base)
    {
        retired_segment *oldest = &writer->retired[0];
        segment_guard_remove(oldest->guard);
        munmap(oldest->view.base, oldest->view.size);
        memmove(&writer->retired[0], &writer->retired[1],
                (RETIRED_KEPT - 1) * sizeof(writer->retired[0]));
        writer->retired[RETIRED_KEPT - 1].view.base = NULL;
    }
    unsigned free_at = 0;
    while (writer->retired[free_at].view.base)
        free_at++;
    writer->retired[free_at] = (retired_segment) {
        old_view, old_guard, recorder_monotonic_ns()
    };
    share_release_retired_locked(false);
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
    pthread_mutex_lock(&writer->lock);
}

static void after_fork_in_parent(void)
{
    pthread_mutex_unlock(&writer->lock);
}

/* The child is another process: it must not write into the parent's rings
 * or answer its commands. Each shared ring is copied into private memory
 * and the segment let go; the child can share on its own later. */
static void after_fork_in_child(void)
{
    pthread_mutex_init(&writer->lock, NULL);
    ring_claims_forget();
    if (!writer->header)
        return;
    const uint8_t *start = writer->view.base;
    const uint8_t *end = start + writer->view.size;
    for (unsigned i = 0; i < writer->layout.recorders.count; i++)
    {
        recorder_info *rec = writer->recorders[i];
        const uint8_t *ring = (const uint8_t *) rec->buffer;
        if (ring < start || ring >= end)
            continue;                   /* still in process memory */
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
    segment_guard_remove(writer->guard);
    writer->guard = -1;
    munmap(writer->view.base, writer->view.size);
    share_release_retired_locked(true);
    if (writer->fd >= 0)
        close(writer->fd);
    writer->fd = -1;
    writer->view = (share_view) { NULL, 0 };
    writer->path[0] = 0;
    writer->detached = false;
    writer->cannot_grow = false;
    __atomic_store_n(&writer->header, NULL, __ATOMIC_RELEASE);
    share_commands_forget();
}

void share_leave_at_exit_and_fork(void)
{
    static bool hooked;
    if (!hooked)
    {
        hooked = true;
        atexit(mark_exited);
        pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
    }
}
