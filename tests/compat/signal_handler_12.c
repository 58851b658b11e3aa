/* signal_handler_12.c - a program written for recorder 1.2 that has signal
 * handlers of its own, installed before recorder_dump_on_common_signals().
 * Built from the public header only. The mode, first argument, says what
 * its handler does; tests/compat/check-signal-chain.sh checks the outcome.
 *
 *   exit      SIGSEGV handler (SA_SIGINFO, sa_mask has SIGUSR2): says what
 *             it got and whether its mask is in force, then _exit(3)
 *   signal    SIGSEGV handler set with signal(): says so, then _exit(4)
 *   return    SIGSEGV handler that says so and returns, repairing nothing
 *   resethand the same with SA_RESETHAND: once only, then the default
 *   quit      SIGQUIT handler (SA_NODEFER) that says so; the program goes on
 *   bus FILE  SIGBUS handler that says so, then _exit(5); the shared
 *             segment ($RECORDER_SHARE) is truncated under the program,
 *             which records on, then FILE, a mapping of its own, is
 *             truncated and touched
 */
#include <recorder/recorder.h>

#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

RECORDER(app, 16, "What the program does");

static volatile int *target;            /* NULL: where it faults */
static volatile sig_atomic_t calls;

static void say(const char *text)
{
    ssize_t ignored = write(1, text, strlen(text));
    (void) ignored;
}

static bool blocked(int sig)
{
    sigset_t now;
    sigprocmask(SIG_BLOCK, NULL, &now);
    return sigismember(&now, sig) == 1;
}

static void exiting_handler(int sig, siginfo_t *info, void *context)
{
    char line[200];
    snprintf(line, sizeof(line),   /* not signal-safe; fine for a test */
             "handler: signal %d at %p, context %s, SIGUSR2 %s, SIGSEGV %s\n",
             sig, info->si_addr, context ? "set" : "missing",
             blocked(SIGUSR2) ? "blocked" : "open",
             blocked(SIGSEGV) ? "blocked" : "open");
    say(line);
    _exit(3);
}

static void plain_handler(int sig)
{
    say(sig == SIGSEGV ? "plain handler: SIGSEGV\n" : "plain handler: ?\n");
    _exit(4);
}

static void returning_handler(int sig, siginfo_t *info, void *context)
{
    (void) sig; (void) info; (void) context;
    calls++;
    say("returning handler: called\n");
}

static void bus_handler(int sig, siginfo_t *info, void *context)
{
    (void) sig; (void) context;
    say(info->si_code == BUS_ADRERR ? "bus handler: BUS_ADRERR\n"
                                    : "bus handler: other code\n");
    _exit(5);
}

/* A page of FILE, mapped shared, then the file emptied: touching it now
 * raises SIGBUS. */
static void truncated_mapping_fault(const char *path)
{
    long page = sysconf(_SC_PAGESIZE);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, page) != 0)
        return;
    volatile char *mapped = mmap(NULL, (size_t) page, PROT_READ | PROT_WRITE,
                                 MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED || ftruncate(fd, 0) != 0)
        return;
    mapped[0] = 1;
}

static void quit_handler(int sig)
{
    (void) sig;
    say(blocked(SIGQUIT) ? "quit handler: SIGQUIT blocked\n"
                         : "quit handler: SIGQUIT open\n");
}

static void install(int sig, void (*action)(int, siginfo_t *, void *),
                    int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = action;
    sa.sa_flags = SA_SIGINFO | flags;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR2);
    sigaction(sig, &sa, NULL);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "exit";
    if (strcmp(mode, "exit") == 0)
        install(SIGSEGV, exiting_handler, 0);
    else if (strcmp(mode, "signal") == 0)
        signal(SIGSEGV, plain_handler);
    else if (strcmp(mode, "return") == 0)
        install(SIGSEGV, returning_handler, 0);
    else if (strcmp(mode, "resethand") == 0)
        install(SIGSEGV, returning_handler, SA_RESETHAND);
    else if (strcmp(mode, "bus") == 0 && argc > 2)
        install(SIGBUS, bus_handler, 0);
    else if (strcmp(mode, "quit") == 0)
    {
        struct sigaction sa;
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = quit_handler;
        sa.sa_flags = SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGQUIT, &sa, NULL);
    }
    else
    {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }

    recorder_dump_on_common_signals(0, 0);
    RECORD(app, "Mode %+s", mode);      /* 1.2 spelling; argv outlives it */

    if (strcmp(mode, "quit") == 0)
    {
        raise(SIGQUIT);
        say("went on after SIGQUIT\n");
        return 0;
    }
    if (strcmp(mode, "bus") == 0)
    {
        const char *segment = getenv("RECORDER_SHARE");
        if (!segment || truncate(segment, 0) != 0)
            return 6;
        for (int i = 0; i < 100; i++)
            RECORD(app, "After truncation %d", i);
        say("recorded after truncation\n");
        truncated_mapping_fault(argv[2]);
        say("no SIGBUS from the mapping\n");
        return 0;
    }
    *target = 1;
    printf("went on after the fault, handler called %d times\n", (int) calls);
    return 0;
}
