/* test_format_scan.c - what readers learn of an argument from its format. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "text/format_scan_private.h"

#include <string.h>

static void check(const char *format, unsigned argument, char conversion,
                  char kind, const char *unit)
{
    recorder_conversion found;
    assert_true(recorder_format_argument(format, argument, &found));
    assert_int_equal(found.conversion, conversion);
    assert_int_equal(recorder_conversion_kind(found.conversion), kind);
    char text[32];
    recorder_conversion_unit(&found, text, sizeof(text));
    assert_string_equal(text, unit);
}

static void test_unit_is_the_word_after_the_conversion(void **state)
{
    (void) state;
    check("Transferred %lu bytes in %lu iterations", 0, 'u', 'u', "bytes");
    check("Transferred %lu bytes in %lu iterations", 1, 'u', 'u', "iterations");
    check("speed %.2f m/s", 0, 'f', 'r', "m/s");
}

static void test_next_conversion_is_not_a_unit(void **state)
{
    (void) state;
    check("%f %f %f", 0, 'f', 'r', "");
    check("load %u%% of %d", 0, 'u', 'u', "%");
    check("delta %d", 0, 'd', 's', "");
}

static void test_star_width_counts_as_an_argument(void **state)
{
    (void) state;
    check("%*d then %x", 1, 'd', 's', "then");
    check("%*d then %x", 2, 'x', 'u', "");
    recorder_conversion found;
    assert_false(recorder_format_argument("%d", 1, &found));
    assert_false(recorder_format_argument("%5", 0, &found));
    assert_false(recorder_format_argument("100%% sure", 0, &found));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_is_the_word_after_the_conversion),
        cmocka_unit_test(test_next_conversion_is_not_a_unit),
        cmocka_unit_test(test_star_width_counts_as_an_argument),
    };
    return cmocka_run_group_tests_name("format_scan", tests, NULL, NULL);
}
