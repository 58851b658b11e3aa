/* test_scope_decimate.c - min/max pyramids and per-column decimation. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "source/decimate.h"

#include <math.h>
#include <stdlib.h>

#define SAMPLES 100000

static double *values;

static int make_values(void **state)
{
    (void) state;
    values = malloc(SAMPLES * sizeof(*values));
    srand(42);
    for (unsigned i = 0; i < SAMPLES; i++)
        values[i] = (rand() % 20001 - 10000) / 7.0;
    return 0;
}

static int free_values(void **state)
{
    (void) state;
    free(values);
    return 0;
}

static scope_extent brute(const double *raw, uint64_t begin, uint64_t end)
{
    scope_extent e = { NAN, NAN };
    for (uint64_t i = begin; i < end; i++)
    {
        e.min = fmin(e.min, raw[i]);
        e.max = fmax(e.max, raw[i]);
    }
    return e;
}

static void build(scope_minmax *mm, const double *raw, uint64_t count)
{
    scope_minmax_init(mm);
    for (uint64_t i = 0; i < count; i++)
        assert_true(scope_minmax_append(mm, i, raw[i]));
}

static void test_query_matches_brute_force_on_random_ranges(void **state)
{
    (void) state;
    scope_minmax mm;
    build(&mm, values, SAMPLES);
    for (int r = 0; r < 2000; r++)
    {
        uint64_t a = (uint64_t) rand() % SAMPLES;
        uint64_t b = a + (uint64_t) rand() % (SAMPLES - a + 1);
        scope_extent got = scope_minmax_query(&mm, values, 0, a, b);
        scope_extent want = brute(values, a, b);
        if (a == b)
        {
            assert_true(isnan(got.min) && isnan(got.max));
            continue;
        }
        assert_true(got.min == want.min);
        assert_true(got.max == want.max);
    }
    scope_minmax_free(&mm);
}

static void test_aligned_range_reads_no_sample(void **state)
{
    (void) state;
    scope_minmax mm;
    build(&mm, values, 65536);
    /* 16^4 samples: one level-3 block; 'raw' must not be touched. */
    scope_extent got = scope_minmax_query(&mm, NULL, 0, 0, 65536);
    scope_extent want = brute(values, 0, 65536);
    assert_true(got.min == want.min && got.max == want.max);
    scope_minmax_free(&mm);
}

/* Deferred, a pyramid holds nothing however many samples go by; caught
 * up, it answers as one kept all along, reading no sample of an aligned
 * range, and appends keep it up. */
static void test_deferred_pyramid_is_built_when_asked(void **state)
{
    (void) state;
    scope_minmax mm;
    scope_minmax_init(&mm);
    scope_minmax_defer(&mm);
    for (uint64_t i = 0; i < 50000; i++)
        assert_true(scope_minmax_append(&mm, i, values[i]));
    for (unsigned l = 0; l < SCOPE_MINMAX_LEVELS; l++)
        assert_int_equal(mm.level[l].count, 0);
    scope_minmax_trim(&mm, 1000);
    assert_true(scope_minmax_catch_up(&mm, values, 0, 0, 50000));
    for (uint64_t i = 50000; i < 65536 + 16; i++)
        assert_true(scope_minmax_append(&mm, i, values[i]));
    scope_extent got = scope_minmax_query(&mm, NULL, 0, 0, 65536);
    scope_extent want = brute(values, 0, 65536);
    assert_true(got.min == want.min && got.max == want.max);
    assert_true(scope_minmax_catch_up(&mm, NULL, 0, 0, 1));  /* once */
    scope_minmax_free(&mm);
}

/* A series appends samples without its pyramids and brings them up to
 * date when a frame asks, whole blocks at a time: caught up in uneven
 * steps, a pyramid holds what one kept by every append holds; behind its
 * samples, queries read the samples it does not hold yet, even over a
 * block it holds part of; trimmed while behind, it starts again where
 * the samples kept start. */
static void test_lagging_pyramid_catches_up_in_blocks(void **state)
{
    (void) state;
    enum { COUNT = 70000 };
    scope_minmax kept, lagging;
    build(&kept, values, COUNT);
    scope_minmax_init(&lagging);
    uint64_t end = 0;
    while (end < COUNT)
    {
        end += 1 + (uint64_t) rand() % 700;
        if (end > COUNT)
            end = COUNT;
        for (int r = 0; r < 20; r++)
        {
            uint64_t a = (uint64_t) rand() % end;
            uint64_t b = a + 1 + (uint64_t) rand() % (end - a);
            scope_extent got = scope_minmax_query(&lagging, values, 0, a, b);
            scope_extent want = brute(values, a, b);
            assert_true(got.min == want.min && got.max == want.max);
        }
        if (rand() % 3)
            assert_true(scope_minmax_catch_up(&lagging, values, 0, 0, end));
    }
    assert_true(scope_minmax_catch_up(&lagging, values, 0, 0, COUNT));
    for (unsigned l = 0; l < SCOPE_MINMAX_LEVELS; l++)
    {
        const scope_minmax_level *a = &kept.level[l], *b = &lagging.level[l];
        assert_int_equal(a->base, b->base);
        assert_int_equal(a->count, b->count);
        for (size_t e = 0; e < a->count; e++)
        {
            const scope_extent *x = &a->entry[a->head + e];
            const scope_extent *y = &b->entry[b->head + e];
            assert_true(x->min == y->min && x->max == y->max);
        }
    }
    /* Behind, then trimmed past where it was. */
    scope_minmax_trim(&lagging, 90000);
    assert_true(scope_minmax_catch_up(&lagging, values, 0, 90003, 100000));
    for (int r = 0; r < 500; r++)
    {
        uint64_t a = 90003 + (uint64_t) rand() % (100000 - 90003);
        uint64_t b = a + 1 + (uint64_t) rand() % (100000 - a);
        scope_extent got = scope_minmax_query(&lagging, values, 0, a, b);
        scope_extent want = brute(values, a, b);
        assert_true(got.min == want.min && got.max == want.max);
    }
    scope_minmax_free(&kept);
    scope_minmax_free(&lagging);
}

/* A block goes up a level as soon as its last sample is in: queried right
 * after each append, ranges ending at the newest sample match the samples
 * (a rising signal, which widens every level each sample), and a range
 * of whole blocks just completed is answered from the pyramid alone. */
static void test_queries_while_growing_match_brute_force(void **state)
{
    (void) state;
    enum { COUNT = 70000 };
    double *rising = malloc(COUNT * sizeof(*rising));
    assert_non_null(rising);
    for (unsigned i = 0; i < COUNT; i++)
        rising[i] = i * 0.25 + values[i] * 1e-3;
    scope_minmax mm;
    scope_minmax_init(&mm);
    for (uint64_t i = 0; i < COUNT; i++)
    {
        assert_true(scope_minmax_append(&mm, i, rising[i]));
        uint64_t end = i + 1;
        if (end % 61 == 0 || end % 256 == 0)
        {
            uint64_t a = (uint64_t) rand() % end;
            scope_extent got = scope_minmax_query(&mm, rising, 0, a, end);
            scope_extent want = brute(rising, a, end);
            assert_true(got.min == want.min && got.max == want.max);
        }
        if (end % 4096 == 0)
        {
            /* No sample read: raw is NULL. */
            scope_extent got = scope_minmax_query(&mm, NULL, 0, end - 4096,
                                                  end);
            scope_extent want = brute(rising, end - 4096, end);
            assert_true(got.min == want.min && got.max == want.max);
            /* And from one entry of the third level, not 256 of the
             * first: a block goes up as its last sample comes in. */
            const scope_minmax_level *third = &mm.level[2];
            assert_true(third->count > 0);
            assert_int_equal(third->base + third->count, end / 4096);
            const scope_extent *block =
                &third->entry[third->head + third->count - 1];
            assert_true(block->min == want.min && block->max == want.max);
        }
    }
    scope_minmax_free(&mm);
    free(rising);
}

static void test_long_range_reads_only_its_ragged_ends(void **state)
{
    (void) state;
    scope_minmax mm;
    build(&mm, values, SAMPLES);
    /* Samples the query must not read are poisoned in its copy of raw. */
    double *poisoned = malloc(SAMPLES * sizeof(*poisoned));
    for (unsigned i = 0; i < SAMPLES; i++)
        poisoned[i] = 1e300;
    uint64_t a = 5, b = 90001;
    for (uint64_t i = a; i < 16; i++)
        poisoned[i] = values[i];
    for (uint64_t i = b & ~(uint64_t) 15; i < b; i++)
        poisoned[i] = values[i];
    scope_extent got = scope_minmax_query(&mm, poisoned, 0, a, b);
    scope_extent want = brute(values, a, b);
    assert_true(got.min == want.min && got.max == want.max);
    free(poisoned);
    scope_minmax_free(&mm);
}

static void test_trim_keeps_queries_right_for_kept_samples(void **state)
{
    (void) state;
    scope_minmax mm;
    build(&mm, values, 20000);
    scope_minmax_trim(&mm, 4097);
    for (uint64_t i = 20000; i < 30000; i++)
        scope_minmax_append(&mm, i, values[i]);
    for (int r = 0; r < 500; r++)
    {
        uint64_t a = 4097 + (uint64_t) rand() % (30000 - 4097);
        uint64_t b = a + (uint64_t) rand() % (30000 - a + 1);
        if (a == b)
            continue;
        scope_extent got = scope_minmax_query(&mm, values, 0, a, b);
        scope_extent want = brute(values, a, b);
        assert_true(got.min == want.min && got.max == want.max);
    }
    assert_true(mm.level[0].base >= 4096 / 16);
    scope_minmax_free(&mm);
}

static void test_nan_samples_are_ignored(void **state)
{
    (void) state;
    double raw[40];
    for (unsigned i = 0; i < 40; i++)
        raw[i] = i % 3 ? NAN : (double) i;
    scope_minmax mm;
    build(&mm, raw, 40);
    scope_extent got = scope_minmax_query(&mm, raw, 0, 0, 40);
    assert_true(got.min == 0 && got.max == 39);
    scope_minmax_free(&mm);
}

static void test_empty_range_is_nan(void **state)
{
    (void) state;
    scope_minmax mm;
    build(&mm, values, 100);
    scope_extent got = scope_minmax_query(&mm, values, 0, 50, 50);
    assert_true(isnan(got.min) && isnan(got.max));
    scope_minmax_free(&mm);
}

static void test_query_without_pyramid_scans(void **state)
{
    (void) state;
    scope_extent got = scope_minmax_query(NULL, values, 0, 3, 1000);
    scope_extent want = brute(values, 3, 1000);
    assert_true(got.min == want.min && got.max == want.max);
}

/* Samples 1 ms apart from t = 0, columns of 10 ms. */
static double times[SAMPLES];

static scope_track_view ms_track(scope_minmax *mm, uint64_t count)
{
    for (uint64_t i = 0; i < count; i++)
        times[i] = i * 0.001;
    build(mm, values, count);
    return (scope_track_view) { times, values, mm, 0, 0, count };
}

static void test_columns_hold_first_last_min_max(void **state)
{
    (void) state;
    scope_minmax mm;
    scope_track_view track = ms_track(&mm, 1000);
    scope_column cols[100];
    scope_decimate(&track, 0, 1000, 0, 0.01, 100, cols);
    for (unsigned c = 0; c < 99; c++)
    {
        /* The same boundaries as the decimation: times >= c * step. */
        uint64_t a = scope_track_lower_bound(&track, c * 0.01);
        uint64_t b = scope_track_lower_bound(&track, (c + 1) * 0.01);
        assert_true(b - a >= 9 && b - a <= 11);
        scope_extent want = brute(values, a, b);
        assert_true(cols[c].used);
        assert_true(cols[c].first == values[a]);
        assert_true(cols[c].last == values[b - 1]);
        assert_true(cols[c].min == want.min && cols[c].max == want.max);
        assert_true(cols[c].start_time == times[a]);
    }
    scope_minmax_free(&mm);
}

static void test_columns_without_samples_are_unused(void **state)
{
    (void) state;
    scope_minmax mm;
    scope_track_view track = ms_track(&mm, 100);   /* 0 to 0.099 s */
    scope_column cols[10];
    scope_decimate(&track, 0, 100, 5, 0.05, 10, cols); /* 0.25 s onwards */
    for (unsigned c = 0; c < 10; c++)
        assert_false(cols[c].used);
    scope_minmax_free(&mm);
}

static void test_columns_respect_the_sample_range(void **state)
{
    (void) state;
    scope_minmax mm;
    scope_track_view track = ms_track(&mm, 1000);
    scope_column cols[1];
    scope_decimate(&track, 100, 200, 0, 1.0, 1, cols);
    scope_extent want = brute(values, 100, 200);
    assert_true(cols[0].first == values[100]);
    assert_true(cols[0].last == values[199]);
    assert_true(cols[0].min == want.min && cols[0].max == want.max);
    scope_minmax_free(&mm);
}

static void test_columns_stay_put_while_the_view_scrolls(void **state)
{
    (void) state;
    scope_minmax mm;
    scope_track_view track = ms_track(&mm, 2000);
    scope_column a[50], b[49];
    /* Same anchor (multiples of the step): column k is the same samples. */
    scope_decimate(&track, 0, 2000, 10, 0.02, 50, a);
    scope_decimate(&track, 0, 2000, 11, 0.02, 49, b);
    for (unsigned c = 0; c < 49; c++)
        assert_true(a[c + 1].min == b[c].min && a[c + 1].max == b[c].max);
    scope_minmax_free(&mm);
}

/* Bursts of samples with gaps between, so that columns hold from none to
 * hundreds of samples and each differs from the one before: every column
 * as a search over all the samples finds it. */
static void test_columns_of_bursts_match_brute_force(void **state)
{
    (void) state;
    srand(7);
    double t = 0;
    for (unsigned i = 0; i < SAMPLES; i++)
    {
        /* Within a burst 10 us apart; between them up to 50 ms. */
        t += rand() % 500 ? 1e-5 : (rand() % 5000) * 1e-5;
        times[i] = t;
    }
    scope_minmax mm;
    build(&mm, values, SAMPLES);
    scope_track_view track = {
        .time = times, .value = values, .base = 0, .first = 0,
        .end = SAMPLES, .minmax = &mm,
    };
    enum { COLUMNS = 400 };
    static scope_column cols[COLUMNS];
    double step = t / (COLUMNS - 20);
    scope_decimate(&track, 0, SAMPLES, -3, step, COLUMNS, cols);
    unsigned used = 0, empty = 0;
    for (unsigned c = 0; c < COLUMNS; c++)
    {
        uint64_t a = scope_track_lower_bound(&track, (c - 3.0) * step);
        uint64_t b = scope_track_lower_bound(&track, (c - 2.0) * step);
        assert_int_equal(cols[c].used, a < b);
        if (a == b)
        {
            empty++;
            continue;
        }
        used++;
        scope_extent want = brute(values, a, b);
        assert_true(cols[c].first == values[a]);
        assert_true(cols[c].last == values[b - 1]);
        assert_true(cols[c].min == want.min && cols[c].max == want.max);
        assert_true(cols[c].start_time == times[a]);
        assert_true(cols[c].end_time == times[b - 1]);
    }
    assert_true(used > 100 && empty > 10);
    scope_minmax_free(&mm);
}

static void test_lower_bound_finds_first_not_before(void **state)
{
    (void) state;
    scope_minmax mm;
    scope_track_view track = ms_track(&mm, 100);
    assert_int_equal(scope_track_lower_bound(&track, -1), 0);
    assert_int_equal(scope_track_lower_bound(&track, 0.0105), 11);
    assert_int_equal(scope_track_lower_bound(&track, 5), 100);
    scope_minmax_free(&mm);
}

/* The first of [first, end) not before t, one by one. */
static uint64_t linear_lower_bound(const scope_track_view *track, double t)
{
    uint64_t i = track->first;
    while (i < track->end && track->time[i - track->base] < t)
        i++;
    return i;
}

/* Searched from where even spacing would put t: samples far from evenly
 * spaced (bursts, repeated times, a long gap) and times at, between,
 * before and after them give what a search one by one gives. */
static void test_lower_bound_of_uneven_samples(void **state)
{
    (void) state;
    enum { COUNT = 5000 };
    srand(11);
    double t = 100;
    for (unsigned i = 0; i < COUNT; i++)
    {
        if (i == COUNT / 3)
            t += 1000;                  /* one long gap */
        else if (rand() % 4)            /* repeats and bursts */
            t += rand() % 3 ? 0 : 1e-6;
        else
            t += (rand() % 1000) * 1e-3;
        times[i] = t;
    }
    /* A track that starts inside its arrays, as a trimmed series does. */
    scope_track_view track = {
        .time = times + 7, .value = values + 7, .base = 7, .first = 40,
        .end = COUNT - 30,
    };
    for (unsigned i = 0; i < COUNT; i += 3)
    {
        double at = times[i];
        double probe[] = { at, nextafter(at, -INFINITY),
                           nextafter(at, INFINITY), at - 0.5, at + 0.5 };
        for (unsigned p = 0; p < sizeof(probe) / sizeof(*probe); p++)
            assert_int_equal(scope_track_lower_bound(&track, probe[p]),
                             linear_lower_bound(&track, probe[p]));
    }
    assert_int_equal(scope_track_lower_bound(&track, -INFINITY), 40);
    assert_int_equal(scope_track_lower_bound(&track, INFINITY), COUNT - 30);
    assert_int_equal(scope_track_lower_bound(&track, NAN), 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_query_matches_brute_force_on_random_ranges),
        cmocka_unit_test(test_aligned_range_reads_no_sample),
        cmocka_unit_test(test_queries_while_growing_match_brute_force),
        cmocka_unit_test(test_long_range_reads_only_its_ragged_ends),
        cmocka_unit_test(test_trim_keeps_queries_right_for_kept_samples),
        cmocka_unit_test(test_nan_samples_are_ignored),
        cmocka_unit_test(test_empty_range_is_nan),
        cmocka_unit_test(test_query_without_pyramid_scans),
        cmocka_unit_test(test_columns_hold_first_last_min_max),
        cmocka_unit_test(test_columns_without_samples_are_unused),
        cmocka_unit_test(test_columns_respect_the_sample_range),
        cmocka_unit_test(test_columns_stay_put_while_the_view_scrolls),
        cmocka_unit_test(test_columns_of_bursts_match_brute_force),
        cmocka_unit_test(test_deferred_pyramid_is_built_when_asked),
        cmocka_unit_test(test_lagging_pyramid_catches_up_in_blocks),
        cmocka_unit_test(test_lower_bound_finds_first_not_before),
        cmocka_unit_test(test_lower_bound_of_uneven_samples),
    };
    return cmocka_run_group_tests_name("scope_decimate", tests, make_values,
                                       free_values);
}
