/* test_stamp_order.c - what the library promises about the times of one
 * thread's records: in the order the thread made them, times never go
 * back (two may be equal), and a time is final once anyone has read it.
 * Checked across the calibration points of the first second, and across a
 * forced point whose publication is held up as a preemption would. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"
#include "pause_ms.h"

#include "recorder.h"
#include "recorder_share.h"
#include "record/clock_private.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

RECORDER(ordered, 4096, "Numbered records whose times the tests check");

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* ---- conversions in this process ---------------------------------------- */

/* Ticks and the time they converted to, to convert again later. */
typedef struct conversion
{
    uint64_t ticks;
    uint64_t ns;
} conversion;

#define KEPT 65536
static conversion kept[KEPT];
static unsigned kept_count;
static unsigned keep_every = 1;         /* conversions, to span a second */
static unsigned long converted;

/* Convert the counter now; the time must not be before the last one. */
static void convert_now(uint64_t *last_ns)
{
    uint64_t ticks = recorder_ticks();
    uint64_t ns = recorder_clock_ns_since_start(ticks);
    if (ns < *last_ns)
        fail_msg("ticks %lu converted to %lu ns, before %lu ns",
                 (unsigned long) ticks, (unsigned long) ns,
                 (unsigned long) *last_ns);
    *last_ns = ns;
    if (converted++ % keep_every == 0 && kept_count < KEPT)
        kept[kept_count++] = (conversion) { ticks, ns };
}

/* Every kept conversion gives the same time again. */
static void assert_kept_times_final(void)
{
    for (unsigned i = 0; i < kept_count; i++)
    {
        uint64_t again = recorder_clock_ns_since_start(kept[i].ticks);
        if (again != kept[i].ns)
            fail_msg("ticks %lu converted to %lu ns, later to %lu ns "
                     "(conversion %u of %u)", (unsigned long) kept[i].ticks,
                     (unsigned long) kept[i].ns, (unsigned long) again, i,
                     kept_count);
    }
}

/* Stands for the thread adding a point being preempted between choosing
 * where the point starts and publishing it: meanwhile, times are read for
 * 'hold_ms' (2 ms, twenty times the lead a point starts with). */
static unsigned hold_ms;
static void (*while_held)(void);

static void hold_once(void)
{
    if (!hold_ms)
        return;
    uint64_t until = monotonic_ns() + hold_ms * 1000000ull;
    hold_ms = 0;
    /* At least 50 turns, however slow the build (sanitizers) or busy the
     * machine. */
    for (unsigned turns = 0; turns < 50 || monotonic_ns() < until; turns++)
        while_held();
}

static uint64_t held_last_ns;
static void convert_while_held(void)
{
    convert_now(&held_last_ns);
}

/* Force a point whose publication is held, at 'where', while 'during'
 * runs. */
static void calibrate_held_at(void (**where)(void), void (*during)(void))
{
    kept_count = 0;
    held_last_ns = 0;
    hold_ms = 2;
    while_held = during;
    *where = hold_once;
    bool added = recorder_clock_calibrate_now();
    *where = NULL;
    assert_true(added);
    assert_int_equal(hold_ms, 0);
}

static void calibrate_held(void (*during)(void))
{
    calibrate_held_at(&recorder_clock_hold_before_publishing, during);
}

static void test_a_late_point_changes_no_time_in_process(void **state)
{
    (void) state;
    if (!recorder_clock_uses_counter)
        skip();                         /* CLOCK_MONOTONIC: no points */
    calibrate_held(convert_while_held);
    assert_true(kept_count >= 50);
    assert_kept_times_final();
}

/* Held after every check, just before the count: what a preemption there
 * did under ThreadSanitizer on a busy machine (a time read moved by 1 ns). */
static void test_a_point_held_at_its_count_changes_no_time(void **state)
{
    (void) state;
    if (!recorder_clock_uses_counter)
        skip();
    calibrate_held_at(&recorder_clock_hold_before_counting,
                      convert_while_held);
    assert_true(kept_count >= 50);
    assert_kept_times_final();
}

/* ---- the first second, read through the segment ----------------------------- */

static int channel;

/* Read what the channel has from 'cursor' on: values (the record numbers
 * of one thread) must rise and times must not go back. */
static size_t read_checked(recorder_share *share, recorder_share_cursor *cursor,
                           recorder_sample *samples, size_t max,
                           recorder_sample *last)
{
    size_t n = recorder_share_read(share, (unsigned) channel, cursor, samples,
                                   max, NULL);
    for (size_t i = 0; i < n; i++)
    {
        if (last->value >= 0 && (samples[i].value <= last->value ||
                                 samples[i].time < last->time))
            fail_msg("record %.0f at %.9f s after record %.0f at %.9f s",
                     samples[i].value, samples[i].time, last->value,
                     last->time);
        *last = samples[i];
    }
    return n;
}

/* Read the records of 'first' again from 'cursor': the same times. The
 * writer may have overwritten some meanwhile: those are skipped. */
static void assert_read_again_same(recorder_share *share,
                                   recorder_share_cursor cursor,
                                   const recorder_sample *first, size_t n)
{
    static recorder_sample again[4096];
    size_t got = recorder_share_read(share, (unsigned) channel, &cursor, again,
                                     n, NULL);
    size_t at = 0;
    for (size_t i = 0; i < got; i++)
    {
        while (at < n && first[at].value < again[i].value)
            at++;
        if (at == n)
            break;
        if (first[at].value != again[i].value)
            fail_msg("read record %.0f again, not read the first time",
                     again[i].value);
        if (memcmp(&again[i].time, &first[at].time, sizeof(double)))
            fail_msg("record %.0f read at %.9f s, later at %.9f s",
                     first[at].value, first[at].time, again[i].time);
    }
}

static int stop;

/* One record every few hundred nanoseconds, numbered. */
static void *record_numbers(void *arg)
{
    (void) arg;
    for (unsigned long number = 0; !__atomic_load_n(&stop, __ATOMIC_RELAXED);
         number++)
    {
        record(ordered, "%lu", number);
        for (volatile int spin = 0; spin < 100; spin++)
            ;
    }
    return NULL;
}

static void *convert_continuously(void *arg)
{
    (void) arg;
    uint64_t last_ns = 0;
    for (unsigned long turn = 0; !__atomic_load_n(&stop, __ATOMIC_RELAXED);
         turn++)
    {
        convert_now(&last_ns);
        for (volatile int spin = 0; spin < 500; spin++)
            ;
    }
    return NULL;
}

static recorder_share *share;

static void test_times_hold_across_the_first_second(void **state)
{
    (void) state;
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s", path);
    assert_int_equal(recorder_trace_set(spec), RECORDER_TRACE_OK);
    assert_int_equal(recorder_trace_set("ordered=number,"), RECORDER_TRACE_OK);
    char error[256];
    share = recorder_share_open(path, error, sizeof(error));
    assert_non_null(share);
    channel = recorder_share_find_channel(share, "number", -1);
    assert_true(channel >= 0);
    recorder_share_process process;
    recorder_share_process_info(share, &process);

    kept_count = 0;
    keep_every = 64;
    __atomic_store_n(&stop, 0, __ATOMIC_RELAXED);
    pthread_t writer, converter;
    assert_int_equal(pthread_create(&writer, NULL, record_numbers, NULL), 0);
    assert_int_equal(pthread_create(&converter, NULL, convert_continuously,
                                    NULL), 0);

    /* Past the last timed calibration point, about a second after start. */
    static recorder_sample samples[4096];
    recorder_sample last = { .value = -1 };
    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    size_t total = 0;
    for (unsigned turn = 0;
         monotonic_ns() * 1e-9 - process.start_monotonic < 1.3; turn++)
    {
        recorder_share_cursor before = cursor;
        size_t n = read_checked(share, &cursor, samples, 4096, &last);
        total += n;
        if (turn % 8 == 0)
            assert_read_again_same(share, before, samples, n);
        pause_ms(1);
    }
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    pthread_join(writer, NULL);
    pthread_join(converter, NULL);
    keep_every = 1;
    print_message("read %zu records, kept %u conversions in the first "
                  "second\n", total, kept_count);
    assert_true(total > 1000);
    assert_kept_times_final();
}

/* Records made while the point is held, read through the segment as it
 * was then; read again once the point is out, they have the same times. */
static recorder_share_cursor held_cursor;
static recorder_sample held_last;
static recorder_sample held_samples[4096];
static size_t held_read;
static void record_and_read_while_held(void)
{
    static unsigned long number = 1000000000ul;
    if (held_read + 64 > 4096)
        return;
    record(ordered, "%lu", number++);
    held_read += read_checked(share, &held_cursor, held_samples + held_read,
                              64, &held_last);
    convert_now(&held_last_ns);
    for (volatile int spin = 0; spin < 2000; spin++)
        ;
}

static void test_a_late_point_changes_no_time_read_from_the_segment(void **state)
{
    (void) state;
    if (!recorder_clock_uses_counter)
        skip();
    assert_non_null(share);
    /* Start reading at the records to come. */
    recorder_share_cursor start = RECORDER_SHARE_CURSOR_START;
    static recorder_sample skipped[4096];
    while (recorder_share_read(share, (unsigned) channel, &start, skipped,
                               4096, NULL))
        ;
    held_cursor = start;
    held_last = (recorder_sample) { .value = -1 };
    held_read = 0;
    calibrate_held(record_and_read_while_held);
    assert_true(held_read >= 50);
    assert_read_again_same(share, start, held_samples, held_read);
    assert_kept_times_final();
    recorder_share_close(share);
    share = NULL;
}

int main(void)
{
    /* In this order: the first needs a process that does not share yet,
     * the second the first second of the process. */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_late_point_changes_no_time_in_process),
        cmocka_unit_test(test_a_point_held_at_its_count_changes_no_time),
        cmocka_unit_test(test_times_hold_across_the_first_second),
        cmocka_unit_test(test_a_late_point_changes_no_time_read_from_the_segment),
    };
    return cmocka_run_group_tests_name("stamp order", tests, make_directory,
                                       remove_directory);
}
