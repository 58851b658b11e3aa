/* crash.c - report a crash from its signal handler, then die by the signal.
 *
 * The signal may arrive anywhere: inside malloc or stdio with their locks
 * held, on an overflowed stack, in any thread, twice at once. So the
 * handler only makes async-signal-safe calls, allocates nothing, and bounds
 * everything it does by recorder_crash_timeout milliseconds:
 *
 *  1. It arms a POSIX timer (two system calls, no allocation) that sends
 *     the signal again to the reporting thread at the deadline, then every
 *     200 ms. The handler unblocks that signal, so the delivery interrupts
 *     whatever blocks (a full pipe, a lock); the handler, entered anew,
 *     restores the default action and raises, and should saying why block
 *     too, the next delivery kills with the default action: the process
 *     dies by its signal in time, with a true exit status and core dump.
 *  2. It captures the report (crash_capture.c): raw frames with libunwind
 *     (opened by crash_prepare, when the handler is installed), the module
 *     map with build ids. A fault while doing so is caught with
 *     siglongjmp and the report goes on with what it has.
 *  3. It copies the report into the shared segment, if there is one, for
 *     recorder_scope -D to read after the process is gone.
 *  4. It dumps the flight recorder, as every terminating signal does.
 *  5. It execs recorder_symbolize (_Fork then execve, both signal-safe)
 *     with the report on a pipe: DWARF is read in that fresh process, never
 *     in the crashing one, where its allocations and locks could deadlock.
 *     If the helper is missing, fails or is late, the handler prints the
 *     raw frames itself (module and offset).
 *  6. It dies by the signal.
 *
 * A fault inside the handler, or the timer's signal, enters the handler
 * again: it sees it is already reporting in this thread, says why the
 * report stops there, and dies. Another thread that crashes meanwhile waits
 * for the first one to end the process.
 */
#define _GNU_SOURCE                     /* _Fork, dladdr */
#include "crash/crash_private.h"
#include "backtrace/crash_report_private.h"
#include "trace/dump_private.h"
#include "text/safe_output_private.h"
#include "segment/share_writer_private.h"
#include "backtrace/unwind_library_private.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef RECORDER_LIBEXECDIR
#define RECORDER_LIBEXECDIR     "/usr/local/libexec/recorder"
#endif
#define HELPER_NAME             "recorder_symbolize"

RECORDER_TWEAK_DEFINE(recorder_crash_timeout, 2000,
                      "Milliseconds a crash report may take before the "
                      "process dies anyway (0: dump only, no backtrace)");

extern char **environ;

static char helper[PATH_MAX];           /* "" when there is none */
static crash_report report;             /* static: nothing to allocate */

/* Who reports, and until when. Written by the reporting thread only. */
static pid_t reporter;                  /* tid; taken with a CAS */
static volatile sig_atomic_t reporting_signal;
static int64_t deadline_ns;
static int64_t timeout_ms;
static volatile pid_t helper_pid;

/* Where a fault while capturing goes back to. */
enum { PHASE_NONE, PHASE_CAPTURE };
static volatile sig_atomic_t phase;
static sigjmp_buf escape;

bool crash_signal(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
           sig == SIGFPE || sig == SIGABRT || sig == SIGSYS;
}

/* ---- finding the helper (normal context) ------------------------------ */

static bool try_helper(const char *directory, const char *relative)
{
    char path[PATH_MAX];
    int len = snprintf(path, sizeof(path), "%s/%s", directory, relative);
    if (len <= 0 || len >= (int) sizeof(path) || access(path, X_OK) != 0)
        return false;
    memcpy(helper, path, (size_t) len + 1);
    return true;
}

/* RECORDER_SYMBOLIZE if set (the tests, two levels down, set it); else
 * next to this library (build tree), one level up (build/examples), in
 * libexec beside the lib directory it was installed in, then where 'make
 * install' put it. */
static void find_helper(void)
{
    const char *forced = getenv("RECORDER_SYMBOLIZE");
    helper[0] = 0;
    if (forced)
    {
        if (*forced && access(forced, X_OK) == 0 && strlen(forced) < PATH_MAX)
            strcpy(helper, forced);
        return;                         /* set but empty: no helper */
    }
    char here[PATH_MAX] = "";
    Dl_info info;
    if (dladdr((void *) find_helper, &info) && info.dli_fname &&
        info.dli_fname[0] == '/')
        snprintf(here, sizeof(here), "%s", info.dli_fname);
    else
    {
        ssize_t len = readlink("/proc/self/exe", here, sizeof(here) - 1);
        here[len > 0 ? len : 0] = 0;
    }
    char *slash = strrchr(here, '/');
    if (slash)
    {
        *slash = 0;
        if (try_helper(here, HELPER_NAME) ||
            try_helper(here, "../" HELPER_NAME) ||
            try_helper(here, "../libexec/recorder/" HELPER_NAME))
            return;
    }
    try_helper(RECORDER_LIBEXECDIR, HELPER_NAME);
}

void crash_prepare(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, find_helper);
    unwind_library_load();
}

/* ---- small async-signal-safe tools -------------------------------------- */

static int64_t now_ns(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t) now.tv_sec * 1000000000 + now.tv_nsec;
}

static void sleep_until(int64_t when_ns)
{
    struct timespec until = { when_ns / 1000000000, when_ns % 1000000000 };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) ==
           EINTR)
        ;
}

static void nap_ms(long ms)
{
    struct timespec delay = { 0, ms * 1000000 };
    nanosleep(&delay, NULL);
}

/* ---- dying ------------------------------------------------------------------ */

/* Default action back, signal unblocked: a second delivery (the watchdog's,
 * or our raise) now ends the process by 'sig'. */
static void prepare_to_die(int sig)
{
    struct sigaction fallback;
    memset(&fallback, 0, sizeof(fallback));
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(sig, &fallback, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

__attribute__((noreturn)) static void die(int sig)
{
    pid_t child = helper_pid;
    if (child > 0)
        kill(child, SIGKILL);
    prepare_to_die(sig);
    raise(sig);
    /* Only if 'sig' cannot kill (it can for every signal we handle). */
    _exit(128 + sig);
}

/* ---- the watchdog -------------------------------------------------------------- */

static pid_t fork_safely(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 34)
    return _Fork();
#else
    return (pid_t) syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
#endif
}

/* A timer that sends 'sig' to thread 'tid' at the deadline and every 200 ms
 * after. Raw system calls: the library call may allocate on old glibcs. A
 * process forked for the purpose would do too, but it would hold our file
 * descriptors, and the segment's lock with them, for a moment after we die. */
static void start_watchdog(int sig, pid_t tid)
{
    struct sigevent event;
    memset(&event, 0, sizeof(event));
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = sig;
#ifdef sigev_notify_thread_id
    event.sigev_notify_thread_id = tid;
#else
    event._sigev_un._tid = tid;
#endif
    int timer;                          /* the kernel's timer_t */
    if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &event, &timer) != 0)
        return;                         /* only our own deadlines, then */
    struct itimerspec when = {
        .it_value = { timeout_ms / 1000, timeout_ms % 1000 * 1000000 },
        .it_interval = { 0, 200000000 },
    };
    syscall(SYS_timer_settime, timer, 0, &when, NULL);
}

/* ---- capturing ------------------------------------------------------------------- */

static void capture(int sig, siginfo_t *info, void *context)
{
    crash_report_start(&report, sig, info);
    phase = PHASE_CAPTURE;
    if (sigsetjmp(escape, 1) == 0)
        crash_capture_frames(&report, context, 0);
    else
        report.flags |= CRASH_UNWIND_FAULTED;
    if (sigsetjmp(escape, 1) == 0)
        crash_capture_modules(&report);
    else
        report.flags |= CRASH_NO_MODULE_MAP;
    phase = PHASE_NONE;
    __atomic_store_n(&report.state, CRASH_STATE_COMPLETE, __ATOMIC_RELEASE);

    /* Into the segment: state last, so a reader that sees it complete sees
     * all of it. The file may have been truncated under us: a SIGBUS here
     * only loses the copy. */
    crash_report *area = recorder_share_crash_area();
    phase = PHASE_CAPTURE;
    if (area && sigsetjmp(escape, 1) == 0)
    {
        size_t body = offsetof(crash_report, flags);
        __atomic_store_n(&area->state, CRASH_STATE_WRITING, __ATOMIC_RELEASE);
        memcpy((char *) area + body, (const char *) &report + body,
               sizeof(report) - body);
        area->magic = report.magic;
        area->version = report.version;
        area->size = report.size;
        __atomic_store_n(&area->state, CRASH_STATE_COMPLETE,
                         __ATOMIC_RELEASE);
    }
    phase = PHASE_NONE;
}

/* ---- printing ------------------------------------------------------------------------ */

/* The frames as they are, when no helper could name them. Same layout as
 * recorder_backtrace_print(). */
static void print_raw(int fd, const char *why)
{
    char line[1024];
    char name[32];
    size_t at = safe_append(line, sizeof(line), 0,
                            "recorder: %s; frames are not symbolized\n",
                            SAFE_ARGS(SAFE_TEXT(why)));
    safe_write_all(fd, line, at);

    at = safe_append(line, sizeof(line), 0, "%s @ %s Received %s",
                     SAFE_ARGS(SAFE_TEXT(report.program),
                               SAFE_TEXT(report.host),
                               SAFE_TEXT(crash_signal_name(report.signal, name,
                                                           sizeof(name)))));
    const char *text = crash_code_text(report.signal, report.code);
    if (text)
        at = safe_append(line, sizeof(line), at, " (%s)",
                         SAFE_ARGS(SAFE_TEXT(text)));
    else if (report.code > 0)
        at = safe_append(line, sizeof(line), at, " (code %d)",
                         SAFE_ARGS((uint64_t) report.code));
    if (report.code > 0 && crash_signal_has_address(report.signal))
        at = safe_append(line, sizeof(line), at, " at address %#lx",
                         SAFE_ARGS(report.address));
    if (report.code <= 0 && report.sender)
        at = safe_append(line, sizeof(line), at, " sent by process %u",
                         SAFE_ARGS(report.sender));
    at = safe_append(line, sizeof(line), at, " in thread %u \"%s\", pid %u\n",
                     SAFE_ARGS(report.tid, SAFE_TEXT(report.thread),
                               report.pid));
    safe_write_all(fd, line, at);

    for (unsigned f = 0; f < report.frame_count; f++)
    {
        const crash_frame *frame = &report.frames[f];
        at = safe_append(line, sizeof(line), 0, "%u/%u %s @ %s %s ",
                         SAFE_ARGS(f, report.frame_count,
                                   SAFE_TEXT(report.program),
                                   SAFE_TEXT(report.host),
                                   SAFE_TEXT(f ? "Called from"
                                               : "Crashed at")));
        if (frame->module < report.module_count)
        {
            const crash_module *module = &report.modules[frame->module];
            const char *path = crash_module_path(&report, frame->module);
            at = safe_append(line, sizeof(line), at,
                             "module \"%s\", offset %#lx\n",
                             SAFE_ARGS(SAFE_TEXT(safe_base_name(path)),
                                       frame->pc - module->bias));
        }
        else
        {
            at = safe_append(line, sizeof(line), at, "address %#lx\n",
                             SAFE_ARGS(frame->pc));
        }
        safe_write_all(fd, line, at);
    }
    if (report.flags & CRASH_FRAMES_TRUNCATED)
    {
        at = safe_append(line, sizeof(line), 0,
                         "%s @ %s Deeper frames were not captured\n",
                         SAFE_ARGS(SAFE_TEXT(report.program),
                                   SAFE_TEXT(report.host)));
        safe_write_all(fd, line, at);
    }
}

/* In the forked child: report on stdin, output on stdout and stderr. */
__attribute__((noreturn))
static void exec_helper(int report_fd, int output_fd)
{
    int in = fcntl(report_fd, F_DUPFD, 10);
    int out = fcntl(output_fd, F_DUPFD, 10);
    if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
        dup2(out, 2) < 0)
        _exit(126);
    syscall(SYS_close_range, 3, ~0u, 0);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    char *argv[] = { (char *) HELPER_NAME, (char *) "--report", NULL };
    execve(helper, argv, environ);
    _exit(127);
}

static bool send_report(int fd, int64_t until)
{
    const char *data = (const char *) &report;
    size_t left = sizeof(report);
    while (left > 0)
    {
        ssize_t n = write(fd, data, left);
        if (n > 0)
        {
            data += n;
            left -= (size_t) n;
            continue;
        }
        if (n < 0 && errno != EINTR && errno != EAGAIN)
            return false;
        if (now_ns() >= until)
            return false;
        nap_ms(1);
    }
    return true;
}

/* Run the helper on the report; true if it printed the backtrace. */
static bool print_symbolized(int fd, const char **why)
{
    int64_t reserve = deadline_ns - now_ns();
    reserve = reserve / 4 < 250000000 ? reserve / 4 : 250000000;
    int64_t until = deadline_ns - reserve;  /* leaves time for print_raw */

    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0)
    {
        *why = "cannot make a pipe for recorder_symbolize";
        return false;
    }
    pid_t pid = fork_safely();
    if (pid == 0)
        exec_helper(pipefd[0], fd);
    close(pipefd[0]);
    if (pid < 0)
    {
        close(pipefd[1]);
        *why = "cannot fork recorder_symbolize";
        return false;
    }
    helper_pid = pid;
    fcntl(pipefd[1], F_SETFL, fcntl(pipefd[1], F_GETFL) | O_NONBLOCK);
    bool sent = send_report(pipefd[1], until);
    close(pipefd[1]);

    int status = 0;
    for (;;)
    {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            break;
        if (done < 0 && errno == ECHILD)
            break;                      /* reaped by SIGCHLD = SIG_IGN */
        if (now_ns() >= until)
        {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            helper_pid = 0;
            *why = "recorder_symbolize took too long";
            return false;
        }
        nap_ms(1);
    }
    helper_pid = 0;
    if (!sent)
        *why = "could not send the report to recorder_symbolize";
    else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        *why = "cannot run recorder_symbolize";
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        *why = "recorder_symbolize failed";
    else
        return true;
    return false;
}

static void print_report(void)
{
    int fd = recorder_output_fd();
    const char *why = "recorder_symbolize not found (set RECORDER_SYMBOLIZE)";
    if (helper[0] && print_symbolized(fd, &why))
        return;
    print_raw(fd, why);
}

/* ---- the handler's path ------------------------------------------------------------ */

/* Block what is not a fault, so that the program's own handlers do not run
 * in the middle of the report; unblock the faults and 'sig', so that a
 * fault in the report and the watchdog reach us. */
static void set_report_mask(int sig)
{
    sigset_t mask;
    sigfillset(&mask);
    static const int faults[] = {
        SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGTRAP
    };
    for (unsigned i = 0; i < sizeof(faults) / sizeof(faults[0]); i++)
        sigdelset(&mask, faults[i]);
    sigdelset(&mask, sig);
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
}

/* This thread faulted, or the watchdog fired, while it was reporting. */
__attribute__((noreturn))
static void reenter(int sig, siginfo_t *info)
{
    bool late = info && info->si_code == SI_TIMER;
    if (!late && phase == PHASE_CAPTURE)
        siglongjmp(escape, 1);          /* keep what was captured */
    int dying = reporting_signal ? reporting_signal : sig;
    prepare_to_die(dying);              /* a blocked write can't hold us */
    pid_t child = helper_pid;
    if (child > 0)
        kill(child, SIGKILL);
    char line[256], name[32], other[32];
    size_t at;
    if (late)
        at = safe_append(line, sizeof(line), 0,
                         "recorder: crash report stopped after %ld ms "
                         "(recorder_crash_timeout)\n",
                         SAFE_ARGS((uint64_t) timeout_ms));
    else
        at = safe_append(line, sizeof(line), 0,
                         "recorder: %s while reporting %s, report cut short\n",
                         SAFE_ARGS(SAFE_TEXT(crash_signal_name(sig, name,
                                                               sizeof(name))),
                                   SAFE_TEXT(crash_signal_name(dying, other,
                                                               sizeof(other)))));
    safe_write_all(recorder_output_fd(), line, at);
    if (sig != dying)
        prepare_to_die(sig);
    die(dying);
}

/* Another thread crashed first and ends the process: wait for it. */
__attribute__((noreturn))
static void wait_for_reporter(int sig)
{
    int64_t until = deadline_ns ? deadline_ns : now_ns() + 1000000000;
    sleep_until(until + 2000000000);
    die(sig);
}

void crash_handle(int sig, siginfo_t *info, void *context, bool dump)
{
    pid_t tid = gettid();
    pid_t owner = 0;
    if (!__atomic_compare_exchange_n(&reporter, &owner, tid, false,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
        if (owner == tid)
            reenter(sig, info);
        wait_for_reporter(sig);
    }
    reporting_signal = sig;
    set_report_mask(sig);

    timeout_ms = RECORDER_TWEAK(recorder_crash_timeout);
    if (timeout_ms > 3600000)
        timeout_ms = 3600000;
    bool backtrace = crash_signal(sig) && timeout_ms > 0;
    if (timeout_ms > 0)
    {
        deadline_ns = now_ns() + timeout_ms * 1000000;
        start_watchdog(sig, tid);
    }
    if (backtrace)
        capture(sig, info, context);

    char name[32];
    record(recorder_signals, "Received %+s (%d), code %d, address %p",
           crash_signal_name(sig, name, sizeof(name)), sig,
           info ? info->si_code : 0, info ? info->si_addr : NULL);
    if (dump)
    {
        recorder_output out = recorder_output_current(true);
        recorder_dump_all(&out, true);
    }
    else
    {
        recorder_output_say("recorder: fault while dumping, dump abandoned\n");
    }
    if (backtrace)
        print_report();
    die(sig);
}
