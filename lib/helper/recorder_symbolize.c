/* recorder_symbolize - print a crash report, symbolized, for its handler.
 *
 * The crash handler of a dying process (lib/crash.c) cannot read DWARF
 * safely: it execs this program instead, writes the raw report to its
 * standard input, and lets it print the backtrace on the same output as
 * the flight recorder dump. A fresh process has no lock held and a heap of
 * its own. The report is checked like any other untrusted input; on any
 * error this exits non-zero and the handler prints the raw frames itself.
 *
 * Usage: recorder_symbolize --report < REPORT
 */
#include "backtrace/backtrace_private.h"
#include "backtrace/crash_report_private.h"
#include "backtrace/symbolize_private.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t read_all(int fd, void *buffer, size_t size)
{
    size_t done = 0;
    while (done < size)
    {
        ssize_t n = read(fd, (char *) buffer + done, size - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t) n;
    }
    return done;
}

int main(int argc, char **argv)
{
    if (argc != 2 || strcmp(argv[1], "--report") != 0)
    {
        fprintf(stderr, "Usage: recorder_symbolize --report < REPORT\n"
                        "Print a crash report from the recorder library's "
                        "crash handler, symbolized.\n");
        return 2;
    }
    /* A dying process is waiting: no network look-ups for debug info. */
    unsetenv("DEBUGINFOD_URLS");

    crash_report *report = malloc(sizeof(*report));
    recorder_backtrace *bt = backtrace_new();
    if (!report || !bt)
    {
        fprintf(stderr, "recorder_symbolize: out of memory\n");
        return 1;
    }
    size_t got = read_all(0, report, sizeof(*report));
    if (got != sizeof(*report))
    {
        fprintf(stderr, "recorder_symbolize: truncated report "
                        "(%zu of %zu bytes)\n", got, sizeof(*report));
        return 1;
    }
    char why[256];
    if (!crash_report_check(report, why, sizeof(why)))
    {
        fprintf(stderr, "recorder_symbolize: %s\n", why);
        return 1;
    }
    if (!symbolize_report(report, bt, true))
    {
        fprintf(stderr, "recorder_symbolize: out of memory\n");
        return 1;
    }
    recorder_backtrace_print(bt, stdout);
    int status = fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
    recorder_backtrace_delete(bt);
    free(report);
    return status;
}
