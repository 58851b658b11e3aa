/* test_signals.c - dumps on signals, in forked children. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "default_signals.h"
#include "stack_overflow.h"

#include "recorder.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

RECORDER(child, 64, "Records made by the forked child");

typedef struct outcome
{
    int  status;                        /* from waitpid */
    char output[65536];                 /* child's stderr */
} outcome;

/* Run 'body' in a child whose stderr is captured; 'poke', if set, runs in
 * the parent once the child has written "ready\n". */
static void run_child(void (*body)(void), void (*poke)(pid_t), outcome *out)
{
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
    {
        struct rlimit no_core = { 0, 0 };
        setrlimit(RLIMIT_CORE, &no_core);
        close(pipefd[0]);
        dup2(pipefd[1], 2);
        default_signals();
        recorder_dump_on_common_signals(0, 0);
        body();
        _exit(0);
    }
    close(pipefd[1]);
    size_t len = 0;
    bool poked = poke == NULL;
    for (;;)
    {
        ssize_t n = read(pipefd[0], out->output + len,
                         sizeof(out->output) - 1 - len);
        if (n <= 0)
            break;
        len += (size_t) n;
        out->output[len] = 0;
        if (!poked && strstr(out->output, "ready\n"))
        {
            poke(pid);
            poked = true;
        }
    }
    out->output[len] = 0;
    close(pipefd[0]);
    assert_int_equal(waitpid(pid, &out->status, 0), pid);
}

static void say(const char *text)
{
    ssize_t ignored = write(2, text, strlen(text));
    (void) ignored;
}

static void usr2_self_and_continue(void)
{
    record(child, "before the signal %d", 1);
    raise(SIGUSR2);
    say("continued after the dump\n");
    _exit(7);
}

static void test_sigusr2_dumps_and_process_goes_on(void **state)
{
    (void) state;
    static outcome out;
    run_child(usr2_self_and_continue, NULL, &out);
    assert_true(WIFEXITED(out.status));
    assert_int_equal(WEXITSTATUS(out.status), 7);
    assert_non_null(strstr(out.output, "child: before the signal 1\n"));
    assert_non_null(strstr(out.output, "recorder_signals: Received SIGUSR2 (12)"));
    assert_non_null(strstr(out.output, "continued after the dump\n"));
    /* The dump comes before the program goes on. */
    assert_true(strstr(out.output, "before the signal") <
                strstr(out.output, "continued after"));
}

static void hang_until_signalled(void)
{
    record(child, "about to hang");
    say("ready\n");
    for (int i = 0; i < 50; i++)
        usleep(10000);
    say("still running\n");
}

static void send_usr2(pid_t pid)
{
    kill(pid, SIGUSR2);
}

static void test_kill_usr2_on_hung_process_dumps_it(void **state)
{
    (void) state;
    static outcome out;
    run_child(hang_until_signalled, send_usr2, &out);
    assert_true(WIFEXITED(out.status));
    assert_int_equal(WEXITSTATUS(out.status), 0);
    assert_non_null(strstr(out.output, "child: about to hang\n"));
    assert_non_null(strstr(out.output, "still running\n"));
}

static void segfault(void)
{
    record(child, "about to crash at %p", (void *) 16);
    volatile int *bad = (volatile int *) 16;
    __asm__ __volatile__("" : "+r"(bad));       /* hide the constant */
    *bad = 1;
    say("survived the crash?\n");
}

static void test_sigsegv_dumps_and_dies_by_sigsegv(void **state)
{
    (void) state;
    static outcome out;
    run_child(segfault, NULL, &out);
    assert_true(WIFSIGNALED(out.status));
    assert_int_equal(WTERMSIG(out.status), SIGSEGV);
    assert_non_null(strstr(out.output, "child: about to crash at 0x10\n"));
    assert_non_null(strstr(out.output, "Received SIGSEGV (11)"));
    assert_non_null(strstr(out.output, "address 0x10"));
    assert_null(strstr(out.output, "survived"));
}

static void aborts(void)
{
    record(child, "calling abort");
    abort();
}

static void test_abort_dumps_and_dies_by_sigabrt(void **state)
{
    (void) state;
    static outcome out;
    run_child(aborts, NULL, &out);
    assert_true(WIFSIGNALED(out.status));
    assert_int_equal(WTERMSIG(out.status), SIGABRT);
    assert_non_null(strstr(out.output, "child: calling abort\n"));
    assert_non_null(strstr(out.output, "Received SIGABRT"));
}

static void overflow_stack(void)
{
    record(child, "about to overflow the stack");
    recurse(NULL, 0);
}

static void test_stack_overflow_still_dumps(void **state)
{
    (void) state;
    static outcome out;
    run_child(overflow_stack, NULL, &out);
    assert_true(WIFSIGNALED(out.status));
    assert_int_equal(WTERMSIG(out.status), SIGSEGV);
    assert_non_null(strstr(out.output, "child: about to overflow the stack\n"));
}

static void env_traces(void)
{
    /* RECORDER_TRACES was set before fork: the child traces 'child'. */
    record(child, "traced %d", 5);
    say("ready\n");
}

static void test_common_signals_apply_recorder_traces(void **state)
{
    (void) state;
    static outcome out;
    setenv("RECORDER_TRACES", "child", 1);
    run_child(env_traces, NULL, &out);
    unsetenv("RECORDER_TRACES");
    assert_true(WIFEXITED(out.status));
    assert_non_null(strstr(out.output, "child: traced 5\n"));
    assert_true(strstr(out.output, "child: traced 5\n") <
                strstr(out.output, "ready\n"));
}

static void removed_signal(void)
{
    record(child, "not dumped");
    raise(SIGUSR1);
}

static void test_remove_mask_leaves_signal_default(void **state)
{
    (void) state;
    static outcome out;
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    pid_t pid = fork();
    if (pid == 0)
    {
        close(pipefd[0]);
        dup2(pipefd[1], 2);
        default_signals();
        recorder_dump_on_common_signals(0, 1U << SIGUSR1);
        removed_signal();
        _exit(0);
    }
    close(pipefd[1]);
    ssize_t n = read(pipefd[0], out.output, sizeof(out.output) - 1);
    out.output[n > 0 ? n : 0] = 0;
    close(pipefd[0]);
    waitpid(pid, &out.status, 0);
    assert_true(WIFSIGNALED(out.status));
    assert_int_equal(WTERMSIG(out.status), SIGUSR1);
    assert_null(strstr(out.output, "not dumped"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sigusr2_dumps_and_process_goes_on),
        cmocka_unit_test(test_kill_usr2_on_hung_process_dumps_it),
        cmocka_unit_test(test_sigsegv_dumps_and_dies_by_sigsegv),
        cmocka_unit_test(test_abort_dumps_and_dies_by_sigabrt),
        cmocka_unit_test(test_stack_overflow_still_dumps),
        cmocka_unit_test(test_common_signals_apply_recorder_traces),
        cmocka_unit_test(test_remove_mask_leaves_signal_default),
    };
    return cmocka_run_group_tests_name("signals", tests, NULL, NULL);
}
