/* test_scope_axis_ticks.c - tick steps, positions and labels. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "view/axis_ticks.h"

#include <math.h>
#include <string.h>

static void test_steps_are_one_two_five_times_ten_to_n(void **state)
{
    (void) state;
    assert_true(scope_tick_step(0, 100, 5) == 20);
    assert_true(scope_tick_step(0, 1, 5) == 0.2);
    assert_true(scope_tick_step(0, 7, 5) == 1);
    assert_true(scope_tick_step(0, 80e6, 4) == 20e6);
    assert_true(scope_tick_step(0, 0.003, 3) == 0.001);
    assert_true(scope_tick_step(-50, 50, 4) == 20);
    assert_true(scope_tick_step(0, 40, 5) == 10);
}

static void test_ticks_lie_within_the_range_and_cover_it(void **state)
{
    (void) state;
    scope_ticks ticks;
    assert_true(scope_ticks_make(3.7, 96.1, 5, true, &ticks));
    assert_true(ticks.step == 20);
    assert_true(ticks.first == 20);
    assert_int_equal(ticks.count, 4);                /* 20 40 60 80 */
    assert_true(scope_tick_value(&ticks, 3) == 80);
    assert_true(scope_ticks_make(-7.5, 7.5, 6, true, &ticks));
    assert_true(scope_tick_value(&ticks, 0) >= -7.5);
    assert_true(scope_tick_value(&ticks, ticks.count - 1) <= 7.5);
}

static void test_tick_at_zero_is_exactly_zero(void **state)
{
    (void) state;
    scope_ticks ticks;
    scope_ticks_make(-0.3, 0.3, 6, false, &ticks);
    bool zero = false;
    for (unsigned i = 0; i < ticks.count; i++)
        if (scope_tick_value(&ticks, i) == 0)
            zero = true;
    assert_true(zero);
}

static void check_label(double lo, double hi, unsigned target, bool si,
                        double value, const char *expected)
{
    scope_ticks ticks;
    char label[64];
    assert_true(scope_ticks_make(lo, hi, target, si, &ticks));
    scope_tick_label(&ticks, value, label, sizeof(label));
    assert_string_equal(label, expected);
}

static void test_labels_use_si_prefixes_for_long_numbers(void **state)
{
    (void) state;
    check_label(0, 80e6, 4, true, 20e6, "20M");
    check_label(0, 80e6, 4, true, 0, "0");
    check_label(0, 3e6, 6, true, 2.5e6, "2.5M");
    check_label(0, 50000, 5, true, 30000, "30k");
    check_label(0, 4e9, 4, true, 3e9, "3G");
    check_label(0, 2500, 5, true, 1500, "1500");     /* short enough as is */
}

static void test_labels_of_small_values(void **state)
{
    (void) state;
    check_label(0, 1, 5, true, 0.4, "0.4");
    check_label(0, 0.005, 5, true, 0.003, "3m");
    check_label(0, 5e-6, 5, true, 2e-6, "2u");
    check_label(0, 0.5, 5, false, 0.3, "0.3");
}

static void test_labels_of_negative_values(void **state)
{
    (void) state;
    check_label(-50, 50, 4, true, -40, "-40");
    check_label(-3e6, 0, 6, true, -1.5e6, "-1.5M");
}

static void test_time_labels_have_no_prefix(void **state)
{
    (void) state;
    check_label(100000, 100010, 5, false, 100004, "100004");
    check_label(1.2, 1.9, 7, false, 1.5, "1.5");
}

static void test_nice_range_widens_to_tick_multiples(void **state)
{
    (void) state;
    double lo = 3, hi = 97;
    scope_range_nice(&lo, &hi, 5);
    assert_true(lo == 0 && hi == 100);
    lo = -12;
    hi = 12;
    scope_range_nice(&lo, &hi, 4);
    assert_true(lo <= -12 && hi >= 12);
    assert_true(lo == -20 || lo == -15);
}

static void test_nice_range_of_one_value_has_room(void **state)
{
    (void) state;
    double lo = 5, hi = 5;
    scope_range_nice(&lo, &hi, 5);
    assert_true(lo < 5 && hi > 5);
    lo = hi = 0;
    scope_range_nice(&lo, &hi, 5);
    assert_true(lo < 0 && hi > 0);
}

static void test_nice_range_of_nothing_is_zero_to_one(void **state)
{
    (void) state;
    double lo = NAN, hi = INFINITY;
    scope_range_nice(&lo, &hi, 5);
    assert_true(lo == 0 && hi == 1);
    scope_ticks ticks;
    assert_false(scope_ticks_make(NAN, 1, 5, true, &ticks));
}

static void test_legend_values(void **state)
{
    (void) state;
    char buf[64];
    scope_value_label(78302965, buf, sizeof(buf));
    assert_string_equal(buf, "78302965");
    scope_value_label(-42, buf, sizeof(buf));
    assert_string_equal(buf, "-42");
    scope_value_label(74.75, buf, sizeof(buf));
    assert_string_equal(buf, "74.75");
    scope_value_label(1.0 / 3, buf, sizeof(buf));
    assert_string_equal(buf, "0.333333");
    scope_value_label(NAN, buf, sizeof(buf));
    assert_string_equal(buf, "-");
    scope_value_label(1e20, buf, sizeof(buf));
    assert_string_equal(buf, "1e+20");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_are_one_two_five_times_ten_to_n),
        cmocka_unit_test(test_ticks_lie_within_the_range_and_cover_it),
        cmocka_unit_test(test_tick_at_zero_is_exactly_zero),
        cmocka_unit_test(test_labels_use_si_prefixes_for_long_numbers),
        cmocka_unit_test(test_labels_of_small_values),
        cmocka_unit_test(test_labels_of_negative_values),
        cmocka_unit_test(test_time_labels_have_no_prefix),
        cmocka_unit_test(test_nice_range_widens_to_tick_multiples),
        cmocka_unit_test(test_nice_range_of_one_value_has_room),
        cmocka_unit_test(test_nice_range_of_nothing_is_zero_to_one),
        cmocka_unit_test(test_legend_values),
    };
    return cmocka_run_group_tests_name("scope_axis_ticks", tests, NULL, NULL);
}
