/* test_scope_segment_read.c - a graph's channels hold what the segment
 * holds, sample for sample: a recorder's channels, read in one walk of
 * its ring, as a channel of another recorder, read by itself.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"
#include "writer_child.h"
#include "mixed_writer.h"

#include "source/source.h"

#include <math.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The series holds the channel's samples as recorder_share_read() alone
 * gives them. */
static void assert_series_is_channel(recorder_share *share,
                                     const scope_series *series,
                                     size_t expected)
{
    int channel = recorder_share_find_channel(share, series->name, -1);
    assert_true(channel >= 0);
    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    static recorder_sample alone[MIXED_RECORDS + 1];
    size_t count = recorder_share_read(share, (unsigned) channel, &cursor,
                                       alone, MIXED_RECORDS + 1, NULL);
    assert_int_equal(count, expected);
    assert_int_equal(series->end - series->first, count);
    const double *values = series->track[SCOPE_TRACK_VALUE];
    for (size_t i = 0; i < count; i++)
    {
        uint64_t at = series->first + i - series->base;
        assert_true(series->time[at] == alone[i].time);
        assert_true(values[at] == alone[i].value);
    }
}

static void test_channels_hold_the_segment(void **state)
{
    (void) state;
    child c = start_child(record_mixed);
    scope_source_config config = { .duration = 0, .ratio = 0.9 };
    scope_source *source = scope_source_new(path, &config);
    assert_non_null(source);
    assert_int_equal(scope_source_add_graph(source, "first|second|third|other"),
                     0);
    /* Attach and find the channels, then read them all. */
    for (int poll = 0; poll < 3; poll++)
        scope_source_poll(source, now());
    unsigned count = 0;
    scope_series *const *series = scope_source_graph_series(source, 0, &count);
    assert_int_equal(count, 4);
    recorder_share *share = scope_source_share(source);
    assert_non_null(share);
    for (unsigned s = 0; s < count; s++)
    {
        size_t expected = mixed_samples(series[s]->name);
        assert_series_is_channel(share, series[s], expected);
        assert_int_equal(series[s]->lost, 0);
    }
    scope_source_delete(source);
    finish_child(&c, NULL, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_channels_hold_the_segment,
                                        make_directory, remove_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
