/* test_scope_command_queue.c - commands posted from the main loop: they
 * reach the program, a slider's burst of values ends at its last one,
 * failures come back with the program's reason, and a stuck program never
 * makes a call wait; a restarted program gets the next command. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "source/command_queue.h"
#include "scope_test_writer.h"

#include <recorder/recorder_share.h>

#include <signal.h>
#include <string.h>
#include <time.h>

RECORDER_TWEAK_DEFINE(queue_gain, 1, "Set by the tests through the queue");
RECORDER_TWEAK_DEFINE(queue_other, 1, "Another tweak");

static char directory[64];
static char path[128];

static int make_directory(void **state)
{
    (void) state;
    snprintf(directory, sizeof(directory), "/tmp/test_scope_queue-XXXXXX");
    assert_non_null(mkdtemp(directory));
    snprintf(path, sizeof(path), "%s/segment", directory);
    return 0;
}

/* Each test its own segment: a failed one leaves no writer in the way. */
static int next_segment(void **state)
{
    (void) state;
    static unsigned count;
    snprintf(path, sizeof(path), "%s/segment-%u", directory, ++count);
    return 0;
}

static int remove_directory(void **state)
{
    (void) state;
    char command[160];
    snprintf(command, sizeof(command), "rm -rf '%s'", directory);
    return system(command);
}

static void share_only(long arg)
{
    (void) arg;
}

static intptr_t tweak_in_program(const char *name)
{
    char error[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    assert_non_null(share);
    intptr_t value = -999;
    unsigned count = recorder_share_tweak_count(share);
    for (unsigned t = 0; t < count; t++)
    {
        recorder_share_tweak tweak;
        if (recorder_share_tweak_info(share, t, &tweak) &&
            strcmp(tweak.name, name) == 0)
            value = tweak.value;
    }
    recorder_share_close(share);
    return value;
}

static void test_commands_reach_the_program(void **state)
{
    (void) state;
    static const step_fn steps[] = { share_only };
    writer w = start_writer(path, steps, 1, 0);
    scope_commands *queue = scope_commands_new(path, 0);
    assert_non_null(queue);
    assert_true(scope_commands_send(queue, "queue_gain=42", "queue_gain"));
    assert_true(scope_commands_flush(queue, 5000));
    assert_int_equal(tweak_in_program("queue_gain"), 42);

    char outcome[400];
    bool failed = true;
    assert_true(scope_commands_outcome(queue, outcome, sizeof(outcome),
                                       &failed));
    assert_false(failed);
    assert_string_equal(outcome, "'queue_gain=42' applied");
    assert_false(scope_commands_outcome(queue, outcome, sizeof(outcome), NULL));
    scope_commands_delete(queue);
    writer_finish(&w);
}

static void test_a_burst_of_values_ends_at_the_last(void **state)
{
    (void) state;
    static const step_fn steps[] = { share_only };
    writer w = start_writer(path, steps, 1, 0);
    scope_commands *queue = scope_commands_new(path, 0);
    char command[64];
    for (int v = 1; v <= 300; v++)
    {
        snprintf(command, sizeof(command), "queue_gain=%d", v);
        assert_true(scope_commands_send(queue, command, "queue_gain"));
        if (v == 150)
            assert_true(scope_commands_send(queue, "queue_other=7",
                                            "queue_other"));
    }
    assert_true(scope_commands_flush(queue, 5000));
    assert_int_equal(tweak_in_program("queue_gain"), 300);
    assert_int_equal(tweak_in_program("queue_other"), 7);
    /* Coalesced: far fewer sends than values (outcomes keep the last 8),
     * and a replaced command kept its turn, before queue_other. */
    unsigned outcomes = 0;
    bool last_gain_sent = false;
    char outcome[400];
    while (scope_commands_outcome(queue, outcome, sizeof(outcome), NULL))
    {
        outcomes++;
        if (strcmp(outcome, "'queue_gain=300' applied") == 0)
            last_gain_sent = true;
    }
    assert_true(outcomes >= 2 && outcomes <= 8);
    assert_true(last_gain_sent);
    assert_string_equal(outcome, "'queue_other=7' applied");
    scope_commands_delete(queue);
    writer_finish(&w);
}

static void test_refusals_come_back_with_the_programs_reason(void **state)
{
    (void) state;
    static const step_fn steps[] = { share_only };
    writer w = start_writer(path, steps, 1, 0);
    scope_commands *queue = scope_commands_new(path, 0);
    assert_true(scope_commands_send(queue, "queue_gian=4", "queue_gian"));
    assert_true(scope_commands_send(queue, "queue_gain=x", NULL));
    assert_true(scope_commands_flush(queue, 5000));
    char outcome[400];
    bool failed = false;
    assert_true(scope_commands_outcome(queue, outcome, sizeof(outcome),
                                       &failed));
    assert_true(failed);
    assert_string_equal(outcome, "'queue_gian=4' refused: "
                                 "no recorder or tweak 'queue_gian'");
    assert_true(scope_commands_outcome(queue, outcome, sizeof(outcome),
                                       &failed));
    assert_true(failed);
    assert_string_equal(outcome, "'queue_gain=x' refused: "
                                 "invalid trace value 'x' in 'queue_gain=x'");
    scope_commands_delete(queue);
    writer_finish(&w);
}

static double ms_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - start->tv_sec) * 1e3
         + (now.tv_nsec - start->tv_nsec) / 1e6;
}

/* SIGSTOP takes effect later: wait until the process is stopped, or it
 * may still apply the first command. */
static void stop_process(pid_t pid)
{
    kill(pid, SIGSTOP);
    char name[64], stat[512];
    snprintf(name, sizeof(name), "/proc/%d/stat", (int) pid);
    for (int tries = 0; tries < 1000; tries++)
    {
        FILE *file = fopen(name, "r");
        size_t len = file ? fread(stat, 1, sizeof(stat) - 1, file) : 0;
        if (file)
            fclose(file);
        stat[len] = 0;
        const char *state = strrchr(stat, ')');
        if (state && state[1] == ' ' && state[2] == 'T')
            return;
        usleep(1000);
    }
    fail_msg("process %d did not stop", (int) pid);
}

/* A stopped program: no call waits for it, the user hears it is stuck,
 * a slider's values pile up as one, and all is applied once it runs. */
static void test_a_stuck_program_blocks_nothing(void **state)
{
    (void) state;
    static const step_fn steps[] = { share_only };
    writer w = start_writer(path, steps, 1, 0);
    scope_commands *queue = scope_commands_new(path, 0);
    stop_process(w.pid);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    char command[64], outcome[400];
    bool failed = false, said = false;
    for (int v = 1; v <= 500; v++)
    {
        snprintf(command, sizeof(command), "queue_gain=%d", v);
        assert_true(scope_commands_send(queue, command, "queue_gain"));
        scope_commands_poll(queue);
    }
    assert_true(ms_since(&start) < 500);
    while (!said && ms_since(&start) < 3000)
    {
        scope_commands_poll(queue);
        said = scope_commands_outcome(queue, outcome, sizeof(outcome), &failed);
        usleep(10000);
    }
    assert_true(said);
    assert_true(failed);
    assert_non_null(strstr(outcome, "not applied yet: no answer within"));
    kill(w.pid, SIGCONT);
    assert_true(scope_commands_flush(queue, 5000));
    assert_int_equal(tweak_in_program("queue_gain"), 500);
    scope_commands_delete(queue);
    writer_finish(&w);
}

static void test_commands_without_a_program_fail_with_a_reason(void **state)
{
    (void) state;
    char missing[200];
    snprintf(missing, sizeof(missing), "%s/nobody", directory);
    scope_commands *queue = scope_commands_new(missing, 0);
    assert_true(scope_commands_send(queue, "queue_gain=3", NULL));
    assert_true(scope_commands_flush(queue, 5000));
    char outcome[400];
    bool failed = false;
    assert_true(scope_commands_outcome(queue, outcome, sizeof(outcome),
                                       &failed));
    assert_true(failed);
    assert_non_null(strstr(outcome, "'queue_gain=3' not sent: "));
    assert_non_null(strstr(outcome, missing));
    scope_commands_delete(queue);
}

static void test_commands_to_an_exited_program_fail(void **state)
{
    (void) state;
    static const step_fn steps[] = { share_only };
    writer w = start_writer(path, steps, 1, 0);
    writer_finish(&w);
    scope_commands *queue = scope_commands_new(path, 0);
    assert_true(scope_commands_send(queue, "queue_gain=5", NULL));
    assert_true(scope_commands_flush(queue, 5000));
    char outcome[400];
    bool failed = false;
    assert_true(scope_commands_outcome(queue, outcome, sizeof(outcome),
                                       &failed));
    assert_true(failed);
    assert_non_null(strstr(outcome, "exited"));
    scope_commands_delete(queue);
}

/* The program restarts while a command's answer is still to be read (a
 * still window reads answers on its next poll): the next command goes to
 * the new process, and the old answer still comes back. */
static void test_a_restarted_program_gets_the_next_command(void **state)
{
    (void) state;
    static const step_fn steps[] = { share_only };
    writer first = start_writer(path, steps, 1, 0);
    scope_commands *queue = scope_commands_new(path, 0);
    assert_true(scope_commands_send(queue, "queue_gain=42", "queue_gain"));
    for (int tries = 0; tries < 5000 && tweak_in_program("queue_gain") != 42;
         tries++)
        usleep(1000);
    assert_int_equal(tweak_in_program("queue_gain"), 42);
    writer_finish(&first);

    writer second = start_writer(path, steps, 1, 0);
    assert_true(scope_commands_send(queue, "queue_gain=43", "queue_gain"));
    assert_true(scope_commands_flush(queue, 5000));
    assert_int_equal(tweak_in_program("queue_gain"), 43);
    char outcome[400];
    bool failed = true;
    unsigned applied = 0;
    while (scope_commands_outcome(queue, outcome, sizeof(outcome), &failed))
    {
        assert_false(failed);
        applied++;
    }
    assert_int_equal(applied, 2);
    assert_string_equal(outcome, "'queue_gain=43' applied");
    scope_commands_delete(queue);
    writer_finish(&second);
}

static void test_delete_drops_what_is_pending(void **state)
{
    (void) state;
    char missing[200];
    snprintf(missing, sizeof(missing), "%s/nobody", directory);
    scope_commands *queue = scope_commands_new(missing, 0);
    for (int i = 0; i < 100; i++)
        assert_true(scope_commands_send(queue, "queue_gain=1", NULL));
    scope_commands_delete(queue);       /* no leak, no hang */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_commands_reach_the_program,
                               next_segment),
        cmocka_unit_test_setup(test_a_burst_of_values_ends_at_the_last,
                               next_segment),
        cmocka_unit_test_setup(test_refusals_come_back_with_the_programs_reason,
                               next_segment),
        cmocka_unit_test_setup(test_a_stuck_program_blocks_nothing,
                               next_segment),
        cmocka_unit_test_setup(test_commands_without_a_program_fail_with_a_reason,
                               next_segment),
        cmocka_unit_test_setup(test_commands_to_an_exited_program_fail,
                               next_segment),
        cmocka_unit_test_setup(test_a_restarted_program_gets_the_next_command,
                               next_segment),
        cmocka_unit_test_setup(test_delete_drops_what_is_pending,
                               next_segment),
    };
    return cmocka_run_group_tests_name("scope_command_queue", tests,
                                       make_directory, remove_directory);
}
