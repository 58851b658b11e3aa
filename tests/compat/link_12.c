/* link_12.c - a program for recorder 1.2, linked as it was:
 * cc link_12.c -lrecorder -lpthread -lm. Built from the public header
 * only; tests/compat/check-link-12.sh builds it against the shared library and
 * against the static archive, and crashes it ("crash" argument).
 */
#include <recorder/recorder.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

RECORDER(link_test, 32, "Records of a program linked the 1.2 way");

static volatile int *nowhere;           /* NULL */

__attribute__((noinline)) static void crash_here(int value)
{
    record(link_test, "About to store %d through a null pointer", value);
    *nowhere = value;
}

int main(int argc, char **argv)
{
    recorder_dump_on_common_signals(0, 0);
    RECORD(link_test, "Square root of %d is %f", argc + 1, sqrt(argc + 1));
    if (argc > 1 && strcmp(argv[1], "crash") == 0)
        crash_here(42);
    recorder_dump();
    printf("linked the 1.2 way: ok\n");
    return 0;
}
