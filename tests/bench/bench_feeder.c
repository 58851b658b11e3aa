/* bench_feeder.c - channels for the scope window items of make bench,
 * until killed:
 *
 *   bench_feeder            four noisy channels at 1 kHz (bench_four)
 *   bench_feeder sixteen    sixteen at 1 kHz (bench_eight_a, bench_eight_b:
 *                           a record has at most 12 arguments)
 *   bench_feeder still      four for a second, then nothing: a program
 *                           alive with nothing new to show
 */
#include <recorder/recorder.h>

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pause_ms.h"

RECORDER(bench_four, 1024, "Four channels for the window benchmark");
RECORDER(bench_eight_a, 1024, "Channels 1 to 8 of sixteen");
RECORDER(bench_eight_b, 1024, "Channels 9 to 16 of sixteen");

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);
    const char *mode = argc > 1 ? argv[1] : "four";
    bool sixteen = strcmp(mode, "sixteen") == 0;
    unsigned stop = strcmp(mode, "still") == 0 ? 1000 : 0;
    srand(1);
    for (unsigned i = 0; !stop || i < stop; i++)
    {
        if (sixteen)
        {
            double x = i / 100.0;
            record(bench_eight_a, "%f %f %f %f %f %f %f %f", sin(x),
                   cos(x), sin(2 * x), cos(2 * x), sin(3 * x), cos(3 * x),
                   sin(4 * x), (rand() % 100) / 50.0);
            record(bench_eight_b, "%f %f %f %f %f %f %f %f", sin(x / 2),
                   cos(x / 2), sin(x / 3), cos(x / 3), sin(x / 5),
                   cos(x / 5), sin(x / 7), (rand() % 100) / 50.0);
        }
        else
        {
            record(bench_four, "%f %f %f %f", sin(i / 100.0), cos(i / 70.0),
                   2 * sin(i / 30.0), (rand() % 100) / 50.0);
        }
        pause_ms(1);
    }
    for (;;)
        pause_ms(1000);
}
