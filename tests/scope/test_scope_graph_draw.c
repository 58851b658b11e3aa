/* test_scope_graph_draw.c - offscreen rendering of graphs, and its cost.
 *
 * Renders with the same graph_draw() as the window into cairo image
 * surfaces and checks the picture by counting pixels of channel colours.
 * Also times frames of 1 000 and 1 000 000 samples: with decimation
 * through min/max pyramids, the cost follows the width, not the samples.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "draw/graph_draw.h"
#include "scope_test_render.h"
#include "scope_test_series.h"

#include <malloc.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static cairo_surface_t *render(const graph_model *model)
{
    return render_named(model, "");
}

/* Pixels in the rectangle that 'match' (with 'data'). */
static unsigned count_pixels(cairo_surface_t *surface, int x0, int y0, int x1,
                             int y1, bool (*match)(uint32_t, const void *),
                             const void *data)
{
    unsigned char *pixels = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    unsigned count = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            if (match(*(uint32_t *) (pixels + y * stride + 4 * x), data))
                count++;
    return count;
}

static bool is_colour(uint32_t pixel, const void *data)
{
    const unsigned char *rgb = data;
    return (pixel & 0xffffff) ==
           ((uint32_t) rgb[0] << 16 | (uint32_t) rgb[1] << 8 | rgb[2]);
}

/* Pixels of exactly 'rgb' in the rectangle. */
static unsigned count_colour(cairo_surface_t *surface, const unsigned char rgb[3],
                             int x0, int y0, int x1, int y1)
{
    return count_pixels(surface, x0, y0, x1, y1, is_colour, rgb);
}

static void test_each_channel_is_drawn_in_its_colour(void **state)
{
    (void) state;
    scope_series *s[3] = {
        test_series("up", 500, 0, 0.01, 0, 1),
        test_series("down", 500, 0, 0.01, 500, -1),
        test_series("flat", 500, 0, 0.01, 250, 0),
    };
    for (unsigned i = 0; i < 3; i++)
        s[i]->colour = i;
    graph_model model = {
        .title = "up|down|flat", .series = s, .series_count = 3,
        .views = SCOPE_VIEW_NORMAL, .view_end = 5.0, .duration = 5.0,
        .max_samples = -1,
    };
    cairo_surface_t *surface = render(&model);
    for (unsigned i = 0; i < 3; i++)
    {
        unsigned char rgb[3];
        graph_channel_colour(i, rgb);
        /* The plot area, below the legend: traces, not swatches. */
        unsigned in_plot = count_colour(surface, rgb, (int) GRAPH_MARGIN_LEFT,
                                        60, WIDTH, HEIGHT);
        unsigned total = count_colour(surface, rgb, 0, 0, WIDTH, HEIGHT);
        assert_true(in_plot > 300);     /* a 2-pixel line across the plot */
        assert_true(total > in_plot);   /* and a legend swatch */
    }
    cairo_surface_destroy(surface);
    for (unsigned i = 0; i < 3; i++)
        test_series_delete(s[i]);
}

static void test_channels_of_one_graph_get_distinct_colours(void **state)
{
    (void) state;
    /* Both were given colour 0 (say, first in their own source). */
    scope_series *s[2] = {
        test_series("a", 100, 0, 0.01, 0, 1),
        test_series("b", 100, 0, 0.01, 100, -1),
    };
    graph_model model = {
        .series = s, .series_count = 2, .views = SCOPE_VIEW_NORMAL,
        .view_end = 1.0, .duration = 1.0, .max_samples = -1,
    };
    cairo_surface_t *surface = render(&model);
    unsigned char first[3], second[3];
    graph_channel_colour(0, first);
    graph_channel_colour(1, second);
    assert_true(count_colour(surface, first, 60, 60, WIDTH, HEIGHT) > 100);
    assert_true(count_colour(surface, second, 60, 60, WIDTH, HEIGHT) > 100);
    cairo_surface_destroy(surface);
    test_series_delete(s[0]);
    test_series_delete(s[1]);
}

static void test_message_shows_without_data(void **state)
{
    (void) state;
    graph_model model = {
        .title = "bytes", .views = SCOPE_VIEW_NORMAL, .view_end = NAN,
        .duration = 10, .max_samples = -1,
        .message = "waiting for /tmp/recorder_share",
    };
    cairo_surface_t *surface = render(&model);
    /* Dim text pixels in the middle of the plot. */
    static const unsigned char background[3] = { 0x1b, 0x1e, 0x25 };
    unsigned plain = count_colour(surface, background, 300, 140, 600, 180);
    assert_true(plain < 300 * 40);
    cairo_surface_destroy(surface);
}

static void test_views_draw_more(void **state)
{
    (void) state;
    scope_series *s = malloc(sizeof(*s));
    scope_series_init(s, "noisy", 0.9);
    for (unsigned i = 0; i < 2000; i++)
        scope_series_append(s, i * 0.001 + (i % 3) * 0.0003,
                            sin(i * 0.01) * 100 + (i % 7) * 10);
    graph_model model = {
        .series = &s, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = 2.0, .duration = 2.0, .max_samples = -1,
    };
    unsigned char amber[3];
    graph_channel_colour(0, amber);
    cairo_surface_t *plain = render(&model);
    unsigned normal = count_colour(plain, amber, 0, 0, WIDTH, HEIGHT);
    model.views = SCOPE_VIEW_MINMAX | SCOPE_VIEW_AVERAGE | SCOPE_VIEW_TIMING;
    cairo_surface_t *extra = render(&model);
    /* Without normal values, the amber line is gone: what is left is the
     * legend swatch and translucent or dashed shades of it. */
    assert_true(count_colour(extra, amber, 0, 0, WIDTH, HEIGHT) < normal);
    cairo_surface_destroy(plain);
    cairo_surface_destroy(extra);
    test_series_delete(s);
}

static void test_png_file_has_the_requested_size(void **state)
{
    (void) state;
    scope_series *s = test_series("p", 10, 0, 0.1, 0, 1);
    graph_model model = {
        .series = &s, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = 1, .duration = 1, .max_samples = -1,
    };
    const graph_model *models[] = { &model, &model };
    char path[] = "/tmp/test_scope_draw-XXXXXX", error[256];
    int fd = mkstemp(path);
    close(fd);
    assert_true(graph_draw_png(models, 2, 640, 480, path, error,
                               sizeof(error)));
    cairo_surface_t *back = cairo_image_surface_create_from_png(path);
    assert_int_equal(cairo_surface_status(back), CAIRO_STATUS_SUCCESS);
    assert_int_equal(cairo_image_surface_get_width(back), 640);
    assert_int_equal(cairo_image_surface_get_height(back), 480);
    cairo_surface_destroy(back);
    unlink(path);
    assert_false(graph_draw_png(models, 1, 0, 10, path, error, sizeof(error)));
    test_series_delete(s);
}

/* ---- cost of a frame ---------------------------------------------------------- */

static double seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec / 1e9;
}

/* Median time of a frame of 'model', in milliseconds. */
static double frame_ms(const graph_model *model, unsigned frames)
{
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                                          WIDTH, HEIGHT);
    cairo_t *cr = cairo_create(surface);
    double times[64];
    for (unsigned f = 0; f < frames && f < 64; f++)
    {
        double start = seconds();
        graph_draw(cr, WIDTH, HEIGHT, model);
        cairo_surface_flush(surface);
        times[f] = (seconds() - start) * 1e3;
    }
    cairo_destroy(cr);
    cairo_surface_destroy(surface);
    for (unsigned i = 1; i < frames; i++)
        for (unsigned j = i; j > 0 && times[j] < times[j - 1]; j--)
        {
            double swap = times[j];
            times[j] = times[j - 1];
            times[j - 1] = swap;
        }
    return times[frames / 2];
}

static scope_series *noisy_series(unsigned count, double span)
{
    scope_series *s = malloc(sizeof(*s));
    scope_series_init(s, "load", 0.99);
    srand(7);
    for (unsigned i = 0; i < count; i++)
        scope_series_append(s, i * span / count,
                            sin(i * 20.0 / count) * 1000 + rand() % 200);
    return s;
}

static void test_frame_cost_follows_width_not_samples(void **state)
{
    (void) state;
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    scope_series *small = noisy_series(1000, 10.0);
    scope_series *large = noisy_series(1000000, 10.0);
    graph_model model = {
        .series = &small, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = 10.0, .duration = 10.0, .max_samples = -1,
    };
    const unsigned all = SCOPE_VIEW_NORMAL | SCOPE_VIEW_AVERAGE |
                         SCOPE_VIEW_MINMAX | SCOPE_VIEW_TIMING;
    frame_ms(&model, 3);                /* warm up fonts and caches */
    double ms_small = frame_ms(&model, 15);
    model.views = all;
    double ms_all_small = frame_ms(&model, 9);
    model.views = SCOPE_VIEW_NORMAL;
    model.series = &large;
    double ms_large = frame_ms(&model, 15);
    model.views = all;
    double ms_all_large = frame_ms(&model, 9);

    /* The same frame, scanning samples instead of using the pyramids. */
    model.views = SCOPE_VIEW_NORMAL;
    for (unsigned k = 0; k < SCOPE_TRACKS; k++)
    {
        /* Emptied, and not to be built again from the samples held. */
        scope_minmax_free(&large->minmax[k]);
        large->minmax[k].built = large->end;
    }
    double ms_scan = frame_ms(&model, 9);

    print_message("frame %dx%d, values: 1000 samples %.2f ms, 1000000 "
                  "samples %.2f ms (%.2f ms scanning samples instead of "
                  "pyramids); all four views: %.2f ms and %.2f ms\n",
                  WIDTH, HEIGHT, ms_small, ms_large, ms_scan, ms_all_small,
                  ms_all_large);
    /* Generous bound for loaded machines; typically about 1.3x. */
    assert_true(ms_large < 4 * ms_small + 5);
    test_series_delete(small);
    test_series_delete(large);
}

/* A pyramid pays for itself when columns hold many samples each: a frame
 * of a few samples a column (a live 10 s of 1 kHz is 13) reads them and
 * leaves the pyramid unbuilt; a frame of thousands a column builds it,
 * and a narrow frame after that leaves it as it was. */
static void test_pyramid_built_only_for_dense_columns(void **state)
{
    (void) state;
    scope_series *sparse = noisy_series(3000, 10.0);
    scope_series *dense = noisy_series(400000, 10.0);
    graph_model model = {
        .series = &sparse, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = 10.0, .duration = 10.0, .max_samples = -1,
    };
    const scope_minmax *pyramid = &sparse->minmax[SCOPE_TRACK_VALUE];
    frame_ms(&model, 1);
    assert_int_equal(pyramid->level[0].count, 0);
    model.series = &dense;
    pyramid = &dense->minmax[SCOPE_TRACK_VALUE];
    frame_ms(&model, 1);
    assert_int_equal(pyramid->built, dense->end);
    assert_int_equal(pyramid->level[0].count, 400000 / 16);
    /* Zoomed into a tenth of a second: 4 000 samples, 4 a column. */
    model.view_end = 5.0;
    model.duration = 0.1;
    for (unsigned i = 0; i < 1000; i++)
        scope_series_append(dense, 10.0 + i * 1e-5, 1);
    frame_ms(&model, 1);
    assert_int_equal(pyramid->built, dense->end - 1000);
    test_series_delete(sparse);
    test_series_delete(dense);
}

/* Rows of the plot that hold colour 'rgb' anywhere, from 'y0' to 'y1'. */
static unsigned rows_with_colour(cairo_surface_t *surface,
                                 const unsigned char rgb[3], int y0, int y1)
{
    unsigned rows = 0;
    for (int y = y0; y < y1; y++)
        rows += count_colour(surface, rgb, (int) GRAPH_MARGIN_LEFT + 1, y,
                             WIDTH - 20, y + 1) > 0;
    return rows;
}

static void test_sixteen_channels_sixteen_colours(void **state)
{
    (void) state;
    scope_series *s[16];
    for (unsigned i = 0; i < 16; i++)
    {
        char name[8];
        snprintf(name, sizeof(name), "c%u", i);
        s[i] = test_series(name, 200, 0, 0.01, (i + 1) * 10.0, 0);
        s[i]->colour = i;
    }
    graph_model model = {
        .series = s, .series_count = 16, .views = SCOPE_VIEW_NORMAL,
        .view_end = 2.0, .duration = 2.0, .max_samples = -1,
    };
    cairo_surface_t *surface = render(&model);
    for (unsigned i = 0; i < 16; i++)
    {
        unsigned char rgb[3], other[3];
        graph_channel_colour(i, rgb);
        assert_true(count_colour(surface, rgb, (int) GRAPH_MARGIN_LEFT, 100,
                                 WIDTH, HEIGHT) > 200);
        /* Far enough apart to tell them apart. */
        for (unsigned j = 0; j < i; j++)
        {
            graph_channel_colour(j, other);
            int dr = rgb[0] - other[0], dg = rgb[1] - other[1],
                db = rgb[2] - other[2];
            assert_true(dr * dr + dg * dg + db * db >= 40 * 40);
        }
    }
    cairo_surface_destroy(surface);
    for (unsigned i = 0; i < 16; i++)
        test_series_delete(s[i]);
}

/* 1e12 bytes next to 1e-9 seconds: on one axis the small one is a flat
 * line; in lanes and normalised views each fills its own range. */
static void test_lanes_show_channels_of_any_magnitude(void **state)
{
    (void) state;
    scope_series *big = test_series("big", 400, 0, 0.01, 1e12, 0);
    scope_series *tiny = test_series("tiny", 400, 0, 0.01, 0, 0);
    for (unsigned i = 0; i < 400; i++)
    {
        big->track[SCOPE_TRACK_VALUE][i] = 1e12 * (1 + (i % 100) / 100.0);
        tiny->track[SCOPE_TRACK_VALUE][i] = 1e-9 * (1 + (i % 50) / 50.0);
    }
    /* The pyramids were built from the old values: rebuild them. */
    for (unsigned k = 0; k < 2; k++)
    {
        scope_series *series = k ? tiny : big;
        scope_minmax_free(&series->minmax[SCOPE_TRACK_VALUE]);
        scope_minmax_init(&series->minmax[SCOPE_TRACK_VALUE]);
        for (unsigned i = 0; i < 400; i++)
            scope_minmax_append(&series->minmax[SCOPE_TRACK_VALUE], i,
                                series->track[SCOPE_TRACK_VALUE][i]);
    }
    big->colour = 0;
    tiny->colour = 1;
    scope_series *s[] = { big, tiny };
    graph_model model = {
        .series = s, .series_count = 2, .views = SCOPE_VIEW_NORMAL,
        .view_end = 4.0, .duration = 4.0, .max_samples = -1,
    };
    unsigned char tiny_colour[3], big_colour[3];
    graph_channel_colour(1, tiny_colour);
    graph_channel_colour(0, big_colour);

    cairo_surface_t *surface = render(&model);
    assert_true(rows_with_colour(surface, tiny_colour, 50, HEIGHT - 24) <= 4);
    cairo_surface_destroy(surface);

    model.values.mode = SCOPE_SCALE_LANES;
    surface = render(&model);
    unsigned tiny_rows = rows_with_colour(surface, tiny_colour, 50,
                                          HEIGHT - 24);
    unsigned big_rows = rows_with_colour(surface, big_colour, 50,
                                         HEIGHT - 24);
    /* Each spans most of its lane, about half the plot. */
    assert_true(tiny_rows > 80);
    assert_true(big_rows > 80);
    cairo_surface_destroy(surface);

    model.values.mode = SCOPE_SCALE_NORMALISED;
    surface = render(&model);
    assert_true(rows_with_colour(surface, tiny_colour, 50, HEIGHT - 24) > 150);
    cairo_surface_destroy(surface);
    test_series_delete(big);
    test_series_delete(tiny);
}

static void test_hidden_channel_is_not_drawn(void **state)
{
    (void) state;
    scope_series *s[2] = {
        test_series("shown", 300, 0, 0.01, 0, 1),
        test_series("hidden", 300, 0, 0.01, 300, -1),
    };
    s[0]->colour = 0;
    s[1]->colour = 1;
    bool hidden[] = { false, true };
    graph_model model = {
        .series = s, .series_count = 2, .views = SCOPE_VIEW_NORMAL,
        .view_end = 3.0, .duration = 3.0, .max_samples = -1,
        .hidden = hidden,
    };
    cairo_surface_t *surface = render(&model);
    unsigned char shown[3], gone[3];
    graph_channel_colour(0, shown);
    graph_channel_colour(1, gone);
    assert_true(count_colour(surface, shown, (int) GRAPH_MARGIN_LEFT, 60,
                             WIDTH, HEIGHT) > 300);
    assert_true(count_colour(surface, gone, (int) GRAPH_MARGIN_LEFT, 60,
                             WIDTH, HEIGHT) == 0);
    /* Its legend entry stays, as a hollow box, to click it back. */
    assert_true(count_colour(surface, gone, 0, 0, WIDTH, 60) > 10);
    cairo_surface_destroy(surface);
    test_series_delete(s[0]);
    test_series_delete(s[1]);
}

/* An exponential: on a linear axis it hugs the bottom; on a log axis it is
 * a straight line across the height. */
static void test_log_scale_spreads_decades(void **state)
{
    (void) state;
    scope_series *growth = test_series("growth", 600, 0, 0.01, 0, 0);
    scope_minmax_free(&growth->minmax[SCOPE_TRACK_VALUE]);
    scope_minmax_init(&growth->minmax[SCOPE_TRACK_VALUE]);
    for (unsigned i = 0; i < 600; i++)
    {
        growth->track[SCOPE_TRACK_VALUE][i] = pow(10, i / 100.0);
        scope_minmax_append(&growth->minmax[SCOPE_TRACK_VALUE], i,
                            growth->track[SCOPE_TRACK_VALUE][i]);
    }
    scope_series *s[] = { growth };
    graph_model model = {
        .series = s, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = 6.0, .duration = 6.0, .max_samples = -1,
    };
    unsigned char rgb[3];
    graph_channel_colour(0, rgb);
    cairo_surface_t *surface = render(&model);
    unsigned low_linear = count_colour(surface, rgb, (int) GRAPH_MARGIN_LEFT,
                                       HEIGHT - 60, WIDTH, HEIGHT - 24);
    unsigned all_linear = count_colour(surface, rgb, (int) GRAPH_MARGIN_LEFT,
                                       50, WIDTH, HEIGHT - 24);
    cairo_surface_destroy(surface);
    model.values.log = true;
    surface = render(&model);
    unsigned low_log = count_colour(surface, rgb, (int) GRAPH_MARGIN_LEFT,
                                    HEIGHT - 60, WIDTH, HEIGHT - 24);
    unsigned all_log = count_colour(surface, rgb, (int) GRAPH_MARGIN_LEFT,
                                    50, WIDTH, HEIGHT - 24);
    cairo_surface_destroy(surface);
    assert_true(low_linear * 2 > all_linear);
    assert_true(low_log * 4 < all_log);
    test_series_delete(growth);
}

/* Zoomed into 100 of a million samples, the graph shows exactly those. */
static void test_zoomed_view_holds_exactly_its_samples(void **state)
{
    (void) state;
    scope_series *many = test_series("many", 1000000, 0, 1e-6, 0, 1);
    scope_series *s[] = { many };
    graph_model model = {
        .series = s, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = 0.5000995, .duration = 0.0001, .max_samples = -1,
    };
    double t0, t1;
    uint64_t first, end;
    graph_model_window(&model, 800, &t0, &t1, &first, &end);
    assert_int_equal(first, 500000 - 100 + 100);
    assert_int_equal(end - first, 100);
    test_series_delete(many);
}

/* ---- timing view, losses, slow channels ----------------------------------- */

static const unsigned char light[3] = { 0xee, 0xf1, 0xf5 };    /* titles */
static const unsigned char label[3] = { 0xc8, 0xce, 0xd8 };    /* text */

/* Intervals of 10 ms give or take 2, so the timing trace has a shape. */
static scope_series *jittered(void)
{
    scope_series *s = malloc(sizeof(*s));
    scope_series_init(s, "ticks", 0.9);
    for (unsigned i = 0; i < 300; i++)
        scope_series_append(s, i * 0.01 + (i % 3) * 0.002, i % 17);
    return s;
}

static cairo_surface_t *render_frame(const graph_model *model,
                                     graph_frame *frame)
{
    return render_framed(model, "frame", frame);
}

static void test_timing_has_its_own_legend_entry_and_style(void **state)
{
    (void) state;
    scope_series *s = jittered();
    graph_model model = {
        .series = &s, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = 3.0, .duration = 3.0, .max_samples = -1,
    };
    unsigned char amber[3];
    graph_channel_colour(0, amber);
    graph_frame frame;
    cairo_surface_t *plain = render_frame(&model, &frame);
    double plot_top = frame.y;
    model.views = SCOPE_VIEW_NORMAL | SCOPE_VIEW_TIMING;
    cairo_surface_t *timed = render_frame(&model, &frame);
    /* A second legend entry, its swatch a dash and a light dot; clicks
     * on the legend still map to the one channel. */
    assert_int_equal(frame.legend_count, 1);
    assert_true(frame.y == plot_top);   /* on the same legend row */
    assert_int_equal(count_colour(plain, light, 0, 26, WIDTH, 42), 0);
    assert_true(count_colour(timed, light, 0, 26, WIDTH, 42) >= 1);
    assert_true(count_colour(timed, amber, 40, 26, WIDTH, 42) > 4);
    cairo_surface_destroy(plain);
    cairo_surface_destroy(timed);

    /* The trace itself: dashes of the channel's colour and light dots,
     * not the channel's colour alone. */
    model.views = SCOPE_VIEW_TIMING;
    cairo_surface_t *alone = render_frame(&model, &frame);
    int x0 = (int) frame.x + 1, y0 = (int) frame.y + 1;
    int x1 = (int) (frame.x + frame.w) - 1, y1 = (int) (frame.y + frame.h) - 1;
    assert_true(count_colour(alone, amber, x0, y0, x1, y1) > 200);
    assert_true(count_colour(alone, light, x0, y0, x1, y1) > 20);
    cairo_surface_destroy(alone);
    test_series_delete(s);
}

static void test_timing_alone_labels_the_left_axis(void **state)
{
    (void) state;
    scope_series *s = jittered();
    graph_model model = {
        .series = &s, .series_count = 1, .views = SCOPE_VIEW_TIMING,
        .view_end = 3.0, .duration = 3.0, .max_samples = -1,
    };
    graph_frame frame;
    cairo_surface_t *surface = render_frame(&model, &frame);
    /* Tick labels left of the plot, beside it (not the time axis below). */
    unsigned left = count_colour(surface, label, 0, (int) frame.y,
                                 (int) frame.x - 2,
                                 (int) (frame.y + frame.h));
    assert_true(left > 40);
    cairo_surface_destroy(surface);
    test_series_delete(s);
}

/* Light grey: under the plot, only the time axis' labels are as light. */
static bool is_light(uint32_t pixel, const void *data)
{
    (void) data;
    return (pixel >> 16 & 0xff) > 0x80 && (pixel >> 8 & 0xff) > 0x80 &&
           (pixel & 0xff) > 0x80;
}

static unsigned count_text(cairo_surface_t *surface, int x0, int y0, int x1,
                           int y1)
{
    return count_pixels(surface, x0, y0, x1, y1, is_light, NULL);
}

/* The time axis' labels stay under the plot's columns, those at its
 * ends pulled in whole: beside the plot are parts a window keeps while
 * the plot scrolls under them. A view from 0 s to 3 s has a tick on
 * each end. */
static void test_time_labels_stay_under_the_plot(void **state)
{
    (void) state;
    scope_series *s = jittered();
    graph_model model = {
        .series = &s, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = 3.0, .duration = 3.0, .max_samples = -1,
    };
    graph_frame frame;
    cairo_surface_t *surface = render_frame(&model, &frame);
    /* The labels' rows, below the value axis' lowest label. */
    int top = (int) (frame.y + frame.h) + 7, bottom = top + 15;
    int left = (int) frame.x, right = (int) (frame.x + frame.w);
    assert_true(frame.t0 == 0 && frame.t1 == 3 && bottom <= HEIGHT);
    assert_int_equal(count_text(surface, 0, top, left, bottom), 0);
    assert_int_equal(count_text(surface, right, top, WIDTH, bottom), 0);
    /* "0s" and "3.0s", each within a label's width of its end. */
    assert_true(count_text(surface, left, top, left + 25, bottom) > 5);
    assert_true(count_text(surface, right - 35, top, right, bottom) > 5);
    cairo_surface_destroy(surface);
    test_series_delete(s);
}

/* Whether two pictures are the same in rows [y0, y1). */
static bool same_rows(cairo_surface_t *a, cairo_surface_t *b, int y0, int y1)
{
    int stride = cairo_image_surface_get_stride(a);
    return memcmp(cairo_image_surface_get_data(a) + y0 * stride,
                  cairo_image_surface_get_data(b) + y0 * stride,
                  (size_t) ((y1 - y0) * stride)) == 0;
}

/* The window refreshes the legend's numbers a few times a second, not at
 * every frame: intervals as the values, or they flicker unreadably. */
static void test_legend_interval_is_the_one_refreshed(void **state)
{
    (void) state;
    scope_series *s = jittered();
    double value = s->latest_value, interval = s->latest_interval;
    graph_model model = {
        .series = &s, .series_count = 1,
        .views = SCOPE_VIEW_NORMAL | SCOPE_VIEW_TIMING,
        .view_end = 3.0, .duration = 3.0, .max_samples = -1,
        .legend_values = &value, .legend_intervals = &interval,
    };
    cairo_surface_t *shown = render(&model);
    /* A newer interval, not refreshed yet: the legend stays. */
    s->latest_interval = interval * 3.7;
    cairo_surface_t *later = render(&model);
    assert_true(same_rows(shown, later, 24, 42));
    /* Without refreshed numbers (--png): the latest. */
    model.legend_intervals = NULL;
    cairo_surface_t *latest = render(&model);
    assert_false(same_rows(shown, latest, 24, 42));
    cairo_surface_destroy(shown);
    cairo_surface_destroy(later);
    cairo_surface_destroy(latest);
    test_series_delete(s);
}

/* Pixels that are not the background, in a rectangle: text, whatever
 * antialiasing made of its colour. */
static unsigned count_ink(cairo_surface_t *surface, int x0, int y0, int x1,
                          int y1)
{
    static const unsigned char background[3] = { 0x14, 0x16, 0x1b };
    return (unsigned) ((x1 - x0) * (y1 - y0)) -
           count_colour(surface, background, x0, y0, x1, y1);
}

static void test_legend_says_recent_losses_not_a_total(void **state)
{
    (void) state;
    scope_series *s = test_series("lossy", 300, 0, 0.01, 0, 1);
    graph_model model = {
        .series = &s, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = 3.0, .duration = 3.0, .max_samples = -1,
    };
    cairo_surface_t *clean = render(&model);
    unsigned text_clean = count_ink(clean, 0, 24, WIDTH, 42);
    /* Losses now: said in the legend. */
    s->lost = 1000;
    s->lost_recent = 0.032;
    cairo_surface_t *losing = render(&model);
    assert_true(count_ink(losing, 0, 24, WIDTH, 42) > text_clean + 200);
    /* They stopped a while ago: the legend is as if none ever were, the
     * total being left to the readout. */
    s->lost_recent = 0;
    cairo_surface_t *stopped = render(&model);
    assert_int_equal(count_ink(stopped, 0, 24, WIDTH, 42), text_clean);
    cairo_surface_destroy(clean);
    cairo_surface_destroy(losing);
    cairo_surface_destroy(stopped);
    test_series_delete(s);
}

static void test_slow_channel_is_drawn_as_a_line(void **state)
{
    (void) state;
    /* A sample every 1.1 s for 11 s, a pause of 11 s, 11 s more. */
    scope_series *s = malloc(sizeof(*s));
    scope_series_init(s, "slow", 0.9);
    for (unsigned i = 0; i <= 10; i++)
        scope_series_append(s, i * 1.1, i % 2 ? 10 : 20);
    for (unsigned i = 0; i <= 10; i++)
        scope_series_append(s, 22 + i * 1.1, i % 2 ? 10 : 20);
    graph_model model = {
        .series = &s, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = 33.0, .duration = 33.0, .max_samples = -1,
    };
    unsigned char amber[3];
    graph_channel_colour(0, amber);
    graph_frame frame;
    cairo_surface_t *surface = render_frame(&model, &frame);
    double per_second = frame.w / (frame.t1 - frame.t0);
    int top = (int) frame.y, bottom = (int) (frame.y + frame.h);
    int x = (int) frame.x;
    /* Joined between samples 1.1 s apart: each second of the first part
     * holds a stretch of line, not just dots at the samples. */
    for (double t = 0.2; t < 10; t += 1.1)
        assert_true(count_colour(surface, amber,
                                 x + (int) ((t + 0.2) * per_second), top,
                                 x + (int) ((t + 0.9) * per_second),
                                 bottom) > 10);
    /* The pause is a pause. */
    assert_int_equal(count_colour(surface, amber,
                                  x + (int) (12.5 * per_second), top,
                                  x + (int) (20.5 * per_second), bottom), 0);
    cairo_surface_destroy(surface);
    test_series_delete(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_channel_is_drawn_in_its_colour),
        cmocka_unit_test(test_channels_of_one_graph_get_distinct_colours),
        cmocka_unit_test(test_message_shows_without_data),
        cmocka_unit_test(test_sixteen_channels_sixteen_colours),
        cmocka_unit_test(test_lanes_show_channels_of_any_magnitude),
        cmocka_unit_test(test_hidden_channel_is_not_drawn),
        cmocka_unit_test(test_log_scale_spreads_decades),
        cmocka_unit_test(test_zoomed_view_holds_exactly_its_samples),
        cmocka_unit_test(test_views_draw_more),
        cmocka_unit_test(test_timing_has_its_own_legend_entry_and_style),
        cmocka_unit_test(test_timing_alone_labels_the_left_axis),
        cmocka_unit_test(test_time_labels_stay_under_the_plot),
        cmocka_unit_test(test_legend_says_recent_losses_not_a_total),
        cmocka_unit_test(test_legend_interval_is_the_one_refreshed),
        cmocka_unit_test(test_slow_channel_is_drawn_as_a_line),
        cmocka_unit_test(test_png_file_has_the_requested_size),
        cmocka_unit_test(test_frame_cost_follows_width_not_samples),
        cmocka_unit_test(test_pyramid_built_only_for_dense_columns),
    };
    return cmocka_run_group_tests_name("scope_graph_draw", tests, NULL, NULL);
}
