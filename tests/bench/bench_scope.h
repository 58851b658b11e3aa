/* bench_scope.h - the scope's frame cost, for make bench. */
#ifndef BENCH_SCOPE_H
#define BENCH_SCOPE_H

typedef struct bench_scope_result
{
    double ms_1k, ms_100k, ms_1m;       /* median ms per offscreen frame */
} bench_scope_result;

/* Render a 1200x600 frame of 4 channels with the scope's own drawing code
 * (graph_draw, as the window and the headless capture use it), with 1 000,
 * 100 000 and 1 000 000 samples per channel in view. */
bench_scope_result bench_scope_render(void);

#endif /* BENCH_SCOPE_H */
