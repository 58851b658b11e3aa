/* scope_test_writer.h - forked writer processes for scope unit tests.
 *
 * A writer shares its recorders at a path and runs steps (functions of one
 * long argument) one at a time when told, reporting each as done; after
 * the last it waits to be released, then exits normally. Include after
 * cmocka.h.
 */
#ifndef SCOPE_TEST_WRITER_H
#define SCOPE_TEST_WRITER_H

#include <recorder/recorder.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

typedef void (*step_fn)(long);

typedef struct writer
{
    pid_t pid;
    int   done;                         /* a byte per step finished */
    int   next;                         /* a byte to start the next step */
} writer;

/* Fork a writer sharing at 'segment' that runs steps[0](arg) now (this
 * returns once it is done) and each further step when told. */
static inline writer start_writer(const char *segment, const step_fn *steps,
                                  unsigned count, long arg)
{
    int done[2], next[2];
    assert_int_equal(pipe(done), 0);
    assert_int_equal(pipe(next), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
    {
        close(done[0]);
        close(next[1]);
        if (!freopen("/dev/null", "w", stderr))
            _exit(4);
        char spec[400];
        snprintf(spec, sizeof(spec), "share=%s", segment);
        if (recorder_trace_set(spec) != RECORDER_TRACE_OK)
            _exit(3);
        for (unsigned s = 0; s < count; s++)
        {
            char byte;
            if (s && read(next[0], &byte, 1) != 1)
                _exit(5);
            steps[s](arg);
            if (write(done[1], "d", 1) != 1)
                _exit(6);
        }
        char byte;
        if (read(next[0], &byte, 1) < 0)
            _exit(7);
        exit(0);                        /* runs atexit: marks it exited */
    }
    close(done[1]);
    close(next[0]);
    writer w = { pid, done[0], next[1] };
    char byte;
    assert_int_equal(read(w.done, &byte, 1), 1);
    return w;
}

/* Run the next step and wait until it is done. */
static inline void writer_step(writer *w)
{
    char byte;
    assert_int_equal(write(w->next, "n", 1), 1);
    assert_int_equal(read(w->done, &byte, 1), 1);
}

/* Let it exit normally and reap it. */
static inline void writer_finish(writer *w)
{
    assert_int_equal(write(w->next, "q", 1), 1);
    int status;
    waitpid(w->pid, &status, 0);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    close(w->done);
    close(w->next);
}

#endif /* SCOPE_TEST_WRITER_H */
