/* test_scope_column_cache.c - columns kept from frame to frame are those
 * a whole decimation gives, and a scrolling frame decimates few.
 *
 * A live view scrolls over a channel whose samples come in bursts, some
 * at the same time, some exactly on column boundaries, while old ones
 * are dropped; the span's step wobbles by rounding errors as a window's
 * does. Every frame, every track's columns from the cache must equal, bit
 * for bit, scope_decimate() of all of them, and the summaries the cache
 * keeps (column_summary.h) those of the columns read one by one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "view/column_cache.h"
#include "scope_test_series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#define COLUMNS         300
#define MARGIN          72

static uint64_t bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof(b));
    return b;
}

/* Bit for bit, NaNs included; a column's padding is not compared. */
static void expect_same(const scope_column *got, const scope_column *want,
                        unsigned count, unsigned frame)
{
    for (unsigned c = 0; c < count; c++)
    {
        const scope_column *g = &got[c], *w = &want[c];
        if (g->used != w->used || bits(g->first) != bits(w->first) ||
            bits(g->last) != bits(w->last) || bits(g->min) != bits(w->min) ||
            bits(g->max) != bits(w->max) ||
            bits(g->start_time) != bits(w->start_time) ||
            bits(g->end_time) != bits(w->end_time))
        {
            print_message("frame %u, column %u: %s %g..%g, want %s %g..%g\n",
                          frame, c, g->used ? "used" : "empty", g->min, g->max,
                          w->used ? "used" : "empty", w->min, w->max);
            fail();
        }
    }
}

/* A summary from kept blocks against one of the columns one by one:
 * extremes and joins bit for bit, the sum of heights within rounding. */
static void expect_summary(const scope_column_summary *got,
                           const scope_column *at, unsigned count,
                           unsigned frame)
{
    scope_column_summary want = scope_column_summary_empty();
    scope_column_summary_add(&want, at, count);
    bool same = got->usable == want.usable &&
                bits(got->lo) == bits(want.lo) &&
                bits(got->hi) == bits(want.hi) &&
                bits(got->positive_lo) == bits(want.positive_lo) &&
                bits(got->positive_hi) == bits(want.positive_hi) &&
                fabs(got->heights - want.heights) <=
                    1e-12 * (fabs(want.heights) + 1) * (count + 1);
    if (same && want.usable)
        same = bits(got->head_min) == bits(want.head_min) &&
               bits(got->head_max) == bits(want.head_max) &&
               bits(got->tail_last) == bits(want.tail_last);
    if (!same)
    {
        print_message("frame %u: summary of %u columns: %u usable %g..%g "
                      "heights %.17g, want %u usable %g..%g heights %.17g\n",
                      frame, count, got->usable, got->lo, got->hi,
                      got->heights, want.usable, want.lo, want.hi,
                      want.heights);
        fail();
    }
}

static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 16 & 0x7fff;
}

/* One frame: the columns of every track, from the cache and whole. */
static double compare(scope_column_cache *cache, scope_series *series,
                      double t1, double span, unsigned frame,
                      uint64_t *decimated)
{
    static scope_column want[COLUMNS + 2 + MARGIN];
    double t0 = t1 - span;
    /* (t1 - t0) / columns, as a window computes it, changes by a rounding
     * error now and then (t1 crossing a power of two): here, every 20
     * frames, and back. */
    double step = (t1 - t0) / COLUMNS * (1 + (frame % 20 == 0) * 0x1p-48);
    int64_t origin = (int64_t) floor(t0 / step + 1e-7) - MARGIN;
    unsigned count = COLUMNS + 2 + MARGIN;
    scope_track_view values = scope_series_track(series, SCOPE_TRACK_VALUE);
    uint64_t end = scope_track_lower_bound(&values, nextafter(t1, INFINITY));
    scope_series_derive(series);        /* the average and envelope too */
    for (unsigned k = 0; k < SCOPE_TRACKS; k++)
    {
        scope_track_view track = scope_series_track(series, k);
        const scope_column *got = scope_column_cache_get(cache, k, series,
                                                         &track, end, origin,
                                                         step, count);
        assert_non_null(got);
        scope_decimate(&track, track.first, end, origin, step, count, want);
        expect_same(got, want, count, frame);
        *decimated += count;
        /* The columns in view, as a graph asks. */
        scope_column_summary sum = scope_column_cache_summary(
            cache, k, origin + MARGIN, origin + count);
        expect_summary(&sum, want + MARGIN, count - MARGIN, frame);
        /* Now and then a stretch that starts and ends inside blocks: the
         * kept middle then serves another range between frames. */
        if (frame % 8 != 7)
            continue;
        unsigned from = 5 + frame % 41, to = count - 3 - frame % 29;
        sum = scope_column_cache_summary(cache, k, origin + from,
                                         origin + to);
        expect_summary(&sum, want + from, to - from, frame);
    }
    return step;
}

static void test_scrolling_columns_equal_whole_decimation(void **state)
{
    (void) state;
    scope_series *series = test_series("bursts", 0, 0, 0, 0, 0);
    scope_column_cache *cache = scope_column_cache_new();
    assert_non_null(cache);
    const double span = 1.37;          /* a zoomed span, no round number */
    unsigned seed = 7;
    /* Far from 0: t1 - span rounds, and the step with it. */
    double t = 1000, t1 = 1000, step = span / COLUMNS;
    uint64_t whole = 0;
    unsigned wobbles = 0;
    for (unsigned frame = 0; frame < 400; frame++)
    {
        /* Samples up to a little past the new right edge: a burst at one
         * time, one on a boundary of the columns, a steady stream. */
        t1 += 0.01 + 0.001 * (next_random(&seed) % 7);
        while (t < t1 + 0.003)
        {
            unsigned r = next_random(&seed) % 16;
            if (r == 0)
                t = ceil(t / step) * step;
            scope_series_append(series, t, sin(7 * t) +
                                (r == 1 ? 3.0 : 0.1 * (r % 5)));
            if (r != 2)
                t += 0.0007 * (1 + r % 3);
        }
        /* Old samples dropped, then some the plot still shows. */
        if (frame % 50 == 25)
            scope_series_trim(series, t1 - 2 * span, 0);
        if (frame % 50 == 40)
            scope_series_trim(series, t1 - 0.9 * span, 0);
        if (frame % 97 == 96)
            t1 += 0.8 * span;           /* a jump: little to keep */
        double was = step;
        step = compare(cache, series, t1, span, frame, &whole);
        wobbles += step != was;
    }
    print_message("step changed %u times\n", wobbles);
    assert_true(wobbles >= 38);
    /* The last frame again, paused: nothing new to decimate. */
    uint64_t before = scope_column_cache_decimated(cache);
    compare(cache, series, t1, span, 399, &whole);
    assert_int_equal(scope_column_cache_decimated(cache), before);

    /* A scrolling frame decimates a few columns per track, not all. */
    print_message("%llu columns decimated of %llu\n",
                  (unsigned long long) scope_column_cache_decimated(cache),
                  (unsigned long long) whole);
    assert_true(scope_column_cache_decimated(cache) < whole / 5);
    /* Summaries read the columns near their ends and those new samples
     * changed, not all (compare() asks for one or two). */
    print_message("%llu columns summarised of %llu\n",
                  (unsigned long long) scope_column_cache_summarised(cache),
                  (unsigned long long) (2 * whole));
    assert_true(scope_column_cache_summarised(cache) < 2 * whole / 4);
    /* Nor the kept summaries of all the blocks in view: the middle of
     * the range, joined at the frame before, is read as one. Reading all
     * would be whole / 32 (the blocks' width), the stretches included. */
    print_message("%llu kept block summaries read for %llu columns\n",
                  (unsigned long long) scope_column_cache_blocks_read(cache),
                  (unsigned long long) whole);
    assert_true(scope_column_cache_blocks_read(cache) < whole / 64);
    scope_column_cache_delete(cache);
    test_series_delete(series);
}

/* A live view at 1 kHz: each frame decimates again the column that held
 * the newest sample, and the columns after it, and no other: the columns
 * before it hold what they held, and reading their samples again was a
 * cache miss a frame per track. */
static void test_live_frame_decimates_from_the_newest_column(void **state)
{
    (void) state;
    scope_series *series = test_series("live", 0, 0, 0, 0, 0);
    scope_column_cache *cache = scope_column_cache_new();
    assert_non_null(cache);
    static scope_column want[COLUMNS];
    const double step = 0.01;           /* ten samples a column */
    double t = 0.0003;
    unsigned checked = 0;
    for (unsigned frame = 0; frame < 200; frame++)
    {
        double t1 = 2 + 0.025 * frame;
        int64_t origin = (int64_t) floor(t1 / step) - COLUMNS + 1;
        /* The column the newest sample went to at the frame before. */
        int64_t holder = (int64_t) floor((t - 0.001) / step);
        while (t < t1 - 0.004)
        {
            scope_series_append(series, t, sin(t));
            t += 0.001;
        }
        scope_track_view track = scope_series_track(series,
                                                    SCOPE_TRACK_VALUE);
        uint64_t before = scope_column_cache_decimated(cache);
        const scope_column *got = scope_column_cache_get(
            cache, 0, series, &track, track.end, origin, step, COLUMNS);
        assert_non_null(got);
        scope_decimate(&track, track.first, track.end, origin, step, COLUMNS,
                       want);
        expect_same(got, want, COLUMNS, frame);
        if (frame == 0)
            continue;
        assert_int_equal(scope_column_cache_decimated(cache) - before,
                         origin + COLUMNS - holder);
        checked++;
    }
    assert_int_equal(checked, 199);
    scope_column_cache_delete(cache);
    test_series_delete(series);
}

/* Page faults taken by this process so far. */
static long page_faults(void)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

/* A frame writes no page of memory it has not written before: the room
 * the columns scroll into is made when the cache grows, not a page at a
 * time in the frames of the two widths after (a page fault each, dear
 * in a virtual machine). First of the tests: the memory the cache gets
 * has not been written by another. */
static void test_scrolling_takes_no_page_fault(void **state)
{
    (void) state;
    enum { WIDE = 4000, FRAMES = 3000 };
    const double step = 0.01;           /* one sample a column */
    scope_series *series = test_series("pages", 3 * WIDE + FRAMES * 3,
                                       0.005, step, 0, 1);
    scope_column_cache *cache = scope_column_cache_new();
    assert_non_null(cache);
    scope_track_view track = scope_series_track(series, SCOPE_TRACK_VALUE);
    assert_non_null(scope_column_cache_get(cache, 0, series, &track,
                                           track.end, 0, step, WIDE));
    long before = page_faults();
    for (unsigned frame = 1; frame <= FRAMES; frame++)
        assert_non_null(scope_column_cache_get(cache, 0, series, &track,
                                               track.end, 3 * frame, step,
                                               WIDE));
    long faults = page_faults() - before;
    print_message("%u frames scrolled over %u columns: %ld page faults\n",
                  FRAMES, 3 * FRAMES, faults);
    /* A sanitizer's runtime fills shadow memory and traces of its own as
     * the frames run: only the plain build can count the cache's. */
    if (!getenv("SANITIZED"))
        assert_true(faults < 4);
    scope_column_cache_delete(cache);
    test_series_delete(series);
}

/* Other samples at the same place: another series, or the same one
 * started over, are decimated afresh. */
static void test_other_samples_are_decimated_again(void **state)
{
    (void) state;
    scope_column_cache *cache = scope_column_cache_new();
    scope_series *a = test_series("a", 3000, 0, 0.001, 0, 1);
    uint64_t whole = 0;
    compare(cache, a, 2.5, 1.5, 2, &whole);
    scope_series_free(a);
    scope_series_init(a, "a", 0.99);
    for (unsigned i = 0; i < 3000; i++)
        scope_series_append(a, i * 0.001, -1.0 * i);
    compare(cache, a, 2.5, 1.5, 2, &whole);
    scope_series *b = test_series("b", 4000, 0, 0.001, 5, -1);
    compare(cache, b, 2.5, 1.5, 3, &whole);
    scope_column_cache_delete(cache);
    test_series_delete(a);
    test_series_delete(b);
}

/* The same samples asked for with a step a rounding error away from the
 * kept columns' one: a sample just outside them on either side may fall
 * into them now. */
#define EDGE_ORIGIN     250000          /* times around 1000 s */
#define EDGE_COLUMNS    100

static void check_edge(double sample, double kept_step, double step)
{
    scope_series *series = test_series("edge", 0, 0, 0, 0, 0);
    scope_series_append(series, 900.0, 1);
    scope_series_append(series, sample, 2);
    scope_series_append(series, 1100.0, 3);
    scope_column_cache *cache = scope_column_cache_new();
    scope_track_view track = scope_series_track(series, SCOPE_TRACK_VALUE);
    scope_column want[EDGE_COLUMNS];
    assert_non_null(scope_column_cache_get(cache, 0, series, &track,
                                           track.end, EDGE_ORIGIN, kept_step,
                                           EDGE_COLUMNS));
    const scope_column *got = scope_column_cache_get(cache, 0, series, &track,
                                                     track.end, EDGE_ORIGIN,
                                                     step, EDGE_COLUMNS);
    scope_decimate(&track, track.first, track.end, EDGE_ORIGIN, step,
                   EDGE_COLUMNS, want);
    expect_same(got, want, EDGE_COLUMNS, 0);
    scope_column_cache_delete(cache);
    test_series_delete(series);
}

static void test_kept_edges_follow_a_rounded_step(void **state)
{
    (void) state;
    double step = 0.004, more = step * (1 + 0x1p-40),
           less = step * (1 - 0x1p-40);
    /* Left of the first column, then in it. */
    check_edge(nextafter(EDGE_ORIGIN * step, 0), step, less);
    /* Right of the last column, then in it. */
    check_edge((EDGE_ORIGIN + EDGE_COLUMNS) * step, step, more);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scrolling_takes_no_page_fault),
        cmocka_unit_test(test_scrolling_columns_equal_whole_decimation),
        cmocka_unit_test(test_live_frame_decimates_from_the_newest_column),
        cmocka_unit_test(test_other_samples_are_decimated_again),
        cmocka_unit_test(test_kept_edges_follow_a_rounded_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
