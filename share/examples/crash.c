/* crash.c - a program that crashes, to show what a crash report says.
 *
 *   ./crash          divides by zero: SIGFPE
 *   ./crash segv     writes through a null pointer: SIGSEGV
 *   ./crash abort    calls abort(): SIGABRT
 *
 * It prints its flight recorder, then the signal and a backtrace with
 * function, file and line, each frame tagged PROGRAM @ HOST, and dies by
 * the signal. With a shared segment, the same report can be read after it
 * died:
 *
 *   RECORDER_SHARE=/tmp/crash.seg ./crash
 *   recorder_scope -S /tmp/crash.seg -D
 */
#include <recorder/recorder.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RECORDER(crash, 64, "What the crash example did before it crashed");

static volatile int zero;                       /* hides the constant */
static int *volatile nowhere;

static int divide(int dividend, int divisor)
{
    record(crash, "Dividing %d by %d", dividend, divisor);
    return dividend / divisor;                  /* crash: fpe */
}

static int average(const int *values, int count)
{
    int sum = 0;
    for (int i = 0; i < count; i++)
        sum += values[i];
    record(crash, "Sum of %d values is %d", count, sum);
    return divide(sum, count);                  /* call: average */
}

static void store(int *where, int value)
{
    record(crash, "Storing %d at %p", value, where);
    *where = value;                             /* crash: segv */
}

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);
    const char *mode = argc > 1 ? argv[1] : "fpe";
    record(crash, "Crash example started, mode %+s", mode);

    int values[4] = { 3, 1, 4, 1 };
    if (strcmp(mode, "fpe") == 0)
        printf("Average: %d\n", average(values, zero)); /* call: main */
    else if (strcmp(mode, "segv") == 0)
        store(nowhere, 42);
    else if (strcmp(mode, "abort") == 0)
        abort();
    else
        fprintf(stderr, "Usage: crash [fpe|segv|abort]\n");
    return 2;
}
