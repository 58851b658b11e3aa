/* test_scope_sample_array.c - a series' arrays keep their values as they
 * grow in place and back, grow without moving up to a step of the space
 * they hold, refuse sizes that cannot exist without losing anything, and
 * a series that grows through many doublings reads back every sample.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "source/sample_array.h"
#include "source/series.h"

#include <stdint.h>

static void test_growth_keeps_values(void **state)
{
    (void) state;
    size_t count = 1000;
    double *a = scope_sample_array_resize(NULL, 0, count);
    assert_non_null(a);
    for (size_t i = 0; i < count; i++)
        a[i] = (double) i * 0.5;
    /* Doubling to 64 M doubles (512 MB of address space): values kept,
     * the new room writable. */
    for (size_t wanted = 2 * count; wanted <= (64u << 20); wanted *= 2)
    {
        double *grown = scope_sample_array_resize(a, count, wanted);
        assert_non_null(grown);
        a = grown;
        count = wanted;
        a[count - 1] = -1;
    }
    for (size_t i = 0; i < 1000; i++)
        assert_true(a[i] == (double) i * 0.5);
    double *shrunk = scope_sample_array_resize(a, count, 1000);
    assert_non_null(shrunk);
    for (size_t i = 0; i < 1000; i++)
        assert_true(shrunk[i] == (double) i * 0.5);
    scope_sample_array_free(shrunk, 1000);
    scope_sample_array_free(NULL, 0);
}

/* From 1 024 doubles to 128 Ki (1 MiB, the first step): the array never
 * moves, so no page is remapped and no other CPU is interrupted to
 * forget it; the next doubling moves it once, values and all. */
static void test_growth_within_a_step_stays_in_place(void **state)
{
    (void) state;
    size_t count = 1024;
    double *a = scope_sample_array_resize(NULL, 0, count);
    assert_non_null(a);
    double *const first = a;
    for (size_t i = 0; i < count; i++)
        a[i] = (double) i;
    for (; count < ((size_t) 128 << 10); count *= 2)
    {
        a = scope_sample_array_resize(a, count, 2 * count);
        assert_ptr_equal(a, first);
        for (size_t i = count; i < 2 * count; i++)
            a[i] = (double) i;
    }
    double *moved = scope_sample_array_resize(a, count, 2 * count);
    assert_non_null(moved);
    for (size_t i = 0; i < count; i++)
        assert_true(moved[i] == (double) i);
    moved[2 * count - 1] = 1;
    /* Back within the first step: in place again, the values kept. */
    double *back = scope_sample_array_resize(moved, 2 * count, 4096);
    assert_non_null(back);
    assert_true(back[4095] == 4095);
    scope_sample_array_free(back, 4096);
}

static void test_impossible_size_leaves_array_as_it_was(void **state)
{
    (void) state;
    double *a = scope_sample_array_resize(NULL, 0, 16);
    assert_non_null(a);
    a[15] = 42;
    assert_null(scope_sample_array_resize(a, 16, SIZE_MAX / 4));
    assert_null(scope_sample_array_resize(a, 16, (size_t) 1 << 60));
    assert_null(scope_sample_array_resize(NULL, 0, 0));
    assert_true(a[15] == 42);
    scope_sample_array_free(a, 16);
}

/* 300 000 samples: through nine doublings of all six arrays. */
static void test_series_reads_back_every_sample(void **state)
{
    (void) state;
    scope_series series;
    scope_series_init(&series, "grows", 0.1);
    for (unsigned i = 0; i < 300000; i++)
        assert_true(scope_series_append(&series, i * 1e-3, (double) i));
    assert_int_equal(series.end - series.first, 300000);
    for (unsigned i = 0; i < 300000; i += 997)
    {
        assert_true(series.time[i - series.base] == i * 1e-3);
        assert_true(series.track[SCOPE_TRACK_VALUE][i - series.base] ==
                    (double) i);
    }
    scope_series_free(&series);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_growth_keeps_values),
        cmocka_unit_test(test_growth_within_a_step_stays_in_place),
        cmocka_unit_test(test_impossible_size_leaves_array_as_it_was),
        cmocka_unit_test(test_series_reads_back_every_sample),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
