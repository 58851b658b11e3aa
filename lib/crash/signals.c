/* signals.c - dump the flight recorder when a signal arrives.
 *
 * The handler runs on an alternate stack (so a stack overflow can still be
 * reported), saves errno, and uses only async-signal-safe calls: records are
 * rendered by our own formatter into stack buffers and written with write().
 *
 * What follows the dump is the program's choice, as in recorder 1.2: the
 * handler it had installed before ours (kept in 'previous') is called, with
 * its own arguments, mask and flags. Only a signal the program left to its
 * default action goes to crash.c, which reports the crash with its
 * backtrace, restores the default action and raises the signal again, so
 * the process dies by that signal with a true exit status and core dump.
 * SIGUSR1, SIGUSR2, SIGPWR (and SIGINFO) only dump: 'kill -USR2' on a hung
 * process shows what it did.
 *
 * A fault the kernel raises at an instruction (SIGSEGV, SIGBUS, SIGILL,
 * SIGFPE, and SIGSYS or SIGTRAP it raises for a call) goes to the
 * program's handler first, with no dump: programs that take faults on
 * purpose (an emulator write-protects pages, a garbage collector its heap)
 * repair them and return, maybe millions of times. If the handler returns
 * and the very same fault comes back at once (same instruction, same
 * registers: nothing was repaired), it is a crash and is reported as one.
 * A SIGBUS from a shared segment truncated under us is no crash:
 * segment_guard.c repairs the mapping first.
 *
 * A thread has no alternate stack unless it asks (POSIX: new threads do not
 * inherit one), and a handler cannot give it one: the thread that installs
 * the handlers gets one, others with recorder_backtrace_thread_init().
 */
#define _GNU_SOURCE                     /* REG_* of ucontext_t */
#include "recorder_backtrace.h"
#include "crash/crash_private.h"
#include "backtrace/crash_report_private.h"
#include "trace/dump_private.h"
#include "record/registry_private.h"
#include "text/safe_output_private.h"
#include "segment/segment_guard_private.h"
#include "segment/share_writer_private.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define ALT_STACK_SIZE  (256 * 1024)

/* The signals recorder_dump_on_common_signals() handles, as in 1.2. */
#define COMMON_SIGNALS  ((1U << SIGQUIT) | (1U << SIGILL) | (1U << SIGABRT) \
                         | (1U << SIGBUS) | (1U << SIGSEGV) | (1U << SIGSYS) \
                         | (1U << SIGFPE) | (1U << SIGXCPU) | (1U << SIGXFSZ) \
                         | (1U << SIGUSR1) | (1U << SIGUSR2)                \
                         | STKFLT_BIT | PWR_BIT | INFO_BIT)
#ifdef SIGSTKFLT
#define STKFLT_BIT      (1U << SIGSTKFLT)
#else
#define STKFLT_BIT      0U
#endif
#ifdef SIGPWR
#define PWR_BIT         (1U << SIGPWR)
#else
#define PWR_BIT         0U
#endif
#ifdef SIGINFO
#define INFO_BIT        (1U << SIGINFO)
#else
#define INFO_BIT        0U
#endif

RECORDER_TWEAK_DEFINE(recorder_signals_mask, COMMON_SIGNALS,
                      "Signals recorder_dump_on_common_signals() handles "
                      "(bit N: signal N)");

/* What the program had installed before us, for each signal. */
static struct sigaction previous[NSIG];
static __thread bool thread_has_alt_stack;
static __thread volatile sig_atomic_t dumping;
static pthread_key_t alt_stack_key;
static pthread_once_t alt_stack_once = PTHREAD_ONCE_INIT;

/* A fault as a handler that repaired nothing would see it again. */
typedef struct fault_print
{
    int       signal;                   /* 0: none */
    int       code;
    uintptr_t address;
    uint64_t  registers;                /* hash of the registers */
} fault_print;

/* The last fault of this thread whose program handler returned. */
static __thread fault_print returned_fault;

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

/* A function to call, not SIG_DFL or SIG_IGN (sa_handler and sa_sigaction
 * share their storage). */
static bool is_function(const struct sigaction *action)
{
    return action->sa_handler != SIG_DFL && action->sa_handler != SIG_IGN;
}

/* Faults whose instruction runs again when the handler returns. */
static bool refaults(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE;
}

/* Raised by the kernel for what this thread executed, not sent by a
 * process (si_code <= 0) or a timer. */
static bool synchronous(int sig, const siginfo_t *info)
{
    return info && info->si_code > 0 &&
        (refaults(sig) || sig == SIGSYS || sig == SIGTRAP);
}

/* FNV-1a of the general registers of the interrupted code. Where we do not
 * know where they are, 0: then the same signal, code and address suffice
 * to say a fault came back. */
static uint64_t hash_registers(const void *context)
{
    const unsigned char *bytes = NULL;
    size_t size = 0;
    const ucontext_t *uc = context;
    if (uc)
    {
#if defined(__x86_64__) || defined(__i386__)
        bytes = (const unsigned char *) uc->uc_mcontext.gregs;
        size = sizeof(uc->uc_mcontext.gregs);
#elif defined(__aarch64__)
        bytes = (const unsigned char *) &uc->uc_mcontext;
        size = offsetof(mcontext_t, __reserved);   /* up to pstate */
#endif
    }
    uint64_t hash = 0;
    if (size)
        hash = 14695981039346656037ull;
    for (size_t i = 0; i < size; i++)
        hash = (hash ^ bytes[i]) * 1099511628211ull;
    return hash;
}

static fault_print print_fault(int sig, const siginfo_t *info,
                               const void *context)
{
    fault_print print = {
        .signal = sig, .code = info->si_code,
        .address = (uintptr_t) info->si_addr,
        .registers = hash_registers(context),
    };
    return print;
}

static bool same_fault(const fault_print *a, const fault_print *b)
{
    return a->signal == b->signal && a->code == b->code &&
        a->address == b->address && a->registers == b->registers;
}

/* Call the program's handler as the kernel would have: with its mask (the
 * interrupted code's, its sa_mask, and the signal unless SA_NODEFER), and
 * once only if SA_RESETHAND. */
static void call_program(int sig, siginfo_t *info, void *context)
{
    struct sigaction action = previous[sig];
    if (action.sa_flags & SA_RESETHAND)
    {
        previous[sig].sa_handler = SIG_DFL;
        previous[sig].sa_flags = 0;
        sigemptyset(&previous[sig].sa_mask);
    }
    sigset_t during, saved;
    if (context)
        during = ((const ucontext_t *) context)->uc_sigmask;
    else
        pthread_sigmask(SIG_BLOCK, NULL, &during);
    for (int s = 1; s < NSIG; s++)
        if (sigismember(&action.sa_mask, s) == 1)
            sigaddset(&during, s);
    if (action.sa_flags & SA_NODEFER)
        sigdelset(&during, sig);
    else
        sigaddset(&during, sig);
    pthread_sigmask(SIG_SETMASK, &during, &saved);
    if (action.sa_flags & SA_SIGINFO)
        action.sa_sigaction(sig, info, context);
    else
        action.sa_handler(sig);
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
}

/* A fault at an instruction: the program's handler, if any, before all. */
static void take_fault(int sig, siginfo_t *info, void *context)
{
    fault_print print = print_fault(sig, info, context);
    bool again = same_fault(&print, &returned_fault);
    returned_fault.signal = 0;
    if (dumping || !is_function(&previous[sig]))
        crash_handle(sig, info, context, !dumping);     /* does not return */
    if (again)
    {
        record(recorder_signals, "The program's handler returned from %+s "
               "(%d) at %p, and it came back", signal_name(sig), sig,
               info->si_addr);
        crash_handle(sig, info, context, true);
    }
    record(recorder_signals, "%+s (%d), code %d, address %p: to the "
           "program's handler", signal_name(sig), sig, info->si_code,
           info->si_addr);
    call_program(sig, info, context);
    if (refaults(sig))
        returned_fault = print;
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
    if (synchronous(sig, info))
    {
        take_fault(sig, info, context);
        errno = saved_errno;
        return;
    }

    bool program = is_function(&previous[sig]);
    if (!program && previous[sig].sa_handler != SIG_IGN &&
        !dump_and_continue(sig))
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
    if (program)
        call_program(sig, info, context);
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

    struct sigaction old;
    if (sigaction(sig, NULL, &old) != 0)
    {
        record(recorder_error, "Cannot handle signal %d", sig);
        return;
    }
    bool ours = (old.sa_flags & SA_SIGINFO) && old.sa_sigaction == handler;
    struct sigaction before;
    if (!ours && segment_guard_passes_to(&old, &before))
        old = before;                   /* we repair first, then chain */

    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    /* Whether interrupted calls restart is the program's choice when it
     * handles the signal; ours otherwise. */
    const struct sigaction *program = ours ? &previous[sig] : &old;
    if (!is_function(program) || (program->sa_flags & SA_RESTART))
        action.sa_flags |= SA_RESTART;
    if (!ours)
        previous[sig] = old;            /* before the signal can come */
    if (sigaction(sig, &action, NULL) != 0)
    {
        record(recorder_error, "Cannot handle signal %d", sig);
        return;
    }
    if (is_function(program))
        record(recorder_signals, "Dump on %+s (%d), then the program's "
               "handler %p", signal_name(sig), sig,
               (void *) program->sa_handler);
    else
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

    /* RECORDER_TWEAKS=recorder_signals_mask=... changes the list without
     * a rebuild, as in 1.2. */
    unsigned mask = (unsigned) RECORDER_TWEAK(recorder_signals_mask);
    mask = (mask | add) & ~remove;
    for (int sig = 1; sig < 32; sig++)
        if (mask & (1U << sig))
            recorder_dump_on_signal(sig);
}
