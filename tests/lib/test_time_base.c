/* test_time_base.c - times readers can trust: final when read, comparable
 * across processes, and never waited for. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"
#include "writer_child.h"

#include "recorder.h"
#include "recorder_share.h"
#include "record/clock_private.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

RECORDER(timed, 256, "Records whose times the tests check");
RECORDER(first, 16, "The first record of a fresh process");

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* All samples of channel 'name' from the start of the ring. */
static size_t read_all(recorder_share *share, const char *name,
                       recorder_sample *samples, size_t max)
{
    int channel = recorder_share_find_channel(share, name, -1);
    assert_true(channel >= 0);
    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    size_t n = 0, got;
    while (n < max && (got = recorder_share_read(share, (unsigned) channel,
                                                 &cursor, samples + n,
                                                 max - n, NULL)) > 0)
        n += got;
    return n;
}

/* ---- final when read ------------------------------------------------------- */

static void record_early(void)
{
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s", path);
    if (recorder_trace_set(spec) != RECORDER_TRACE_OK ||
        recorder_trace_set("timed=early,") != RECORDER_TRACE_OK)
        _exit(3);
    for (int i = 0; i < 10; i++)
        record(timed, "%d", i);
}

static void test_time_read_before_calibration_is_final(void **state)
{
    (void) state;
    child c = start_child(record_early);
    recorder_share *share = open_ok(path);
    recorder_share_process process;
    recorder_share_process_info(share, &process);
    recorder_sample before[10], after[10];
    assert_int_equal(read_all(share, "early", before, 10), 10);
    /* Read well within the writer's first second: its calibration has
     * points to come, the last one about a second after its start. */
    double age = monotonic_ns() * 1e-9 - process.start_monotonic;
    if (age > 0.8)
        print_message("read only %.3f s after the writer started\n", age);

    /* Past every timed calibration of the writer. */
    while (monotonic_ns() * 1e-9 - process.start_monotonic < 2.2)
        usleep(20000);
    assert_int_equal(read_all(share, "early", after, 10), 10);
    recorder_share *other = open_ok(path);
    recorder_sample again[10];
    assert_int_equal(read_all(other, "early", again, 10), 10);
    for (int i = 0; i < 10; i++)
    {
        /* Exactly equal: a time is final once read, for every reader. */
        if (before[i].time != after[i].time || after[i].time != again[i].time)
            fail_msg("sample %d: %.9f s before calibration, %.9f s after, "
                     "%.9f s for another reader", i, before[i].time,
                     after[i].time, again[i].time);
        if (i)
            assert_true(before[i].time > before[i - 1].time);
    }
    recorder_share_close(other);
    recorder_share_close(share);
    finish_child(&c, NULL, 0);
}

/* ---- two processes --------------------------------------------------------- */

#define ROUNDS 200

/* A fresh process (exec'd): share in 'at', then record 'step' values in
 * turn with the other process: read a token, record, pass the token on. */
static int take_turns_child(const char *at, int in, int out, int me)
{
    char spec[420];
    snprintf(spec, sizeof(spec), "share=%s", at);
    if (recorder_trace_set(spec) != RECORDER_TRACE_OK ||
        recorder_trace_set("timed=step,") != RECORDER_TRACE_OK)
        return 3;
    for (int i = 0; i < ROUNDS; i++)
    {
        char token;
        if (i % 2 != me)
            continue;
        if (i > 0 && read(in, &token, 1) != 1)
            return 4;
        record(timed, "%d", i);
        if (write(out, "t", 1) != 1 && i + 1 < ROUNDS)
            return 5;
    }
    return 0;
}

static pid_t spawn_turns(const char *at, int in, int out, int me)
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
    {
        char mode[512];
        snprintf(mode, sizeof(mode), "%s,%d,%d,%d", at, in, out, me);
        setenv("TIME_BASE_TURNS", mode, 1);
        execl("/proc/self/exe", "test_time_base", (char *) NULL);
        _exit(127);
    }
    return pid;
}

static void test_two_processes_interleave_by_time(void **state)
{
    (void) state;
    char paths[2][400];
    int a_to_b[2], b_to_a[2];
    assert_int_equal(pipe(a_to_b), 0);
    assert_int_equal(pipe(b_to_a), 0);
    for (int p = 0; p < 2; p++)
        snprintf(paths[p], sizeof(paths[p]), "%s/turns%d", directory, p);
    pid_t pids[2] = {
        spawn_turns(paths[0], b_to_a[0], a_to_b[1], 0),
        spawn_turns(paths[1], a_to_b[0], b_to_a[1], 1),
    };
    close(a_to_b[0]); close(a_to_b[1]); close(b_to_a[0]); close(b_to_a[1]);
    for (int p = 0; p < 2; p++)
    {
        int status;
        assert_int_equal(waitpid(pids[p], &status, 0), pids[p]);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            fail_msg("turn taker %d failed: status %#x", p, status);
    }

    /* Each process's times, on the host's CLOCK_MONOTONIC. */
    double when[ROUNDS];
    int seen = 0;
    for (int p = 0; p < 2; p++)
    {
        recorder_share *share = open_ok(paths[p]);
        recorder_share_process process;
        recorder_share_process_info(share, &process);
        recorder_sample samples[ROUNDS];
        size_t n = read_all(share, "step", samples, ROUNDS);
        assert_int_equal(n, ROUNDS / 2);
        for (size_t i = 0; i < n; i++)
        {
            int step = (int) samples[i].value;
            assert_true(step >= 0 && step < ROUNDS && step % 2 == p);
            when[step] = process.start_monotonic + samples[i].time;
            seen++;
        }
        recorder_share_close(share);
    }
    assert_int_equal(seen, ROUNDS);
    for (int i = 1; i < ROUNDS; i++)
        if (!(when[i] > when[i - 1]))
            fail_msg("step %d at %.9f s comes before step %d at %.9f s, "
                     "although the handshake ordered them the other way",
                     i, when[i], i - 1, when[i - 1]);
}

/* ---- the first record ------------------------------------------------------ */

static uint64_t printed_us;

static void capture(recorder_show_fn show, void *output, const char *label,
                    const char *location, uintptr_t order, uintptr_t timestamp,
                    const char *message)
{
    (void) show; (void) output; (void) label; (void) location; (void) order;
    (void) message;
    printed_us = timestamp;
}

/* In a fresh process, right after the library's own constructor: time one
 * traced record, and say what it printed and when it happened. */
__attribute__((constructor(102))) static void first_record_child(void)
{
    if (!getenv("TIME_BASE_FIRST"))
        return;
    recorder_activate(&recorder_info_for_first);
    recorder_trace_set("first");
    recorder_configure_format(capture);
    uint64_t before = monotonic_ns();
    record(first, "The first record");
    uint64_t after = monotonic_ns();
    uint64_t start = recorder_clock_start_mono_ns();
    printf("call %lu ns, printed %lu us, happened %lu to %lu ns after start\n",
           (unsigned long) (after - before), (unsigned long) printed_us,
           (unsigned long) (before - start), (unsigned long) (after - start));
    fflush(stdout);
    _exit(0);
}

/* The command that runs this test program again with 'setting'. */
static void this_test_with(char *command, size_t size, const char *setting)
{
    char self[400];
    ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
    assert_true(len > 0);
    self[len] = 0;
    snprintf(command, size, "%s '%s'", setting, self);
}

#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define SANITIZED_BUILD 1
#endif
#endif

static void test_first_record_prints_at_once_and_on_time(void **state)
{
    (void) state;
    char command[500];
    this_test_with(command, sizeof(command), "TIME_BASE_FIRST=1");
    unsigned long fastest = ULONG_MAX;
    for (int run = 0; run < 5; run++)
    {
        fflush(NULL);
        FILE *out = popen(command, "r");
        assert_non_null(out);
        unsigned long call_ns, printed, from, to;
        int fields = fscanf(out, "call %lu ns, printed %lu us, happened %lu "
                            "to %lu ns after start", &call_ns, &printed,
                            &from, &to);
        assert_int_equal(pclose(out), 0);
        assert_int_equal(fields, 4);
        if (call_ns < fastest)
            fastest = call_ns;
        /* The printed time, in whole microseconds, within 1 us of when the
         * record was made. */
        if (printed * 1000 + 1000 < from || printed * 1000 > to + 1000)
            fail_msg("printed %lu us, made %lu to %lu ns after start",
                     printed, from, to);
    }
    /* No wait for calibration: far below a millisecond. A wait would slow
     * every run; a run the shared machine preempted (209 us seen once in
     * CI) does not make the fastest slow. Not under a sanitizer: there a
     * fresh process's first record alone takes about as long as the
     * first calibration point's interval (250 us; up to 228 us at best of
     * 5, one run in five under TSan), so the bound would tell nothing. */
#ifndef SANITIZED_BUILD
    if (fastest > 200000)
        fail_msg("the first record took %lu ns at best of 5 runs", fastest);
#endif
}

/* ---- a late first conversion ---------------------------------------------- */

/* In a fresh process: read the counter TIME_BASE_LATE us after start,
 * nothing converted before, and say how far its conversion is from
 * CLOCK_MONOTONIC read around it. */
__attribute__((constructor(102))) static void late_conversion_child(void)
{
    if (!getenv("TIME_BASE_LATE"))
        return;
    recorder_activate(&recorder_info_for_first);
    uint64_t start = recorder_clock_start_mono_ns();
    uint64_t delay = strtoull(getenv("TIME_BASE_LATE"), NULL, 10) * 1000;
    while (monotonic_ns() - start < delay)
        continue;
    uint64_t before, ticks, after;
    do
    {
        before = recorder_monotonic_ns();
        ticks = recorder_ticks();
        after = recorder_monotonic_ns();
    } while (after - before > 300);
    int64_t error = (int64_t) (recorder_clock_ns_since_start(ticks) + start) -
                    (int64_t) (before + (after - before) / 2);
    printf("error %lld ns\n", (long long) error);
    fflush(stdout);
    _exit(0);
}

static int by_value(const void *a, const void *b)
{
    long long x = *(const long long *) a, y = *(const long long *) b;
    return x < y ? -1 : x > y;
}

/* Ticks first converted late (a slow start, or a program's first record
 * long after it began) get the rate measured then: a calibration due at
 * that moment goes before the conversion, not after it, where it could
 * not help. 20 ms after start, the median error of 25 runs here was
 * 370 ns before (4 516 at worst), 70 ns after (190). */
static void test_late_first_conversion_uses_the_measured_rate(void **state)
{
    (void) state;
    char command[500];
    this_test_with(command, sizeof(command), "TIME_BASE_LATE=20000");
    enum { RUNS = 9 };
    long long errors[RUNS];
    for (int run = 0; run < RUNS; run++)
    {
        fflush(NULL);
        FILE *out = popen(command, "r");
        assert_non_null(out);
        int fields = fscanf(out, "error %lld ns", &errors[run]);
        assert_int_equal(pclose(out), 0);
        assert_int_equal(fields, 1);
        if (errors[run] < 0)
            errors[run] = -errors[run];
    }
    qsort(errors, RUNS, sizeof(errors[0]), by_value);
    if (errors[RUNS / 2] > 200)
        fail_msg("median error %lld ns (least %lld, most %lld)",
                 errors[RUNS / 2], errors[0], errors[RUNS - 1]);
}

int main(void)
{
    const char *turns = getenv("TIME_BASE_TURNS");
    if (turns)
    {
        char at[400];
        int in, out, me;
        if (sscanf(turns, "%399[^,],%d,%d,%d", at, &in, &out, &me) != 4)
            return 2;
        return take_turns_child(at, in, out, me);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_time_read_before_calibration_is_final,
                                        make_directory, remove_directory),
        cmocka_unit_test_setup_teardown(test_two_processes_interleave_by_time,
                                        make_directory, remove_directory),
        cmocka_unit_test(test_first_record_prints_at_once_and_on_time),
        cmocka_unit_test(test_late_first_conversion_uses_the_measured_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
