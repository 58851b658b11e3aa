/* segment_guard.c - survive a segment file truncated under its mapping.
 *
 * The table is a fixed array (no allocation, no lock): the signal handler
 * may run in any thread at any moment, also while another thread adds or
 * removes a range. Each entry has a state word, a generation in the high
 * bits and a status in the low byte; the fields of an entry are written
 * while it is CLAIMED and published by the release store that arms it. The
 * handler reads the fields between two loads of the state word and takes
 * the entry for repair with a compare-and-swap on it, so a range removed
 * and re-added meanwhile is never repaired with stale fields.
 */
#define _GNU_SOURCE                     /* mremap */
#include "segment/segment_guard_private.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum
{
    RANGE_FREE,
    RANGE_CLAIMED,                      /* being filled by segment_guard_add */
    RANGE_ARMED,
    RANGE_REPAIRING,                    /* a handler is replacing the memory */
    RANGE_DETACHED                      /* private memory now */
};

#define STATUS(state)           ((unsigned) ((state) & 0xff))
#define WITH_STATUS(state, s)   (((state) & ~(uint64_t) 0xff) | (s))
#define NEXT_GENERATION(state)  (((state) & ~(uint64_t) 0xff) + 0x100)

typedef struct guarded_range
{
    uint64_t             state;
    uintptr_t            base;
    size_t               size;
    int                  prot;
    int                  fd;
    bool                 keep_file;
    segment_guard_notify notify;
    void *               arg;
} guarded_range;

static guarded_range ranges[SEGMENT_GUARD_RANGES];
static struct sigaction previous;       /* SIGBUS before ours */
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

#define LOAD(field)     __atomic_load_n(&(field), __ATOMIC_RELAXED)
#define STORE(field, v) __atomic_store_n(&(field), (v), __ATOMIC_RELAXED)

/* ---- repair (signal context) --------------------------------------------- */

static void nap(void)
{
    struct timespec delay = { 0, 50000 };
    nanosleep(&delay, NULL);
}

/* Put private memory with the same protection over the range; for the
 * writer, with what is left of the file, swapped in at once (mremap) so no
 * other thread sees the range half filled. */
static bool replace(uintptr_t base, size_t size, int prot, int fd,
                    bool keep_file)
{
    if (keep_file)
    {
        char *copy = mmap(NULL, size, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (copy != MAP_FAILED)
        {
            size_t done = 0;
            while (done < size)
            {
                ssize_t got = pread(fd, copy + done, size - done, (off_t) done);
                if (got < 0 && errno == EINTR)
                    continue;
                if (got <= 0)
                    break;              /* the end of what is left */
                done += (size_t) got;
            }
            if ((prot == (PROT_READ | PROT_WRITE) ||
                 mprotect(copy, size, prot) == 0) &&
                mremap(copy, size, size, MREMAP_MAYMOVE | MREMAP_FIXED,
                       (void *) base) != MAP_FAILED)
                return true;
            munmap(copy, size);
        }
    }
    return mmap((void *) base, size, prot,
                MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED;
}

/* What a range was armed with, read while its state says armed. */
typedef struct range_fields
{
    uintptr_t            base;
    size_t               size;
    int                  prot, fd;
    bool                 keep_file;
    segment_guard_notify notify;
    void *               arg;
} range_fields;

static void read_fields(const guarded_range *r, range_fields *f)
{
    f->base = LOAD(r->base);
    f->size = LOAD(r->size);
    f->prot = LOAD(r->prot);
    f->fd = LOAD(r->fd);
    f->keep_file = LOAD(r->keep_file);
    f->notify = LOAD(r->notify);
    f->arg = LOAD(r->arg);
}

/* Take range 'r', armed in 'state' with 'f', and put private memory in
 * its place: 1 if repaired, 0 if that failed (armed again), -1 if another
 * thread changed the state first. */
static int take_and_replace(guarded_range *r, uint64_t state,
                            const range_fields *f)
{
    if (!__atomic_compare_exchange_n(&r->state, &state,
                                     WITH_STATUS(state, RANGE_REPAIRING),
                                     false, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return -1;
    /* No other handler in this thread meanwhile: a dump on SIGUSR1
     * reading the range now would fault with SIGBUS blocked. */
    int saved_errno = errno;
    sigset_t quiet, saved;
    sigfillset(&quiet);
    sigdelset(&quiet, SIGSEGV);
    sigdelset(&quiet, SIGILL);
    sigdelset(&quiet, SIGFPE);
    pthread_sigmask(SIG_BLOCK, &quiet, &saved);
    bool repaired = replace(f->base, f->size, f->prot, f->fd, f->keep_file);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    errno = saved_errno;
    __atomic_store_n(&r->state, WITH_STATUS(state, repaired ? RANGE_DETACHED
                                                            : RANGE_ARMED),
                     __ATOMIC_RELEASE);
    if (repaired && f->notify)
        f->notify(f->arg);
    return repaired;
}

bool segment_guard_detach(int handle)
{
    if (handle < 0 || handle >= SEGMENT_GUARD_RANGES)
        return false;
    guarded_range *r = &ranges[handle];
    uint64_t state = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
    if (STATUS(state) != RANGE_ARMED)
        return false;                   /* free, detached, being repaired */
    range_fields f;
    read_fields(r, &f);
    return take_and_replace(r, state, &f) > 0;
}

bool segment_guard_repair(const siginfo_t *info)
{
    /* BUS_ADRERR: a page with no file behind it. Sent by another process
     * (si_code <= 0), si_addr means nothing. */
    if (!info || info->si_code != BUS_ADRERR)
        return false;
    uintptr_t address = (uintptr_t) info->si_addr;
    for (unsigned i = 0; i < SEGMENT_GUARD_RANGES; i++)
    {
        guarded_range *r = &ranges[i];
        for (;;)
        {
            uint64_t state = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
            unsigned status = STATUS(state);
            if (status < RANGE_ARMED)
                break;
            range_fields f;
            read_fields(r, &f);
            if (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) != state)
                continue;               /* changed while we read: again */
            if (address < f.base || address - f.base >= f.size)
                break;
            if (status == RANGE_DETACHED)
                return true;            /* repaired after our access faulted */
            if (status == RANGE_REPAIRING)
            {
                while (__atomic_load_n(&r->state, __ATOMIC_ACQUIRE) == state)
                    nap();
                return true;
            }
            int repaired = take_and_replace(r, state, &f);
            if (repaired >= 0)
                return repaired;
        }
    }
    return false;
}

/* ---- the handler ---------------------------------------------------------- */

/* Not ours: what would have happened without us. */
static void pass_on(int sig, siginfo_t *info, void *context)
{
    if (previous.sa_flags & SA_SIGINFO)
    {
        previous.sa_sigaction(sig, info, context);
        return;
    }
    if (previous.sa_handler == SIG_IGN)
        return;
    if (previous.sa_handler != SIG_DFL)
    {
        previous.sa_handler(sig);
        return;
    }
    /* The default action: blocked while we run, the signal raised again is
     * delivered as we return and ends the process, with its core dump. */
    struct sigaction fallback;
    memset(&fallback, 0, sizeof(fallback));
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(sig, &fallback, NULL);
    raise(sig);
}

static void handler(int sig, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    if (!segment_guard_repair(info))
        pass_on(sig, info, context);
    errno = saved_errno;
}

static void install_handler(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous);
}

bool segment_guard_passes_to(const struct sigaction *action,
                             struct sigaction *before)
{
    if (!(action->sa_flags & SA_SIGINFO) || action->sa_sigaction != handler)
        return false;
    *before = previous;
    return true;
}

/* ---- the table ----------------------------------------------------------- */

int segment_guard_add(void *base, size_t size, int prot, int fd,
                      bool keep_file, segment_guard_notify notify, void *arg)
{
    pthread_once(&install_once, install_handler);
    for (int i = 0; i < SEGMENT_GUARD_RANGES; i++)
    {
        guarded_range *r = &ranges[i];
        uint64_t state = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
        if (STATUS(state) != RANGE_FREE ||
            !__atomic_compare_exchange_n(&r->state, &state,
                                         WITH_STATUS(state, RANGE_CLAIMED),
                                         false, __ATOMIC_ACQ_REL,
                                         __ATOMIC_RELAXED))
            continue;
        STORE(r->base, (uintptr_t) base);
        STORE(r->size, size);
        STORE(r->prot, prot);
        STORE(r->fd, fd);
        STORE(r->keep_file, keep_file);
        STORE(r->notify, notify);
        STORE(r->arg, arg);
        __atomic_store_n(&r->state, WITH_STATUS(state, RANGE_ARMED),
                         __ATOMIC_RELEASE);
        return i;
    }
    return -1;
}

void segment_guard_remove(int handle)
{
    if (handle < 0 || handle >= SEGMENT_GUARD_RANGES)
        return;
    guarded_range *r = &ranges[handle];
    for (;;)
    {
        uint64_t state = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
        unsigned status = STATUS(state);
        if (status == RANGE_REPAIRING)
        {
            nap();                      /* a handler is at work: let it end */
            continue;
        }
        if (status != RANGE_ARMED && status != RANGE_DETACHED)
            return;
        /* A new generation: a handler that read the old fields fails its
         * compare-and-swap and does not touch the range. */
        if (__atomic_compare_exchange_n(&r->state, &state,
                                        WITH_STATUS(NEXT_GENERATION(state),
                                                    RANGE_FREE),
                                        false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
            return;
    }
}

bool segment_guard_detached(int handle)
{
    if (handle < 0 || handle >= SEGMENT_GUARD_RANGES)
        return false;
    unsigned status = STATUS(__atomic_load_n(&ranges[handle].state,
                                             __ATOMIC_ACQUIRE));
    return status == RANGE_REPAIRING || status == RANGE_DETACHED;
}
