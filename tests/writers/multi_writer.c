/* multi_writer.c - one of several processes recording numbered events,
 * for check-scope-multi-dump.sh.
 *
 *   RECORDER_SHARE=DIR/seg.NAME multi_writer COUNT [HOLD]
 *
 * Records record(multi, "event N at T ns") COUNT times, a millisecond
 * apart, T being CLOCK_MONOTONIC read just before: the merged dump must
 * give each event once, in the order of those times. Prints "recorded" on
 * standard output when done, then stays alive HOLD seconds (default 0:
 * until killed). Its tweak multi_level takes -c commands.
 */
#include <recorder/recorder.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pause_ms.h"

RECORDER(multi, 1024, "Numbered events with their CLOCK_MONOTONIC time");
RECORDER_TWEAK_DEFINE(multi_level, 1, "A tweak that -c commands set");

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);     /* reads RECORDER_TRACES */
    if (argc < 2 || argc > 3)
    {
        fprintf(stderr, "usage: %s COUNT [HOLD]\n", argv[0]);
        return 2;
    }
    long count = strtol(argv[1], NULL, 0);
    double hold = argc > 2 ? strtod(argv[2], NULL) : 0;
    if (count < 0 || count > 1000)
    {
        fprintf(stderr, "%s: COUNT from 0 to 1000 (the ring's size)\n",
                argv[0]);
        return 2;
    }
    for (long n = 0; n < count; n++)
    {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        unsigned long ns = (unsigned long) now.tv_sec * 1000000000ul +
                           (unsigned long) now.tv_nsec;
        record(multi, "event %ld at %lu ns", n, ns);
        pause_ms(1);
    }
    printf("recorded\n");
    fflush(stdout);
    for (long waited = 0; hold <= 0 || waited < hold * 1000; waited += 20)
        pause_ms(20);
    return 0;
}
