/* test_scope_frame_pace.c - frames paced by the data: a live graph gets a
 * frame when its edge has moved a pixel column, legend text at most four
 * times a second and only when it changed, nothing when nothing is new.
 * Time is simulated: a 60 Hz display ticks over a live view whose right
 * edge follows the clock. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "view/frame_pace.h"
#include "view/time_view.h"

#include <math.h>

#define TICK    (1.0 / 60)

/* A graph as the window draws it: the view, what it drew last. */
typedef struct sim
{
    scope_time_view view;
    double width;
    double drawn_t0, drawn_t1;
    double text_time;
    double last_frame, min_interval;    /* --fps */
    unsigned frames;
    double worst_lag;                   /* newest edge not yet drawn */
} sim;

static void sim_init(sim *s, double span, double width)
{
    scope_time_view_init(&s->view, span);
    s->width = width;
    s->drawn_t0 = s->drawn_t1 = NAN;
    s->text_time = -INFINITY;
    s->last_frame = -INFINITY;
    s->min_interval = 0;
    s->frames = 0;
    s->worst_lag = 0;
}

static scope_frame_pace sim_pace(const sim *s, double now, double edge,
                                 bool scrolling)
{
    scope_held held = { .oldest = 0, .newest = edge, .live_end = edge };
    scope_frame_pace pace = {
        .now = now,
        .drawn_t0 = s->drawn_t0,
        .drawn_t1 = s->drawn_t1,
        .width = s->width,
        .scrolling = scrolling,
        .text_time = s->text_time,
        .last_frame = s->last_frame,
        .min_interval = s->min_interval,
    };
    scope_time_view_window(&s->view, &held, &pace.t0, &pace.t1);
    return pace;
}

/* One display frame at 'now': draw if due. */
static bool sim_tick(sim *s, double now, double edge, bool scrolling,
                     double *next)
{
    scope_frame_pace pace = sim_pace(s, now, edge, scrolling);
    bool due = scope_frame_pace_due(&pace, next);
    if (due)
    {
        s->drawn_t0 = pace.t0;
        s->drawn_t1 = pace.t1;
        s->text_time = now;
        s->last_frame = now;
        s->frames++;
    }
    if (edge - s->drawn_t1 > s->worst_lag)
        s->worst_lag = edge - s->drawn_t1;
    return due;
}

/* 'seconds' of live data whose edge follows the clock, at 60 Hz. */
static void run_live(sim *s, double seconds)
{
    double next;
    for (double now = 100; now < 100 + seconds; now += TICK)
        sim_tick(s, now, now - 0.5, true, &next);
}

static void test_first_frame_is_due(void **state)
{
    (void) state;
    sim s;
    sim_init(&s, 10, 800);
    double next;
    assert_true(sim_tick(&s, 5, 4, true, &next));
    assert_float_equal(next, 5, 0);
    /* A plot not laid out yet has no columns to count: draw. */
    sim_init(&s, 10, 0);
    s.drawn_t0 = 0;
    s.drawn_t1 = 10;
    assert_true(sim_tick(&s, 5, 10, true, &next));
}

static void test_long_span_draws_few_frames(void **state)
{
    (void) state;
    sim s;
    sim_init(&s, 60, 900);              /* a column is 67 ms */
    run_live(&s, 10);
    assert_in_range(s.frames, 130, 160);  /* about 15 a second */
    /* Never more than a column and a display frame behind the data. */
    assert_true(s.worst_lag <= 60.0 / 900 + TICK + 1e-9);
}

static void test_short_span_draws_every_tick(void **state)
{
    (void) state;
    sim s;
    sim_init(&s, 1, 900);               /* a column is 1.1 ms */
    run_live(&s, 10);
    assert_in_range(s.frames, 598, 602);
}

static void test_span_of_one_column_per_tick(void **state)
{
    (void) state;
    /* 15 s over 900 px: a column every 16.7 ms, a frame each tick; the
     * rounding of the sums must not skip every other one. */
    sim s;
    sim_init(&s, 900 * TICK, 900);
    run_live(&s, 10);
    assert_in_range(s.frames, 598, 602);
}

static void test_ceiling_spaces_frames(void **state)
{
    (void) state;
    /* --fps 20 on a 1 s span that would draw every tick: 20 a second,
     * each scrolling by the columns passed since the last; and no frame
     * ever waits longer than the interval and a tick. */
    sim s;
    sim_init(&s, 1, 900);
    s.min_interval = 1.0 / 20;
    double next, last = NAN, longest = 0;
    for (double now = 100; now < 110; now += TICK)
        if (sim_tick(&s, now, now - 0.5, true, &next))
        {
            if (isfinite(last) && now - last > longest)
                longest = now - last;
            last = now;
        }
        else
            assert_true(next > now && next <= s.last_frame + 0.05 + 1e-9);
    assert_in_range(s.frames, 190, 201);
    assert_true(longest <= 0.05 + TICK + 1e-9);
    /* A span whose columns come slower than the ceiling keeps its pace. */
    sim slow;
    sim_init(&slow, 60, 900);
    slow.min_interval = 1.0 / 20;
    run_live(&slow, 10);
    assert_in_range(slow.frames, 130, 160);
    /* Text that must change at once is not held back. */
    scope_frame_pace pace = sim_pace(&s, s.last_frame + 0.01,
                                     s.last_frame - 0.5, true);
    pace.changed = true;
    assert_true(scope_frame_pace_due(&pace, &next));
}

static void test_next_says_when(void **state)
{
    (void) state;
    /* Sleeping until *next instead of ticking draws the same frames. */
    sim ticked, slept;
    sim_init(&ticked, 60, 900);
    sim_init(&slept, 60, 900);
    run_live(&ticked, 10);
    double now = 100, next;
    unsigned checks = 0;
    while (now < 110)
    {
        checks++;
        if (sim_tick(&slept, now, now - 0.5, true, &next))
            next = now + TICK;          /* the frame after a frame */
        assert_true(next > now);
        /* Woken on the display frame at or after 'next'. */
        now = 100 + ceil((next - 100) / TICK - 1e-9) * TICK;
    }
    assert_in_range(slept.frames, ticked.frames - 3, ticked.frames + 3);
    assert_true(checks < 2 * slept.frames + 10);
    assert_true(slept.worst_lag <= 60.0 / 900 + TICK + 1e-9);
}

static void test_nothing_new_no_frames(void **state)
{
    (void) state;
    sim s;
    sim_init(&s, 10, 800);
    double next;
    assert_true(sim_tick(&s, 100, 50, true, &next));
    /* The writer stopped: the edge stays; nothing is due, ever. */
    for (double now = 100 + TICK; now < 105; now += TICK)
    {
        assert_false(sim_tick(&s, now, 50, false, &next));
        assert_true(isinf(next));
    }
    assert_int_equal(s.frames, 1);
}

/* A fresh start: the span stands on the first sample while the data's
 * edge moves across it; that edge paces the frames as a scroll would,
 * and a writer that stops stops them. */
static void test_filling_span_draws_as_data_arrives(void **state)
{
    (void) state;
    scope_time_view view;
    scope_time_view_init(&view, 10);
    double drawn_t0 = NAN, drawn_t1 = NAN, drawn_lead = NAN, worst = 0;
    unsigned frames = 0;
    for (double now = 1; now < 4; now += TICK)
    {
        bool moving = now < 3;
        double edge = moving ? now : 3;
        scope_held held = { .oldest = 0.5, .newest = edge, .live_end = edge };
        scope_frame_pace pace = {
            .now = now, .drawn_t0 = drawn_t0, .drawn_t1 = drawn_t1,
            .width = 800, .scrolling = moving,
            .filling = scope_time_view_filling(&view, &held),
            .lead = edge, .drawn_lead = drawn_lead,
            .text_time = now, .last_frame = -INFINITY,
        };
        assert_true(pace.filling);
        scope_time_view_window(&view, &held, &pace.t0, &pace.t1);
        assert_float_equal(pace.t0, 0.5, 0);
        double next;
        if (scope_frame_pace_due(&pace, &next))
        {
            drawn_t0 = pace.t0;
            drawn_t1 = pace.t1;
            drawn_lead = edge;
            frames++;
            assert_true(moving || frames == 1 || drawn_lead == 3);
        }
        else if (!moving)
            assert_true(isinf(next));
        if (edge - drawn_lead > worst)
            worst = edge - drawn_lead;
    }
    /* Two seconds of a 12.5 ms column at 60 Hz: nearly every tick, and
     * none once the data stopped (one to show its last edge at most). */
    assert_in_range(frames, 110, 125);
    assert_true(worst <= 10.0 / 800 + TICK + 1e-9);
}

static void test_paused_no_frames(void **state)
{
    (void) state;
    sim s;
    sim_init(&s, 10, 800);
    double next;
    assert_true(sim_tick(&s, 100, 50, true, &next));
    scope_held held = { .oldest = 0, .newest = 50, .live_end = 50 };
    scope_time_view_pause(&s.view, &held);
    /* Data flows on, the paused span stays. */
    for (double now = 100 + TICK; now < 105; now += TICK)
        assert_false(sim_tick(&s, now, now - 50, true, &next));
    assert_int_equal(s.frames, 1);
}

static void test_text_refresh_at_most_four_a_second(void **state)
{
    (void) state;
    sim s;
    sim_init(&s, 10, 800);
    double next;
    assert_true(sim_tick(&s, 100, 50, false, &next));
    unsigned frames = 0;
    for (double now = 100 + TICK; now < 110; now += TICK)
    {
        scope_frame_pace pace = sim_pace(&s, now, 50, false);
        pace.stale = true;              /* the values shown are old */
        if (scope_frame_pace_due(&pace, &next))
        {
            s.text_time = now;
            frames++;
        }
        else
        {
            assert_float_equal(next, s.text_time + SCOPE_TEXT_REFRESH, 1e-9);
        }
    }
    assert_in_range(frames, 36, 40);
    /* Text that changes at once (a message) does not wait. */
    scope_frame_pace pace = sim_pace(&s, s.text_time + 0.01, 50, false);
    pace.changed = true;
    assert_true(scope_frame_pace_due(&pace, &next));
}

static void test_zoom_draws_at_once(void **state)
{
    (void) state;
    sim s;
    sim_init(&s, 60, 900);
    double next;
    assert_true(sim_tick(&s, 100, 50, false, &next));
    /* A live zoom about the right edge: the left edge moves by far more
     * than a column though the right one stays. */
    scope_held held = { .oldest = 0, .newest = 50, .live_end = 50 };
    scope_time_view_zoom(&s.view, &held, 0.5, INFINITY);
    assert_true(sim_tick(&s, 100 + TICK, 50, false, &next));
}

static void test_column(void **state)
{
    (void) state;
    assert_float_equal(scope_frame_pace_column(0, 60, 900), 60.0 / 900, 1e-12);
    assert_true(isnan(scope_frame_pace_column(0, 60, 0)));
    assert_true(isnan(scope_frame_pace_column(5, 5, 900)));
    assert_true(isnan(scope_frame_pace_column(0, INFINITY, 900)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_frame_is_due),
        cmocka_unit_test(test_long_span_draws_few_frames),
        cmocka_unit_test(test_short_span_draws_every_tick),
        cmocka_unit_test(test_span_of_one_column_per_tick),
        cmocka_unit_test(test_ceiling_spaces_frames),
        cmocka_unit_test(test_next_says_when),
        cmocka_unit_test(test_nothing_new_no_frames),
        cmocka_unit_test(test_filling_span_draws_as_data_arrives),
        cmocka_unit_test(test_paused_no_frames),
        cmocka_unit_test(test_text_refresh_at_most_four_a_second),
        cmocka_unit_test(test_zoom_draws_at_once),
        cmocka_unit_test(test_column),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
