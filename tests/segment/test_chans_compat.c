/* test_chans_compat.c - a reader written for recorder 1.2 (recorder_chans_open,
 * recorder_chan_find, recorder_chan_read...) reads the channels a writer of
 * this library exports: names, units, types, values, times, min and max.
 * The reader uses only the 1.2 names of the public header. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"
#include "writer_child.h"

#include "recorder.h"

#include <string.h>
#include <time.h>

RECORDER(speed, 64, "Speed of the vehicle");
RECORDER(temperature, 64, "Engine temperature");
RECORDER(items, 64, "Items in the queue");
RECORDER(position, 128, "Position on the track");

#define SAMPLES         16

static void export_and_record(void)
{
    share_at(path);
    if (recorder_trace_set("speed=speed_value,") != RECORDER_TRACE_OK ||
        recorder_trace_set("temperature=temp_value,") != RECORDER_TRACE_OK ||
        recorder_trace_set("items=queue_length,") != RECORDER_TRACE_OK ||
        recorder_trace_set("position=pos_x,pos_y") != RECORDER_TRACE_OK)
        _exit(3);
    for (int i = 0; i < SAMPLES; i++)
    {
        record(speed, "Speed %d km/h", i - 5);
        record(temperature, "Temperature %f C", 20.5 + i * 0.25);
        record(items, "Queue %u items", (unsigned) (100 + 3 * i));
        record(position, "At %d mm, %d mm", i, -2 * i);
    }
}

static recorder_chan_p find(recorder_chans_p chans, const char *name)
{
    recorder_chan_p chan = recorder_chan_find(chans, name, NULL);
    if (!chan)
        fail_msg("no channel '%s'", name);
    assert_string_equal(recorder_chan_name(chan), name);
    return chan;
}

/* Read everything from '*reader', in chunks of 'chunk', as 1.2's scope did:
 * readable, then read that much. */
static size_t read_all(recorder_chan_p chan, ringidx_t *reader,
                       recorder_data *data, size_t max, size_t chunk)
{
    size_t got = 0;
    size_t readable;
    while ((readable = recorder_chan_readable(chan, reader)) > 0 && got < max)
    {
        size_t want = readable < chunk ? readable : chunk;
        if (want > max - got)
            want = max - got;
        size_t n = recorder_chan_read(chan, data + 2 * got, want, reader);
        assert_int_equal(n, want);
        got += n;
    }
    return got;
}

static void test_reader_of_1_2_reads_our_channels(void **state)
{
    (void) state;
    child c = start_child(export_and_record);
    recorder_chans_p chans = recorder_chans_open(path);
    assert_non_null(chans);
    assert_true(recorder_chans_valid(chans));

    /* Signed: values, times, min and max, in chunks smaller than the ring. */
    recorder_chan_p speed = find(chans, "speed_value");
    assert_string_equal(recorder_chan_unit(speed), "km/h");
    assert_string_equal(recorder_chan_description(speed),
                        "Speed of the vehicle");
    assert_int_equal(recorder_chan_type(speed), RECORDER_SIGNED);
    assert_true(recorder_chan_size(speed) >= SAMPLES);
    ringidx_t reader = 0;
    assert_int_equal(recorder_chan_readable(speed, &reader), SAMPLES);
    recorder_data data[2 * SAMPLES];
    assert_int_equal(read_all(speed, &reader, data, SAMPLES, 5), SAMPLES);
    assert_int_equal(reader, SAMPLES);
    for (int i = 0; i < SAMPLES; i++)
    {
        assert_int_equal(data[2 * i + 1].signed_value, i - 5);
        if (i)
            assert_true(data[2 * i].unsigned_value >=
                        data[2 * i - 2].unsigned_value);
    }
    /* Times are RECORDER_HZ ticks since the writer started: under a minute. */
    assert_true(data[2 * (SAMPLES - 1)].unsigned_value < 60u * RECORDER_HZ);
    assert_int_equal(recorder_chan_readable(speed, &reader), 0);
    assert_int_equal(recorder_chan_min(speed).signed_value, -5);
    assert_int_equal(recorder_chan_max(speed).signed_value, SAMPLES - 6);

    /* Another reader index reads the same samples again, on its own. */
    ringidx_t other = 0;
    assert_int_equal(recorder_chan_read(speed, data, 3, &other), 3);
    assert_int_equal(data[1].signed_value, -5);
    assert_int_equal(other, 3);
    /* Rewinding an index starts again from the oldest sample. */
    reader = 0;
    assert_int_equal(recorder_chan_readable(speed, &reader), SAMPLES);

    /* Real. */
    recorder_chan_p temp = find(chans, "temp_value");
    assert_int_equal(recorder_chan_type(temp), RECORDER_REAL);
    assert_string_equal(recorder_chan_unit(temp), "C");
    ringidx_t temp_reader = 0;
    assert_int_equal(read_all(temp, &temp_reader, data, SAMPLES, SAMPLES),
                     SAMPLES);
    for (int i = 0; i < SAMPLES; i++)
        assert_true(data[2 * i + 1].real_value == 20.5 + i * 0.25);
    assert_true(recorder_chan_min(temp).real_value == 20.5);
    assert_true(recorder_chan_max(temp).real_value ==
                20.5 + (SAMPLES - 1) * 0.25);

    /* Unsigned, and the handle's own reader (NULL). */
    recorder_chan_p queue = find(chans, "queue_length");
    assert_int_equal(recorder_chan_type(queue), RECORDER_UNSIGNED);
    assert_string_equal(recorder_chan_unit(queue), "items");
    assert_int_equal(recorder_chan_read(queue, data, SAMPLES, NULL), SAMPLES);
    assert_int_equal(data[2 * (SAMPLES - 1) + 1].unsigned_value,
                     100 + 3 * (SAMPLES - 1));
    assert_int_equal(recorder_chan_readable(queue, NULL), 0);
    assert_int_equal(recorder_chan_min(queue).unsigned_value, 100);

    /* Two channels of one recorder. */
    recorder_chan_p pos_y = find(chans, "pos_y");
    ringidx_t y_reader = 0;
    assert_int_equal(read_all(pos_y, &y_reader, data, SAMPLES, 4), SAMPLES);
    assert_int_equal(data[2 * 7 + 1].signed_value, -14);
    assert_string_equal(recorder_chan_unit(pos_y), "mm");

    /* Every channel, once each, by iterating with 'after'. */
    unsigned found = 0;
    for (recorder_chan_p chan = recorder_chan_find(chans, ".*", NULL); chan;
         chan = recorder_chan_find(chans, ".*", chan))
        found++;
    assert_int_equal(found, 5);
    assert_null(recorder_chan_find(chans, "no_such_channel", NULL));
    assert_true(recorder_chan_find(chans, "pos_.*", NULL) ==
                recorder_chan_find(chans, "pos_x", NULL));

    /* A configuration reaches the writer: here, a new export. */
    assert_true(recorder_chans_configure(chans, "speed=speed_copy,"));
    recorder_chan_p copy = NULL;
    for (int tries = 0; tries < 400 && !copy; tries++)
    {
        struct timespec pause = { 0, 5000000 };
        nanosleep(&pause, NULL);
        copy = recorder_chan_find(chans, "speed_copy", NULL);
    }
    assert_non_null(copy);

    finish_child(&c, NULL, 0);
    /* The writer exited: its data is still there. */
    assert_true(recorder_chans_valid(chans));
    reader = 0;
    assert_int_equal(recorder_chan_readable(speed, &reader), SAMPLES);

    /* A new writer at the same path: the old handles no longer read. */
    child again = start_child(export_and_record);
    assert_false(recorder_chans_valid(chans));
    reader = 0;
    assert_int_equal(recorder_chan_readable(speed, &reader), 0);
    recorder_chans_close(chans);
    finish_child(&again, NULL, 0);
}

static void test_open_reports_a_missing_segment(void **state)
{
    (void) state;
    assert_null(recorder_chans_open(path));      /* nothing there yet */
    assert_null(recorder_chan_find(NULL, ".*", NULL));
    assert_false(recorder_chans_valid(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reader_of_1_2_reads_our_channels,
                                        make_directory, remove_directory),
        cmocka_unit_test_setup_teardown(test_open_reports_a_missing_segment,
                                        make_directory, remove_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
