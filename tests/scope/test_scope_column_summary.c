/* test_scope_column_summary.c - summaries of runs of columns join into
 * the summary of the whole run.
 *
 * A graph's scales and noise test come from summaries (column_summary.h)
 * that the column cache keeps per block and joins: a wrong join shows as
 * a scale that does not fit the data, or antialiasing switched at the
 * wrong time.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "view/column_summary.h"

#include <math.h>
#include <string.h>

static scope_column column(double min, double max, double last)
{
    return (scope_column) {
        .first = min, .last = last, .min = min, .max = max, .used = true,
    };
}

/* Worked by hand: heights widen to the last sample of the usable column
 * before; an unused column and a column without a usable sample neither
 * count nor break the chain; a log scale's low end skips values <= 0. */
static void test_a_run_by_hand(void **state)
{
    (void) state;
    scope_column at[] = {
        column(1, 3, 2),
        column(5, 6, 6),                /* 4 high, from the 2 before */
        { .used = false },
        column(NAN, NAN, NAN),          /* used, nothing usable */
        column(-2, 1, NAN),             /* 8 high, from the 6 before */
        column(0, 0.5, 0.5),            /* its own 0.5: the last was NaN */
    };
    scope_column_summary s = scope_column_summary_empty();
    scope_column_summary_add(&s, at, 6);
    assert_int_equal(s.usable, 4);
    assert_true(s.heights == 2 + 4 + 8 + 0.5 + 0);
    assert_true(s.lo == -2 && s.hi == 6);
    assert_true(s.positive_lo == 0.5 && s.positive_hi == 6);
    assert_true(s.head_min == 1 && s.head_max == 3 && s.tail_last == 0.5);

    /* The same columns in two runs, split everywhere. */
    for (unsigned split = 0; split <= 6; split++)
    {
        scope_column_summary a = scope_column_summary_empty(),
                             b = scope_column_summary_empty();
        scope_column_summary_add(&a, at, split);
        scope_column_summary_add(&b, at + split, 6 - split);
        scope_column_summary_join(&a, &b);
        assert_int_equal(a.usable, 4);
        assert_true(a.heights == s.heights);
        assert_true(a.lo == -2 && a.hi == 6);
        assert_true(a.positive_lo == 0.5 && a.positive_hi == 6);
        assert_true(a.head_min == 1 && a.head_max == 3 &&
                    a.tail_last == 0.5);
    }
}

static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 16 & 0x7fff;
}

static uint64_t bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof(b));
    return b;
}

/* Random columns, some unused, some without a usable sample, some whose
 * last sample is NaN, values of both signs and zeros: cut into random
 * runs, each summarised and joined in order, they give what adding them
 * one by one gives. */
#define COLUMNS 2000

static void test_random_runs_join_as_one(void **state)
{
    (void) state;
    static scope_column at[COLUMNS];
    unsigned seed = 11;
    for (unsigned trial = 0; trial < 200; trial++)
    {
        for (unsigned c = 0; c < COLUMNS; c++)
        {
            unsigned r = next_random(&seed);
            double a = (double) (next_random(&seed) % 201) - 100,
                   b = a + (double) (next_random(&seed) % 50) / 4;
            if (r % 13 == 0)
                at[c] = (scope_column) { .used = false };
            else if (r % 17 == 0)
                at[c] = column(NAN, NAN, NAN);
            else
                at[c] = column(a, b, r % 11 == 0 ? NAN : (a + b) / 2);
        }
        scope_column_summary whole = scope_column_summary_empty(),
                             joined = scope_column_summary_empty();
        scope_column_summary_add(&whole, at, COLUMNS);
        unsigned runs = 0;
        for (unsigned c = 0; c < COLUMNS; runs++)
        {
            unsigned n = next_random(&seed) % (trial % 3 ? 40 : 3) + 1;
            if (n > COLUMNS - c)
                n = COLUMNS - c;
            scope_column_summary run = scope_column_summary_empty();
            scope_column_summary_add(&run, at + c, n);
            scope_column_summary_join(&joined, &run);
            c += n;
        }
        assert_true(runs > 40);
        assert_int_equal(joined.usable, whole.usable);
        assert_true(bits(joined.lo) == bits(whole.lo));
        assert_true(bits(joined.hi) == bits(whole.hi));
        assert_true(bits(joined.positive_lo) == bits(whole.positive_lo));
        assert_true(bits(joined.positive_hi) == bits(whole.positive_hi));
        assert_true(bits(joined.head_min) == bits(whole.head_min));
        assert_true(bits(joined.head_max) == bits(whole.head_max));
        assert_true(bits(joined.tail_last) == bits(whole.tail_last));
        /* Quarter units: the sums are exact either way. */
        assert_true(joined.heights == whole.heights);
    }
}

/* Nothing usable: the empty summary's extremes, whatever is joined. */
static void test_empty_runs_change_nothing(void **state)
{
    (void) state;
    scope_column none[] = { { .used = false }, column(NAN, NAN, NAN) };
    scope_column_summary s = scope_column_summary_empty(), e = s;
    scope_column_summary_add(&s, none, 2);
    scope_column_summary_join(&s, &e);
    assert_int_equal(s.usable, 0);
    assert_true(s.heights == 0);
    assert_true(isinf(s.lo) && s.lo > 0 && isinf(s.hi) && s.hi < 0);
    assert_true(isinf(s.positive_lo) && isinf(s.positive_hi));

    scope_column one = column(2, 4, 3);
    scope_column_summary run = scope_column_summary_empty();
    scope_column_summary_add(&run, &one, 1);
    scope_column_summary_join(&s, &run);
    assert_int_equal(s.usable, 1);
    assert_true(s.heights == 2 && s.lo == 2 && s.hi == 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_run_by_hand),
        cmocka_unit_test(test_random_runs_join_as_one),
        cmocka_unit_test(test_empty_runs_change_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
