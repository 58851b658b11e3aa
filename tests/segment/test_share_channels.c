/* test_share_channels.c - what a channel is costs the same whatever its
 * ring holds; what it holds (statistics) is a separate call that reads it.
 *
 * A writer child fills a channel with a deep ring (65536 records) and one
 * with a shallow one (16 records). recorder_share_channel_info() must tell
 * name, type and unit of both in about the same time; a call that walked
 * the ring would take thousands of times longer on the deep one. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"
#include "writer_child.h"

#include "recorder.h"
#include "recorder_share.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define DEEP_RECORDS    65536
#define SHALLOW_RECORDS 16

RECORDER(deep, DEEP_RECORDS, "A channel whose ring holds many records");
RECORDER(shallow, 64, "A channel whose ring holds a few records");

static void record_deep_and_shallow(void)
{
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s", path);
    /* "NAME," exports one channel ("NAME" alone would be a value). */
    if (recorder_trace_set(spec) != RECORDER_TRACE_OK ||
        recorder_trace_set("deep=deep_level,") != RECORDER_TRACE_OK ||
        recorder_trace_set("shallow=shallow_level,") != RECORDER_TRACE_OK)
        _exit(3);
    for (unsigned i = 0; i < DEEP_RECORDS; i++)
        record(deep, "Level %u mV", i);
    /* The newest record of the recorder lacks the argument: the type and
     * unit come from the newest one that has it. */
    record(deep, "Marker");
    for (int i = 0; i < SHALLOW_RECORDS; i++)
        record(shallow, "Level %d degrees", -i);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Best of several runs: the cost of the call itself, not of what else the
 * machine does meanwhile. */
#define RUNS 25

static double info_time(recorder_share *share, int channel,
                        recorder_share_channel *info)
{
    double best = 1e9;
    for (int run = 0; run < RUNS; run++)
    {
        double start = now();
        assert_true(recorder_share_channel_info(share, (unsigned) channel,
                                                info));
        double spent = now() - start;
        if (spent < best)
            best = spent;
    }
    return best;
}

static double stats_time(recorder_share *share, int channel,
                         recorder_share_stats *stats)
{
    double best = 1e9;
    for (int run = 0; run < 3; run++)
    {
        double start = now();
        assert_true(recorder_share_channel_stats(share, (unsigned) channel,
                                                 stats));
        double spent = now() - start;
        if (spent < best)
            best = spent;
    }
    return best;
}

static void test_channel_info_does_not_walk_the_ring(void **state)
{
    (void) state;
    child c = start_child(record_deep_and_shallow);
    char error[512];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    if (!share)
        fail_msg("cannot open %s: %s", path, error);
    int deep_channel = recorder_share_find_channel(share, "deep_level", -1);
    int shallow_channel = recorder_share_find_channel(share, "shallow_level",
                                                      -1);
    assert_true(deep_channel >= 0 && shallow_channel >= 0);

    recorder_share_channel deep_info, shallow_info;
    double deep = info_time(share, deep_channel, &deep_info);
    double shallow = info_time(share, shallow_channel, &shallow_info);
    assert_string_equal(deep_info.name, "deep_level");
    assert_int_equal(deep_info.type, RECORDER_SHARE_UNSIGNED);
    assert_string_equal(deep_info.unit, "mV");
    assert_string_equal(shallow_info.name, "shallow_level");
    assert_int_equal(shallow_info.type, RECORDER_SHARE_SIGNED);
    assert_string_equal(shallow_info.unit, "degrees");

    /* Statistics read the whole ring, and are right. */
    recorder_share_stats deep_stats, shallow_stats;
    double walked = stats_time(share, deep_channel, &deep_stats);
    stats_time(share, shallow_channel, &shallow_stats);
    /* The marker took the slot of the oldest level. */
    assert_int_equal(deep_stats.samples, DEEP_RECORDS - 1);
    assert_true(deep_stats.min == 1 && deep_stats.max == DEEP_RECORDS - 1);
    assert_int_equal(shallow_stats.samples, SHALLOW_RECORDS);
    assert_true(shallow_stats.min == -(SHALLOW_RECORDS - 1) &&
                shallow_stats.max == 0);

    print_message("channel info: deep ring %.2f us, shallow ring %.2f us; "
                  "deep statistics %.2f us\n", deep * 1e6, shallow * 1e6,
                  walked * 1e6);
    /* The clock tells a walk of the deep ring from the info call... */
    assert_true(walked > 20 * deep);
    /* ... and the info call costs the same on both rings (a walk would
     * take about DEEP_RECORDS / SHALLOW_RECORDS = 4096 times longer). */
    assert_true(deep < 20 * shallow);

    recorder_share_close(share);
    finish_child(&c, NULL, 0);
}

static void test_channel_without_records_has_no_type_and_no_samples(
    void **state)
{
    (void) state;
    child c = start_child(record_deep_and_shallow);
    char error[512];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    if (!share)
        fail_msg("cannot open %s: %s", path, error);
    /* A third channel on 'shallow', of an argument no record has. */
    assert_true(recorder_share_send(share, "shallow=shallow_level,none",
                                    2000, error, sizeof(error)));
    int none = recorder_share_find_channel(share, "none", -1);
    assert_true(none >= 0);
    recorder_share_channel info;
    assert_true(recorder_share_channel_info(share, (unsigned) none, &info));
    assert_int_equal(info.type, RECORDER_SHARE_NONE);
    assert_string_equal(info.unit, "");
    recorder_share_stats stats;
    assert_true(recorder_share_channel_stats(share, (unsigned) none, &stats));
    assert_int_equal(stats.samples, 0);
    assert_false(recorder_share_channel_stats(share, 9999, &stats));
    recorder_share_close(share);
    finish_child(&c, NULL, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_channel_info_does_not_walk_the_ring,
                                        make_directory, remove_directory),
        cmocka_unit_test_setup_teardown(
            test_channel_without_records_has_no_type_and_no_samples,
            make_directory, remove_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
