/* ctf_writer.c - records of every kind of argument, from two threads,
 * for check-scope-ctf.sh (recorder_scope -D --format ctf).
 *
 *   RECORDER_SHARE=DIR/seg ctf_writer COUNT [HOLD]
 *
 * COUNT rounds, a millisecond apart, each recording to ctf_kinds: signed,
 * unsigned, hexadecimal and pointer, double, string, no argument and
 * twelve arguments; a second thread records to ctf_thread meanwhile (its
 * ring keeps the last 64 records).
 * Prints "recorded" on standard output when done, then stays alive HOLD
 * seconds (default 0: until killed).
 */
#include <recorder/recorder.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pause_ms.h"

RECORDER(ctf_kinds, 2048, "Records with arguments of every kind");
/* Smaller than COUNT: its ring wraps, as a flight recorder's does. */
RECORDER(ctf_thread, 64, "Records of a second thread");

static long count;

static void *second_thread(void *arg)
{
    (void) arg;
    for (long n = 0; n < count; n++)
    {
        record(ctf_thread, "thread step %ld of %ld", n, count);
        pause_ms(1);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);     /* reads RECORDER_TRACES */
    if (argc < 2 || argc > 3)
    {
        fprintf(stderr, "usage: %s COUNT [HOLD]\n", argv[0]);
        return 2;
    }
    count = strtol(argv[1], NULL, 0);
    double hold = argc > 2 ? strtod(argv[2], NULL) : 0;
    if (count < 0 || count > 200)
    {
        fprintf(stderr, "%s: COUNT from 0 to 200 (the rings' size)\n",
                argv[0]);
        return 2;
    }
    static const char *const names[] = { "alpha", "beta", "gamma" };
    pthread_t thread;
    if (pthread_create(&thread, NULL, second_thread, NULL) != 0)
        return 1;
    for (long n = 0; n < count; n++)
    {
        record(ctf_kinds, "signed %d and %ld", (int) -n, -1000000000000L * n);
        record(ctf_kinds, "unsigned %u and %lu", (unsigned) n * 3,
               18446744073709551615ul - (unsigned long) n);
        record(ctf_kinds, "hex %x and pointer %p", 0xbeef + (unsigned) n,
               (void *) (0x10000ul + (unsigned long) n));
        record(ctf_kinds, "double %f and %g", n * 0.25, -1.5e10 * n);
        record(ctf_kinds, "string %+s", names[n % 3]);
        record(ctf_kinds, "no arguments");
        record(ctf_kinds, "many %d %d %d %d %d %d %d %d %d %d %d %ld",
               1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, n);
        pause_ms(1);
    }
    pthread_join(thread, NULL);
    printf("recorded\n");
    fflush(stdout);
    for (long waited = 0; hold <= 0 || waited < hold * 1000; waited += 20)
        pause_ms(20);
    return 0;
}
