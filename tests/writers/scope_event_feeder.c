/* scope_event_feeder.c - a channel and events at known times, for the
 * scope's marker tests.
 *
 *   RECORDER_SHARE=DIR/seg RECORDER_TRACES=feed=ramp \
 *       scope_event_feeder EVENTS [HOLD]
 *
 * Records ramp = i every millisecond and, 50 ms into each 100 ms,
 * record(feed_event, "spike %d", n), EVENTS times; then dumps feed_event
 * to stderr (its own times, which the scope must mark) and stays alive
 * HOLD seconds (default 0: until killed).
 */
#include <recorder/recorder.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pause_ms.h"

RECORDER(feed, 4096, "A channel beside the events");
RECORDER(feed_event, 256, "Events the scope marks with -e feed_event");
RECORDER_TWEAK_DEFINE(feed_gain, 10, "A tweak for command markers");

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);     /* reads RECORDER_TRACES */
    if (argc < 2 || argc > 3)
    {
        fprintf(stderr, "usage: %s EVENTS [HOLD]\n", argv[0]);
        return 2;
    }
    long events = strtol(argv[1], NULL, 0);
    double hold = argc > 2 ? strtod(argv[2], NULL) : 0;
    for (long i = 0, n = 0; n < events; i++)
    {
        record(feed, "Ramp %ld steps", i);
        if (i % 100 == 50)
            record(feed_event, "spike %ld", n++);
        pause_ms(1);
    }
    recorder_dump_for("feed_event");
    fprintf(stderr, "scope_event_feeder: %ld events\n", events);
    for (long waited = 0; hold <= 0 || waited < hold * 1000; waited += 20)
        pause_ms(20);
    return 0;
}
