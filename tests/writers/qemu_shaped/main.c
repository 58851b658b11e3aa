/* qemu_shaped - a program of 1 500 recorders of 8 slots, as QEMU's recorder
 * trace back-end generates them (tests/support/qemu_shaped_sources.sh
 * writes trace.h, trace.c and trace_first.c; the Makefile builds them with
 * this file). Its trace settings and segment come from RECORDER_TRACES and
 * RECORDER_SHARE, read at start.
 *
 *   qemu_shaped RECORDING [HOLD] [dump]
 *
 * records once into each of the first RECORDING recorders ("event_I value
 * I"), prints "ready", then stays HOLD seconds (-1: until killed) and
 * exits 0. With "dump", first dumps those recorders to its own output and
 * prints "dumped N", the records found in its own memory.
 */
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4)
    {
        fprintf(stderr, "usage: %s RECORDING [HOLD] [dump]\n", argv[0]);
        return 2;
    }
    unsigned recording = (unsigned) strtoul(argv[1], NULL, 10);
    double hold = argc > 2 ? strtod(argv[2], NULL) : 0;
    bool dump = argc > 3 && strcmp(argv[3], "dump") == 0;

    recorder_dump_on_common_signals(0, 0);
    trace_first(recording);
    if (dump)
        printf("dumped %u\n", recorder_dump_for("^event_[0-9]+$"));
    printf("ready\n");
    fflush(stdout);
    if (hold < 0)
        for (;;)
            pause();
    usleep((useconds_t) (hold * 1e6));
    return 0;
}
