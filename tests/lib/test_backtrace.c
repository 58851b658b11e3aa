/* test_backtrace.c - capturing, writing, parsing, attaching and printing
 * backtrace chains, within one process and across two over a socketpair;
 * and every way a blob can be malformed or truncated. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "recorder.h"
#include "recorder_backtrace.h"
#include "backtrace/backtrace_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static char host[256];

static char *printed(const recorder_backtrace *bt)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    recorder_backtrace_print(bt, out);
    fclose(out);
    return text;
}

static recorder_backtrace_frame frame_at(const recorder_backtrace *bt,
                                         unsigned index)
{
    recorder_backtrace_frame frame;
    if (!recorder_backtrace_frame_info(bt, index, &frame))
        fail_msg("no frame %u", index);
    return frame;
}

/* ---- capture ------------------------------------------------------------ */

static const unsigned capture_line = __LINE__ + 4;
__attribute__((noinline)) static recorder_backtrace *capture_here(void)
{
    recorder_backtrace *bt;
    bt = recorder_backtrace_capture(0);
    __asm__ __volatile__("");           /* keep this frame */
    return bt;
}

static const unsigned caller_line = __LINE__ + 4;
__attribute__((noinline)) static void test_capture_names_caller_file_and_line(void **state)
{
    (void) state;
    recorder_backtrace *bt = capture_here();
    __asm__ __volatile__("");
    assert_non_null(bt);
    assert_true(recorder_backtrace_count(bt) >= 3);
    recorder_backtrace_frame frame = frame_at(bt, 0);
    assert_string_equal(frame.function, "capture_here");
    assert_string_equal(frame.file, "tests/lib/test_backtrace.c");
    assert_int_equal(frame.line, capture_line);
    assert_string_equal(frame.program, "test_backtrace");
    assert_string_equal(frame.host, host);
    assert_int_equal(frame.pid, (unsigned) getpid());
    assert_int_equal(frame.signal, 0);
    assert_non_null(strstr(frame.module, "test_backtrace"));

    frame = frame_at(bt, 1);
    assert_string_equal(frame.function,
                        "test_capture_names_caller_file_and_line");
    assert_int_equal(frame.line, caller_line);

    char *text = printed(bt);
    char want[1024];
    snprintf(want, sizeof(want), "0/%u test_backtrace @ %s Failed at file "
             "\"tests/lib/test_backtrace.c\", line %u, in capture_here\n",
             recorder_backtrace_count(bt), host, capture_line);
    if (strncmp(text, want, strlen(want)) != 0)
        fail_msg("printed:\n%s\nexpected first:\n%s", text, want);
    free(text);
    recorder_backtrace_delete(bt);
}

__attribute__((noinline)) static recorder_backtrace *error_helper(void)
{
    recorder_backtrace *bt = recorder_backtrace_capture(1);
    __asm__ __volatile__("");
    return bt;
}

static const unsigned failing_line = __LINE__ + 4;
__attribute__((noinline)) static recorder_backtrace *failing_function(void)
{
    recorder_backtrace *bt;
    bt = error_helper();
    __asm__ __volatile__("");
    return bt;
}

static void test_skip_leaves_out_error_helpers(void **state)
{
    (void) state;
    recorder_backtrace *bt = failing_function();
    recorder_backtrace_frame frame = frame_at(bt, 0);
    assert_string_equal(frame.function, "failing_function");
    assert_int_equal(frame.line, failing_line);
    recorder_backtrace_delete(bt);
}

/* ---- text --------------------------------------------------------------- */

static const char server_blob[] =
    "recorder-backtrace 1\n"
    "process server db-01 4242 4243 worker 0 0 0 0 2 0\n"
    "frame parse server.c 40 /srv/bin/server 0x1234 parse 0x10\n"
    "frame handle server.c 61 /srv/bin/server 0x1300 handle 0x20\n"
    "end 1 2\n";

static void test_text_round_trips(void **state)
{
    (void) state;
    recorder_backtrace *bt = capture_here();
    size_t length = 0;
    char *text = recorder_backtrace_text(bt, &length);
    assert_non_null(text);
    assert_int_equal(length, strlen(text));
    char error[256];
    recorder_backtrace *again = recorder_backtrace_parse(text, length, error,
                                                         sizeof(error));
    if (!again)
        fail_msg("own text rejected: %s\n%s", error, text);
    char *text2 = recorder_backtrace_text(again, NULL);
    assert_string_equal(text, text2);
    assert_int_equal(recorder_backtrace_count(again),
                     recorder_backtrace_count(bt));
    recorder_backtrace_frame a = frame_at(bt, 0), b = frame_at(again, 0);
    assert_string_equal(a.function, b.function);
    assert_string_equal(a.file, b.file);
    assert_int_equal(a.line, b.line);
    assert_int_equal(a.offset, b.offset);
    free(text);
    free(text2);
    recorder_backtrace_delete(bt);
    recorder_backtrace_delete(again);
}

static void test_escaped_strings_survive(void **state)
{
    (void) state;
    const char blob[] =
        "recorder-backtrace 1\n"
        "process my%20prog h%25st 1 1 %2D 0 0 0 0 1 0\n"
        "frame operator%3C%3C - 0 - 0xff - 0\n"
        "end 1 1\n";
    char error[256];
    recorder_backtrace *bt = recorder_backtrace_parse(blob, sizeof(blob) - 1,
                                                      error, sizeof(error));
    if (!bt)
        fail_msg("rejected: %s", error);
    recorder_backtrace_frame frame = frame_at(bt, 0);
    assert_string_equal(frame.program, "my prog");
    assert_string_equal(frame.host, "h%st");
    assert_string_equal(frame.function, "operator<<");
    assert_null(frame.file);
    assert_null(frame.module);
    assert_int_equal(frame.offset, 0xff);
    /* Written back canonically: only what must be is escaped. */
    char *text = recorder_backtrace_text(bt, NULL);
    assert_string_equal(text,
        "recorder-backtrace 1\n"
        "process my%20prog h%25st 1 1 %2D 0 0 0 0 1 0\n"
        "frame operator<< - 0 - 0xff - 0\n"
        "end 1 1\n");
    free(text);
    recorder_backtrace_delete(bt);
}

/* ---- attach and print ------------------------------------------------------ */

static void test_attach_puts_callee_first_numbered_across(void **state)
{
    (void) state;
    recorder_backtrace *bt = capture_here();
    unsigned local = recorder_backtrace_count(bt);
    char error[256];
    assert_true(recorder_backtrace_attach(bt, server_blob,
                                          sizeof(server_blob) - 1, error,
                                          sizeof(error)));
    unsigned total = recorder_backtrace_count(bt);
    assert_int_equal(total, local + 2);
    assert_string_equal(frame_at(bt, 0).program, "server");
    assert_string_equal(frame_at(bt, 1).function, "handle");
    assert_string_equal(frame_at(bt, 2).function, "capture_here");
    assert_string_equal(frame_at(bt, 2).program, "test_backtrace");

    char *text = printed(bt);
    char want[1024];
    snprintf(want, sizeof(want),
             "0/%u server @ db-01 Failed at file \"server.c\", line 40, in parse\n"
             "1/%u server @ db-01 Called from file \"server.c\", line 61, in handle\n"
             "2/%u test_backtrace @ %s Called from file \"tests/lib/test_backtrace.c\", "
             "line %u, in capture_here\n", total, total, total, host,
             capture_line);
    if (strncmp(text, want, strlen(want)) != 0)
        fail_msg("printed:\n%s\nexpected first:\n%s", text, want);
    char last[32];
    snprintf(last, sizeof(last), "\n%u/%u ", total - 1, total);
    assert_non_null(strstr(text, last));
    free(text);

    /* The chain travels on: its text holds both processes. */
    char *chain = recorder_backtrace_text(bt, NULL);
    recorder_backtrace *again = recorder_backtrace_parse(chain, strlen(chain),
                                                         error, sizeof(error));
    assert_non_null(again);
    assert_int_equal(recorder_backtrace_count(again), total);
    free(chain);
    recorder_backtrace_delete(again);
    recorder_backtrace_delete(bt);
}

static void test_crash_chain_prints_signal_and_raw_frames(void **state)
{
    (void) state;
    const char blob[] =
        "recorder-backtrace 1\n"
        "process worker db-02 77 78 pool 11 1 0x10 0 2 1\n"
        "frame - - 0 /usr/lib/libfoo.so 0x2a0 foo_bar 0x8\n"
        "frame - - 0 - 0x7f0000001000 - 0\n"
        "end 1 2\n";
    char error[256];
    recorder_backtrace *bt = recorder_backtrace_parse(blob, sizeof(blob) - 1,
                                                      error, sizeof(error));
    if (!bt)
        fail_msg("rejected: %s", error);
    char *text = printed(bt);
    assert_string_equal(text,
        "worker @ db-02 Received SIGSEGV (address not mapped) at address "
        "0x10 in thread 78 \"pool\", pid 77\n"
        "0/2 worker @ db-02 Crashed at module \"libfoo.so\", offset 0x2a0, "
        "near foo_bar+0x8\n"
        "1/2 worker @ db-02 Called from address 0x7f0000001000\n"
        "worker @ db-02 Deeper frames were not captured\n");
    assert_int_equal(frame_at(bt, 0).signal, 11);
    free(text);
    recorder_backtrace_delete(bt);
}

static void test_print_replaces_control_characters(void **state)
{
    (void) state;
    recorder_backtrace *bt = backtrace_new();
    backtrace_process_info process = {
        .program = "evil\033[2J", .host = "h\nx\xc2\x9b", .pid = 1,
    };
    backtrace_frame_info frame = { .function = "f\r\x9b",
                                   .file = "caf\xc3\xa9.c", .line = 3 };
    assert_true(backtrace_add_process(bt, &process));
    assert_true(backtrace_add_frame(bt, &frame));
    char *text = printed(bt);
    assert_string_equal(text, "0/1 evil\\x1b[2J @ h\\x0ax\\xc2\\x9b Failed "
                              "at file \"caf\xc3\xa9.c\", line 3, in "
                              "f\\x0d\\x9b\n");
    free(text);
    recorder_backtrace_delete(bt);
}

/* ---- malformed input ---------------------------------------------------------- */

static void test_every_truncation_is_rejected(void **state)
{
    (void) state;
    char error[256];
    size_t length = sizeof(server_blob) - 1;
    for (size_t cut = 0; cut < length; cut++)
    {
        recorder_backtrace *bt = recorder_backtrace_parse(server_blob, cut,
                                                          error, sizeof(error));
        if (bt)
            fail_msg("accepted %zu of %zu bytes", cut, length);
        assert_true(error[0] != 0);
    }
    recorder_backtrace *bt = recorder_backtrace_parse(server_blob, length,
                                                      error, sizeof(error));
    assert_non_null(bt);
    recorder_backtrace_delete(bt);
    /* A C string sent with its NUL is fine too. */
    bt = recorder_backtrace_parse(server_blob, length + 1, error,
                                  sizeof(error));
    assert_non_null(bt);
    recorder_backtrace_delete(bt);
}

#define HEAD    "recorder-backtrace 1\n"
#define PROC1   "process p h 1 2 t 0 0 0 0 1 0\n"
#define FRAME   "frame f x.c 3 /m 0x10 s 0x1\n"

static void test_malformed_blobs_are_rejected(void **state)
{
    (void) state;
    static const struct { const char *blob; const char *says; } cases[] = {
        { "", "truncated" },
        { "hello\n", "not a recorder backtrace" },
        { "recorder-backtrace 2\nend 0 0\n", "unsupported version" },
        { HEAD PROC1 "end 1 1\n", "expected a 'frame' line" },
        { HEAD PROC1 "frame f x.c 3 /m 0x10 s 0x1 extra\n" "end 1 1\n",
          "8 fields" },
        { HEAD "process p h 1 2 t 0 0 0 0 1\n" FRAME "end 1 1\n",
          "12 fields" },
        { HEAD PROC1 "frame f%G1 x.c 3 /m 0x10 s 0x1\n" "end 1 1\n",
          "bad % escape" },
        { HEAD PROC1 "frame f%4 x.c 3 /m 0x10 s 0x1\n" "end 1 1\n",
          "bad % escape" },
        { HEAD PROC1 "frame f%0A x.c 3 /m 0x10 s 0x1\n" "end 1 1\n",
          "control character" },
        { HEAD PROC1 "frame f\xc3\xa9 x.c 3 /m 0x10 s 0x1\n" "end 1 1\n",
          "unescaped byte" },
        { HEAD PROC1 "frame f\tg x.c 3 /m 0x10 s 0x1\n" "end 1 1\n",
          "unescaped byte" },
        { HEAD PROC1 FRAME "end 1 2\n", "'end' counts" },
        { HEAD PROC1 FRAME "end 2 1\n", "'end' counts" },
        { HEAD PROC1 FRAME "end 1 1\nmore\n", "data after" },
        { HEAD PROC1 FRAME "end 1 1\n\n", "data after" },
        { HEAD "process p h 99999999999 2 t 0 0 0 0 1 0\n" FRAME "end 1 1\n",
          "out of range" },
        { HEAD "process p h 1 2 t 0 0 0 0 -1 0\n" FRAME "end 1 1\n",
          "not a number" },
        { HEAD "process p h 1 2 t 0 0 0 0 5000 0\n" FRAME "end 1 1\n",
          "out of range" },
        { HEAD "process p h 1 2 t 200 0 0 0 1 0\n" FRAME "end 1 1\n",
          "bad signal" },
        { HEAD "process p h 1 2 t 0 0 0 0 1 2\n" FRAME "end 1 1\n",
          "out of range" },
        { HEAD "process p  h 1 2 t 0 0 0 0 1 0\n" FRAME "end 1 1\n",
          "empty field" },
        { HEAD "process p h 1 2 t 0 0 0 0 1 0 \n" FRAME "end 1 1\n",
          "trailing space" },
        { HEAD PROC1 "frame f x.c 3 /m 10 s 0x1\n" "end 1 1\n", "hex" },
        { HEAD PROC1 "frame f x.c 3 /m 0x1g s 0x1\n" "end 1 1\n", "hex" },
        { HEAD PROC1 "frame f x.c 3 /m 0x11112222333344445 s 0x1\n"
          "end 1 1\n", "hex" },
        { HEAD PROC1 FRAME "end 1 1", "not finished" },
        { HEAD "end 0 0\n\0x", "data after" },
    };
    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
    {
        char error[256] = "";
        size_t length = strlen(cases[c].blob);
        if (c == sizeof(cases) / sizeof(cases[0]) - 1)
            length += 2;                /* NUL then more */
        recorder_backtrace *bt = recorder_backtrace_parse(cases[c].blob,
                                                          length, error,
                                                          sizeof(error));
        if (bt || !strstr(error, cases[c].says))
            fail_msg("case %u: %s, error '%s', expected '%s'", c,
                     bt ? "accepted" : "wrong reason", error, cases[c].says);
    }
}

static void test_limits_on_processes_and_length(void **state)
{
    (void) state;
    /* 65 processes: one too many. */
    size_t size = 64 * 1024;
    char *blob = malloc(size);
    size_t at = (size_t) snprintf(blob, size, HEAD);
    for (int p = 0; p < 65; p++)
        at += (size_t) snprintf(blob + at, size - at,
                                "process p h 1 2 t 0 0 0 0 0 0\n");
    at += (size_t) snprintf(blob + at, size - at, "end 65 0\n");
    char error[256];
    assert_null(recorder_backtrace_parse(blob, at, error, sizeof(error)));
    assert_non_null(strstr(error, "more than 64 processes"));
    free(blob);
    assert_null(recorder_backtrace_parse("x", (size_t) 5 << 20, error,
                                         sizeof(error)));
    assert_non_null(strstr(error, "larger than"));
    assert_null(recorder_backtrace_parse(NULL, 0, error, sizeof(error)));
}

static void test_rejected_attach_leaves_backtrace_unchanged(void **state)
{
    (void) state;
    recorder_backtrace *bt = capture_here();
    char *before = recorder_backtrace_text(bt, NULL);
    char error[256];
    const char bad[] = HEAD PROC1 "end 1 0\n";
    assert_false(recorder_backtrace_attach(bt, bad, sizeof(bad) - 1, error,
                                           sizeof(error)));
    assert_true(error[0] != 0);
    char *after = recorder_backtrace_text(bt, NULL);
    assert_string_equal(before, after);
    free(before);
    free(after);
    recorder_backtrace_delete(bt);
}

/* Random damage to a valid chain: never a crash; what is accepted writes
 * itself back the same. */
static void test_damaged_blobs_never_crash(void **state)
{
    (void) state;
    recorder_backtrace *bt = capture_here();
    recorder_backtrace_attach(bt, server_blob, sizeof(server_blob) - 1, NULL, 0);
    size_t length;
    char *good = recorder_backtrace_text(bt, &length);
    char *copy = malloc(length + 1);
    srand(11);
    unsigned accepted = 0, runs = 3000;
    static const char alphabet[] = " \n%-0x9aZ\t\0\xff";
    for (unsigned run = 0; run < runs; run++)
    {
        memcpy(copy, good, length + 1);
        size_t used = length;
        for (int edits = 1 + rand() % 3; edits > 0 && used > 0; edits--)
        {
            size_t at = (size_t) rand() % used;
            switch (rand() % 3)
            {
            case 0: copy[at] = alphabet[rand() % (sizeof(alphabet) - 1)]; break;
            case 1: copy[at] = (char) rand(); break;
            case 2: used = at; break;   /* cut */
            }
        }
        char error[128];
        recorder_backtrace *parsed = recorder_backtrace_parse(copy, used, error,
                                                              sizeof(error));
        if (parsed)
        {
            accepted++;
            char *text = recorder_backtrace_text(parsed, NULL);
            recorder_backtrace *again = recorder_backtrace_parse(
                text, strlen(text), error, sizeof(error));
            assert_non_null(again);
            recorder_backtrace_delete(again);
            free(text);
            free(printed(parsed));
            recorder_backtrace_delete(parsed);
        }
    }
    print_message("%u damaged blobs, %u accepted\n", runs, accepted);
    free(copy);
    free(good);
    recorder_backtrace_delete(bt);
}

/* ---- across processes ----------------------------------------------------------- */

static const unsigned server_fail_line = __LINE__ + 5;
__attribute__((noinline)) static void server_fails(int fd)
{
    /* The request is bad: answer with where we are. */
    recorder_backtrace *bt;
    bt = recorder_backtrace_capture(0);
    size_t length = 0;
    char *text = recorder_backtrace_text(bt, &length);
    uint32_t size = (uint32_t) length;
    ssize_t ignored = write(fd, &size, sizeof(size));
    ignored = write(fd, text, length);
    (void) ignored;
    free(text);
    recorder_backtrace_delete(bt);
}

__attribute__((noinline)) static void server_handles(int fd)
{
    char request[32];
    if (read(fd, request, sizeof(request)) > 0)
        server_fails(fd);
    __asm__ __volatile__("");
}

static const unsigned client_line = __LINE__ + 18;
__attribute__((noinline)) static recorder_backtrace *client_calls(int fd)
{
    ssize_t ignored = write(fd, "request", 7);
    (void) ignored;
    uint32_t size = 0;
    if (read(fd, &size, sizeof(size)) != sizeof(size) || size > (1u << 20))
        return NULL;
    char *blob = malloc(size);
    size_t got = 0;
    while (got < size)
    {
        ssize_t n = read(fd, blob + got, size - got);
        if (n <= 0)
            break;
        got += (size_t) n;
    }
    recorder_backtrace *bt;
    bt = recorder_backtrace_capture(0);
    char error[256];
    if (!recorder_backtrace_attach(bt, blob, got, error, sizeof(error)))
        fail_msg("server's blob rejected: %s", error);
    free(blob);
    return bt;
}

static void test_chain_across_two_processes(void **state)
{
    (void) state;
    int pair[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
    fflush(NULL);
    pid_t server = fork();
    if (server == 0)
    {
        close(pair[0]);
        server_handles(pair[1]);
        _exit(0);
    }
    close(pair[1]);
    recorder_backtrace *bt = client_calls(pair[0]);
    close(pair[0]);
    waitpid(server, NULL, 0);
    assert_non_null(bt);

    recorder_backtrace_frame frame = frame_at(bt, 0);
    assert_string_equal(frame.function, "server_fails");
    assert_int_equal(frame.line, server_fail_line);
    assert_int_equal(frame.pid, (unsigned) server);
    assert_string_equal(frame_at(bt, 1).function, "server_handles");

    /* The server's frames, then ours, starting where we captured. */
    unsigned count = recorder_backtrace_count(bt), first_local = 0;
    for (unsigned f = 0; f < count; f++)
        if (frame_at(bt, f).pid == (unsigned) getpid())
        {
            first_local = f;
            break;
        }
    assert_true(first_local > 2);
    for (unsigned f = first_local; f < count; f++)
        assert_int_equal(frame_at(bt, f).pid, (unsigned) getpid());
    frame = frame_at(bt, first_local);
    assert_string_equal(frame.function, "client_calls");
    assert_int_equal(frame.line, client_line);

    char *text = printed(bt);
    char want[1024];
    snprintf(want, sizeof(want), "%u/%u test_backtrace @ %s Called from file "
             "\"tests/lib/test_backtrace.c\", line %u, in client_calls\n",
             first_local, count, host, client_line);
    if (!strstr(text, want))
        fail_msg("missing '%s' in:\n%s", want, text);
    print_message("chain of %u frames, %u from the server\n", count,
                  first_local);
    free(text);
    recorder_backtrace_delete(bt);
}

static int setup(void **state)
{
    (void) state;
    gethostname(host, sizeof(host) - 1);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capture_names_caller_file_and_line),
        cmocka_unit_test(test_skip_leaves_out_error_helpers),
        cmocka_unit_test(test_text_round_trips),
        cmocka_unit_test(test_escaped_strings_survive),
        cmocka_unit_test(test_attach_puts_callee_first_numbered_across),
        cmocka_unit_test(test_crash_chain_prints_signal_and_raw_frames),
        cmocka_unit_test(test_print_replaces_control_characters),
        cmocka_unit_test(test_every_truncation_is_rejected),
        cmocka_unit_test(test_malformed_blobs_are_rejected),
        cmocka_unit_test(test_limits_on_processes_and_length),
        cmocka_unit_test(test_rejected_attach_leaves_backtrace_unchanged),
        cmocka_unit_test(test_damaged_blobs_never_crash),
        cmocka_unit_test(test_chain_across_two_processes),
    };
    return cmocka_run_group_tests_name("backtrace", tests, setup, NULL);
}
