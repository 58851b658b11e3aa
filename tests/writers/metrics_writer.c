/* metrics_writer.c - known values for check-scope-metrics.sh.
 *
 *   RECORDER_SHARE=DIR/seg RECORDER_TRACES='fixed=ramp,level:tick=tick' \
 *       metrics_writer COUNT [BASE]
 *
 * Records COUNT samples on 'fixed' one millisecond apart (ramp = BASE + i,
 * default BASE 1000, in steps; level = i / 4.0, in V), says so on stdout,
 * then one sample of 'tick' (its number) every 10 ms until killed: a
 * channel whose last value is known, and one whose count keeps growing.
 */
#include <recorder/recorder.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pause_ms.h"

RECORDER(fixed, 8192, "Known values for the metrics test");
RECORDER(tick, 1024, "A steady count for the metrics test");

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);  /* reads RECORDER_TRACES */
    if (argc < 2 || argc > 3)
    {
        fprintf(stderr, "usage: %s COUNT [BASE]\n", argv[0]);
        return 2;
    }
    long count = strtol(argv[1], NULL, 0);
    long base = argc > 2 ? strtol(argv[2], NULL, 0) : 1000;
    for (long i = 0; i < count; i++)
    {
        record(fixed, "Ramp %ld steps, level %f V", base + i, i / 4.0);
        pause_ms(1);
    }
    printf("recorded %ld\n", count);
    fflush(stdout);
    for (long i = 0;; i++)
    {
        record(tick, "Tick %ld n", i);
        pause_ms(10);
    }
}
