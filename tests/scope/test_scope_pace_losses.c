/* test_scope_pace_losses.c - the plain-C pieces behind the timing view,
 * the loss rate and the pause of slow channels: the timing axis's unit,
 * losses over the last second (with made-up times), and the usual gap
 * between a channel's samples. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "source/loss_rate.h"
#include "source/sample_pace.h"
#include "view/timing_unit.h"

#include <math.h>
#include <string.h>

/* ---- timing axis unit ------------------------------------------------------ */

static void test_timing_unit_follows_the_magnitude(void **state)
{
    (void) state;
    static const struct { double us; const char *unit; double scale; } cases[] = {
        { 0.3, "ns", 1e3 },             /* 300 ns */
        { 0.999, "ns", 1e3 },           /* 999 ns */
        { 0.9999, "us", 1 },            /* rounds to 1 us, not 1000 ns */
        { 1, "us", 1 },
        { 250, "us", 1 },
        { 999, "us", 1 },
        { 1000, "ms", 1e-3 },
        { 12500, "ms", 1e-3 },
        { 999e3, "ms", 1e-3 },
        { 1e6, "s", 1e-6 },
        { 1.1e6, "s", 1e-6 },
        { 3600e6, "s", 1e-6 },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    {
        scope_timing_unit unit = scope_timing_unit_for(cases[i].us);
        assert_string_equal(unit.name, cases[i].unit);
        assert_true(unit.scale == cases[i].scale);
        /* The largest interval reads from 1 to 1000 of the unit (an
         * hour is 3600 s: there is no larger unit). */
        double shown = cases[i].us * unit.scale;
        assert_true(shown >= 0.999);
        assert_true(shown < 1000 || unit.scale == 1e-6);
    }
    /* Nothing shown yet: microseconds, as stored. */
    assert_string_equal(scope_timing_unit_for(NAN).name, "us");
    assert_string_equal(scope_timing_unit_for(0).name, "us");
}

/* ---- losses over the last second ------------------------------------------ */

static void test_loss_rate_shows_then_fades(void **state)
{
    (void) state;
    scope_loss_rate rate;
    scope_loss_rate_init(&rate);
    double now = 1000;
    assert_true(scope_loss_rate_recent(&rate, now) == 0);
    /* Half a second of polls every 20 ms: 968 read, 32 lost. */
    for (int i = 0; i < 25; i++, now += 0.02)
        scope_loss_rate_add(&rate, now, i < 24 ? 39 : 32, i < 16 ? 2 : 0);
    double share = scope_loss_rate_recent(&rate, now);
    assert_true(fabs(share - 32.0 / 1000) < 1e-12);
    char text[64];
    scope_loss_rate_text(share, text, sizeof(text));
    assert_string_equal(text, "lost 3.2% in the last second");

    /* Losses stop, reads go on: still said within the second... */
    for (int i = 0; i < 20; i++, now += 0.02)
        scope_loss_rate_add(&rate, now, 40, 0);
    assert_true(scope_loss_rate_recent(&rate, now) > 0);
    /* ...and gone a second after the last one. */
    for (int i = 0; i < 40; i++, now += 0.02)
        scope_loss_rate_add(&rate, now, 40, 0);
    assert_true(scope_loss_rate_recent(&rate, now) == 0);
    scope_loss_rate_text(scope_loss_rate_recent(&rate, now), text,
                         sizeof(text));
    assert_string_equal(text, "");
}

static void test_loss_rate_fades_without_reads(void **state)
{
    (void) state;
    /* The program stopped: no adds at all, the share still goes. */
    scope_loss_rate rate;
    scope_loss_rate_init(&rate);
    scope_loss_rate_add(&rate, 50.0, 0, 100);
    assert_true(scope_loss_rate_recent(&rate, 50.0) == 1);
    assert_true(scope_loss_rate_recent(&rate, 50.95) == 1);
    assert_true(scope_loss_rate_recent(&rate, 51.2) == 0);
    assert_true(scope_loss_rate_recent(&rate, 500) == 0);
    /* Much later, new losses count alone. */
    scope_loss_rate_add(&rate, 500, 3, 1);
    assert_true(scope_loss_rate_recent(&rate, 500) == 0.25);
}

static void test_loss_rate_text_is_short_and_readable(void **state)
{
    (void) state;
    char text[64];
    scope_loss_rate_text(0.5, text, sizeof(text));
    assert_string_equal(text, "lost 50% in the last second");
    scope_loss_rate_text(1e-5, text, sizeof(text));
    assert_string_equal(text, "lost <0.1% in the last second");
    scope_loss_rate_text(0, text, sizeof(text));
    assert_string_equal(text, "");
}

/* ---- usual gap between samples -------------------------------------------- */

static void test_pace_of_a_regular_channel_is_its_period(void **state)
{
    (void) state;
    scope_pace pace;
    scope_pace_init(&pace);
    assert_true(isnan(scope_pace_usual(&pace)));
    scope_pace_add(&pace, NAN);             /* no previous sample */
    assert_true(isnan(scope_pace_usual(&pace)));
    for (int i = 0; i < 100; i++)
        scope_pace_add(&pace, 1.1 + (i % 5) * 0.01);
    double usual = scope_pace_usual(&pace);
    assert_true(usual >= 1.1 && usual <= 1.15);
}

static void test_pace_ignores_a_few_pauses(void **state)
{
    (void) state;
    scope_pace pace;
    scope_pace_init(&pace);
    for (int i = 0; i < 40; i++)
        scope_pace_add(&pace, i == 10 || i == 30 ? 60.0 : 0.001);
    assert_true(scope_pace_usual(&pace) == 0.001);
}

static void test_pace_of_bursts_is_the_time_between_them(void **state)
{
    (void) state;
    /* Bursts of 5 samples 1 ms apart, every 1.5 s. */
    scope_pace pace;
    scope_pace_init(&pace);
    for (int i = 0; i < 100; i++)
        scope_pace_add(&pace, i % 5 ? 0.001 : 1.496);
    assert_true(scope_pace_usual(&pace) == 1.496);
}

static void test_pace_with_few_gaps(void **state)
{
    (void) state;
    scope_pace pace;
    scope_pace_init(&pace);
    scope_pace_add(&pace, 2);
    assert_true(scope_pace_usual(&pace) == 2);
    scope_pace_add(&pace, 1);
    assert_true(scope_pace_usual(&pace) == 1);
    scope_pace_add(&pace, 3);
    assert_true(scope_pace_usual(&pace) == 1);
    scope_pace_add(&pace, 4);
    assert_true(scope_pace_usual(&pace) == 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timing_unit_follows_the_magnitude),
        cmocka_unit_test(test_loss_rate_shows_then_fades),
        cmocka_unit_test(test_loss_rate_fades_without_reads),
        cmocka_unit_test(test_loss_rate_text_is_short_and_readable),
        cmocka_unit_test(test_pace_of_a_regular_channel_is_its_period),
        cmocka_unit_test(test_pace_ignores_a_few_pauses),
        cmocka_unit_test(test_pace_of_bursts_is_the_time_between_them),
        cmocka_unit_test(test_pace_with_few_gaps),
    };
    return cmocka_run_group_tests_name("scope_pace_losses", tests, NULL, NULL);
}
