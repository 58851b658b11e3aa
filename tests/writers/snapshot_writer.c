/* snapshot_writer.c - a program with a rare event, for the snapshot
 * checks.
 *
 *   RECORDER_SHARE=DIR/seg RECORDER_SNAPSHOT_DIR=DIR/snaps \
 *       RECORDER_TRACES=snap_tick=level, snapshot_writer [SECONDS]
 *
 * Records snap_tick every 2 ms for SECONDS (default 10): a level of 1,
 * except every half second, where it is 10 for one record and
 * snap_event records "rare event N". Arms no snapshot condition itself:
 * the checks arm them, with RECORDER_TRACES or recorder_scope -c.
 */
#include <recorder/recorder.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

RECORDER(snap_tick, 4096, "A level, high every half second");
RECORDER(snap_event, 64, "The rare event, every half second");

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);
    double seconds = argc > 1 ? strtod(argv[1], NULL) : 10.0;
    struct timespec step = { 0, 2000000 };
    unsigned long ticks = (unsigned long) (seconds * 500);
    unsigned events = 0;
    for (unsigned long i = 1; i <= ticks; i++)
    {
        bool rare = i % 250 == 0;
        record(snap_tick, "level %d", rare ? 10 : 1);
        if (rare)
            record(snap_event, "rare event %u", ++events);
        nanosleep(&step, NULL);
    }
    fprintf(stderr, "snapshot_writer: %u events\n", events);
    return 0;
}
