/* test_share_channels.c - what a channel is costs the same whatever its
 * ring holds; what it holds (statistics) is a separate call that reads it;
 * channels of one recorder read together are read as alone.
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
#include "mixed_writer.h"

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

#define BATCH   37

/* All of a channel's samples, read alone in batches of BATCH. */
static size_t read_alone(recorder_share *share, unsigned channel,
                         recorder_sample *out, size_t room)
{
    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    size_t total = 0, got;
    do
    {
        assert_true(total + BATCH <= room);
        got = recorder_share_read(share, channel, &cursor, out + total, BATCH,
                                  NULL);
        total += got;
    } while (got == BATCH);
    return total;
}

/* Three channels of one recorder read in one walk give each what it
 * gives read alone, sample for sample, though the channel with the most
 * samples fills each batch first. */
static void test_channels_read_together_as_alone(void **state)
{
    (void) state;
    child c = start_child(record_mixed);
    char error[512];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    if (!share)
        fail_msg("cannot open %s: %s", path, error);
    unsigned channels[3];
    const char *names[3] = { "first", "second", "third" };
    for (unsigned k = 0; k < 3; k++)
    {
        int found = recorder_share_find_channel(share, names[k], -1);
        assert_true(found >= 0);
        channels[k] = (unsigned) found;
    }
    enum { ROOM = MIXED_RECORDS + BATCH };
    static recorder_sample alone[3][ROOM], together[3][ROOM];
    size_t alone_count[3], together_count[3] = { 0, 0, 0 };
    for (unsigned k = 0; k < 3; k++)
        alone_count[k] = read_alone(share, channels[k], alone[k], ROOM);
    for (unsigned k = 0; k < 3; k++)
        assert_int_equal(alone_count[k], mixed_samples(names[k]));
    assert_true(alone_count[2] < alone_count[1] &&
                alone_count[1] < alone_count[0]);

    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    unsigned calls = 0;
    bool full;
    do
    {
        recorder_sample *out[3];
        size_t got[3];
        for (unsigned k = 0; k < 3; k++)
        {
            assert_true(together_count[k] + BATCH <= ROOM);
            out[k] = together[k] + together_count[k];
        }
        assert_true(recorder_share_read_channels(share, channels, 3, &cursor,
                                                 out, got, BATCH, NULL));
        full = false;
        for (unsigned k = 0; k < 3; k++)
        {
            assert_true(got[k] <= BATCH);
            together_count[k] += got[k];
            full |= got[k] == BATCH;
        }
        calls++;
    } while (full);
    /* Batches were filled by the first channel: as many calls as alone. */
    assert_int_equal(calls, MIXED_RECORDS / BATCH + 1);
    for (unsigned k = 0; k < 3; k++)
    {
        assert_int_equal(together_count[k], alone_count[k]);
        for (size_t i = 0; i < alone_count[k]; i++)
            assert_true(together[k][i].time == alone[k][i].time &&
                        together[k][i].value == alone[k][i].value);
    }
    assert_true(together[2][0].value == 2.0 * together[0][1].value);

    /* What it cannot read together it refuses, reading nothing. */
    int other = recorder_share_find_channel(share, "other", -1);
    assert_true(other >= 0);
    unsigned mixed_recorders[2] = { channels[0], (unsigned) other };
    recorder_sample *out[2] = { together[0], together[1] };
    size_t got[2] = { 7, 7 };
    recorder_share_cursor start = RECORDER_SHARE_CURSOR_START;
    assert_false(recorder_share_read_channels(share, mixed_recorders, 2,
                                              &start, out, got, BATCH, NULL));
    assert_false(recorder_share_read_channels(share, channels, 0, &start,
                                              out, got, BATCH, NULL));
    recorder_share_cursor untouched = RECORDER_SHARE_CURSOR_START;
    assert_memory_equal(&start, &untouched, sizeof(start));
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
        cmocka_unit_test_setup_teardown(test_channels_read_together_as_alone,
                                        make_directory, remove_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
