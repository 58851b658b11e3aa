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
 * 100 000 and 1 000 000 samples per channel in view; ms of this thread's
 * CPU. */
bench_scope_result bench_scope_render(void);

typedef struct bench_scope_steps
{
    double live_ms;                     /* 4 x 1 000 samples, all in view */
    double pan_ms, zoom_ms;             /* 4 x 1 000 000, 1/1000 in view */
} bench_scope_steps;

/* Median ms of the same 1200x600 offscreen frame when a paused view of
 * 4 channels x 1 000 000 samples is panned (10 % a step) or zoomed out
 * (1.25 x a step) from 1/1000 of what is held, against a live frame of
 * 4 x 1 000 samples. */
bench_scope_steps bench_scope_zoom_pan(void);

typedef struct bench_scope_lookup
{
    double ns_1k, ns_1m;                /* CPU ns per lookup, random times */
    double pointer_1k, pointer_1m;      /* the same, 1 200 of them */
} bench_scope_lookup;

/* The hover readout's lookup, scope_series_value_at(), in a series of
 * 1 000 and of 1 000 000 samples over 10 s: at 262 144 random times, each
 * new (in a million samples, most are cache misses in their 8 MB of
 * times), and at 1 200 random times (a pointer's positions over a
 * 1200-pixel plot) visited in a random order. */
bench_scope_lookup bench_scope_value_at(void);

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
