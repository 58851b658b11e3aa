/* clock_writer.c - record this process's own CLOCK_MONOTONIC, for the
 * scope's tests of one time axis across processes.
 *
 *   RECORDER_SHARE=DIR/seg RECORDER_TRACES=clock=mono, \
 *       clock_writer COUNT [HOLD]
 *
 * Records COUNT samples two milliseconds apart, each the CLOCK_MONOTONIC
 * reading (seconds, a double) taken just before it is recorded, then
 * stays alive HOLD seconds (default 0: until killed). A scope that puts
 * the samples of several such processes on one axis must find the same
 * difference between each sample's time and its value, in all of them.
 * Tweak clock_gain (10) is there for tests of commands to one process.
 */
#include <recorder/recorder.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pause_ms.h"

RECORDER(clock, 4096, "CLOCK_MONOTONIC readings for recorder_scope tests");
RECORDER_TWEAK_DEFINE(clock_gain, 10, "A tweak for command tests");

static double monotonic(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double) now.tv_sec + now.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);
    if (argc < 2 || argc > 3)
    {
        fprintf(stderr, "usage: %s COUNT [HOLD]\n", argv[0]);
        return 2;
    }
    long count = strtol(argv[1], NULL, 0);
    double hold = argc > 2 ? strtod(argv[2], NULL) : 0;
    for (long i = 0; i < count; i++)
    {
        record(clock, "Monotonic %.9f s", monotonic());
        pause_ms(2);
    }
    fprintf(stderr, "clock_writer: recorded %ld samples\n", count);
    for (long waited = 0; hold <= 0 || waited < hold * 1000; waited += 20)
        pause_ms(20);
    return 0;
}
