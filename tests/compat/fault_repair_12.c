/* fault_repair_12.c - a program that takes SIGSEGV on purpose, as an
 * emulator that write-protects pages does: its handler unprotects the
 * page and returns, and the store runs again. Built from the public header
 * only; tests/compat/check-signal-chain.sh runs it.
 *
 * Argument: how many faults to take (default 1000).
 */
#include <recorder/recorder.h>

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

RECORDER(emulator, 64, "What the emulator does");

static char *page;
static size_t page_size;
static volatile sig_atomic_t repaired, strays;

static void on_fault(int sig, siginfo_t *info, void *context)
{
    (void) sig; (void) context;
    char *address = info->si_addr;
    if (address < page || address >= page + page_size)
    {
        strays++;
        signal(SIGSEGV, SIG_DFL);       /* not ours: die of it */
        return;
    }
    mprotect(page, page_size, PROT_READ | PROT_WRITE);
    repaired++;
}

int main(int argc, char **argv)
{
    int faults = argc > 1 ? atoi(argv[1]) : 1000;
    page_size = (size_t) sysconf(_SC_PAGESIZE);
    page = mmap(NULL, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
                -1, 0);
    if (page == MAP_FAILED)
        return 2;

    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);

    recorder_dump_on_common_signals(0, 0);
    record(emulator, "Taking %d faults", faults);
    for (int i = 0; i < faults; i++)
    {
        mprotect(page, page_size, PROT_READ);   /* write-protect again */
        page[(size_t) i % page_size] = (char) i;  /* faults, repaired */
    }
    record(emulator, "Done");
    printf("repaired %d of %d faults, %d strays\n", (int) repaired, faults,
           (int) strays);
    return repaired == faults ? 0 : 1;
}
