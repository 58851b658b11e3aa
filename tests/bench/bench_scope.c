/* bench_scope.c - time the scope's offscreen frames as samples grow. */
#include "bench_scope.h"
#include "channel_data.h"
#include "graph_draw.h"
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

static double frame_ms(unsigned samples)
{
    scope_series *series[CHANNELS];
    for (unsigned c = 0; c < CHANNELS; c++)
        series[c] = make_series(c, samples);
    graph_model model = {
        .title = "bench", .series = series, .series_count = CHANNELS,
        .views = SCOPE_VIEW_NORMAL, .view_end = 10.0, .duration = 10.0,
        .max_samples = -1,
    };
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                                          WIDTH, HEIGHT);
    double times[FRAMES];
    for (unsigned f = 0; f < FRAMES + 2; f++)
    {
        cairo_t *cr = cairo_create(surface);
        double start = now();
        graph_draw(cr, WIDTH, HEIGHT, &model);
        cairo_surface_flush(surface);
        double ms = (now() - start) * 1e3;
        cairo_destroy(cr);
        if (f >= 2)                     /* after fonts and caches warmed up */
            times[f - 2] = ms;
    }
    cairo_surface_destroy(surface);
    for (unsigned c = 0; c < CHANNELS; c++)
    {
        scope_series_free(series[c]);
        free(series[c]);
    }
    qsort(times, FRAMES, sizeof(*times), compare);
    return times[FRAMES / 2];
}

bench_scope_result bench_scope_render(void)
{
    /* The heap settings of recorder_scope's main(), which says why: the
     * frames measured are the window's. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    bench_scope_result result;
    result.ms_1k = frame_ms(1000);
    result.ms_100k = frame_ms(100000);
    result.ms_1m = frame_ms(1000000);
    return result;
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
