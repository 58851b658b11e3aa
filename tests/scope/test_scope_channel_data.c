/* test_scope_channel_data.c - channel histories, and a scope_source that
 * follows a writer process: waiting, reading, channels added later, the
 * program exiting and a new one replacing it, a corrupt segment.
 *
 * Writers are forked children that record known values and then wait for
 * the next step; the source is polled with made-up monotonic times, so
 * retry delays pass instantly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"

#include "source/channel_data.h"
#include "scope_test_series.h"
#include "scope_test_writer.h"

#include <recorder/recorder.h>

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

RECORDER(scoped, 256, "Known values for the scope source tests");
RECORDER(later, 64, "Exported only in a second step");
RECORDER(laps, 64, "Counted by two threads; one laps its lane");
RECORDER(slow, 64, "One sample per step");


static void record_values(long base)
{
    recorder_trace_set("scoped=speed,load,_,other");
    for (long i = 0; i < 50; i++)
        record(scoped, "Speed %ld m/s, load %d %%, skip %d, other %f",
               base + i, (int) (i % 7), 0, i * 0.5);
}

static void export_later(long base)
{
    recorder_trace_set("later=late,");
    for (long i = 0; i < 5; i++)
        record(later, "Late %ld", base * 2 + i);
}

/* One count after another, from the main thread's lane and then from a
 * second thread's, which writes four times its lane: the records lost sit
 * in the middle of the next read, between the two lanes' samples. */
static long counted;

static void count_from_main(long n)
{
    recorder_trace_set("laps=count,");
    for (long i = 0; i < n; i++)
        record(laps, "Count %ld", counted++);
}

static void *count_from_thread(void *arg)
{
    (void) arg;
    for (int i = 0; i < 8000; i++)        /* an exported ring is 2048 */
        record(laps, "Count %ld", counted++);
    return NULL;
}

static void count_in_two_lanes(long n)
{
    count_from_main(n / 2);
    pthread_t thread;
    if (pthread_create(&thread, NULL, count_from_thread, NULL) != 0 ||
        pthread_join(thread, NULL) != 0)
        abort();
}

static void one_sample(long value)
{
    recorder_trace_set("slow=tick,");
    record(slow, "Tick %ld", value);
}

/* 4 and 1 500 samples: under and over a quarter of the ring the segment
 * gives 'slow' (2 048 slots a lane: checked below), short of all of it. */
static void few_samples(long value)
{
    recorder_trace_set("slow=tick,");
    for (long i = 0; i < 4; i++)
        record(slow, "Tick %ld", value + i);
}

static void many_samples(long value)
{
    recorder_trace_set("slow=tick,");
    for (long i = 0; i < 1500; i++)
        record(slow, "Tick %ld", value + i);
}

/* ---- polling helpers ------------------------------------------------------- */

static double now;

static scope_source *new_source(void)
{
    scope_source_config config = { .duration = 0, .keep = 0, .ratio = 0.9 };
    now = 1000;
    return scope_source_new(path, &config);
}

/* Poll every 20 ms of made-up time for 'seconds'; OR of what was found. */
static unsigned poll_for(scope_source *source, double seconds)
{
    unsigned found = 0;
    for (double end = now + seconds; now < end; now += 0.02)
        found |= scope_source_poll(source, now);
    return found;
}

/* Poll until the graph has 'count' samples in each channel (real time
 * passes too: a writer may still be publishing). */
static void poll_until_samples(scope_source *source, unsigned graph,
                               unsigned channels, uint64_t count)
{
    for (int tries = 0; tries < 500; tries++)
    {
        poll_for(source, 0.02);
        unsigned n;
        scope_series *const *series = scope_source_graph_series(source, graph, &n);
        unsigned complete = 0;
        for (unsigned s = 0; s < n; s++)
            if (series[s]->end - series[s]->first >= count)
                complete++;
        if (n == channels && complete == channels)
            return;
        usleep(2000);
    }
    fail_msg("graph %u never got %u channels of %lu samples", graph, channels,
             (unsigned long) count);
}

static scope_series *series_named(scope_source *source, unsigned graph,
                                  const char *name)
{
    unsigned n;
    scope_series *const *series = scope_source_graph_series(source, graph, &n);
    for (unsigned s = 0; s < n; s++)
        if (strcmp(series[s]->name, name) == 0)
            return series[s];
    return NULL;
}

static double value_at(const scope_series *s, uint64_t i)
{
    return s->track[SCOPE_TRACK_VALUE][i - s->base];
}

/* ---- history ---------------------------------------------------------------- */

static void test_history_keeps_the_newest_samples(void **state)
{
    (void) state;
    scope_series *s = test_series("h", 5000, 0, 0.001, 0, 1);
    assert_int_equal(s->end - s->first, 5000);
    /* The oldest time kept (the held range's left end) follows. */
    assert_true(s->oldest_time == s->time[s->first - s->base]);
    scope_series_trim(s, -INFINITY, 1000);
    assert_int_equal(s->first, 4000);
    assert_true(value_at(s, 4000) == 4000);
    assert_true(s->oldest_time == s->time[4000 - s->base]);
    scope_series_trim(s, 4.5, 0);                /* older than 4.5 s goes */
    assert_true(s->time[s->first - s->base] >= 4.5);
    assert_true(s->oldest_time == s->time[s->first - s->base]);
    for (unsigned i = 0; i < 100000; i++)      /* compaction, not growth */
    {
        scope_series_append(s, 5 + i * 0.001, i);
        scope_series_trim(s, -INFINITY, 2000);
        assert_true(s->oldest_time == s->time[s->first - s->base]);
    }
    assert_true(s->capacity <= 8192);
    assert_true(value_at(s, s->end - 1) == 99999);
    /* Emptied, then a first sample again. */
    scope_series_trim(s, INFINITY, 0);
    assert_true(s->first == s->end);
    assert_true(scope_series_append(s, 200, 1));
    assert_true(s->oldest_time == 200);
    test_series_delete(s);
}

/* The average and envelope are worked out when a view asks, from where
 * they were: the same numbers as working them out for every sample as it
 * came, though samples went (trimmed and compacted away) in between; while
 * no view asks, nothing is stored, and only the samples compacted away go
 * through it. */
static void test_average_and_envelope_wait_for_a_view(void **state)
{
    (void) state;
    enum { COUNT = 60000 };
    scope_series *s = malloc(sizeof(*s));
    assert_non_null(s);
    scope_series_init(s, "e", 0.99);
    scope_stats eager;
    scope_stats_init(&eager, 0.99);
    static double want[COUNT][SCOPE_TRACKS];
    srand(3);
    for (unsigned i = 0; i < COUNT; i++)
    {
        double v = (i % 997 == 5) ? NAN : sin(i * 0.01) * 50 + rand() % 40;
        scope_stats_add(&eager, i * 0.001, v, want[i]);
        assert_true(scope_series_append(s, i * 0.001, v));
        scope_series_trim(s, -INFINITY, 3000);
        if (i < 20000)
            continue;                   /* no view asked yet */
        if (i == 20000)                 /* only through samples gone */
            assert_true(s->derived <= s->first);
        if (rand() % 50 == 0 || i == COUNT - 1)
        {
            scope_series_derive(s);
            assert_int_equal(s->derived, s->end);
            for (uint64_t k = s->first; k < s->end; k++)
                for (unsigned t = SCOPE_TRACK_AVERAGE; t <= SCOPE_TRACK_MAX;
                     t++)
                {
                    double got = s->track[t][k - s->base];
                    assert_true(got == want[k][t] ||
                                (isnan(got) && isnan(want[k][t])));
                }
        }
    }
    for (uint64_t k = s->first; k < s->end; k++)
        assert_true(s->track[SCOPE_TRACK_INTERVAL][k - s->base] ==
                    want[k][SCOPE_TRACK_INTERVAL]);
    assert_true(s->capacity <= 8192);           /* compacted meanwhile */
    test_series_delete(s);
}

static void test_history_times_never_go_back(void **state)
{
    (void) state;
    scope_series *s = test_series("t", 3, 10, 1, 0, 1);
    scope_series_append(s, 5, 99);
    assert_true(s->time[s->end - 1 - s->base] == 12);
    test_series_delete(s);
}

static void test_visible_samples_by_time_and_cap(void **state)
{
    (void) state;
    scope_series *s = test_series("v", 100, 0, 0.1, 0, 1);
    uint64_t first, end;
    assert_false(scope_series_visible(s, 2.0, 3.0, 0, &first, &end));
    assert_int_equal(first, 20);
    assert_int_equal(end, 31);                  /* 3.0 itself is shown */
    assert_true(scope_series_visible(s, 2.0, 3.0, 4, &first, &end));
    assert_int_equal(first, 27);
    assert_int_equal(end, 31);
    /* A cap the span fits in leaves nothing out. */
    assert_false(scope_series_visible(s, 2.0, 3.0, 11, &first, &end));
    assert_int_equal(first, 20);
    scope_series_visible(s, NAN, NAN, 0, &first, &end);
    assert_int_equal(end - first, 100);
    test_series_delete(s);
}

/* ---- following a segment ---------------------------------------------------- */

static void test_source_waits_for_the_segment(void **state)
{
    (void) state;
    scope_source *source = new_source();
    scope_source_add_graph(source, "speed");
    poll_for(source, 0.5);
    assert_int_equal(scope_source_get_state(source), SCOPE_SOURCE_WAITING);
    char expected[400], message[400];
    snprintf(expected, sizeof(expected), "waiting for %s", path);
    assert_string_equal(scope_source_message(source), expected);
    scope_source_graph_message(source, 0, now, message, sizeof(message));
    assert_string_equal(message, expected);
    scope_source_delete(source);
}

static void test_source_reads_the_channels_each_graph_matches(void **state)
{
    (void) state;
    static const step_fn steps[] = { record_values };
    writer w = start_writer(path, steps, 1, 100);
    scope_source *source = new_source();
    scope_source_add_graph(source, "speed|load");
    scope_source_add_graph(source, NULL);
    scope_source_add_graph(source, "nothing.*");
    scope_source_add_graph(source, "SPEED|Load");       /* case as in 1.2 */
    unsigned found = poll_for(source, 0.1);
    assert_true(found & SCOPE_POLL_ATTACHED);
    assert_int_equal(scope_source_get_state(source), SCOPE_SOURCE_LIVE);
    poll_until_samples(source, 0, 2, 50);
    poll_until_samples(source, 1, 3, 50);
    poll_until_samples(source, 3, 2, 50);
    assert_ptr_equal(series_named(source, 3, "speed"),
                     series_named(source, 0, "speed"));
    /* A slider's tweak too: the program matches its commands so. */
    intptr_t order = 0;
    assert_true(scope_source_tweak(source, "RECORDER_ORDER", &order));
    assert_int_equal(order, 1);

    scope_series *speed = series_named(source, 0, "speed");
    assert_non_null(speed);
    assert_string_equal(speed->unit, "m/s");
    for (uint64_t i = 0; i < 50; i++)
        assert_true(value_at(speed, speed->first + i) == 100 + (double) i);
    scope_series *other = series_named(source, 1, "other");
    assert_true(value_at(other, other->first + 3) == 1.5);
    /* A channel in two graphs is one history. */
    assert_ptr_equal(series_named(source, 1, "speed"), speed);
    assert_true(scope_source_graph_take_new(source, 0));
    assert_false(scope_source_graph_take_new(source, 0));

    unsigned n;
    scope_source_graph_series(source, 2, &n);
    assert_int_equal(n, 0);
    char message[200];
    scope_source_graph_message(source, 2, now, message, sizeof(message));
    assert_string_equal(message, "no channel matches 'nothing.*' yet");

    /* Nothing new for a while: the graph stops scrolling and says since
     * when. */
    bool scrolling;
    scope_source_graph_view_end(source, 0, now, &scrolling);
    assert_true(scrolling);
    poll_for(source, 1.5);
    double end = scope_source_graph_view_end(source, 0, now, &scrolling);
    assert_false(scrolling);
    assert_true(end >= speed->latest_time);
    scope_source_graph_message(source, 0, now, message, sizeof(message));
    assert_non_null(strstr(message, "no data since "));

    writer_finish(&w);
    poll_for(source, 0.5);
    assert_int_equal(scope_source_get_state(source), SCOPE_SOURCE_EXITED);
    assert_non_null(strstr(scope_source_message(source),
                           "exited; showing its last data"));
    assert_int_equal(speed->end - speed->first, 50);  /* data stays */
    scope_source_delete(source);
}

static void test_channels_added_later_join_matching_graphs(void **state)
{
    (void) state;
    static const step_fn steps[] = { record_values, export_later };
    writer w = start_writer(path, steps, 2, 7);
    scope_source *source = new_source();
    scope_source_add_graph(source, "l.*");
    poll_until_samples(source, 0, 1, 50);           /* load */
    writer_step(&w);
    unsigned found = 0;
    for (int tries = 0; tries < 100 && !(found & SCOPE_POLL_CHANNELS); tries++)
        found |= poll_for(source, 0.3);
    assert_true(found & SCOPE_POLL_CHANNELS);
    poll_until_samples(source, 0, 2, 5);
    scope_series *late = series_named(source, 0, "late");
    assert_non_null(late);
    assert_true(value_at(late, late->first) == 14);
    writer_finish(&w);
    scope_source_delete(source);
}

static void test_source_follows_a_new_process(void **state)
{
    (void) state;
    static const step_fn steps[] = { record_values };
    writer first = start_writer(path, steps, 1, 0);
    scope_source *source = new_source();
    scope_source_add_graph(source, "speed");
    poll_until_samples(source, 0, 1, 50);
    scope_series *speed = series_named(source, 0, "speed");
    double last_of_first = speed->latest_time;
    writer_finish(&first);
    poll_for(source, 0.3);
    assert_int_equal(scope_source_get_state(source), SCOPE_SOURCE_EXITED);

    writer second = start_writer(path, steps, 1, 1000);
    unsigned found = poll_for(source, 1.0);          /* within a second */
    assert_true(found & SCOPE_POLL_ATTACHED);
    assert_int_equal(scope_source_get_state(source), SCOPE_SOURCE_LIVE);
    poll_until_samples(source, 0, 1, 100);
    assert_ptr_equal(series_named(source, 0, "speed"), speed);
    assert_true(value_at(speed, speed->first + 49) == 49);
    assert_true(value_at(speed, speed->first + 50) == 1000);
    assert_true(value_at(speed, speed->first + 99) == 1049);
    /* The second process's times come after the first's. */
    assert_true(speed->time[speed->first + 50 - speed->base] >= last_of_first);
    writer_finish(&second);
    scope_source_delete(source);
}

static void test_no_interval_across_lost_samples(void **state)
{
    (void) state;
    static const step_fn steps[] = { count_from_main, count_in_two_lanes };
    writer w = start_writer(path, steps, 2, 10);
    scope_source *source = new_source();
    scope_source_add_graph(source, "count");
    poll_until_samples(source, 0, 1, 10);
    scope_series *counts = series_named(source, 0, "count");
    assert_int_equal(counts->lost, 0);
    assert_true(counts->lost_recent == 0);
    writer_step(&w);
    poll_until_samples(source, 0, 1, 20);
    assert_true(counts->lost > 0);

    /* Counts that follow each other are consecutive samples; any other
     * pair had records lost in between and must have no interval. */
    unsigned measured = 0;
    for (uint64_t i = counts->first + 1; i < counts->end; i++)
    {
        double interval = counts->track[SCOPE_TRACK_INTERVAL][i - counts->base];
        if (value_at(counts, i) != value_at(counts, i - 1) + 1)
            assert_true(isnan(interval));
        else
            measured += !isnan(interval);
    }
    assert_true(measured >= 9);         /* the first read's intervals */

    /* The legend's share of losses: said now, gone a second later, when
     * the total stays (for the readout). */
    assert_true(counts->lost_recent > 0.5 && counts->lost_recent < 1);
    uint64_t total = counts->lost;
    poll_for(source, 0.5);
    assert_true(counts->lost_recent > 0);
    poll_for(source, 0.7);
    assert_true(counts->lost_recent == 0);
    assert_int_equal(counts->lost, total);
    writer_finish(&w);
    scope_source_delete(source);
}

static void test_slow_channel_is_not_paused_between_samples(void **state)
{
    (void) state;
    /* A sample every 1.5 s (made-up monotonic time): the graph keeps
     * scrolling and says nothing between them once their pace is known. */
    static const step_fn steps[] = {
        one_sample, one_sample, one_sample, one_sample, one_sample,
        one_sample, one_sample, one_sample,
    };
    unsigned periods = sizeof(steps) / sizeof(steps[0]);
    writer w = start_writer(path, steps, periods, 1);
    scope_source *source = new_source();
    scope_source_add_graph(source, "tick");
    poll_until_samples(source, 0, 1, 1);
    char message[200];
    for (unsigned p = 1; p < periods; p++)
    {
        double arrival = now;
        for (; now < arrival + 1.49; now += 0.02)
        {
            scope_source_poll(source, now);
            if (p < 3)
                continue;               /* learning its pace */
            bool scrolling;
            scope_source_graph_view_end(source, 0, now, &scrolling);
            scope_source_graph_message(source, 0, now, message,
                                       sizeof(message));
            assert_string_equal(message, "");
            assert_true(scrolling);
        }
        writer_step(&w);
        poll_until_samples(source, 0, 1, p + 1);
    }
    /* It stops: then it is a pause, a few periods later. */
    poll_for(source, 4.0);
    scope_source_graph_message(source, 0, now, message, sizeof(message));
    assert_non_null(strstr(message, "no data since "));
    writer_finish(&w);
    scope_source_delete(source);
}

/* A poll that found a ring filled a quarter or more since the last one
 * says so (the window then polls sooner, not at every other frame); the
 * first read of a channel, its whole history, does not. */
static void test_poll_says_when_a_ring_fills_fast(void **state)
{
    (void) state;
    static const step_fn steps[] = {
        many_samples, few_samples, many_samples, one_sample,
    };
    writer w = start_writer(path, steps, 4, 1);
    scope_source *source = new_source();
    scope_source_add_graph(source, "tick");
    unsigned found = 0;
    for (int tries = 0; tries < 500 && !(found & SCOPE_POLL_DATA); tries++)
        found = scope_source_poll(source, now += 0.02);
    assert_true(found & SCOPE_POLL_DATA);
    assert_false(found & SCOPE_POLL_HURRY);         /* history: 1 500 */
    recorder_share *share = scope_source_share(source);
    recorder_share_recorder ring = { .size = 0 };
    for (unsigned r = 0; r < recorder_share_recorder_count(share); r++)
        if (recorder_share_recorder_info(share, r, &ring) &&
            strcmp(ring.name, "slow") == 0)
            break;
    assert_string_equal(ring.name, "slow");
    assert_true(ring.size / 4 <= 1500 && 1500 < ring.size);
    static const bool want[] = { false, true, false };  /* 4, 1 500, 1 */
    for (unsigned step = 0; step < 3; step++)
    {
        writer_step(&w);
        found = scope_source_poll(source, now += 0.03);
        assert_true(found & SCOPE_POLL_DATA);
        assert_int_equal((found & SCOPE_POLL_HURRY) != 0, want[step]);
    }
    writer_finish(&w);
    scope_source_delete(source);
}

static void test_corrupt_segment_is_an_error_not_a_crash(void **state)
{
    (void) state;
    FILE *file = fopen(path, "w");
    for (int i = 0; i < 100000; i++)
        fputc(i * 7919 % 251, file);
    fclose(file);
    scope_source *source = new_source();
    scope_source_add_graph(source, NULL);
    poll_for(source, 0.5);                          /* a writer may be busy */
    assert_int_equal(scope_source_get_state(source), SCOPE_SOURCE_WAITING);
    poll_for(source, 1.0);
    assert_int_equal(scope_source_get_state(source), SCOPE_SOURCE_FAILED);
    assert_non_null(strstr(scope_source_message(source), path));
    assert_non_null(strstr(scope_source_message(source), "not a recorder"));
    scope_source_delete(source);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_history_keeps_the_newest_samples),
        cmocka_unit_test(test_history_times_never_go_back),
        cmocka_unit_test(test_average_and_envelope_wait_for_a_view),
        cmocka_unit_test(test_visible_samples_by_time_and_cap),
        cmocka_unit_test(test_source_waits_for_the_segment),
        cmocka_unit_test(test_source_reads_the_channels_each_graph_matches),
        cmocka_unit_test(test_channels_added_later_join_matching_graphs),
        cmocka_unit_test(test_source_follows_a_new_process),
        cmocka_unit_test(test_no_interval_across_lost_samples),
        cmocka_unit_test(test_slow_channel_is_not_paused_between_samples),
        cmocka_unit_test(test_poll_says_when_a_ring_fills_fast),
        cmocka_unit_test(test_corrupt_segment_is_an_error_not_a_crash),
    };
    return cmocka_run_group_tests_name("scope_channel_data", tests,
                                       make_directory, remove_directory);
}
