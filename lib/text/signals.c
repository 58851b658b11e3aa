/* signals.c - dump the flight recorder when a signal arrives.
 *
 * The handler runs on an alternate stack (so a stack overflow can still be
 * reported), saves errno, and uses only async-signal-safe calls: records are
 * rendered by our own formatter into stack buffers and written with write().
 * A signal whose purpose is to stop the program goes to crash.c, which
 * dumps, reports a crash with its backtrace, restores the default action and
 * raises the signal again, so the process dies by that signal with a true
 * exit status and core dump. A SIGBUS from a shared segment truncated
 * under us is no crash: segment_guard.c repairs the mapping first.
 * SIGUSR1, SIGUSR2, SIGPWR (and SIGINFO) only dump: 'kill -USR2' on a hung
 * process shows what it did.
 *
 * A thread has no alternate stack unless it asks (POSIX: new threads do not
 * inherit one), and a handler cannot give it one: the thread that installs
 * the handlers gets one, others with recorder_backtrace_thread_init().
 */
#include "recorder_backtrace.h"
#include "crash_private.h"
#include "crash_report_private.h"
#include "dump_private.h"
#include "registry_private.h"
#include "safe_output_private.h"
#include "segment_guard_private.h"
#include "share_writer_private.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define ALT_STACK_SIZE  (256 * 1024)

static struct sigaction previous[NSIG];
static __thread bool thread_has_alt_stack;
static __thread volatile sig_atomic_t dumping;
static pthread_key_t alt_stack_key;
static pthread_once_t alt_stack_once = PTHREAD_ONCE_INIT;

/* A name that outlives the record that carries it with %+s. */
static const char *signal_name(int sig)
{
    return crash_signal_name(sig, NULL, 0);   /* "signal" if not well known */
}

static bool dump_and_continue(int sig)
{
    return sig == SIGUSR1 || sig == SIGUSR2
#ifdef SIGPWR
        || sig == SIGPWR
#endif
#ifdef SIGINFO
        || sig == SIGINFO
#endif
        ;
}

static void handler(int sig, siginfo_t *info, void *context)
{
    int saved_errno = errno;

    /* A segment truncated under its mapping (ours or one we read): its
     * range is private memory now, and the access runs again on return. */
    if (sig == SIGBUS && segment_guard_repair(info))
    {
        errno = saved_errno;
        return;
    }
    if (!dump_and_continue(sig))
        crash_handle(sig, info, context, !dumping);     /* does not return */

    if (dumping)
    {
        /* We faulted while dumping: the rings or output are unusable. */
        recorder_output_say("recorder: fault while dumping, dump abandoned\n");
    }
    else
    {
        dumping = 1;
        record(recorder_signals, "Received %+s (%d), code %d, address %p",
               signal_name(sig), sig, info ? info->si_code : 0,
               info ? info->si_addr : NULL);
        recorder_output out = recorder_output_current(true);
        recorder_dump_all(&out, false);
        dumping = 0;
    }

    struct sigaction *old = &previous[sig];
    if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction)
        old->sa_sigaction(sig, info, context);
    else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN &&
             old->sa_handler)
        old->sa_handler(sig);
    errno = saved_errno;
}

/* At thread exit: stop using the stack, then give it back. */
static void free_alt_stack(void *memory)
{
    stack_t off = { .ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE };
    sigaltstack(&off, NULL);
    munmap(memory, ALT_STACK_SIZE + (size_t) sysconf(_SC_PAGESIZE));
}

static void make_alt_stack_key(void)
{
    if (pthread_key_create(&alt_stack_key, free_alt_stack) != 0)
        record(recorder_error, "Signal stacks of threads will not be freed");
}

/* Give the calling thread a signal stack, unless it has one already. */
static void ensure_alt_stack(void)
{
    if (thread_has_alt_stack)
        return;
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE))
    {
        thread_has_alt_stack = true;
        return;
    }
    /* One page below the stack stays inaccessible: a handler that runs
     * out of it faults instead of writing over whatever lies there. */
    size_t guard = (size_t) sysconf(_SC_PAGESIZE);
    void *memory = mmap(NULL, ALT_STACK_SIZE + guard, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (memory == MAP_FAILED)
    {
        record(recorder_error, "No memory for the signal stack");
        return;
    }
    mprotect(memory, guard, PROT_NONE);
    stack_t stack = { .ss_sp = (char *) memory + guard,
                      .ss_size = ALT_STACK_SIZE, .ss_flags = 0 };
    if (sigaltstack(&stack, NULL) != 0)
    {
        munmap(memory, ALT_STACK_SIZE + guard);
        record(recorder_error, "Could not set the signal stack");
        return;
    }
    thread_has_alt_stack = true;
    pthread_once(&alt_stack_once, make_alt_stack_key);
    pthread_setspecific(alt_stack_key, memory);
    record(recorder, "Signal stack of %u KiB set", ALT_STACK_SIZE / 1024);
}

void recorder_backtrace_thread_init(void)
{
    ensure_alt_stack();
}

void recorder_dump_on_signal(int sig)
{
    if (sig <= 0 || sig >= NSIG)
    {
        record(recorder_error, "Invalid signal %d", sig);
        return;
    }
    recorder_init();
    ensure_alt_stack();
    if (crash_signal(sig))
        crash_prepare();

    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&action.sa_mask);
    struct sigaction old;
    if (sigaction(sig, &action, &old) != 0)
    {
        record(recorder_error, "Cannot handle signal %d", sig);
        return;
    }
    if (old.sa_sigaction != handler)
        previous[sig] = old;
    record(recorder_signals, "Dump on %+s (%d)", signal_name(sig), sig);
}

void recorder_dump_on_common_signals(unsigned add, unsigned remove)
{
    recorder_share_init();
    recorder_trace_set(getenv("RECORDER_TRACES"));
    recorder_trace_set(getenv("RECORDER_TWEAKS"));
    const char *dump = getenv("RECORDER_DUMP");
    if (dump && *dump)
        recorder_background_dump(dump);

    unsigned mask = (1U << SIGQUIT) | (1U << SIGILL) | (1U << SIGABRT)
                  | (1U << SIGBUS) | (1U << SIGSEGV) | (1U << SIGSYS)
                  | (1U << SIGFPE)
                  | (1U << SIGXCPU) | (1U << SIGXFSZ)
                  | (1U << SIGUSR1) | (1U << SIGUSR2)
#ifdef SIGSTKFLT
                  | (1U << SIGSTKFLT)
#endif
#ifdef SIGPWR
                  | (1U << SIGPWR)
#endif
#ifdef SIGINFO
                  | (1U << SIGINFO)
#endif
        ;
    mask = (mask | add) & ~remove;
    for (int sig = 1; sig < 32; sig++)
        if (mask & (1U << sig))
            recorder_dump_on_signal(sig);
}
