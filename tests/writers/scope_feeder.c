/* scope_feeder.c - record known values, for recorder_scope's shell tests.
 *
 *   RECORDER_SHARE=DIR/seg RECORDER_TRACES=feed=ramp,wave,level \
 *       scope_feeder COUNT [BASE [HOLD]]
 *
 * Records COUNT samples one millisecond apart: ramp = BASE + i (default
 * BASE 1000), wave = (i * 37) % 101 - 50, level = i / 4.0 (a double), then
 * stays alive HOLD seconds (default 0: until killed) recording nothing, so
 * a scope sees a live, paused program. Tweak feed_gain (10) is there for
 * slider tests, which read it back with recorder_scope -l.
 */
#include <recorder/recorder.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pause_ms.h"

RECORDER(feed, 4096, "Known values for recorder_scope tests");
RECORDER_TWEAK_DEFINE(feed_gain, 10, "A tweak for slider tests");

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);
    if (argc < 2 || argc > 4)
    {
        fprintf(stderr, "usage: %s COUNT [BASE [HOLD]]\n", argv[0]);
        return 2;
    }
    long count = strtol(argv[1], NULL, 0);
    long base = argc > 2 ? strtol(argv[2], NULL, 0) : 1000;
    double hold = argc > 3 ? strtod(argv[3], NULL) : 0;

    for (long i = 0; i < count; i++)
    {
        int wave = (int) ((i * 37) % 101) - 50;
        double level = i / 4.0;
        record(feed, "Ramp %ld steps, wave %d mV, level %f V", base + i, wave,
               level);
        pause_ms(1);
    }
    fprintf(stderr, "scope_feeder: recorded %ld samples from %ld\n", count,
            base);
    for (long waited = 0; hold <= 0 || waited < hold * 1000; waited += 20)
        pause_ms(20);
    return 0;
}
