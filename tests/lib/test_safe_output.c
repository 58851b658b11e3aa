/* test_safe_output.c - the async-signal-safe text helpers every handler
 * and the line layout share (lib/text/safe_output.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "recorder.h"
#include "record/output_private.h"
#include "text/safe_output_private.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

/* ---- safe_write_all ------------------------------------------------------- */

#define BIG     (1 << 20)

typedef struct drain
{
    int    fd;
    char * data;
    size_t got;
} drain;

/* Reads slowly, so the writer blocks, is interrupted, writes short. The
 * timer's signals go to the writer: this thread blocks them, so the
 * handler runs on one thread only. */
static void *drain_pipe(void *arg)
{
    drain *d = arg;
    sigset_t alarm;
    sigemptyset(&alarm);
    sigaddset(&alarm, SIGALRM);
    pthread_sigmask(SIG_BLOCK, &alarm, NULL);
    for (;;)
    {
        ssize_t n = read(d->fd, d->data + d->got, 4096);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return NULL;
        d->got += (size_t) n;
        if (d->got % (64 * 4096) == 0)
            usleep(1000);
    }
}

static volatile sig_atomic_t interruptions;

static void count_interruption(int sig)
{
    (void) sig;
    int saved = errno;
    interruptions++;
    errno = saved;
}

static void test_write_all_survives_interruptions(void **state)
{
    (void) state;
    /* No SA_RESTART: a blocked write(2) returns EINTR or a short count. */
    struct sigaction action, old;
    memset(&action, 0, sizeof(action));
    action.sa_handler = count_interruption;
    sigemptyset(&action.sa_mask);
    assert_int_equal(sigaction(SIGALRM, &action, &old), 0);

    int fds[2];
    assert_int_equal(pipe(fds), 0);
    char *text = malloc(BIG);
    assert_non_null(text);
    for (size_t i = 0; i < BIG; i++)
        text[i] = (char) ('a' + i % 26);
    drain d = { .fd = fds[0], .data = calloc(1, BIG) };
    assert_non_null(d.data);
    pthread_t reader;
    assert_int_equal(pthread_create(&reader, NULL, drain_pipe, &d), 0);

    struct itimerval every = { { 0, 200 }, { 0, 200 } };
    interruptions = 0;
    setitimer(ITIMER_REAL, &every, NULL);
    size_t written = safe_write_all(fds[1], text, BIG);
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
    close(fds[1]);
    pthread_join(reader, NULL);
    close(fds[0]);
    sigaction(SIGALRM, &old, NULL);

    assert_int_equal(written, BIG);
    assert_int_equal(d.got, BIG);
    assert_memory_equal(d.data, text, BIG);
    assert_true(interruptions > 0);
    free(d.data);
    free(text);
}

static void test_write_all_stops_at_an_error(void **state)
{
    (void) state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    close(fds[0]);                      /* EPIPE, once SIGPIPE is ignored */
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    assert_int_equal(safe_write_all(fds[1], "lost", 4), 0);
    signal(SIGPIPE, old);
    close(fds[1]);
}

/* ---- recorder_output_say ------------------------------------------------------------ */

static void test_say_writes_on_the_output_and_keeps_errno(void **state)
{
    (void) state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    FILE *out = fdopen(fds[1], "w");
    assert_non_null(out);
    void *previous = recorder_configure_output(out);
    errno = ERANGE;
    recorder_output_say("said in a handler\n");
    assert_int_equal(errno, ERANGE);
    recorder_configure_output(previous);
    fclose(out);
    char got[64] = "";
    assert_int_equal(read(fds[0], got, sizeof(got) - 1), 18);
    assert_string_equal(got, "said in a handler\n");
    close(fds[0]);
}

/* ---- safe_append ----------------------------------------------------------- */

static void test_append_renders_after_what_is_there(void **state)
{
    (void) state;
    char line[64];
    size_t at = safe_append(line, sizeof(line), 0, "%s @ %s",
                            SAFE_ARGS(SAFE_TEXT("prog"), SAFE_TEXT("host")));
    at = safe_append(line, sizeof(line), at, " pid %u, %#lx, %d",
                     SAFE_ARGS(42, 0xbeef, (uint64_t) -7));
    assert_string_equal(line, "prog @ host pid 42, 0xbeef, -7");
    assert_int_equal(at, strlen(line));
}

static void test_append_truncates_inside_the_buffer(void **state)
{
    (void) state;
    char line[16];
    memset(line, 'x', sizeof(line));
    size_t at = safe_append(line, 10, 0, "%s",
                            SAFE_ARGS(SAFE_TEXT("far longer than ten")));
    assert_int_equal(at, 9);
    assert_string_equal(line, "far longe");
    assert_int_equal(line[10], 'x');    /* nothing past the size given */
    /* Full already: stays within the buffer, never past its end. */
    at = safe_append(line, 10, at, "more", NULL, 0);
    assert_true(at < 10);
    at = safe_append(line, 10, 50, "more", NULL, 0);
    assert_true(at < 10);
    assert_int_equal(line[10], 'x');
}

/* ---- safe_base_name ------------------------------------------------------------- */

static void test_base_name(void **state)
{
    (void) state;
    assert_string_equal(safe_base_name("/usr/lib/libc.so.6"), "libc.so.6");
    assert_string_equal(safe_base_name("libc.so.6"), "libc.so.6");
    assert_string_equal(safe_base_name("./a"), "a");
    assert_string_equal(safe_base_name("/"), "/");
    assert_string_equal(safe_base_name("dir/"), "dir/");
    assert_string_equal(safe_base_name(""), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_write_all_survives_interruptions),
        cmocka_unit_test(test_write_all_stops_at_an_error),
        cmocka_unit_test(test_say_writes_on_the_output_and_keeps_errno),
        cmocka_unit_test(test_append_renders_after_what_is_there),
        cmocka_unit_test(test_append_truncates_inside_the_buffer),
        cmocka_unit_test(test_base_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
