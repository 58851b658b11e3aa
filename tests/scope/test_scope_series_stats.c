/* test_scope_series_stats.c - average, envelope, timing, normal value. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "source/series_stats.h"

#include <math.h>

static void test_normal_value_is_the_sample(void **state)
{
    (void) state;
    scope_stats stats;
    scope_stats_init(&stats, 0.99);
    double out[SCOPE_TRACKS];
    scope_stats_add(&stats, 0.0, 1234567.0, out);
    assert_true(out[SCOPE_TRACK_VALUE] == 1234567.0);
    scope_stats_add(&stats, 0.1, -3.25, out);
    assert_true(out[SCOPE_TRACK_VALUE] == -3.25);
}

static void test_average_weighs_the_past_by_the_ratio(void **state)
{
    (void) state;
    scope_stats stats;
    scope_stats_init(&stats, 0.75);
    double out[SCOPE_TRACKS];
    scope_stats_add(&stats, 0, 8, out);
    assert_true(out[SCOPE_TRACK_AVERAGE] == 8);      /* starts at the value */
    scope_stats_add(&stats, 1, 0, out);
    assert_true(out[SCOPE_TRACK_AVERAGE] == 6);      /* 0.75 * 8 + 0.25 * 0 */
    scope_stats_add(&stats, 2, 2, out);
    assert_true(out[SCOPE_TRACK_AVERAGE] == 5);      /* 0.75 * 6 + 0.25 * 2 */
}

static void test_average_converges_to_a_constant(void **state)
{
    (void) state;
    scope_stats stats;
    scope_stats_init(&stats, 0.99);
    double out[SCOPE_TRACKS];
    scope_stats_add(&stats, 0, 0, out);
    for (int i = 1; i < 2000; i++)
        scope_stats_add(&stats, i, 100, out);
    assert_true(fabs(out[SCOPE_TRACK_AVERAGE] - 100) < 1e-6);
}

static void test_envelope_jumps_to_extremes_then_decays(void **state)
{
    (void) state;
    scope_stats stats;
    scope_stats_init(&stats, 0.5);
    double out[SCOPE_TRACKS];
    scope_stats_add(&stats, 0, 10, out);
    assert_true(out[SCOPE_TRACK_MIN] == 10 && out[SCOPE_TRACK_MAX] == 10);
    scope_stats_add(&stats, 1, 30, out);
    assert_true(out[SCOPE_TRACK_MAX] == 30);         /* a new high: at once */
    assert_true(out[SCOPE_TRACK_MIN] == 20);         /* 0.5 * 10 + 0.5 * 30 */
    scope_stats_add(&stats, 2, 10, out);
    assert_true(out[SCOPE_TRACK_MIN] == 10);         /* a new low: at once */
    assert_true(out[SCOPE_TRACK_MAX] == 20);         /* decays towards 10 */
    assert_true(out[SCOPE_TRACK_MIN] <= out[SCOPE_TRACK_VALUE]);
    assert_true(out[SCOPE_TRACK_MAX] >= out[SCOPE_TRACK_VALUE]);
}

static void test_envelope_contains_every_value(void **state)
{
    (void) state;
    scope_stats stats;
    scope_stats_init(&stats, 0.9);
    double out[SCOPE_TRACKS];
    for (int i = 0; i < 1000; i++)
    {
        double v = sin(i * 0.1) * 100 + (i % 7);
        scope_stats_add(&stats, i, v, out);
        assert_true(out[SCOPE_TRACK_MIN] <= v && v <= out[SCOPE_TRACK_MAX]);
    }
}

static void test_interval_is_in_microseconds(void **state)
{
    (void) state;
    scope_stats stats;
    scope_stats_init(&stats, 0.99);
    double out[SCOPE_TRACKS];
    scope_stats_add(&stats, 2.0, 1, out);
    assert_true(isnan(out[SCOPE_TRACK_INTERVAL]));   /* no previous sample */
    scope_stats_add(&stats, 2.0005, 1, out);
    assert_true(fabs(out[SCOPE_TRACK_INTERVAL] - 500) < 1e-6);
    scope_stats_add(&stats, 2.0015, 1, out);
    assert_true(fabs(out[SCOPE_TRACK_INTERVAL] - 1000) < 1e-6);
}

static void test_break_restarts_the_timing_only(void **state)
{
    (void) state;
    scope_stats stats;
    scope_stats_init(&stats, 0.5);
    double out[SCOPE_TRACKS];
    scope_stats_add(&stats, 1, 4, out);
    scope_stats_add(&stats, 2, 8, out);
    scope_stats_break(&stats);
    scope_stats_add(&stats, 100, 8, out);
    assert_true(isnan(out[SCOPE_TRACK_INTERVAL]));
    assert_true(out[SCOPE_TRACK_AVERAGE] == 7);      /* 0.5 * 6 + 0.5 * 8 */
    scope_stats_add(&stats, 100.25, 8, out);
    assert_true(out[SCOPE_TRACK_INTERVAL] == 250000);
}

static void test_nan_value_leaves_the_average_alone(void **state)
{
    (void) state;
    scope_stats stats;
    scope_stats_init(&stats, 0.5);
    double out[SCOPE_TRACKS];
    scope_stats_add(&stats, 0, 4, out);
    scope_stats_add(&stats, 1, NAN, out);
    assert_true(isnan(out[SCOPE_TRACK_VALUE]));
    assert_true(out[SCOPE_TRACK_AVERAGE] == 4);
    assert_true(out[SCOPE_TRACK_INTERVAL] == 1e6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_normal_value_is_the_sample),
        cmocka_unit_test(test_average_weighs_the_past_by_the_ratio),
        cmocka_unit_test(test_average_converges_to_a_constant),
        cmocka_unit_test(test_envelope_jumps_to_extremes_then_decays),
        cmocka_unit_test(test_envelope_contains_every_value),
        cmocka_unit_test(test_interval_is_in_microseconds),
        cmocka_unit_test(test_break_restarts_the_timing_only),
        cmocka_unit_test(test_nan_value_leaves_the_average_alone),
    };
    return cmocka_run_group_tests_name("scope_series_stats", tests, NULL, NULL);
}
