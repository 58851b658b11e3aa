/* test_scope_trigger.c - the scope's trigger: spelling, edges, levels,
 * modes, pre-trigger placement, noise at the level, crossing times, the
 * marker drawn, and the command line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "draw/graph_draw.h"
#include "options/scope_options.h"
#include "scope_test_series.h"
#include "view/trigger.h"

#include <math.h>
#include <string.h>

static scope_trigger_spec spec_of(const char *text)
{
    scope_trigger_spec spec;
    char why[256];
    assert_true(scope_trigger_spec_parse(text, &spec, why, sizeof(why)));
    return spec;
}

static scope_series *empty_series(void)
{
    return test_series("sig", 0, 0, 0, 0, 0);
}

/* Append samples v[0..n) at times t0 + i * dt. */
static void feed(scope_series *series, double t0, double dt, const double *v,
                 unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        scope_series_append(series, t0 + i * dt, v[i]);
}

/* ---- spelling --------------------------------------------------------- */

static void test_spec_spellings(void **state)
{
    (void) state;
    scope_trigger_spec spec = spec_of("sig>50");
    assert_string_equal(spec.channel, "sig");
    assert_int_equal(spec.edge, SCOPE_TRIGGER_RISING);
    assert_float_equal(spec.level, 50, 0);

    spec = spec_of("latency<2.5k");
    assert_string_equal(spec.channel, "latency");
    assert_int_equal(spec.edge, SCOPE_TRIGGER_FALLING);
    assert_float_equal(spec.level, 2500, 1e-9);

    spec = spec_of("x<>-10u");
    assert_string_equal(spec.channel, "x");
    assert_int_equal(spec.edge, SCOPE_TRIGGER_EITHER);
    assert_float_equal(spec.level, -10e-6, 1e-18);

    spec = spec_of(" a_b > 1M ");
    assert_string_equal(spec.channel, "a_b");
    assert_float_equal(spec.level, 1e6, 0);

    char text[64];
    scope_trigger_spec_text(&spec, text, sizeof(text));
    assert_string_equal(text, "a_b>1000000");
}

static void test_si_suffixes(void **state)
{
    (void) state;
    static const struct { const char *text; double value; } cases[] = {
        { "1M", 1e6 }, { "2.5k", 2500 }, { "10u", 10e-6 }, { "3n", 3e-9 },
        { "7m", 7e-3 }, { "2G", 2e9 }, { "4\xc2\xb5", 4e-6 }, { "-1.5", -1.5 },
        { "1e3", 1000 }, { "0", 0 },
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(*cases); c++)
    {
        double v;
        assert_true(scope_trigger_parse_level(cases[c].text, &v));
        assert_float_equal(v, cases[c].value, fabs(cases[c].value) * 1e-12);
    }
    static const char *const bad[] = {
        "", "k", "1x", "1kk", "1 M k", "nan", "inf", "1e999", "abc", "1K",
    };
    for (size_t b = 0; b < sizeof(bad) / sizeof(*bad); b++)
    {
        double v;
        assert_false(scope_trigger_parse_level(bad[b], &v));
    }
}

static void test_spec_errors_say_why(void **state)
{
    (void) state;
    static const struct { const char *text, *why; } bad[] = {
        { "sig=50", "CHANNEL>LEVEL" },
        { ">50", "no channel" },
        { "sig>", "not a number" },
        { "sig>>5", "one of" },
        { "sig><5", "one of" },
        { "sig>5x", "not a number" },
        { "my sig>5", "no spaces" },
        { "sig", "CHANNEL>LEVEL" },
    };
    for (size_t b = 0; b < sizeof(bad) / sizeof(*bad); b++)
    {
        scope_trigger_spec spec;
        char why[256] = "";
        assert_false(scope_trigger_spec_parse(bad[b].text, &spec, why,
                                              sizeof(why)));
        if (!strstr(why, bad[b].why))
            fail_msg("'%s': '%s' does not say '%s'", bad[b].text, why,
                     bad[b].why);
    }
    scope_trigger_mode mode;
    assert_true(scope_trigger_mode_parse("single", &mode));
    assert_int_equal(mode, SCOPE_TRIGGER_SINGLE);
    assert_true(scope_trigger_mode_parse("auto", &mode));
    assert_int_equal(mode, SCOPE_TRIGGER_AUTO);
    assert_true(scope_trigger_mode_parse("normal", &mode));
    assert_int_equal(mode, SCOPE_TRIGGER_NORMAL);
    assert_false(scope_trigger_mode_parse("once", &mode));
    assert_false(scope_trigger_mode_parse("Single", &mode));
}

/* ---- edges and levels -------------------------------------------------- */

/* A triangle wave 0..100..0 every 20 samples, 1 ms apart. */
static const double triangle[] = {
    0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 90, 80, 70, 60, 50, 40,
    30, 20, 10, 0
};
#define TRIANGLE (sizeof(triangle) / sizeof(*triangle))

static unsigned long crossings(const char *text)
{
    scope_trigger_spec spec = spec_of(text);
    scope_trigger trigger;
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_NORMAL, 0.1);
    scope_series *series = empty_series();
    for (unsigned period = 0; period < 3; period++)
        feed(series, period * 0.020, 0.001, triangle, TRIANGLE - 1);
    scope_trigger_update(&trigger, series, 1e-4, series->latest_time);
    test_series_delete(series);
    return trigger.crossings;
}

static void test_edges(void **state)
{
    (void) state;
    assert_int_equal(crossings("sig>45"), 3);      /* once up per period */
    assert_int_equal(crossings("sig<45"), 3);      /* once down */
    assert_int_equal(crossings("sig<>45"), 6);     /* both */
    assert_int_equal(crossings("sig>150"), 0);     /* never reached */
    assert_int_equal(crossings("sig<-1"), 0);
}

static void test_rising_time_is_interpolated(void **state)
{
    (void) state;
    /* 40 at 4 ms, 50 at 5 ms: level 45 is crossed at 4.5 ms. */
    scope_trigger_spec spec = spec_of("sig>45");
    scope_trigger trigger;
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_SINGLE, 0.2);
    scope_series *series = empty_series();
    feed(series, 0, 0.001, triangle, TRIANGLE);
    unsigned found = scope_trigger_update(&trigger, series, 0.010, 0.020);
    assert_true(found & SCOPE_TRIGGER_FIRED);
    assert_float_equal(trigger.time, 0.0045, 1e-12);

    /* Falling through 45: 50 at 15 ms, 40 at 16 ms, so 15.5 ms. */
    spec = spec_of("sig<45");
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_SINGLE, 0.2);
    scope_trigger_update(&trigger, series, 0.010, 0.020);
    assert_float_equal(trigger.time, 0.0155, 1e-12);

    /* A level met exactly: the sample at it. */
    spec = spec_of("sig>50");
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_SINGLE, 0.2);
    scope_trigger_update(&trigger, series, 0.010, 0.020);
    assert_float_equal(trigger.time, 0.005, 1e-12);
    test_series_delete(series);
}

/* A signal that starts above a rising level does not fire on its first
 * sample: it has to come from below. */
static void test_starting_past_the_level_does_not_fire(void **state)
{
    (void) state;
    scope_trigger_spec spec = spec_of("sig>10");
    scope_trigger trigger;
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_SINGLE, 0.1);
    scope_series *series = empty_series();
    static const double high[] = { 50, 60, 55, 70 };
    feed(series, 0, 0.1, high, 4);
    assert_int_equal(scope_trigger_update(&trigger, series, 1, 1), 0);
    assert_int_equal(trigger.crossings, 0);
    test_series_delete(series);
}

/* ---- noise at the level ------------------------------------------------ */

static void test_noise_at_the_level_fires_once(void **state)
{
    (void) state;
    /* Quiet near 0, a step to 50, then noise of +-0.5 about 50 for a
     * thousand samples: one rising crossing, not hundreds. */
    scope_trigger_spec spec = spec_of("sig<>50");
    scope_trigger trigger;
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_NORMAL, 0.1);
    scope_series *series = empty_series();
    for (unsigned i = 0; i < 100; i++)
        scope_series_append(series, i * 0.001, (i % 3) * 0.1);
    unsigned seed = 1;
    for (unsigned i = 100; i < 1100; i++)
    {
        seed = seed * 1103515245u + 12345u;
        double noise = ((seed >> 16) % 1001) / 1000.0 - 0.5;
        scope_series_append(series, i * 0.001, 50 + noise);
    }
    /* A span of 1 ms: each capture completes at once, so only the
     * hysteresis holds the noise back. */
    scope_trigger_update(&trigger, series, 0.001, series->latest_time);
    assert_int_equal(trigger.crossings, 1);
    assert_int_equal(trigger.fired, 1);
    assert_float_equal(trigger.time, 0.1, 0.01);

    /* Clearly above the band, down through it and up again: two more. */
    scope_series_append(series, 1.2, 100);
    scope_series_append(series, 1.3, 0);
    scope_series_append(series, 1.4, 100);
    scope_trigger_update(&trigger, series, 0.001, series->latest_time);
    assert_int_equal(trigger.crossings, 3);        /* down, then up */
    test_series_delete(series);
}

static void test_explicit_hysteresis(void **state)
{
    (void) state;
    /* Swinging 45..55 about 50: a band of 10 ignores it; none fires all
     * crossings. */
    scope_trigger_spec spec = spec_of("sig>50");
    scope_series *series = empty_series();
    scope_series_append(series, 0, 0);
    for (unsigned i = 1; i < 200; i++)
        scope_series_append(series, i * 0.001, i % 2 ? 55 : 45);
    scope_trigger trigger;
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_NORMAL, 0.1);
    trigger.hysteresis = 10;
    scope_trigger_update(&trigger, series, 1e-4, 1);
    assert_int_equal(trigger.crossings, 1);
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_NORMAL, 0.1);
    trigger.hysteresis = 1;
    scope_trigger_update(&trigger, series, 1e-4, 1);
    assert_int_equal(trigger.crossings, 100);
    test_series_delete(series);
}

/* ---- pre-trigger and waiting for the data -------------------------------- */

static void test_pre_trigger_placement(void **state)
{
    (void) state;
    double t0, t1;
    scope_trigger_place(10, 2, 0.2, &t0, &t1);
    assert_float_equal(t0, 9.6, 1e-12);
    assert_float_equal(t1, 11.6, 1e-12);
    scope_trigger_place(10, 2, 0, &t0, &t1);
    assert_float_equal(t0, 10, 1e-12);
    scope_trigger_place(10, 2, 1, &t0, &t1);
    assert_float_equal(t1, 10, 1e-12);

    /* Pre outside 0..1 is held to it. */
    scope_trigger_spec spec = spec_of("sig>5");
    scope_trigger trigger;
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_SINGLE, 1.5);
    assert_float_equal(trigger.pre, 1, 0);
}

static void test_single_waits_for_the_post_trigger_data(void **state)
{
    (void) state;
    /* A spike at 1 s in a signal sampled every 10 ms; span 2 s, 25% pre:
     * the span is 0.5 s .. 2.5 s, complete once 2.5 s is recorded. */
    scope_trigger_spec spec = spec_of("sig>50");
    scope_trigger trigger;
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_SINGLE, 0.25);
    assert_int_equal(trigger.state, SCOPE_TRIGGER_ARMED);
    scope_series *series = empty_series();
    unsigned i = 0;
    for (; i <= 150; i++)
        scope_series_append(series, i * 0.01, i == 100 ? 100 : 0);
    unsigned found = scope_trigger_update(&trigger, series, 2,
                                          series->latest_time);
    assert_int_equal(found, SCOPE_TRIGGER_FIRED);
    assert_int_equal(trigger.state, SCOPE_TRIGGER_WAITING);
    assert_float_equal(trigger.time, 0.995, 1e-9);
    double t0, t1;
    assert_false(scope_trigger_window(&trigger, &t0, &t1));

    for (; i <= 240; i++)
        scope_series_append(series, i * 0.01, 0);
    assert_int_equal(scope_trigger_update(&trigger, series, 2,
                                          series->latest_time), 0);
    assert_int_equal(trigger.state, SCOPE_TRIGGER_WAITING);

    for (; i <= 260; i++)
        scope_series_append(series, i * 0.01, 0);
    found = scope_trigger_update(&trigger, series, 2, series->latest_time);
    assert_int_equal(found, SCOPE_TRIGGER_CAPTURED);
    assert_int_equal(trigger.state, SCOPE_TRIGGER_TRIGGERED);
    assert_true(scope_trigger_window(&trigger, &t0, &t1));
    assert_float_equal(t0, 0.495, 1e-9);
    assert_float_equal(t1, 2.495, 1e-9);
    assert_float_equal((trigger.time - t0) / (t1 - t0), 0.25, 1e-9);

    /* Frozen: another spike does not move it. */
    for (; i <= 400; i++)
        scope_series_append(series, i * 0.01, i == 300 ? 100 : 0);
    assert_int_equal(scope_trigger_update(&trigger, series, 2, 4), 0);
    assert_true(scope_trigger_window(&trigger, &t0, &t1));
    assert_float_equal(t0, 0.495, 1e-9);
    assert_int_equal(trigger.fired, 1);
    assert_int_equal(trigger.crossings, 2);

    /* Re-armed: live until the next spike, which only new data brings. */
    scope_trigger_arm(&trigger);
    assert_false(scope_trigger_window(&trigger, &t0, &t1));
    assert_int_equal(scope_trigger_update(&trigger, series, 2, 4), 0);
    for (; i <= 700; i++)
        scope_series_append(series, i * 0.01, i == 500 ? 100 : 0);
    found = scope_trigger_update(&trigger, series, 2, series->latest_time);
    assert_int_equal(found, SCOPE_TRIGGER_FIRED | SCOPE_TRIGGER_CAPTURED);
    assert_float_equal(trigger.shown_time, 4.995, 1e-9);
    test_series_delete(series);
}

/* The program is gone: what is recorded is all there will be. */
static void test_no_more_data_completes(void **state)
{
    (void) state;
    scope_trigger_spec spec = spec_of("sig>50");
    scope_trigger trigger;
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_SINGLE, 0.1);
    scope_series *series = empty_series();
    static const double spike[] = { 0, 0, 100, 0 };
    feed(series, 0, 0.1, spike, 4);
    assert_int_equal(scope_trigger_update(&trigger, series, 10, 0.3),
                     SCOPE_TRIGGER_FIRED);
    assert_int_equal(scope_trigger_update(&trigger, series, 10, INFINITY),
                     SCOPE_TRIGGER_CAPTURED);
    test_series_delete(series);
}

/* ---- modes ----------------------------------------------------------- */

/* Spikes at 1 s, 2 s and 6 s, samples every 10 ms up to 'until'. */
static void spikes(scope_series *series, double until)
{
    double from = series->end > series->first ? series->latest_time + 0.01 : 0;
    for (double t = from; t <= until + 1e-9; t += 0.01)
    {
        long ms = lround(t * 100);
        scope_series_append(series, ms / 100.0,
                            ms == 100 || ms == 200 || ms == 600 ? 100 : 0);
    }
}

static void test_normal_keeps_the_last_triggered_span(void **state)
{
    (void) state;
    scope_trigger_spec spec = spec_of("sig>50");
    scope_trigger trigger;
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_NORMAL, 0.1);
    scope_series *series = empty_series();
    double t0, t1;
    spikes(series, 0.5);
    scope_trigger_update(&trigger, series, 0.5, series->latest_time);
    assert_false(scope_trigger_window(&trigger, &t0, &t1));
    spikes(series, 1.5);
    unsigned found = scope_trigger_update(&trigger, series, 0.5,
                                          series->latest_time);
    assert_int_equal(found, SCOPE_TRIGGER_FIRED | SCOPE_TRIGGER_CAPTURED);
    assert_int_equal(trigger.state, SCOPE_TRIGGER_ARMED);   /* re-armed */
    assert_true(scope_trigger_window(&trigger, &t0, &t1));
    assert_float_equal(t0, 0.995 - 0.05, 1e-9);
    /* Long without a trigger: normal keeps showing it. */
    spikes(series, 1.9);
    assert_int_equal(scope_trigger_update(&trigger, series, 0.5,
                                          series->latest_time), 0);
    assert_true(scope_trigger_window(&trigger, &t0, &t1));
    /* The next spike replaces it once its span is recorded. */
    spikes(series, 2.3);
    scope_trigger_update(&trigger, series, 0.5, series->latest_time);
    assert_int_equal(trigger.state, SCOPE_TRIGGER_WAITING);
    assert_float_equal(trigger.shown_time, 0.995, 1e-9);
    spikes(series, 5.5);
    scope_trigger_update(&trigger, series, 0.5, series->latest_time);
    assert_float_equal(trigger.shown_time, 1.995, 1e-9);
    assert_true(scope_trigger_window(&trigger, &t0, &t1));
    assert_int_equal(trigger.fired, 2);
    test_series_delete(series);
}

static void test_auto_runs_free_without_triggers(void **state)
{
    (void) state;
    scope_trigger_spec spec = spec_of("sig>50");
    scope_trigger trigger;
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_AUTO, 0.1);
    scope_series *series = empty_series();
    double t0, t1;
    /* Nothing yet: free-running (no span of its own). */
    spikes(series, 0.5);
    assert_int_equal(scope_trigger_update(&trigger, series, 0.5, 0.5), 0);
    assert_false(scope_trigger_window(&trigger, &t0, &t1));
    /* A spike: its span once recorded. */
    spikes(series, 1.5);
    assert_int_equal(scope_trigger_update(&trigger, series, 0.5,
                                          series->latest_time),
                     SCOPE_TRIGGER_FIRED | SCOPE_TRIGGER_CAPTURED);
    assert_true(scope_trigger_window(&trigger, &t0, &t1));
    /* Within one more span the next spike shows... */
    spikes(series, 2.5);
    scope_trigger_update(&trigger, series, 0.5, series->latest_time);
    assert_float_equal(trigger.shown_time, 1.995, 1e-9);
    /* ... then none for longer than a span: live again. */
    spikes(series, 3.5);
    unsigned found = scope_trigger_update(&trigger, series, 0.5,
                                          series->latest_time);
    assert_true(found & SCOPE_TRIGGER_FREE_RUN);
    assert_false(scope_trigger_window(&trigger, &t0, &t1));
    assert_int_equal(trigger.state, SCOPE_TRIGGER_ARMED);
    /* And it still triggers. */
    spikes(series, 7);
    scope_trigger_update(&trigger, series, 0.5, series->latest_time);
    assert_float_equal(trigger.time, 5.995, 1e-9);
    test_series_delete(series);
}

static void test_mode_and_level_changes(void **state)
{
    (void) state;
    scope_trigger_spec spec = spec_of("sig>500");
    scope_trigger trigger;
    scope_trigger_init(&trigger, &spec, SCOPE_TRIGGER_SINGLE, 0.1);
    scope_series *series = empty_series();
    spikes(series, 1.5);
    scope_trigger_update(&trigger, series, 0.5, series->latest_time);
    assert_int_equal(trigger.fired, 0);            /* 100 < 500 */
    scope_trigger_set_level(&trigger, 50);
    spikes(series, 2.9);
    scope_trigger_update(&trigger, series, 0.5, series->latest_time);
    assert_int_equal(trigger.fired, 1);
    assert_float_equal(trigger.time, 1.995, 1e-9);
    assert_int_equal(trigger.state, SCOPE_TRIGGER_TRIGGERED);
    scope_trigger_set_mode(&trigger, SCOPE_TRIGGER_NORMAL);
    assert_int_equal(trigger.state, SCOPE_TRIGGER_ARMED);
    char text[200];
    scope_trigger_describe(&trigger, text, sizeof(text));
    assert_string_equal(text, "trigger sig>50 normal: armed");
    test_series_delete(series);
}

/* ---- the marker --------------------------------------------------------- */

static long white_pixels(const graph_model *model)
{
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                                          600, 300);
    cairo_t *cr = cairo_create(surface);
    graph_draw(cr, 600, 300, model);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    const unsigned char *data = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    long count = 0;
    for (int y = 0; y < 300; y++)
        for (int x = 0; x < 600; x++)
            if ((*(const uint32_t *) (data + y * stride + 4 * x) & 0xffffff) ==
                0xffffff)
                count++;
    cairo_surface_destroy(surface);
    return count;
}

static void test_marker_is_drawn(void **state)
{
    (void) state;
    scope_series *series = test_series("sig", 1000, 0, 0.001, 0, 0.1);
    scope_series *const list[] = { series };
    graph_model model = { .series = list, .series_count = 1,
                          .views = SCOPE_VIEW_NORMAL, .view_end = 1,
                          .duration = 1, .max_samples = -1 };
    long none = white_pixels(&model);
    model.trigger = true;
    model.trigger_series = series;
    model.trigger_level = 50;
    model.trigger_time = NAN;
    long level = white_pixels(&model);
    model.trigger_time = 0.5;
    long both = white_pixels(&model);
    assert_int_equal(none, 0);
    assert_true(level > 20);                       /* the arrow */
    assert_true(both > level + 40);                /* flag, diamond */
    test_series_delete(series);
}

/* ---- the command line ---------------------------------------------------- */

static scope_parse parse(scope_options *options, int argc, const char **argv)
{
    return scope_options_parse(argc, (char **) argv, options);
}

static void test_command_line(void **state)
{
    (void) state;
    scope_options options;
    const char *plain[] = { "recorder_scope", "sig" };
    assert_int_equal(parse(&options, 2, plain), SCOPE_PARSE_RUN);
    assert_false(options.has_trigger);

    const char *full[] = { "recorder_scope", "--trigger", "lat<>2.5m",
                           "--trigger-mode", "single", "--pre", "20", "lat" };
    assert_int_equal(parse(&options, 8, full), SCOPE_PARSE_RUN);
    assert_true(options.has_trigger);
    assert_string_equal(options.trigger.channel, "lat");
    assert_int_equal(options.trigger.edge, SCOPE_TRIGGER_EITHER);
    assert_float_equal(options.trigger.level, 2.5e-3, 1e-15);
    assert_int_equal(options.trigger_mode, SCOPE_TRIGGER_SINGLE);
    assert_float_equal(options.trigger_pre, 0.2, 1e-12);

    const char *defaults[] = { "recorder_scope", "--trigger=sig>1k", "sig" };
    assert_int_equal(parse(&options, 3, defaults), SCOPE_PARSE_RUN);
    assert_int_equal(options.trigger_mode, SCOPE_TRIGGER_AUTO);
    assert_float_equal(options.trigger_pre, 0.1, 1e-12);
    assert_float_equal(options.trigger.level, 1000, 0);

    const char *bad_spec[] = { "recorder_scope", "--trigger", "sig=5" };
    assert_int_equal(parse(&options, 3, bad_spec), SCOPE_PARSE_EXIT_USAGE);
    const char *bad_mode[] = { "recorder_scope", "--trigger", "sig>5",
                               "--trigger-mode", "once" };
    assert_int_equal(parse(&options, 5, bad_mode), SCOPE_PARSE_EXIT_USAGE);
    const char *bad_pre[] = { "recorder_scope", "--trigger", "sig>5",
                              "--pre", "120" };
    assert_int_equal(parse(&options, 5, bad_pre), SCOPE_PARSE_EXIT_USAGE);
    const char *alone[] = { "recorder_scope", "--trigger-mode", "single" };
    assert_int_equal(parse(&options, 3, alone), SCOPE_PARSE_EXIT_USAGE);
    const char *missing[] = { "recorder_scope", "--trigger" };
    assert_int_equal(parse(&options, 2, missing), SCOPE_PARSE_EXIT_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_spellings),
        cmocka_unit_test(test_si_suffixes),
        cmocka_unit_test(test_spec_errors_say_why),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_rising_time_is_interpolated),
        cmocka_unit_test(test_starting_past_the_level_does_not_fire),
        cmocka_unit_test(test_noise_at_the_level_fires_once),
        cmocka_unit_test(test_explicit_hysteresis),
        cmocka_unit_test(test_pre_trigger_placement),
        cmocka_unit_test(test_single_waits_for_the_post_trigger_data),
        cmocka_unit_test(test_no_more_data_completes),
        cmocka_unit_test(test_normal_keeps_the_last_triggered_span),
        cmocka_unit_test(test_auto_runs_free_without_triggers),
        cmocka_unit_test(test_mode_and_level_changes),
        cmocka_unit_test(test_marker_is_drawn),
        cmocka_unit_test(test_command_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
