/* test_scope_time_view.c - the scope's view model: which span a window
 * shows, how zoom and pan move it, value ranges, --view, and the readout
 * a user reads off the graphs. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "view/graph_model.h"
#include "view/readout.h"
#include "scope_test_series.h"
#include "view/time_view.h"

#include <math.h>
#include <string.h>

static const scope_held held_0_to_100 = { .oldest = 0, .newest = 100,
                                          .live_end = 100 };

static void window(const scope_time_view *view, const scope_held *held,
                   double *t0, double *t1)
{
    scope_time_view_window(view, held, t0, t1);
}

static void test_pixels_and_times_map_both_ways(void **state)
{
    (void) state;
    assert_float_equal(scope_time_to_x(15, 10, 20, 66, 800), 466, 1e-9);
    assert_float_equal(scope_x_to_time(466, 10, 20, 66, 800), 15, 1e-9);
    for (double x = 66; x <= 866; x += 37)
        assert_float_equal(scope_time_to_x(scope_x_to_time(x, -3, 7, 66, 800),
                                           -3, 7, 66, 800), x, 1e-9);
}

static void test_live_view_ends_at_live_time(void **state)
{
    (void) state;
    scope_time_view view;
    scope_time_view_init(&view, 10);
    double t0, t1;
    window(&view, &held_0_to_100, &t0, &t1);
    assert_float_equal(t0, 90, 1e-9);
    assert_float_equal(t1, 100, 1e-9);

    /* -d 0: everything held. */
    scope_time_view_init(&view, 0);
    window(&view, &held_0_to_100, &t0, &t1);
    assert_float_equal(t0, 0, 1e-9);
    assert_float_equal(t1, 100, 1e-9);
}

/* A fresh start: the first sample at 2.5 s, a 10 s span, live time at
 * 4 s. The axis starts at the first sample, never before it, until the
 * data covers the span; then the span scrolls. */
static void test_fresh_start_begins_at_the_first_sample(void **state)
{
    (void) state;
    scope_time_view view;
    scope_time_view_init(&view, 10);
    double t0, t1;
    scope_held start = { .oldest = 2.5, .newest = 3.9, .live_end = 4 };
    window(&view, &start, &t0, &t1);
    assert_true(t0 >= start.oldest);
    assert_float_equal(t0, 2.5, 1e-9);
    assert_float_equal(t1, 12.5, 1e-9);
    assert_true(scope_time_view_filling(&view, &start));

    /* Filling: the span stands while the live edge moves within it. */
    scope_held later = { .oldest = 2.5, .newest = 11.9, .live_end = 12 };
    window(&view, &later, &t0, &t1);
    assert_float_equal(t0, 2.5, 1e-9);
    assert_float_equal(t1, 12.5, 1e-9);

    /* Full: it scrolls with live time. */
    scope_held full = { .oldest = 2.5, .newest = 14.9, .live_end = 15 };
    window(&view, &full, &t0, &t1);
    assert_false(scope_time_view_filling(&view, &full));
    assert_float_equal(t0, 5, 1e-9);
    assert_float_equal(t1, 15, 1e-9);

    /* Paused while filling: the span it showed. */
    scope_time_view_pause(&view, &start);
    window(&view, &full, &t0, &t1);
    assert_float_equal(t0, 2.5, 1e-9);
    assert_float_equal(t1, 12.5, 1e-9);
    assert_false(scope_time_view_filling(&view, &start));
}

/* Before any sample, the graphs show the span the first samples will
 * fill, not the one before the program started. */
static void test_nothing_held_shows_no_negative_time(void **state)
{
    (void) state;
    scope_time_view view;
    scope_time_view_init(&view, 10);
    scope_held none = { .oldest = NAN, .newest = NAN, .live_end = NAN };
    double t0, t1;
    window(&view, &none, &t0, &t1);
    assert_true(t0 >= 0);
    assert_float_equal(t1 - t0, 10, 1e-9);

    /* The frame's axis, from an empty model as the window fills one. */
    graph_model model = { .view_end = NAN, .duration = 10,
                          .max_samples = -1 };
    uint64_t first[1], end[1];
    graph_model_window(&model, 800, &t0, &t1, first, end);
    assert_true(t0 >= 0);
    assert_float_equal(t1 - t0, 10, 1e-9);
}

/* Paused while filling, the span reaches past the newest sample: what
 * arrives later stays hidden, so a paused picture does not change. */
static void test_pause_while_filling_hides_later_samples(void **state)
{
    (void) state;
    scope_time_view view;
    scope_time_view_init(&view, 10);
    scope_held start = { .oldest = 0, .newest = 4, .live_end = 4 };
    scope_time_view_pause(&view, &start);
    /* 1 sample per second, 0 to 8 s: 5 held at the pause, 3 came after. */
    scope_series *series = test_series("bytes", 9, 0, 1, 0, 1);
    scope_series *list[] = { series };
    graph_model model;
    scope_held later = { .oldest = 0, .newest = 8, .live_end = 8 };
    double t0, t1;
    window(&view, &later, &t0, &t1);
    assert_float_equal(t0, 0, 1e-9);
    assert_float_equal(t1, 10, 1e-9);
    model = (graph_model) { .series = list, .series_count = 1,
                            .view_end = 10, .duration = 10,
                            .max_samples = -1, .cut = view.cut,
                            .cut_at = view.cut_at };
    uint64_t first[1], end[1];
    double w0, w1;
    graph_model_window(&model, 800, &w0, &w1, first, end);
    assert_float_equal(w0, 0, 1e-9);
    assert_float_equal(w1, 10, 1e-9);
    assert_int_equal(end[0] - first[0], 5);

    /* Live again, everything shows. */
    scope_time_view_resume(&view);
    assert_false(view.cut);
    test_series_delete(series);
}

static void test_pause_freezes_while_data_moves_on(void **state)
{
    (void) state;
    scope_time_view view;
    scope_time_view_init(&view, 10);
    scope_time_view_pause(&view, &held_0_to_100);
    scope_held later = { .oldest = 0, .newest = 130, .live_end = 130 };
    double t0, t1;
    window(&view, &later, &t0, &t1);
    assert_float_equal(t0, 90, 1e-9);
    assert_float_equal(t1, 100, 1e-9);
    scope_time_view_resume(&view);
    window(&view, &later, &t0, &t1);
    assert_float_equal(t1, 130, 1e-9);
}

static void test_zoom_keeps_the_anchor_under_the_pointer(void **state)
{
    (void) state;
    scope_time_view view;
    scope_time_view_init(&view, 10);
    double t0, t1, anchor = 93;
    window(&view, &held_0_to_100, &t0, &t1);
    double x = scope_time_to_x(anchor, t0, t1, 66, 800);
    scope_time_view_zoom(&view, &held_0_to_100, 0.5, anchor);
    assert_true(view.paused);
    window(&view, &held_0_to_100, &t0, &t1);
    assert_float_equal(t1 - t0, 5, 1e-9);
    assert_float_equal(scope_time_to_x(anchor, t0, t1, 66, 800), x, 1e-6);

    /* Out again about the same point: back where it was. */
    scope_time_view_zoom(&view, &held_0_to_100, 2, anchor);
    window(&view, &held_0_to_100, &t0, &t1);
    assert_float_equal(t0, 90, 1e-9);
    assert_float_equal(t1, 100, 1e-9);
}

static void test_zoom_at_the_right_edge_stays_live(void **state)
{
    (void) state;
    scope_time_view view;
    scope_time_view_init(&view, 10);
    scope_time_view_zoom(&view, &held_0_to_100, 0.5, INFINITY);
    assert_false(view.paused);
    double t0, t1;
    scope_held later = { .oldest = 0, .newest = 120, .live_end = 120 };
    window(&view, &later, &t0, &t1);
    assert_float_equal(t0, 115, 1e-9);
    assert_float_equal(t1, 120, 1e-9);
    /* Home: the default span, live. */
    scope_time_view_live(&view);
    window(&view, &later, &t0, &t1);
    assert_float_equal(t1 - t0, 10, 1e-9);
}

static void test_zoom_has_limits(void **state)
{
    (void) state;
    scope_time_view view;
    scope_time_view_init(&view, 10);
    for (int i = 0; i < 200; i++)
        scope_time_view_zoom(&view, &held_0_to_100, 0.5, 95);
    double t0, t1;
    window(&view, &held_0_to_100, &t0, &t1);
    assert_true(fabs((t1 - t0) - SCOPE_MIN_SPAN) < 1e-12);
    assert_true(t0 <= 95 && 95 <= t1);
    for (int i = 0; i < 200; i++)
        scope_time_view_zoom(&view, &held_0_to_100, 2, 95);
    window(&view, &held_0_to_100, &t0, &t1);
    /* Twice what is held at most: room around it, not light years. */
    assert_true(t1 - t0 <= 200 + 1e-9);
}

static void test_pan_stays_near_the_data(void **state)
{
    (void) state;
    scope_time_view view;
    scope_time_view_init(&view, 10);
    double t0, t1;
    scope_time_view_pan(&view, &held_0_to_100, -30);
    assert_true(view.paused);
    window(&view, &held_0_to_100, &t0, &t1);
    assert_float_equal(t0, 60, 1e-9);
    assert_float_equal(t1, 70, 1e-9);

    /* Far into the past: stops with half a span of data in view. */
    scope_time_view_pan(&view, &held_0_to_100, -1e6);
    window(&view, &held_0_to_100, &t0, &t1);
    assert_float_equal(t0, -5, 1e-9);
    assert_float_equal(t1, 5, 1e-9);
    /* And into the future. */
    scope_time_view_pan(&view, &held_0_to_100, 1e6);
    window(&view, &held_0_to_100, &t0, &t1);
    assert_float_equal(t0, 95, 1e-9);
    assert_float_equal(t1, 105, 1e-9);
}

static void test_show_exact_span(void **state)
{
    (void) state;
    scope_time_view view;
    scope_time_view_init(&view, 10);
    scope_time_view_show(&view, 42.5, 40);      /* a box dragged leftwards */
    double t0, t1;
    window(&view, &held_0_to_100, &t0, &t1);
    assert_float_equal(t0, 40, 1e-12);
    assert_float_equal(t1, 42.5, 1e-12);
    assert_true(view.paused);
}

static void test_view_request(void **state)
{
    (void) state;
    scope_view_request request;
    double t0, t1;
    assert_true(scope_view_request_parse("2:5", &request));
    assert_true(scope_view_request_resolve(&request, 0, 100, &t0, &t1));
    assert_float_equal(t0, 2, 0);
    assert_float_equal(t1, 5, 0);

    assert_true(scope_view_request_parse("-10:-2", &request));
    assert_true(scope_view_request_resolve(&request, 0, 100, &t0, &t1));
    assert_float_equal(t0, 90, 0);
    assert_float_equal(t1, 98, 0);

    assert_true(scope_view_request_parse("-5:", &request));
    assert_true(scope_view_request_resolve(&request, 0, 100, &t0, &t1));
    assert_float_equal(t0, 95, 0);
    assert_float_equal(t1, 100, 0);

    assert_true(scope_view_request_parse(":3", &request));
    assert_true(scope_view_request_resolve(&request, 1, 100, &t0, &t1));
    assert_float_equal(t0, 1, 0);
    assert_float_equal(t1, 3, 0);

    /* Nothing held yet: nothing to resolve against. */
    assert_true(scope_view_request_parse("-5:-1", &request));
    assert_false(scope_view_request_resolve(&request, NAN, NAN, &t0, &t1));

    assert_false(scope_view_request_parse("5:2", &request));
    assert_false(scope_view_request_parse("-1:-5", &request));
    assert_false(scope_view_request_parse("5", &request));
    assert_false(scope_view_request_parse("a:b", &request));
    assert_false(scope_view_request_parse("1:2:3", &request));
    assert_false(scope_view_request_parse("1:inf", &request));
}

static void test_value_zoom_pan_and_log(void **state)
{
    (void) state;
    scope_value_view values = { 0 };
    scope_value_view_zoom(&values, 0, 100, 0.5, 80);
    assert_true(values.manual);
    /* 80 stays at the same height: 80% up. */
    assert_float_equal(scope_value_fraction(80, values.lo, values.hi, false),
                       0.8, 1e-12);
    assert_float_equal(values.hi - values.lo, 50, 1e-9);
    scope_value_view_pan(&values, values.lo, values.hi, 0.1);
    assert_float_equal(values.lo, 45, 1e-9);
    scope_value_view_auto(&values);
    assert_false(values.manual);

    scope_value_view logs = { .log = true };
    assert_float_equal(scope_value_fraction(100, 1, 10000, true), 0.5,
                       1e-12);
    assert_true(isnan(scope_value_fraction(-1, 1, 10000, true)));
    assert_float_equal(scope_value_at_fraction(0.5, 1, 10000, true), 100,
                       1e-9);
    scope_value_view_zoom(&logs, 1, 10000, 0.5, 100);
    assert_float_equal(logs.lo, 10, 1e-9);
    assert_float_equal(logs.hi, 1000, 1e-9);
    /* A log range cannot reach zero. */
    scope_value_view before = logs;
    scope_value_view_set(&logs, 0, 10);
    assert_memory_equal(&before, &logs, sizeof(logs));
}

static void test_readout_numbers_keep_their_width(void **state)
{
    (void) state;
    char buf[64];
    static const double values[] = { 1, 42, 999, 1000, 1234.5, -0.0015,
                                     999999.9999, 3.5e12, 1e-13, -42 };
    size_t width = 0;
    for (unsigned i = 0; i < sizeof(values) / sizeof(values[0]); i++)
    {
        scope_readout_number(values[i], "B", buf, sizeof(buf));
        /* Every number takes 8 columns before its unit. */
        assert_int_equal(buf[8], ' ');
        if (i == 0)
            width = strlen(buf);
        assert_true(strlen(buf) <= width + 1);
    }
    scope_readout_number(1234.5, "B", buf, sizeof(buf));
    assert_string_equal(buf, "   1.234 kB");
    scope_readout_number(1234.6, "B", buf, sizeof(buf));
    assert_string_equal(buf, "   1.235 kB");
    scope_readout_number(42, "V", buf, sizeof(buf));
    assert_string_equal(buf, "      42 V");
    scope_readout_number(-0.0015, "s", buf, sizeof(buf));
    assert_string_equal(buf, "  -1.500 ms");
    scope_readout_number(999999.9999, "", buf, sizeof(buf));
    assert_string_equal(buf, "   1.000 M");
    scope_readout_number(NAN, "V", buf, sizeof(buf));
    assert_string_equal(buf, "       - V");
}

static void test_readout_at_pointer_and_between_cursors(void **state)
{
    (void) state;
    /* bytes = 100 + 10 i at t = i ms; loops = 5 + i. */
    scope_series *bytes = test_series("bytes", 1000, 0, 0.001, 100, 10);
    scope_series *loops = test_series("loops", 1000, 0, 0.001, 5, 1);
    strcpy(bytes->unit, "B");
    scope_series *series[] = { bytes, loops };
    char text[1024];
    /* Between samples 250 and 251: the reader sees sample 250 held. */
    scope_readout_text(series, 2, NULL, 0.2505, NAN, NAN, text, sizeof(text));
    assert_non_null(strstr(text, "t 0.250500 s\n"));
    assert_non_null(strstr(text, "bytes    2.600 kB\n"));
    assert_non_null(strstr(text, "loops      255 \n"));
    /* The total lost, which the legend no longer carries, is here. */
    loops->lost = 7;
    scope_readout_text(series, 2, NULL, 0.2505, NAN, NAN, text, sizeof(text));
    assert_non_null(strstr(text, "loops      255   (7 lost in all)\n"));
    loops->lost = 0;

    /* Cursors at samples 100 and 300: dt 200 ms, 5 Hz, deltas. */
    bool hidden[] = { false, true };
    scope_readout_text(series, 2, hidden, NAN, 0.1, 0.3, text, sizeof(text));
    assert_non_null(strstr(text, "dt  200.000 ms  1/dt        5 Hz\n"));
    assert_non_null(strstr(text, "bytes A    1.100 kB  B    3.100 kB  "
                                 "delta    2.000 kB\n"));
    assert_null(strstr(text, "loops"));         /* hidden */

    /* Before the first sample there is nothing to read. */
    double when, value;
    assert_false(scope_series_value_at(bytes, -1, &when, &value));
    assert_true(scope_series_value_at(bytes, 0.0999999, &when, &value));
    assert_float_equal(value, 1090, 1e-9);
    test_series_delete(loops);
    test_series_delete(bytes);
}

/* Two graphs of one window, one of whose channels stopped long ago: both
 * get the same span. */
static void test_graphs_share_one_time_axis(void **state)
{
    (void) state;
    scope_series *moving = test_series("moving", 2000, 0, 0.01, 0, 1);
    scope_series *stopped = test_series("stopped", 300, 0, 0.01, 0, 1);
    scope_series *one[] = { moving }, *two[] = { stopped };
    scope_held held = { .oldest = 0, .newest = moving->latest_time,
                        .live_end = moving->latest_time + 0.05 };
    scope_time_view view;
    scope_time_view_init(&view, 5);
    double t0, t1;
    scope_time_view_window(&view, &held, &t0, &t1);
    graph_model a = { .series = one, .series_count = 1, .view_end = t1,
                      .duration = t1 - t0, .max_samples = -1 };
    graph_model b = a;
    b.series = two;
    double a0, a1, b0, b1;
    uint64_t first[1], end[1];
    graph_model_window(&a, 800, &a0, &a1, first, end);
    graph_model_window(&b, 800, &b0, &b1, first, end);
    assert_float_equal(a0, b0, 0);
    assert_float_equal(a1, b1, 0);
    assert_int_equal(end[0] - first[0], 0);     /* nothing of it in view */
    test_series_delete(stopped);
    test_series_delete(moving);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pixels_and_times_map_both_ways),
        cmocka_unit_test(test_live_view_ends_at_live_time),
        cmocka_unit_test(test_fresh_start_begins_at_the_first_sample),
        cmocka_unit_test(test_nothing_held_shows_no_negative_time),
        cmocka_unit_test(test_pause_while_filling_hides_later_samples),
        cmocka_unit_test(test_pause_freezes_while_data_moves_on),
        cmocka_unit_test(test_zoom_keeps_the_anchor_under_the_pointer),
        cmocka_unit_test(test_zoom_at_the_right_edge_stays_live),
        cmocka_unit_test(test_zoom_has_limits),
        cmocka_unit_test(test_pan_stays_near_the_data),
        cmocka_unit_test(test_show_exact_span),
        cmocka_unit_test(test_view_request),
        cmocka_unit_test(test_value_zoom_pan_and_log),
        cmocka_unit_test(test_readout_numbers_keep_their_width),
        cmocka_unit_test(test_readout_at_pointer_and_between_cursors),
        cmocka_unit_test(test_graphs_share_one_time_axis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
