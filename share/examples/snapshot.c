/* snapshot.c - keep the flight recorder around the first bad moment, with
 * nobody watching: the program arms snapshot conditions, and when one
 * holds, the library writes what the rings hold before it and what
 * follows (snapshot_post) to a file of its own.
 *
 *   RECORDER_SNAPSHOT_DIR=/tmp ./snapshot      # then: ls /tmp/snapshot-*
 *   RECORDER_SHARE=/tmp/snap.seg ./snapshot 0 &
 *   recorder_scope -S /tmp/snap.seg -l       # conditions, taken, suppressed
 *   recorder_scope -S /tmp/snap.seg latency  # snapshots marked on the axis
 *
 * A request takes about 1 ms; now and then one is slow (a spike of the
 * exported 'latency' channel past 5 ms), and rarely a request fails
 * (a record of 'request_error'). Each is a snapshot condition; hold-off
 * and maximum keep a storm of them from filling the disk.
 *
 * Usage: snapshot [SECONDS]   (default 5; 0: run until killed)
 */
#include <recorder/recorder.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

RECORDER(request, 4096, "Requests served, with their latency");
RECORDER(request_error, 64, "Requests that failed");

static void pause_ms(double ms)
{
    struct timespec delay = { 0, (long) (ms * 1e6) };
    nanosleep(&delay, NULL);
}

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);
    double seconds = argc > 1 ? strtod(argv[1], NULL) : 5;
    /* Export the latency as a channel, and arm both conditions: a failed
     * request, a slow one. RECORDER_TRACES may add or change them. */
    recorder_trace_set("request=id,latency, "
                       "snapshot=request_error snapshot=latency>5m "
                       "snapshot_post=50 snapshot_holdoff=500 snapshot_max=5");
    unsigned id = 0;
    for (double t = 0; seconds == 0 || t < seconds; id++)
    {
        bool slow = id % 1500 == 700, failed = id % 2000 == 1999;
        double latency = slow ? 8e-3 : 1e-3 + (id % 7) * 1e-5;
        record(request, "Request %u took %.6f s", id, latency);
        if (failed)
            record(request_error, "Request %u failed: %s", id, "timeout");
        pause_ms(1);
        t += 1e-3 + latency / 10;
    }
    printf("snapshot: %u requests; snapshots in $RECORDER_SNAPSHOT_DIR, "
           "$XDG_RUNTIME_DIR or the segment's directory\n", id);
    return 0;
}
