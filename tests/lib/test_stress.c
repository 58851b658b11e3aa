/* test_stress.c - writer threads in one process, a reader in another, for a
 * fixed time: every sample checked, loss counts exact; then 200 writers
 * killed with SIGKILL at random moments, each segment read afterwards. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"

#include "recorder.h"
#include "recorder_share.h"

#include <pthread.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

RECORDER(stress, 1024, "Written by several threads at once");

#define THREADS         4
#define WRITE_SECONDS   1.5

/* Each argument names its record on its own: the writing thread in the low
 * bits, the thread's sequence number above them, multiplied by an odd
 * number (a different one per argument) modulo 2^48, so that a torn
 * record, its arguments or time from two records, cannot look whole.
 * Values stay below 2^53: channels carry them exactly as doubles. Times do
 * not name records: two records of one thread may carry the same time. */
#define SEQ_BITS        48
#define SEQ_MASK        ((1ull << SEQ_BITS) - 1)
static const uint64_t mixes[3] = {
    1, 0x9E3779B97F4Bull, 0xC2B2AE3D27D5ull
};
static uint64_t unmixes[3];             /* their inverses modulo 2^48 */

static uint64_t named(unsigned argument, uint64_t seq, uint64_t tag)
{
    return ((seq * mixes[argument]) & SEQ_MASK) * THREADS + tag;
}

/* Sequence number and thread a value of 'argument' names. */
static uint64_t seq_of(unsigned argument, uint64_t value)
{
    return ((value / THREADS) * unmixes[argument]) & SEQ_MASK;
}

static void compute_unmixes(void)
{
    for (unsigned a = 0; a < 3; a++)
    {
        uint64_t x = mixes[a];          /* Newton: right to 3, 6, ... bits */
        for (int step = 0; step < 6; step++)
            x *= 2 - mixes[a] * x;
        unmixes[a] = x;
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int stop;

static void *writer_thread(void *arg)
{
    uint64_t tag = (uintptr_t) arg, seq;
    for (seq = 0; !__atomic_load_n(&stop, __ATOMIC_RELAXED); seq++)
        record(stress, "seq %lu check %lu recheck %lu", named(0, seq, tag),
               named(1, seq, tag), named(2, seq, tag));
    return (void *) (uintptr_t) seq;
}

/* The writer process: share, export, signal readiness, write for a while
 * from THREADS threads (or until killed), report how many records. */
static void writer_process(int ready, int report, double seconds)
{
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s", path);
    recorder_trace_set(spec);
    recorder_trace_set("stress=seq,check,recheck");
    pthread_t threads[THREADS];
    for (uintptr_t t = 0; t < THREADS; t++)
        pthread_create(&threads[t], NULL, writer_thread, (void *) t);
    if (write(ready, "r", 1) != 1)
        _exit(2);
    double end = now() + seconds;
    while (now() < end)
        usleep(1000);
    __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
    uint64_t total = 0;
    for (int t = 0; t < THREADS; t++)
    {
        void *written;
        pthread_join(threads[t], &written);
        total += (uintptr_t) written;
    }
    if (write(report, &total, sizeof(total)) != sizeof(total))
        _exit(2);
    _exit(0);
}

static pid_t start_writer(double seconds, int *report_fd)
{
    int ready[2], report[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(report), 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
    {
        close(ready[0]);
        close(report[0]);
        writer_process(ready[1], report[1], seconds);
    }
    close(ready[1]);
    close(report[1]);
    char byte;
    assert_int_equal(read(ready[0], &byte, 1), 1);
    close(ready[0]);
    *report_fd = report[0];
    return pid;
}

typedef struct channel_reader
{
    int      channel;
    recorder_share_cursor cursor;
    uint64_t samples;
    uint64_t lost;
} channel_reader;

/* The samples of one record in the three channels, to cross-check. */
typedef struct sample_set
{
    uint64_t key;                       /* seq * THREADS + thread */
    double   time[3];
    unsigned seen;
} sample_set;

/* Big enough that records of one drain rarely share an entry (a record
 * whose entry was taken before its three samples came is not checked). */
#define WINDOW 65536
static sample_set window[WINDOW];

/* The last sample of each channel and thread: in the order a thread
 * recorded, times never go back. */
typedef struct last_sample
{
    bool     any;
    uint64_t seq;
    double   time;
} last_sample;
static last_sample last[3][THREADS];

static uint64_t checked_records;

static void forget_samples(void)
{
    memset(window, 0, sizeof(window));
    memset(last, 0, sizeof(last));
    checked_records = 0;
}

static void note(unsigned which, const recorder_sample *sample)
{
    uint64_t value = (uint64_t) sample->value;
    if ((double) value != sample->value)
        fail_msg("channel %u: value %.17g is not a whole number", which,
                 sample->value);
    uint64_t tag = value % THREADS, seq = seq_of(which, value);
    last_sample *before = &last[which][tag];
    if (before->any && (seq <= before->seq || sample->time < before->time))
        fail_msg("channel %u, thread %lu: record %lu at %.9f after record "
                 "%lu at %.9f", which, (unsigned long) tag,
                 (unsigned long) seq, sample->time,
                 (unsigned long) before->seq, before->time);
    if (getenv("DEBUG_STRESS") && seq > 100000000) fprintf(stderr, "channel %u value %lx seq %lx\n", which, value, seq);
    *before = (last_sample) { true, seq, sample->time };

    uint64_t key = seq * THREADS + tag;
    sample_set *set = &window[(key * 0x9E3779B97F4A7C15ull >> 20) % WINDOW];
    if (set->key != key || !set->seen)
        *set = (sample_set) { .key = key };
    set->time[which] = sample->time;
    set->seen |= 1u << which;
    if (set->seen == 7)
    {
        if (memcmp(&set->time[0], &set->time[1], sizeof(double)) ||
            memcmp(&set->time[0], &set->time[2], sizeof(double)))
            fail_msg("record %lu of thread %lu torn: times %.9f %.9f %.9f",
                     (unsigned long) seq, (unsigned long) tag, set->time[0],
                     set->time[1], set->time[2]);
        checked_records++;
        set->seen = 0;
    }
}

/* Read what the three channels hold now; the number of samples read. */
static size_t drain(recorder_share *share, channel_reader readers[3])
{
    static recorder_sample samples[4096];
    size_t total = 0;
    for (unsigned which = 0; which < 3; which++)
    {
        channel_reader *r = &readers[which];
        uint64_t lost = 0;
        size_t n = recorder_share_read(share, (unsigned) r->channel, &r->cursor,
                                       samples, 4096, &lost);
        r->samples += n;
        r->lost += lost;
        total += n;
        for (size_t i = 0; i < n; i++)
            note(which, &samples[i]);
    }
    return total;
}

static void test_threads_and_reader_process_agree_exactly(void **state)
{
    (void) state;
    int report;
    pid_t pid = start_writer(WRITE_SECONDS, &report);
    char error[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    assert_non_null(share);
    channel_reader readers[3] = {
        { .channel = recorder_share_find_channel(share, "seq", -1) },
        { .channel = recorder_share_find_channel(share, "check", -1) },
        { .channel = recorder_share_find_channel(share, "recheck", -1) },
    };
    for (int c = 0; c < 3; c++)
        assert_true(readers[c].channel >= 0);

    forget_samples();
    while (recorder_share_state(share) == RECORDER_SHARE_ALIVE)
        drain(share, readers);
    while (drain(share, readers))       /* what is left: 4096 at a time */
        ;

    uint64_t total = 0;
    assert_int_equal(read(report, &total, sizeof(total)), sizeof(total));
    close(report);
    int status;
    waitpid(pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);

    print_message("%lu records written by %d threads in %.1f s; reader "
                  "checked %lu whole records, lost %lu to overwrites\n",
                  (unsigned long) total, THREADS, WRITE_SECONDS,
                  (unsigned long) checked_records,
                  (unsigned long) readers[2].lost);
    for (int c = 0; c < 3; c++)
    {
        /* Every record was either read or counted lost: exactly. */
        uint64_t read_to = 0;
        for (unsigned lane = 0; lane < RECORDER_SHARE_LANES_MAX; lane++)
            read_to += readers[c].cursor.next[lane];
        assert_int_equal(read_to, total);
        assert_int_equal(readers[c].samples + readers[c].lost, total);
    }
    assert_true(checked_records > 0);
    recorder_share_close(share);
}

static void test_kill_9_at_random_moments_leaves_readable_segment(void **state)
{
    (void) state;
    srand((unsigned) getpid());
    unsigned readable = 0, samples_checked = 0;
    for (int run = 0; run < 200; run++)
    {
        int report;
        pid_t pid = start_writer(10.0, &report);
        usleep((useconds_t) (rand() % 5000));
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        close(report);

        char error[256];
        recorder_share *share = recorder_share_open(path, error, sizeof(error));
        if (!share)
            fail_msg("run %d: segment unreadable after kill -9: %s", run, error);
        assert_int_equal(recorder_share_state(share), RECORDER_SHARE_DIED);
        channel_reader readers[3] = {
            { .channel = recorder_share_find_channel(share, "seq", -1) },
            { .channel = recorder_share_find_channel(share, "check", -1) },
            { .channel = recorder_share_find_channel(share, "recheck", -1) },
        };
        for (int c = 0; c < 3; c++)
            assert_true(readers[c].channel >= 0);
        forget_samples();
        while (drain(share, readers))
            ;
        samples_checked += (unsigned) checked_records;
        FILE *null = fopen("/dev/null", "w");
        recorder_share_dump(share, NULL, null);
        fclose(null);
        recorder_share_close(share);
        readable++;
    }
    print_message("200 writers killed at random: %u segments readable, "
                  "%u records checked whole\n", readable, samples_checked);
    assert_int_equal(readable, 200);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    compute_unmixes();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            test_threads_and_reader_process_agree_exactly,
            make_directory, remove_directory),
        cmocka_unit_test_setup_teardown(
            test_kill_9_at_random_moments_leaves_readable_segment,
            make_directory, remove_directory),
    };
    return cmocka_run_group_tests_name("stress", tests, NULL, NULL);
}
