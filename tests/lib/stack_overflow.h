/* stack_overflow.h - overflow the stack for real, for crash tests. */
#ifndef RECORDER_TEST_STACK_OVERFLOW_H
#define RECORDER_TEST_STACK_OVERFLOW_H

#include <stdbool.h>

/* Recurses until the stack is gone; the flag only hides that from gcc,
 * which would otherwise warn or turn the recursion into a loop. */
static volatile bool keep_going = true;
__attribute__((noinline)) static int recurse(volatile char *previous, int depth)
{
    volatile char frame[512];
    frame[0] = previous ? previous[0] + 1 : 0;
    if (!keep_going)
        return 0;
    return recurse(frame, depth + 1) + frame[depth % 512];
}

#endif /* RECORDER_TEST_STACK_OVERFLOW_H */
