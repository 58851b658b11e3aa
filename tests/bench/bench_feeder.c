/* bench_feeder.c - four noisy channels at 1 kHz for the scope window item
 * of make bench, until killed. */
#include <recorder/recorder.h>

#include <math.h>
#include <stdlib.h>
#include <time.h>

RECORDER(bench_four, 1024, "Four channels for the window benchmark");

int main(void)
{
    recorder_dump_on_common_signals(0, 0);
    srand(1);
    for (unsigned i = 0;; i++)
    {
        record(bench_four, "%f %f %f %f", sin(i / 100.0), cos(i / 70.0),
               2 * sin(i / 30.0), (rand() % 100) / 50.0);
        struct timespec pause = { 0, 1000000 };
        nanosleep(&pause, NULL);
    }
}
