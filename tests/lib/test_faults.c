/* test_faults.c - the segment when things go wrong: a file size limit, no
 * directory, fork, exec, too many recorders or channels, odd ring sizes,
 * and a file deleted or truncated under a reader. Each case runs in a child
 * process, gives a clear message and keeps the process running. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "default_signals.h"
#include "scratch_dir.h"

#include "recorder.h"
#include "recorder_share.h"
#include "segment/share_writer_private.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

RECORDER(fault, 64, "Records of the fault tests");
RECORDER(tiny, 0, "A recorder asked for zero entries");


/* Run 'body' in a child with stderr captured; return its exit status. */
static int in_child(void (*body)(void), char *output, size_t size)
{
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
    {
        close(pipefd[0]);
        dup2(pipefd[1], 2);
        default_signals();
        body();
        exit(0);
    }
    close(pipefd[1]);
    size_t len = 0;
    ssize_t n;
    while (len < size - 1 && (n = read(pipefd[0], output + len, size - 1 - len)) > 0)
        len += (size_t) n;
    output[len] = 0;
    close(pipefd[0]);
    int status;
    waitpid(pid, &status, 0);
    return status;
}

static int share_at_path(void)
{
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s", path);
    return recorder_trace_set(spec);
}

static void say_still_running(void)
{
    record(fault, "still recording %d", 42);
    if (recorder_dump_for("fault") == 1)
        fprintf(stderr, "still running\n");
}

/* ---- creating the segment ------------------------------------------------ */

static void with_small_file_size_limit(void)
{
    /* SIGXFSZ left at its default action: a reservation past the limit
     * would kill the process (exit 153). */
    struct rlimit small = { 65536, 65536 };
    setrlimit(RLIMIT_FSIZE, &small);
    fprintf(stderr, "result %d\n", share_at_path());
    recorder_trace_set("fault=value,");     /* an export asks again */
    say_still_running();
}

static void test_file_size_limit_refused_and_process_goes_on(void **state)
{
    (void) state;
    char output[8192];
    int status = in_child(with_small_file_size_limit, output, sizeof(output));
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    const char *said = strstr(output, "recorder: not sharing: ");
    assert_non_null(said);
    assert_non_null(strstr(said, "file size limit (ulimit -f) of 64 KiB"));
    assert_null(strstr(said + 1, "recorder: not sharing: "));  /* once */
    assert_non_null(strstr(output, "result 2"));
    assert_non_null(strstr(output, "still running"));
    assert_int_not_equal(access(path, F_OK), 0);    /* nothing left behind */
}

static void in_missing_directory(void)
{
    snprintf(path, sizeof(path), "%.200s/missing/segment", directory);
    fprintf(stderr, "result %d\n", share_at_path());
    say_still_running();
}

static void test_unwritable_place_is_reported(void **state)
{
    (void) state;
    char output[8192];
    int status = in_child(in_missing_directory, output, sizeof(output));
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_non_null(strstr(output, "recorder: not sharing:"));
    assert_non_null(strstr(output, "missing"));
    assert_non_null(strstr(output, "still running"));
}

static void in_world_writable_directory(void)
{
    char open_dir[400];
    snprintf(open_dir, sizeof(open_dir), "%s/open", directory);
    mkdir(open_dir, 0777);
    chmod(open_dir, 0777);                  /* no sticky bit */
    snprintf(path, sizeof(path), "%.300s/segment", open_dir);
    fprintf(stderr, "result %d\n", share_at_path());
}

static void test_directory_others_can_write_is_refused(void **state)
{
    (void) state;
    char output[8192];
    in_child(in_world_writable_directory, output, sizeof(output));
    assert_non_null(strstr(output, "writable by others without the sticky bit"));
    assert_non_null(strstr(output, "result 2"));
}

/* ---- fork and exec ------------------------------------------------------- */

static void fork_and_record(void)
{
    share_at_path();
    recorder_trace_set("fault=value,");
    record(fault, "parent before fork %d", 1);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
    {
        for (int i = 0; i < 1000; i++)
            record(fault, "child %d", i);
        _exit(recorder_dump_for("fault") == 1001 ? 0 : 1);
    }
    int status;
    waitpid(pid, &status, 0);
    record(fault, "parent after fork %d", 2);
    fprintf(stderr, "child status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void test_forked_child_does_not_write_parent_segment(void **state)
{
    (void) state;
    char output[1 << 17];
    in_child(fork_and_record, output, sizeof(output));
    assert_non_null(strstr(output, "child status 0"));

    char error[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    assert_non_null(share);
    FILE *out = tmpfile();
    unsigned lines = recorder_share_dump(share, "fault", out);
    rewind(out);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof(text) - 1, out);
    text[n] = 0;
    fclose(out);
    recorder_share_close(share);
    assert_int_equal(lines, 2);
    assert_non_null(strstr(text, "parent before fork 1"));
    assert_non_null(strstr(text, "parent after fork 2"));
    assert_null(strstr(text, "child"));
}

static void exec_lister(void)
{
    share_at_path();
    char command[128];
    snprintf(command, sizeof(command), "ls -l /proc/self/fd/ >&2");
    execl("/bin/sh", "sh", "-c", command, (char *) NULL);
}

static void test_exec_leaks_no_descriptor(void **state)
{
    (void) state;
    char output[8192];
    in_child(exec_lister, output, sizeof(output));
    assert_non_null(strstr(output, "Creating new"));
    char link[400];
    snprintf(link, sizeof(link), "-> %s", path);
    assert_null(strstr(output, link));          /* no fd on the segment */
    assert_non_null(strstr(output, "-> "));     /* but ls did list fds */
}

/* ---- sizes ---------------------------------------------------------------- */

static void many_recorders_and_channels(void)
{
    share_at_path();
    enum { EXTRA = 1100 };
    static recorder_info infos[EXTRA];
    static struct { recorder_buffer head; recorder_slot slots[4]; }
        rings[EXTRA][RECORDER_LANES];
    static char names[EXTRA][32];
    for (int i = 0; i < EXTRA; i++)
    {
        snprintf(names[i], sizeof(names[i]), "many_%d", i);
        infos[i] = (recorder_info) { .mask = 3, .buffer = &rings[i][0].head,
                                     .name = names[i],
                                     .description = "One of many" };
        recorder_activate(&infos[i]);
    }
    recorder_dump_for("recorder_error");    /* before it wraps */
    for (int i = 0; i < 150; i++)
    {
        char spec[64];
        snprintf(spec, sizeof(spec), "many_%d=c%d,d%d", i, i, i);
        recorder_trace_set(spec);
    }
    fprintf(stderr, "activated\n");
    recorder_dump_for("recorder_error");
    say_still_running();
}

/* Once 1024 recorders and 256 channels at most, the rest dropped: now the
 * segment grows, and every one is there. */
static void test_more_recorders_and_channels_grow_the_segment(void **state)
{
    (void) state;
    char output[1 << 17];
    int status = in_child(many_recorders_and_channels, output, sizeof(output));
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_null(strstr(output, "not shared"));
    assert_non_null(strstr(output, "still running"));
    char error[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    assert_non_null(share);
    unsigned recorders = recorder_share_recorder_count(share);
    assert_true(recorders > 1100);
    bool found = false;
    for (unsigned r = 0; r < recorders && !found; r++)
    {
        recorder_share_recorder info;
        found = recorder_share_recorder_info(share, r, &info) &&
                strcmp(info.name, "many_1099") == 0;
    }
    assert_true(found);
    assert_int_equal(recorder_share_channel_count(share), 300);
    assert_true(recorder_share_available(share, RECORDER_SHARE_TABLES, error,
                                         sizeof(error)));
    recorder_share_close(share);
}

static void odd_ring_sizes(void)
{
    for (int i = 0; i < 10; i++)
        record(tiny, "tiny %d", i);
    fprintf(stderr, "tiny kept %u\n", recorder_dump_for("tiny"));
    share_at_path();
    recorder_trace_set("recorder_export_size=0x10000000000");
    recorder_trace_set("fault=huge,");
    recorder_dump_for("recorder_error");
    recorder_trace_set("recorder_export_size=0");
    recorder_trace_set("fault=none,");
    say_still_running();
}

static void test_zero_and_huge_ring_sizes(void **state)
{
    (void) state;
    char output[8192];
    int status = in_child(odd_ring_sizes, output, sizeof(output));
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    assert_non_null(strstr(output, "tiny kept 4\n"));    /* 0 means 4 slots */
    assert_non_null(strstr(output, "shared ring region full"));
    assert_non_null(strstr(output, "exported ring 'fault'"));
    assert_non_null(strstr(output, "still running"));
}

/* ---- the file under a reader ---------------------------------------------- */

static pid_t start_sharing_child(void)
{
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    if (pid == 0)
    {
        close(ready[0]);
        share_at_path();
        recorder_trace_set("fault=value,");
        record(fault, "value %d", 7);
        assert_int_equal(write(ready[1], "r", 1), 1);
        pause();
        _exit(0);
    }
    close(ready[1]);
    char byte;
    assert_int_equal(read(ready[0], &byte, 1), 1);
    close(ready[0]);
    return pid;
}

static void test_deleted_segment_stays_readable(void **state)
{
    (void) state;
    pid_t pid = start_sharing_child();
    char error[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    assert_non_null(share);
    unlink(path);
    recorder_sample sample;
    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    int channel = recorder_share_find_channel(share, "value", -1);
    assert_true(channel >= 0);
    assert_int_equal(recorder_share_read(share, (unsigned) channel, &cursor,
                                         &sample, 1, NULL), 1);
    assert_true(sample.value == 7);
    recorder_share_close(share);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

static void test_truncated_segment_under_reader_gives_nothing(void **state)
{
    (void) state;
    pid_t pid = start_sharing_child();
    char error[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    assert_non_null(share);
    assert_int_equal(truncate(path, 4096), 0);
    recorder_sample sample;
    recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
    assert_int_equal(recorder_share_channel_count(share), 0);
    assert_int_equal(recorder_share_read(share, 0, &cursor, &sample, 1, NULL), 0);
    FILE *null = fopen("/dev/null", "w");
    assert_int_equal(recorder_share_dump(share, NULL, null), 0);
    fclose(null);
    assert_int_equal(recorder_share_state(share), RECORDER_SHARE_REPLACED);
    recorder_share_close(share);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
}

/* ---- the file under the writer ------------------------------------------- */

static void truncated_under_writer(void)
{
    recorder_dump_on_signal(SIGBUS);
    fprintf(stderr, "result %d\n", !recorder_share_open_path(path));
    record(fault, "before %d", 1);
    if (truncate(path, 0) != 0)
        _exit(3);
    for (int i = 0; i < 100; i++)
        record(fault, "after %d", i);   /* into private memory now */
    recorder_dump_for("fault");
    /* Sharing again makes a new segment, at the same path too. */
    fprintf(stderr, "result %d\n", !recorder_share_open_path(path));
    record(fault, "shared again %d", 2);
}

static void test_truncated_segment_under_writer_keeps_recording(void **state)
{
    (void) state;
    char output[32768];
    int status = in_child(truncated_under_writer, output, sizeof(output));
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char said[512];
    snprintf(said, sizeof(said), "recorder: %s was truncated under us; "
             "recording continues in private memory, no longer shared\n",
             path);
    const char *first = strstr(output, said);
    assert_non_null(first);
    assert_null(strstr(first + 1, said));                   /* once */
    assert_non_null(strstr(output, "fault: after 99\n"));    /* still dumps */
    assert_null(strstr(output, "result 1"));

    /* The new segment is whole: a reader finds the record made there. */
    char error[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    assert_non_null(share);
    char dump[4096] = "";
    FILE *out = fmemopen(dump, sizeof(dump) - 1, "w");
    recorder_share_dump(share, "fault", out);
    fclose(out);
    assert_non_null(strstr(dump, "shared again 2"));
    recorder_share_close(share);
}

/* Truncated while its command thread sleeps (past the calibration wake-ups
 * of the first second), the writer shares again: the thread must serve the new ring,
 * although the old doorbell it sleeps on became private memory. */
static void test_commands_served_after_truncation_and_sharing_again(void **state)
{
    (void) state;
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    if (pid == 0)
    {
        close(ready[0]);
        default_signals();
        recorder_dump_on_signal(SIGBUS);
        share_at_path();
        usleep(1500000);
        if (truncate(path, 0) != 0)
            _exit(3);
        record(fault, "into private memory %d", 1);
        recorder_share_open_path(path);
        assert_int_equal(write(ready[1], "r", 1), 1);
        pause();
        _exit(0);
    }
    close(ready[1]);
    char byte;
    if (read(ready[0], &byte, 1) != 1)
    {
        int status;
        waitpid(pid, &status, 0);
        fail_msg("the child ended early: status %#x", status);
    }
    close(ready[0]);
    char error[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    assert_non_null(share);
    bool sent = recorder_share_send(share, "fault=0", 2000, error,
                                    sizeof(error));
    recorder_share_close(share);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    if (!sent)
        fail_msg("send: %s", error);
}

/* A crash after the file was truncated: the report is not cut short by a
 * SIGBUS of its own (writing the records or the segment's crash region). */
static void crash_after_truncation(void)
{
    setenv("RECORDER_SYMBOLIZE", "", 1);    /* raw frames: faster */
    recorder_dump_on_signal(SIGBUS);
    recorder_dump_on_signal(SIGABRT);
    share_at_path();
    if (truncate(path, 0) != 0)
        _exit(3);
    abort();
}

/* The crash report of 'body': whole, and saying once, before the report,
 * where the truncated segment went. */
static void check_crash_report_after_truncation(void (*body)(void))
{
    char output[1 << 16];
    int status = in_child(body, output, sizeof(output));
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    assert_null(strstr(output, "while reporting"));
    char said[512];
    snprintf(said, sizeof(said), "recorder: %s was truncated under us; "
             "recording continues in private memory, no longer shared\n",
             path);
    const char *first = strstr(output, said);
    if (!first)
        fail_msg("the report does not say where the segment went:\n%s",
                 output);
    assert_null(strstr(first + 1, said));                   /* once */
    const char *report = strstr(output, "Received SIGABRT");
    assert_non_null(report);
    assert_true(first < report);
}

static void test_crash_report_after_truncation_is_whole(void **state)
{
    (void) state;
    check_crash_report_after_truncation(crash_after_truncation);
}

/* The same crash once the command thread sleeps for good (no calibration
 * point is due after the first second) and nothing records: only the
 * crash path itself can find the truncation. */
static void crash_after_truncation_unnoticed(void)
{
    setenv("RECORDER_SYMBOLIZE", "", 1);
    recorder_dump_on_signal(SIGABRT);
    share_at_path();
    usleep(1500000);
    if (truncate(path, 0) != 0)
        _exit(3);
    abort();
}

static void test_crash_finds_truncation_nobody_noticed(void **state)
{
    (void) state;
    check_crash_report_after_truncation(crash_after_truncation_unnoticed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define TEST(name) cmocka_unit_test_setup_teardown(name, make_directory, remove_directory)
        TEST(test_file_size_limit_refused_and_process_goes_on),
        TEST(test_unwritable_place_is_reported),
        TEST(test_directory_others_can_write_is_refused),
        TEST(test_forked_child_does_not_write_parent_segment),
        TEST(test_exec_leaks_no_descriptor),
        TEST(test_more_recorders_and_channels_grow_the_segment),
        TEST(test_zero_and_huge_ring_sizes),
        TEST(test_deleted_segment_stays_readable),
        TEST(test_truncated_segment_under_reader_gives_nothing),
        TEST(test_truncated_segment_under_writer_keeps_recording),
        TEST(test_commands_served_after_truncation_and_sharing_again),
        TEST(test_crash_report_after_truncation_is_whole),
        TEST(test_crash_finds_truncation_nobody_noticed),
    };
    return cmocka_run_group_tests_name("faults", tests, NULL, NULL);
}
