/* spike_writer.c - a quiet signal with one spike, for the scope's trigger
 * tests.
 *
 *   RECORDER_SHARE=DIR/seg RECORDER_TRACES=spike=sig, \
 *       spike_writer [SPIKE_AT [SECONDS]]
 *
 * Records sig every 2 ms for SECONDS (default 12): 0 to 2 (a little noise)
 * except for 10 ms from SPIKE_AT seconds (default 1) after it started,
 * where it is 100. Then stays alive recording nothing until killed.
 */
#include <recorder/recorder.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

RECORDER(spike, 4096, "A quiet signal with one spike");

static double seconds_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double) (now.tv_sec - start->tv_sec) +
           (now.tv_nsec - start->tv_nsec) / 1e9;
}

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);
    double spike_at = argc > 1 ? strtod(argv[1], NULL) : 1.0;
    double seconds = argc > 2 ? strtod(argv[2], NULL) : 12.0;
    struct timespec start, step = { 0, 2000000 };
    clock_gettime(CLOCK_MONOTONIC, &start);
    unsigned long i = 0;
    double t;
    while ((t = seconds_since(&start)) < seconds)
    {
        int value = t >= spike_at && t < spike_at + 0.010 ? 100
                  : (int) (i * 7 % 3);
        record(spike, "Signal %d", value);
        i++;
        nanosleep(&step, NULL);
    }
    fprintf(stderr, "spike_writer: %lu samples, spike at %g s\n", i, spike_at);
    for (;;)
        nanosleep(&step, NULL);
}
