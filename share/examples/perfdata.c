/* perfdata.c - move data in a loop and record how much, for the scope.
 *
 *   RECORDER_TRACES=perfdata=bytes,loops ./perfdata &
 *   recorder_scope -l                  # lists channels bytes and loops
 *   recorder_scope bytes loops         # plots them live
 *   recorder_scope -c transfer_delay=200   # speed it up
 *
 * Usage: perfdata [ITERATIONS]   (0 or nothing: run until killed)
 */
#include <recorder/recorder.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

RECORDER(perfdata, 1024, "Bytes moved and loop count of the transfer loop");
RECORDER(perfdata_events, 64, "Start, stop and pace changes");
RECORDER_TWEAK_DEFINE(transfer_delay, 1000, "Microseconds between transfers");

static char source[1 << 16], target[1 << 16];

static void pause_us(long us)
{
    if (us <= 0)
        return;
    struct timespec delay = { us / 1000000, (us % 1000000) * 1000 };
    nanosleep(&delay, NULL);
}

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);
    char *end = NULL;
    unsigned long iterations = argc > 1 ? strtoul(argv[1], &end, 0) : 0;
    if (argc > 2 || (end && *end))
    {
        fprintf(stderr, "usage: %s [ITERATIONS]\n", argv[0]);
        return 2;
    }
    record(perfdata_events, "Starting, %lu iterations, delay %ld us",
           iterations, (long) RECORDER_TWEAK(transfer_delay));

    unsigned long bytes = 0;
    intptr_t delay = RECORDER_TWEAK(transfer_delay);
    for (unsigned long loops = 1; !iterations || loops <= iterations; loops++)
    {
        /* A size that swings slowly, so the plot has something to show. */
        size_t size = 1024 + (size_t) (31744 * (1 + sin(loops / 200.0)));
        memcpy(target, source, size);
        source[loops % sizeof(source)] = target[size - 1] + 1;
        bytes += size;
        record(perfdata, "Transferred %lu bytes in %lu iterations",
               bytes, loops);

        if (RECORDER_TWEAK(transfer_delay) != delay)
        {
            delay = RECORDER_TWEAK(transfer_delay);
            record(perfdata_events, "Delay changed to %ld us", (long) delay);
        }
        pause_us(delay);
    }
    record(perfdata_events, "Done: %lu bytes", bytes);
    printf("perfdata: moved %lu bytes\n", bytes);
    return 0;
}
