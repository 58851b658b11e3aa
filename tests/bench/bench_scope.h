/* bench_scope.h - the scope's frame cost, for make bench. */
#ifndef BENCH_SCOPE_H
#define BENCH_SCOPE_H

#include <stdint.h>

typedef struct bench_scope_result
{
    double ms_1k, ms_100k, ms_1m;       /* median ms per offscreen frame */
} bench_scope_result;

/* Render a 1200x600 frame of 4 channels with the scope's own drawing code
 * (graph_draw, as the window and the headless capture use it), with 1 000,
 * 100 000 and 1 000 000 samples per channel in view. */
bench_scope_result bench_scope_render(void);

typedef struct bench_scope_rate
{
    double   seconds;                   /* how long the writer ran */
    uint64_t samples;                   /* samples the scope read */
    uint64_t lost;                      /* samples it missed */
} bench_scope_rate;

/* Run a writer process recording 8 exported channels at 'per_second'
 * records per second into the segment at 'path', and the scope's reading
 * code (as the window and the headless capture use it, polling every
 * 20 ms) on it: how many samples it read and how many it lost. */
bench_scope_rate bench_scope_sustain(const char *path, double per_second);

#endif /* BENCH_SCOPE_H */
