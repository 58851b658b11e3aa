/* test_share.c - the shared segment, with writer and reader in separate
 * processes: channels, loss counts, commands, post-mortem reads, a new
 * process replacing a dead one, security checks, corrupt segments. */
#define _GNU_SOURCE                     /* program_invocation_short_name */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"
#include "writer_child.h"

#include "recorder.h"
#include "recorder_share.h"
#include "segment/share_layout_private.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

RECORDER(shr, 64, "Values for channel tests");
RECORDER(noisy, 64, "Many records, to overrun a channel");
RECORDER_TWEAK_DEFINE(shr_tweak, 10, "A tweak the tests change remotely");

static void share_here(void)
{
    share_at(path);
}

/* ---- channels ----------------------------------------------------------- */

static void record_known_values(void)
{
    share_here();
    recorder_trace_set("shr=count,delta,ratio");
    for (int i = 0; i < 40; i++)
        record(shr, "Count %u items, delta %d, ratio %f", i * 3, -i, i / 4.0);
}

static void test_channels_have_names_types_and_values_in_order(void **state)
{
    (void) state;
    child c = start_child(record_known_values);
    recorder_share *share = open_ok(path);

    int count = recorder_share_find_channel(share, "count", -1);
    int delta = recorder_share_find_channel(share, "delta", -1);
    int ratio = recorder_share_find_channel(share, "ratio", -1);
    assert_true(count >= 0 && delta >= 0 && ratio >= 0);
    /* Regardless of case, as recorder 1.2's readers found them. */
    assert_int_equal(recorder_share_find_channel(share, "COUNT", -1), count);
    assert_int_equal(recorder_share_find_channel(share, "Del[T]a", -1), delta);

    recorder_share_channel info;
    assert_true(recorder_share_channel_info(share, (unsigned) count, &info));
    assert_string_equal(info.name, "count");
    assert_string_equal(info.unit, "items");
    assert_int_equal(info.type, RECORDER_SHARE_UNSIGNED);
    assert_string_equal(info.description, "Values for channel tests");
    recorder_share_stats stats;
    assert_true(recorder_share_channel_stats(share, (unsigned) count, &stats));
    assert_int_equal(stats.samples, 40);
    assert_true(stats.min == 0 && stats.max == 117);
    assert_true(recorder_share_channel_stats(share, (unsigned) delta, &stats));
    assert_int_equal(stats.samples, 40);
    assert_true(stats.min == -39 && stats.max == 0);
    assert_false(recorder_share_channel_stats(share, 9999, &stats));
    assert_true(recorder_share_channel_info(share, (unsigned) delta, &info));
    assert_int_equal(info.type, RECORDER_SHARE_SIGNED);
    assert_true(recorder_share_channel_info(share, (unsigned) ratio, &info));
    assert_int_equal(info.type, RECORDER_SHARE_REAL);

    recorder_sample samples[64];
    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    uint64_t lost = 0;
    size_t n = recorder_share_read(share, (unsigned) delta, &cursor, samples,
                                   64, &lost);
    assert_int_equal(n, 40);
    assert_int_equal(lost, 0);
    for (int i = 0; i < 40; i++)
    {
        assert_true(samples[i].value == -i);
        if (i)
            assert_true(samples[i].time >= samples[i - 1].time);
    }
    cursor = (recorder_share_cursor) RECORDER_SHARE_CURSOR_START;
    n = recorder_share_read(share, (unsigned) ratio, &cursor, samples, 64, NULL);
    assert_int_equal(n, 40);
    assert_true(samples[10].value == 2.5);
    /* Nothing new: a second read from the cursor gets nothing. */
    assert_int_equal(recorder_share_read(share, (unsigned) ratio, &cursor,
                                         samples, 64, NULL), 0);

    assert_int_equal(recorder_share_state(share), RECORDER_SHARE_ALIVE);
    recorder_share_close(share);
    char output[4096];
    finish_child(&c, output, sizeof(output));
    char creating[400];
    snprintf(creating, sizeof(creating), "Creating new %s\n", path);
    assert_non_null(strstr(output, creating));
    assert_int_equal(strstr(output, creating), strstr(output, "Creating"));
}

static void record_many(void)
{
    share_here();
    recorder_trace_set("noisy=value,");
    for (int i = 0; i < 10000; i++)
        record(noisy, "value %d", i);
}

static void test_reader_falling_behind_counts_losses(void **state)
{
    (void) state;
    child c = start_child(record_many);
    recorder_share *share = open_ok(path);
    int channel = recorder_share_find_channel(share, "value", -1);
    assert_true(channel >= 0);
    static recorder_sample samples[4096];
    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    uint64_t lost = 0;
    size_t n = recorder_share_read(share, (unsigned) channel, &cursor, samples,
                                   4096, &lost);
    /* The ring holds recorder_export_size (2048) records. */
    assert_int_equal(n, 2048);
    assert_int_equal(lost, 10000 - 2048);
    assert_true(samples[0].value == 10000 - 2048);
    assert_true(samples[2047].value == 9999);
    recorder_share_close(share);
    finish_child(&c, NULL, 0);
}

/* Two threads of the writer take turns recording into one exported
 * recorder; each writes its own lane of the ring. */
static int turn;

static void *take_turns(void *arg)
{
    int me = (int) (intptr_t) arg;
    for (int i = me; i < 200; i += 2)
    {
        while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != me)
            ;
        record(shr, "step %d", i);
        __atomic_store_n(&turn, 1 - me, __ATOMIC_RELEASE);
    }
    return NULL;
}

static void record_from_two_threads(void)
{
    share_here();
    recorder_trace_set("shr=step,");
    pthread_t threads[2];
    for (intptr_t t = 0; t < 2; t++)
        pthread_create(&threads[t], NULL, take_turns, (void *) t);
    for (int t = 0; t < 2; t++)
        pthread_join(threads[t], NULL);
}

static void test_lanes_of_two_threads_read_back_in_time_order(void **state)
{
    (void) state;
    child c = start_child(record_from_two_threads);
    recorder_share *share = open_ok(path);
    int step = recorder_share_find_channel(share, "step", -1);
    assert_true(step >= 0);
    recorder_share_channel channel;
    recorder_share_recorder rec;
    assert_true(recorder_share_channel_info(share, (unsigned) step, &channel));
    assert_true(recorder_share_recorder_info(share, channel.recorder, &rec));
    assert_int_equal(rec.lanes, RECORDER_LANES);
    assert_int_equal(rec.records, 200);

    /* Read in small batches: the cursor must resume every lane. */
    recorder_sample samples[200];
    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    size_t n = 0, got;
    while ((got = recorder_share_read(share, (unsigned) step, &cursor,
                                      samples + n, 7, NULL)) > 0)
        n += got;
    assert_int_equal(n, 200);
    for (size_t i = 0; i < n; i++)
    {
        assert_true(samples[i].value == (double) i);
        if (i)
            assert_true(samples[i].time > samples[i - 1].time);
    }

    char text[32768];
    FILE *out = fmemopen(text, sizeof(text), "w");
    assert_int_equal(recorder_share_dump(share, "shr", out), 200);
    fclose(out);
    const char *at = text;
    for (int i = 0; i < 200; i++)
    {
        char line[32];
        snprintf(line, sizeof(line), "shr: step %d\n", i);
        const char *found = strstr(at, line);
        if (!found)
            fail_msg("'%s' missing or out of order", line);
        at = found + strlen(line);
    }
    recorder_share_close(share);
    finish_child(&c, NULL, 0);
}

static void export_two_recorders(void)
{
    share_here();
    recorder_trace_set("shr|noisy=first,second");
    record(shr, "%d %d", 1, 2);
    record(noisy, "%d %d", 3, 4);
}

static void test_regex_over_several_recorders_qualifies_names(void **state)
{
    (void) state;
    child c = start_child(export_two_recorders);
    recorder_share *share = open_ok(path);
    assert_true(recorder_share_find_channel(share, "shr/first", -1) >= 0);
    assert_true(recorder_share_find_channel(share, "noisy/second", -1) >= 0);
    assert_int_equal(recorder_share_find_channel(share, "first", -1), -1);

    /* A later request stops one recorder's channels. */
    char error[256];
    assert_true(recorder_share_send(share, "noisy=,", 2000, error, sizeof(error)));
    assert_int_equal(recorder_share_find_channel(share, "noisy/.*", -1), -1);
    assert_true(recorder_share_find_channel(share, "shr/second", -1) >= 0);
    recorder_share_close(share);
    finish_child(&c, NULL, 0);
}

/* ---- commands ------------------------------------------------------------ */

static void wait_for_commands(void)
{
    share_here();
    record(shr, "before commands");
}

static void test_commands_change_trace_tweak_dump_and_exports(void **state)
{
    (void) state;
    child c = start_child(wait_for_commands);
    recorder_share *share = open_ok(path);
    char error[512];

    assert_true(recorder_share_send(share, "shr_tweak=42", 2000, error, sizeof(error)));
    assert_true(recorder_share_send(share, "noisy=3", 2000, error, sizeof(error)));
    assert_true(recorder_share_send(share, "dump", 2000, error, sizeof(error)));
    assert_true(recorder_share_send(share, "shr=,,late", 2000, error, sizeof(error)));
    /* Rejected: the sender gets the writer's reason. */
    assert_false(recorder_share_send(share, "bad=x", 2000, error, sizeof(error)));
    assert_non_null(strstr(error, "invalid trace value 'x' in 'bad=x'"));
    /* Timeout 0: queued, not waited for; applied all the same. */
    assert_true(recorder_share_send(share, "noisy=4", 0, error, sizeof(error)));
    assert_true(recorder_share_send(share, "noisy=3", 2000, error, sizeof(error)));

    bool tweak_seen = false, trace_seen = false;
    for (unsigned t = 0; t < recorder_share_tweak_count(share); t++)
    {
        recorder_share_tweak tweak;
        if (recorder_share_tweak_info(share, t, &tweak) &&
            strcmp(tweak.name, "shr_tweak") == 0)
            tweak_seen = tweak.value == 42;
    }
    for (unsigned r = 0; r < recorder_share_recorder_count(share); r++)
    {
        recorder_share_recorder rec;
        if (recorder_share_recorder_info(share, r, &rec) &&
            strcmp(rec.name, "noisy") == 0)
            trace_seen = rec.trace == 3;
    }
    assert_true(tweak_seen);
    assert_true(trace_seen);
    assert_true(recorder_share_find_channel(share, "late", -1) >= 0);

    /* Results are recorded in recorder_traces. */
    FILE *dump = tmpfile();
    recorder_share_dump(share, "recorder_traces", dump);
    rewind(dump);
    char text[8192];
    size_t n = fread(text, 1, sizeof(text) - 1, dump);
    text[n] = 0;
    fclose(dump);
    assert_non_null(strstr(text, "Command 'shr_tweak=42': ok"));
    assert_non_null(strstr(text, "Command 'bad=x': invalid value"));

    recorder_share_close(share);
    char output[65536];
    finish_child(&c, output, sizeof(output));
    /* 'dump' made the process dump to its own output. */
    assert_non_null(strstr(output, "shr: before commands"));
}

/* How quickly is for make bench (command latency, p99); here, that every
 * command is applied, and that an idle writer costs nothing. */
static void test_commands_applied_and_idle_costs_nothing(void **state)
{
    (void) state;
    child c = start_child(wait_for_commands);
    recorder_share *share = open_ok(path);
    char error[512];
    for (int i = 0; i < 20; i++)
    {
        char command[64];
        snprintf(command, sizeof(command), "shr_tweak=%d", i);
        if (!recorder_share_send(share, command, 5000, error, sizeof(error)))
            fail_msg("'%s': %s", command, error);
    }

    /* Idle: after the calibration wake-ups (the last one about 1 s after start),
     * no thread of the child runs at all. Sanitizer runtimes have threads
     * of their own that wake up, so only the plain build can tell. */
    if (getenv("SANITIZED"))
    {
        recorder_share_close(share);
        finish_child(&c, NULL, 0);
        return;
    }
    sleep(2);
    char stat_path[64];
    snprintf(stat_path, sizeof(stat_path), "/proc/%d/status", c.pid);
    unsigned long switches[2] = { 0, 0 };
    for (int sample = 0; sample < 2; sample++)
    {
        char command[128];
        snprintf(command, sizeof(command),
                 "cat /proc/%d/task/*/status | awk '/voluntary_ctxt/ { s += $2 } END { print s }'",
                 c.pid);
        FILE *pipe = popen(command, "r");
        assert_non_null(pipe);
        assert_int_equal(fscanf(pipe, "%lu", &switches[sample]), 1);
        pclose(pipe);
        if (!sample)
            sleep(1);
    }
    assert_int_equal(switches[1], switches[0]);
    recorder_share_close(share);
    finish_child(&c, NULL, 0);
}

/* ---- life cycle ------------------------------------------------------------ */

static void record_then_wait(void)
{
    share_here();
    for (int i = 0; i < 5; i++)
        record(shr, "last words %d of %+s", i, "five");
    static char changing[16] = "mutable";     /* writable: not in a file */
    record(noisy, "buffer %+s", changing);
}

static void test_post_mortem_read_after_kill_9(void **state)
{
    (void) state;
    child c = start_child(record_then_wait);
    kill(c.pid, SIGKILL);
    finish_child(&c, NULL, 0);

    recorder_share *share = open_ok(path);
    assert_int_equal(recorder_share_state(share), RECORDER_SHARE_DIED);
    FILE *out = tmpfile();
    assert_true(recorder_share_dump(share, "shr", out) == 5);
    rewind(out);
    char text[4096];
    size_t n = fread(text, 1, sizeof(text) - 1, out);
    text[n] = 0;
    fclose(out);
    /* Literals of a dead process are read from its program file. */
    assert_non_null(strstr(text, "] shr: last words 4 of five\n"));
    assert_non_null(strstr(text, "[0 "));
    /* Writable data is gone with the process: only its address remains. */
    out = tmpfile();
    recorder_share_dump(share, "noisy", out);
    rewind(out);
    n = fread(text, 1, sizeof(text) - 1, out);
    text[n] = 0;
    fclose(out);
    assert_non_null(strstr(text, "noisy: buffer <0x"));
    char error[256];
    assert_false(recorder_share_send(share, "dump", 20, error, sizeof(error)));
    assert_non_null(strstr(error, "died"));
    recorder_share_close(share);
}

static void test_live_dump_fetches_plus_s_strings(void **state)
{
    (void) state;
    child c = start_child(record_then_wait);
    recorder_share *share = open_ok(path);
    FILE *out = tmpfile();
    recorder_share_dump(share, "shr", out);
    rewind(out);
    char text[4096];
    size_t n = fread(text, 1, sizeof(text) - 1, out);
    text[n] = 0;
    fclose(out);
    assert_non_null(strstr(text, "shr: last words 4 of five\n"));
    recorder_share_close(share);
    finish_child(&c, NULL, 0);
}

static void test_normal_exit_is_reported(void **state)
{
    (void) state;
    child c = start_child(record_then_wait);
    finish_child(&c, NULL, 0);
    recorder_share *share = open_ok(path);
    assert_int_equal(recorder_share_state(share), RECORDER_SHARE_EXITED);
    recorder_share_close(share);
}

static void test_new_process_replaces_dead_one(void **state)
{
    (void) state;
    child first = start_child(record_then_wait);
    recorder_share *old = open_ok(path);
    recorder_share_process before;
    recorder_share_process_info(old, &before);
    kill(first.pid, SIGKILL);
    finish_child(&first, NULL, 0);

    child second = start_child(record_then_wait);
    assert_int_equal(recorder_share_state(old), RECORDER_SHARE_REPLACED);
    recorder_share *fresh = open_ok(path);
    recorder_share_process after;
    recorder_share_process_info(fresh, &after);
    assert_int_not_equal(after.generation, before.generation);
    assert_int_equal(after.pid, (unsigned) second.pid);
    assert_int_equal(recorder_share_state(fresh), RECORDER_SHARE_ALIVE);

    /* The dead one's segment was kept for a post-mortem look. */
    char previous[400];
    snprintf(previous, sizeof(previous), "%s.prev", path);
    char error[256];
    recorder_share *kept = recorder_share_open(previous, error, sizeof(error));
    assert_non_null(kept);
    recorder_share_process info;
    recorder_share_process_info(kept, &info);
    assert_int_equal(info.generation, before.generation);
    recorder_share_close(kept);
    recorder_share_close(old);
    recorder_share_close(fresh);
    finish_child(&second, NULL, 0);
}

static void no_sharing(void)
{
    record(shr, "nothing shared");
}

static void test_process_without_sharing_creates_no_file(void **state)
{
    (void) state;
    unsetenv("RECORDER_SHARE");
    child c = start_child(no_sharing);
    finish_child(&c, NULL, 0);
    struct stat st;
    assert_int_not_equal(stat(path, &st), 0);
    int fd = open("/tmp/recorder_share", O_RDONLY);
    if (fd >= 0)
    {
        share_header header;
        ssize_t n = read(fd, &header, sizeof(header));
        close(fd);
        if (n == (ssize_t) sizeof(header))
            assert_int_not_equal(header.pid, (uint32_t) c.pid);
    }
}

/* ---- security ---------------------------------------------------------------- */

static void try_to_share(void)
{
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s", path);
    int result = recorder_trace_set(spec);
    fprintf(stderr, "result %d\n", result);
}

static void test_symlink_at_path_is_refused(void **state)
{
    (void) state;
    char target[400];
    snprintf(target, sizeof(target), "%s/target", directory);
    assert_int_equal(symlink(target, path), 0);
    child c = start_child(try_to_share);
    char output[4096];
    finish_child(&c, output, sizeof(output));
    assert_non_null(strstr(output, "is a symbolic link"));
    assert_non_null(strstr(output, "result 2"));
    struct stat st;
    assert_int_not_equal(stat(target, &st), 0);         /* not followed */
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISLNK(st.st_mode));                    /* left alone */
    char error[256];
    assert_null(recorder_share_open(path, error, sizeof(error)));
    assert_non_null(strstr(error, "symbolic link"));
}

static void test_file_of_another_user_is_refused(void **state)
{
    (void) state;
    if (geteuid() != 0)
        skip();                         /* only root can make such a file */
    int fd = open(path, O_CREAT | O_WRONLY, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "x", 1), 1);
    close(fd);
    assert_int_equal(chown(path, 65534, 65534), 0);
    child c = start_child(try_to_share);
    char output[4096];
    finish_child(&c, output, sizeof(output));
    assert_non_null(strstr(output, "belongs to user 65534"));
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_size, 1);                     /* untouched */
}

static void test_live_holder_is_reported_not_taken_over(void **state)
{
    (void) state;
    child holder = start_child(record_then_wait);
    child intruder = start_child(try_to_share);
    char output[4096];
    finish_child(&intruder, output, sizeof(output));
    /* Said once, naming the holder and a way out. */
    char expected[PATH_MAX + 256];
    snprintf(expected, sizeof(expected), "recorder: not sharing: %s is held "
             "by live process %d (%s); give each process its own segment, "
             "e.g. RECORDER_SHARE=%s.%%p\n", path, holder.pid,
             program_invocation_short_name, path);
    const char *said = strstr(output, expected);
    assert_non_null(said);
    assert_null(strstr(said + strlen(expected), "held by"));
    recorder_share *share = open_ok(path);
    recorder_share_process info;
    recorder_share_process_info(share, &info);
    assert_int_equal(info.pid, (unsigned) holder.pid);
    recorder_share_close(share);
    finish_child(&holder, NULL, 0);
}

static void write_file(const char *file, const void *data, size_t size)
{
    int fd = open(file, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, size), (ssize_t) size);
    close(fd);
}

static void assert_file_holds(const char *name, const char *text)
{
    char content[256] = "";
    FILE *file = fopen(name, "r");
    assert_non_null(file);
    size_t len = fread(content, 1, sizeof(content) - 1, file);
    content[len] = 0;
    fclose(file);
    assert_string_equal(content, text);
}

static void test_file_that_is_no_segment_is_not_moved(void **state)
{
    (void) state;
    write_file(path, "precious\n", 9);
    child c = start_child(try_to_share);
    char output[4096];
    finish_child(&c, output, sizeof(output));
    assert_non_null(strstr(output, "is not a recorder segment"));
    assert_file_holds(path, "precious\n");
    char previous[400];
    snprintf(previous, sizeof(previous), "%s.prev", path);
    struct stat st;
    assert_int_not_equal(stat(previous, &st), 0);
}

static void test_prev_that_is_no_segment_is_not_replaced(void **state)
{
    (void) state;
    child dead = start_child(record_then_wait);
    kill(dead.pid, SIGKILL);
    finish_child(&dead, NULL, 0);
    char previous[400];
    snprintf(previous, sizeof(previous), "%s.prev", path);
    write_file(previous, "keep me\n", 8);
    child c = start_child(try_to_share);
    char output[4096];
    finish_child(&c, output, sizeof(output));
    assert_non_null(strstr(output, ".prev is not a recorder segment"));
    assert_file_holds(previous, "keep me\n");
}

/* Descriptors open, and mappings of files in the test's directory. */
static unsigned count_fds(void)
{
    unsigned count = 0;
    DIR *dir = opendir("/proc/self/fd");
    for (struct dirent *entry; dir && (entry = readdir(dir)); )
        count += entry->d_name[0] != '.';
    if (dir)
        closedir(dir);
    return count;
}

static unsigned count_mappings(void)
{
    unsigned count = 0;
    char line[4096 + 128];
    FILE *maps = fopen("/proc/self/maps", "r");
    while (maps && fgets(line, sizeof(line), maps))
        count += strstr(line, directory) != NULL;
    if (maps)
        fclose(maps);
    return count;
}

static void move_back_and_forth(void)
{
    share_here();
    unsigned fds = count_fds(), mappings = count_mappings(), failed = 0;
    for (int move = 0; move < 60; move++)
    {
        char spec[400];
        snprintf(spec, sizeof(spec), "share=%s%s", path, move % 2 ? "" : ".b");
        failed += recorder_trace_set(spec) != RECORDER_TRACE_OK;
    }
    /* Segments left are unmapped a second later, at the next call. */
    usleep(1100 * 1000);
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s", path);
    failed += recorder_trace_set(spec) != RECORDER_TRACE_OK;
    fprintf(stderr, "failed %u, fds %+d, mappings %+d\n", failed,
            (int) (count_fds() - fds), (int) (count_mappings() - mappings));
}

static void test_moves_let_go_of_the_segment_left(void **state)
{
    (void) state;
    child c = start_child(move_back_and_forth);
    char output[4096];
    finish_child(&c, output, sizeof(output));
    /* One more mapping: the segment left last, kept until the next move
     * for writers that were in the middle of a record (older ones a
     * second, then let go). */
    assert_non_null(strstr(output, "failed 0, fds +0, mappings +1"));
    struct stat st;
    char other[400];
    snprintf(other, sizeof(other), "%s.b", path);
    assert_int_equal(stat(path, &st), 0);                /* where it ended */
    assert_int_not_equal(stat(other, &st), 0);           /* left: removed */
}

static void test_segment_is_private_to_its_user(void **state)
{
    (void) state;
    child c = start_child(record_then_wait);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(st.st_uid, geteuid());
    finish_child(&c, NULL, 0);
}

/* ---- corrupt segments ---------------------------------------------------------- */

static void ignore_record(const recorder_share_record *record, void *arg)
{
    (void) record;
    (void) arg;
}

/* Exercise every reader entry point; none may crash. */
static void read_everything(recorder_share *share)
{
    recorder_share_recorder rec;
    recorder_share_tweak tweak;
    recorder_share_channel channel;
    recorder_share_process process;
    recorder_share_process_info(share, &process);
    for (unsigned i = 0; i < recorder_share_recorder_count(share) && i < 2000; i++)
        recorder_share_recorder_info(share, i, &rec);
    for (unsigned i = 0; i < recorder_share_tweak_count(share) && i < 2000; i++)
        recorder_share_tweak_info(share, i, &tweak);
    for (unsigned i = 0; i < recorder_share_channel_count(share) && i < 300; i++)
    {
        recorder_share_channel_info(share, i, &channel);
        recorder_share_stats stats;
        recorder_share_channel_stats(share, i, &stats);
        recorder_sample samples[16];
        recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
        uint64_t lost;
        recorder_share_read(share, i, &cursor, samples, 16, &lost);
    }
    recorder_share_records *records = recorder_share_records_new(NULL, NULL, 0);
    recorder_share_records_read(share, records, SIZE_MAX, ignore_record, NULL,
                                NULL);
    recorder_share_records_delete(records);
    FILE *null = fopen("/dev/null", "w");
    recorder_share_dump(share, NULL, null);
    fclose(null);
    recorder_share_state(share);
}

static void test_random_bytes_are_rejected(void **state)
{
    (void) state;
    static uint8_t junk[1 << 16];
    srand(7);
    for (size_t i = 0; i < sizeof(junk); i++)
        junk[i] = (uint8_t) rand();
    write_file(path, junk, sizeof(junk));
    char error[256];
    assert_null(recorder_share_open(path, error, sizeof(error)));
    assert_non_null(strstr(error, "not a recorder segment"));
    write_file(path, junk, 10);
    assert_null(recorder_share_open(path, error, sizeof(error)));
    assert_non_null(strstr(error, "too small"));
    write_file(path, "", 0);
    assert_null(recorder_share_open(path, error, sizeof(error)));
}

/* A real segment, from a child that exported a channel and was killed. */
static size_t real_segment(uint8_t **data)
{
    child c = start_child(record_known_values);
    kill(c.pid, SIGKILL);
    finish_child(&c, NULL, 0);
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    struct stat st;
    fstat(fd, &st);
    *data = malloc((size_t) st.st_size);
    assert_int_equal(read(fd, *data, (size_t) st.st_size), st.st_size);
    close(fd);
    return (size_t) st.st_size;
}

static void test_truncated_segment_is_rejected(void **state)
{
    (void) state;
    uint8_t *data;
    size_t size = real_segment(&data);
    write_file(path, data, size / 2);
    char error[256];
    assert_null(recorder_share_open(path, error, sizeof(error)));
    assert_non_null(strstr(error, "truncated"));
    free(data);
}

/* A sparse file whose header claims a sites table of 100 million entries:
 * the reader would index them all. Tables beyond the layout's capacities
 * are refused at open. */
static void test_tables_beyond_the_layout_are_refused(void **state)
{
    (void) state;
    uint8_t *data;
    size_t size = real_segment(&data);
    share_header *h = (share_header *) data;
    uint64_t huge = 100000000;
    h->sites.capacity = (uint32_t) huge;
    h->sites.count = (uint32_t) huge;
    write_file(path, data, size);
    assert_int_equal(truncate(path, (off_t) (h->sites.offset +
                                             huge * sizeof(share_site))), 0);
    char error[256];
    assert_null(recorder_share_open(path, error, sizeof(error)));
    assert_non_null(strstr(error, "exceeds the layout's limits"));
    free(data);
}

/* Every recorder of the table pointed at one ring: a dump reads it once. */
static void test_a_ring_shared_by_many_recorders_is_dumped_once(void **state)
{
    (void) state;
    uint8_t *data;
    size_t size = real_segment(&data);
    write_file(path, data, size);
    recorder_share *share = open_ok(path);
    unsigned count = recorder_share_recorder_count(share), busiest = 0;
    uint64_t most = 0;
    for (unsigned r = 0; r < count; r++)
    {
        recorder_share_recorder info;
        if (recorder_share_recorder_info(share, r, &info) && info.records > most)
            most = info.records, busiest = r;
    }
    recorder_share_recorder chosen;
    assert_true(recorder_share_recorder_info(share, busiest, &chosen));
    FILE *sink = fopen("/dev/null", "w");
    unsigned alone = recorder_share_dump(share, chosen.name, sink);
    recorder_share_close(share);
    assert_true(count > 2 && alone > 0);

    share_header *h = (share_header *) data;
    share_recorder *table = (share_recorder *) (data + h->recorders.offset);
    for (unsigned r = 0; r < count; r++)
        table[r] = table[busiest];
    write_file(path, data, size);
    share = open_ok(path);
    assert_int_equal(recorder_share_dump(share, NULL, sink), alone);
    recorder_share_close(share);
    fclose(sink);
    free(data);
}

static void test_huge_offsets_and_counts_do_not_crash(void **state)
{
    (void) state;
    uint8_t *data;
    size_t size = real_segment(&data);
    share_header *h = (share_header *) data;
    uint8_t *copy = malloc(size);

    /* Header fields the reader checks: each gives an error. */
    struct { size_t offset; uint64_t value; unsigned bytes; } header_cases[] = {
        { offsetof(share_header, recorders.offset), UINT64_MAX - 8, 8 },
        { offsetof(share_header, recorders.capacity), 0xFFFFFFFF, 4 },
        { offsetof(share_header, strings.size), UINT64_MAX, 8 },
        { offsetof(share_header, rings.offset), size, 8 },
        { offsetof(share_header, version), 99, 4 },
        { offsetof(share_header, slot_size), 32, 4 },
        { offsetof(share_header, endian), 0x04030201, 4 },
        { offsetof(share_header, word_size), 0xFFFFFFFF, 4 },
        { offsetof(share_header, word_size), 4, 4 },
    };
    for (unsigned k = 0; k < sizeof(header_cases) / sizeof(*header_cases); k++)
    {
        memcpy(copy, data, size);
        memcpy(copy + header_cases[k].offset, &header_cases[k].value,
               header_cases[k].bytes);
        write_file(path, copy, size);
        char error[256] = "";
        recorder_share *share = recorder_share_open(path, error, sizeof(error));
        if (share)
            fail_msg("header field at %zu set to %#lx: opened",
                     header_cases[k].offset,
                     (unsigned long) header_cases[k].value);
        assert_true(error[0] != 0);
    }

    /* Counts, table entries and ring words the reader cannot check up
     * front: it must cope with them entry by entry. */
    uint64_t values[] = { 0, 1, 3, 0x7FFFFFFF, 0xFFFFFFFF, UINT64_MAX,
                          UINT64_MAX / 2, size, size - 1 };
    uint64_t regions[] = { h->recorders.offset, h->channels.offset,
                           h->sites.offset, h->rings.offset,
                           offsetof(share_header, recorders.count),
                           offsetof(share_header, channels.count),
                           offsetof(share_header, sites.count) };
    unsigned runs = 0;
    for (unsigned r = 0; r < sizeof(regions) / sizeof(*regions); r++)
        for (unsigned word = 0; word < 12; word++)
            for (unsigned v = 0; v < sizeof(values) / sizeof(*values); v++)
            {
                uint64_t at = regions[r] + word * 4;
                if (at + 8 > size)
                    continue;
                memcpy(copy, data, size);
                memcpy(copy + at, &values[v], 8);
                write_file(path, copy, size);
                char error[256];
                recorder_share *share = recorder_share_open(path, error,
                                                            sizeof(error));
                if (share)
                {
                    read_everything(share);
                    recorder_share_close(share);
                }
                runs++;
            }
    print_message("%u corrupted segments read without a crash\n", runs);
    free(copy);
    free(data);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);           /* children may die before we write */
    const struct CMUnitTest tests[] = {
#define TEST(name) cmocka_unit_test_setup_teardown(name, make_directory, remove_directory)
        TEST(test_channels_have_names_types_and_values_in_order),
        TEST(test_reader_falling_behind_counts_losses),
        TEST(test_lanes_of_two_threads_read_back_in_time_order),
        TEST(test_regex_over_several_recorders_qualifies_names),
        TEST(test_commands_change_trace_tweak_dump_and_exports),
        TEST(test_commands_applied_and_idle_costs_nothing),
        TEST(test_post_mortem_read_after_kill_9),
        TEST(test_live_dump_fetches_plus_s_strings),
        TEST(test_normal_exit_is_reported),
        TEST(test_new_process_replaces_dead_one),
        TEST(test_process_without_sharing_creates_no_file),
        TEST(test_symlink_at_path_is_refused),
        TEST(test_file_of_another_user_is_refused),
        TEST(test_live_holder_is_reported_not_taken_over),
        TEST(test_file_that_is_no_segment_is_not_moved),
        TEST(test_prev_that_is_no_segment_is_not_replaced),
        TEST(test_moves_let_go_of_the_segment_left),
        TEST(test_segment_is_private_to_its_user),
        TEST(test_random_bytes_are_rejected),
        TEST(test_truncated_segment_is_rejected),
        TEST(test_huge_offsets_and_counts_do_not_crash),
        TEST(test_tables_beyond_the_layout_are_refused),
        TEST(test_a_ring_shared_by_many_recorders_is_dumped_once),
    };
    return cmocka_run_group_tests_name("share", tests, NULL, NULL);
}
