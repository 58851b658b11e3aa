/* writer_child.h - a writer in a child process, for tests that read it.
 *
 * start_child() forks a child that runs 'body' (share, record...), says
 * "ready" and waits to be released, so the parent can read its segment
 * while it lives; finish_child() releases it and collects its stderr and
 * exit status. Children leave no core file.
 */
#ifndef RECORDER_TEST_WRITER_CHILD_H
#define RECORDER_TEST_WRITER_CHILD_H

#include "recorder.h"
#include "recorder_share.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct child
{
    pid_t pid;
    int   ready;                        /* parent reads "ready" here */
    int   go;                           /* parent writes here to release */
    int   output;                       /* child's stderr */
} child;

static void wait_for(int fd, const char *word)
{
    char text[4096];
    size_t len = 0;
    while (len < sizeof(text) - 1)
    {
        ssize_t n = read(fd, text + len, 1);
        if (n <= 0)
            fail_msg("child ended before saying '%s'", word);
        len += (size_t) n;
        text[len] = 0;
        if (strstr(text, word))
            return;
    }
}

static child start_child(void (*body)(void))
{
    int ready[2], go[2], output[2];
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(go), 0);
    assert_int_equal(pipe(output), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
    {
        struct rlimit no_core = { 0, 0 };
        setrlimit(RLIMIT_CORE, &no_core);
        dup2(output[1], 2);
        close(ready[0]);
        close(go[1]);
        close(output[0]);
        close(output[1]);
        body();
        ssize_t ignored = write(ready[1], "ready\n", 6);
        char byte;
        ignored = read(go[0], &byte, 1);        /* until released */
        (void) ignored;
        exit(0);                                /* runs atexit handlers */
    }
    close(ready[1]);
    close(go[0]);
    close(output[1]);
    child c = { pid, ready[0], go[1], output[0] };
    wait_for(c.ready, "ready\n");
    return c;
}

/* Release the child, collect its stderr and exit status. */
static int finish_child(child *c, char *output, size_t size)
{
    ssize_t ignored = write(c->go, "x", 1);
    (void) ignored;
    size_t len = 0;
    ssize_t n;
    while (output && len < size - 1 &&
           (n = read(c->output, output + len, size - 1 - len)) > 0)
        len += (size_t) n;
    if (output)
        output[len] = 0;
    int status;
    waitpid(c->pid, &status, 0);
    close(c->ready);
    close(c->go);
    close(c->output);
    return status;
}

/* The reader's side: the segment at 'at', or the test fails. */
static inline recorder_share *open_ok(const char *at)
{
    char error[512];
    recorder_share *share = recorder_share_open(at, error, sizeof(error));
    if (!share)
        fail_msg("cannot open %s: %s", at, error);
    return share;
}

/* The writer's side, in a child: share at 'at', or exit 3. */
static inline void share_at(const char *at)
{
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s", at);
    if (recorder_trace_set(spec) != RECORDER_TRACE_OK)
        _exit(3);
}

#endif /* RECORDER_TEST_WRITER_CHILD_H */
