/* bench_scope.c - time the scope's offscreen frames as samples grow. */
#include "bench_scope.h"
#include "source/channel_data.h"
#include "draw/graph_draw.h"
#include "recorder.h"

#include <cairo.h>
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WIDTH    1200
#define HEIGHT   600
#define CHANNELS 4
#define FRAMES   15

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU time of this thread: the frame, zoom/pan and lookup rows compare a
 * few ms or ns, which a machine shared with other builds would otherwise
 * stretch by whatever ran meanwhile (a frame of 1 000 samples took 2.2 ms
 * of the clock here for 1.5 of CPU). */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int compare(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

/* Noisy, drifting signals over 10 s: the worst case for line drawing. */
static scope_series *make_series(unsigned channel, unsigned count)
{
    scope_series *series = malloc(sizeof(*series));
    static const char *const names[CHANNELS] = { "a", "b", "c", "d" };
    scope_series_init(series, names[channel], 0.99);
    srand(channel + 1);
    for (unsigned i = 0; i < count; i++)
    {
        double t = 10.0 * i / count;
        double value = 100 * sin(t * (channel + 1)) + rand() % 50 + channel * 200;
        scope_series_append(series, t, value);
    }
    return series;
}

static void free_series(scope_series **series)
{
    for (unsigned c = 0; c < CHANNELS; c++)
    {
        scope_series_free(series[c]);
        free(series[c]);
    }
}

/* Median ms of FRAMES frames of 'model', the frame f showing the span of
 * duration[f] ending at view_end[f] (after two frames to warm up fonts
 * and caches, which show the first span). */
static double median_frame_ms(graph_model *model, const double *view_end,
                              const double *duration, double (*clock)(void))
{
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                                          WIDTH, HEIGHT);
    double times[FRAMES];
    for (unsigned f = 0; f < FRAMES + 2; f++)
    {
        unsigned step = f >= 2 ? f - 2 : 0;
        model->view_end = view_end[step];
        model->duration = duration[step];
        cairo_t *cr = cairo_create(surface);
        double start = clock();
        graph_draw(cr, WIDTH, HEIGHT, model);
        cairo_surface_flush(surface);
        double ms = (clock() - start) * 1e3;
        cairo_destroy(cr);
        if (f >= 2)
            times[f - 2] = ms;
    }
    cairo_surface_destroy(surface);
    qsort(times, FRAMES, sizeof(*times), compare);
    return times[FRAMES / 2];
}

static graph_model bench_model(scope_series **series)
{
    graph_model model = {
        .title = "bench", .series = series, .series_count = CHANNELS,
        .views = SCOPE_VIEW_NORMAL, .view_end = 10.0, .duration = 10.0,
        .max_samples = -1,
    };
    return model;
}

/* A live frame: the whole 10 s of 'samples' samples per channel. */
static double frame_ms(unsigned samples, double (*clock)(void))
{
    scope_series *series[CHANNELS];
    for (unsigned c = 0; c < CHANNELS; c++)
        series[c] = make_series(c, samples);
    graph_model model = bench_model(series);
    double view_end[FRAMES], duration[FRAMES];
    for (unsigned f = 0; f < FRAMES; f++)
        view_end[f] = 10.0, duration[f] = 10.0;
    double ms = median_frame_ms(&model, view_end, duration, clock);
    free_series(series);
    return ms;
}

bench_scope_result bench_scope_render(void)
{
    /* The heap settings of recorder_scope's main(), which says why: the
     * frames measured are the window's. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    bench_scope_result result;
    result.ms_1k = frame_ms(1000, cpu_now);
    result.ms_100k = frame_ms(100000, cpu_now);
    result.ms_1m = frame_ms(1000000, cpu_now);
    return result;
}

bench_scope_steps bench_scope_zoom_pan(void)
{
    bench_scope_steps steps;
    steps.live_ms = frame_ms(1000, cpu_now);

    /* Paused, looking into the middle of the 10 s held: 1/1000 of it,
     * then the same span panned by 10 % a frame, and zoomed out by 1.25
     * a frame about its centre (from 1 000 to 23 000 samples a channel). */
    scope_series *series[CHANNELS];
    for (unsigned c = 0; c < CHANNELS; c++)
        series[c] = make_series(c, 1000000);
    graph_model model = bench_model(series);
    const double span = 10.0 / 1000, centre = 5.0;
    double view_end[FRAMES], duration[FRAMES];
    for (unsigned f = 0; f < FRAMES; f++)
    {
        duration[f] = span;
        view_end[f] = centre + span / 2 + f * span / 10;
    }
    steps.pan_ms = median_frame_ms(&model, view_end, duration, cpu_now);
    for (unsigned f = 0; f < FRAMES; f++)
    {
        duration[f] = span * pow(1.25, f);
        view_end[f] = centre + duration[f] / 2;
    }
    steps.zoom_ms = median_frame_ms(&model, view_end, duration, cpu_now);
    free_series(series);
    return steps;
}

#define LOOKUPS         (1u << 18)

/* Lookups at random times over the 10 s of a series: 'distinct' of them
 * (a pointer's positions over the plot), visited LOOKUPS times in a
 * random order. The same times for every series. */
typedef struct lookup_plan
{
    double   spots[LOOKUPS];
    uint32_t order[LOOKUPS];
} lookup_plan;

static void plan_lookups(lookup_plan *plan, unsigned distinct)
{
    uint64_t state = 88172645463325252ull;      /* xorshift */
#define NEXT() (state ^= state << 13, state ^= state >> 7, \
                state ^= state << 17, state >> 11)
    for (unsigned i = 0; i < distinct; i++)
        plan->spots[i] = 10.0 * (double) NEXT() / (double) (1ull << 53);
    for (unsigned i = 0; i < LOOKUPS; i++)
        plan->order[i] = distinct == LOOKUPS ? i
                                             : (uint32_t) (NEXT() % distinct);
#undef NEXT
}

/* CPU ns per scope_series_value_at() of 'plan' on 'series'. */
static double lookup_ns(const scope_series *series, const lookup_plan *plan)
{
    double sum = 0, start = cpu_now();
    for (unsigned i = 0; i < LOOKUPS; i++)
    {
        double time, value;
        if (scope_series_value_at(series, plan->spots[plan->order[i]], &time,
                                  &value))
            sum += value;
    }
    double ns = (cpu_now() - start) * 1e9 / LOOKUPS;
    if (sum == 42)                      /* keep the lookups */
        fprintf(stderr, "%g\n", sum);
    return ns;
}

/* Medians of 1k and 1M lookups, run in turns so both see the same load. */
static void lookup_pair(unsigned distinct, double *ns_1k, double *ns_1m)
{
    lookup_plan *plan = malloc(sizeof(*plan));
    scope_series *small = make_series(0, 1000), *large = make_series(0, 1000000);
    plan_lookups(plan, distinct);
    double runs_1k[5], runs_1m[5];
    for (unsigned r = 0; r < 5; r++)
    {
        runs_1k[r] = lookup_ns(small, plan);
        runs_1m[r] = lookup_ns(large, plan);
    }
    qsort(runs_1k, 5, sizeof(*runs_1k), compare);
    qsort(runs_1m, 5, sizeof(*runs_1m), compare);
    *ns_1k = runs_1k[2];
    *ns_1m = runs_1m[2];
    scope_series_free(small);
    scope_series_free(large);
    free(small);
    free(large);
    free(plan);
}

bench_scope_lookup bench_scope_value_at(void)
{
    bench_scope_lookup lookup;
    lookup_pair(LOOKUPS, &lookup.ns_1k, &lookup.ns_1m);
    lookup_pair(WIDTH, &lookup.pointer_1k, &lookup.pointer_1m);
    return lookup;
}

RECORDER(bench_eight, 2048, "Eight channels for the sustained-rate item");

#define SUSTAIN_SECONDS 3.0

/* The writer: paced by the clock, 8 arguments a record. */
static void sustain_writer(const char *path, double per_second, int ready)
{
    char spec[300];
    snprintf(spec, sizeof(spec), "share=%s", path);
    recorder_trace_set(spec);
    recorder_trace_set("bench_eight=e0,e1,e2,e3,e4,e5,e6,e7");
    if (write(ready, "r", 1) != 1)
        _exit(1);
    double start = now();
    unsigned long n = 0;
    while (now() - start < SUSTAIN_SECONDS)
    {
        unsigned long due = (unsigned long) ((now() - start) * per_second);
        for (; n < due; n++)
            record(bench_eight, "%lu %lu %lu %lu %lu %lu %lu %lu",
                   n, n, n, n, n, n, n, n);
        usleep(200);
    }
    _exit(0);
}

bench_scope_rate bench_scope_sustain(const char *path, double per_second)
{
    bench_scope_rate rate = { SUSTAIN_SECONDS, 0, 0 };
    int ready[2];
    if (pipe(ready))
        return rate;
    pid_t pid = fork();
    if (pid == 0)
    {
        close(ready[0]);
        sustain_writer(path, per_second, ready[1]);
    }
    close(ready[1]);
    char byte;
    if (read(ready[0], &byte, 1) != 1)
        return rate;
    close(ready[0]);

    scope_source_config config = { .duration = 0, .keep = 0, .ratio = 0.99 };
    scope_source *source = scope_source_new(path, &config);
    scope_source_add_graph(source, NULL);
    double end = now() + SUSTAIN_SECONDS + 0.2;
    while (now() < end)
    {
        scope_source_poll(source, now());
        usleep(20000);                  /* the window's and capture's pace */
    }
    scope_source_poll(source, now());
    unsigned count = 0;
    scope_series *const *series = scope_source_graph_series(source, 0, &count);
    for (unsigned s = 0; s < count; s++)
    {
        rate.samples += series[s]->end - series[s]->generation_first;
        rate.lost += series[s]->lost;
    }
    scope_source_delete(source);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return rate;
}
