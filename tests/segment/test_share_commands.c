/* test_share_commands.c - commands from readers and the writer's answers:
 * each sender gets the answer to its own command (tickets), forged tickets
 * are bounded text, commands from the ring cannot name files unless the
 * program opted in, and a writer that cannot serve commands or read its
 * module table says so. Writer and reader are separate processes. */
#define _GNU_SOURCE                     /* pthread_setattr_default_np */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"
#include "writer_child.h"

#include "recorder.h"
#include "recorder_share.h"
#include "segment/share_commands_private.h"
#include "segment/share_layout_private.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

RECORDER(cmd, 64, "A recorder commands change");
RECORDER_TWEAK_DEFINE(cmd_tweak, 10, "A tweak commands change");

static void share_here(void)
{
    share_at(path);
    record(cmd, "sharing");
}

static intptr_t tweak_value(recorder_share *share)
{
    for (unsigned t = 0; t < recorder_share_tweak_count(share); t++)
    {
        recorder_share_tweak tweak;
        if (recorder_share_tweak_info(share, t, &tweak) &&
            strcmp(tweak.name, "cmd_tweak") == 0)
            return tweak.value;
    }
    return -1;
}

static double ms_since(const struct timespec *start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - start->tv_sec) * 1e3
         + (now.tv_nsec - start->tv_nsec) / 1e6;
}

/* ---- tickets -------------------------------------------------------------- */

static void test_applied_ok_rejected_with_the_writers_reason(void **state)
{
    (void) state;
    child c = start_child(share_here);
    recorder_share *share = open_ok(path);
    char error[512], why[256];
    assert_true(recorder_share_available(share, RECORDER_SHARE_COMMANDS, why,
                                         sizeof(why)));
    assert_true(recorder_share_available(share, RECORDER_SHARE_MODULES, why,
                                         sizeof(why)));

    assert_true(recorder_share_send(share, "cmd_tweak=5", 2000, error,
                                    sizeof(error)));
    assert_int_equal(tweak_value(share), 5);

    assert_false(recorder_share_send(share, "cmd_tweak=bar", 2000, error,
                                     sizeof(error)));
    assert_non_null(strstr(error, "refused 'cmd_tweak=bar'"));
    assert_non_null(strstr(error, "invalid trace value 'bar' in 'cmd_tweak=bar'"));
    assert_int_equal(tweak_value(share), 5);

    assert_false(recorder_share_send(share, "(cmd=1", 2000, error,
                                     sizeof(error)));
    assert_non_null(strstr(error, "invalid trace name '(cmd'"));

    /* Several items: the first problem is the answer. */
    assert_false(recorder_share_send(share, "cmd_tweak=7 @nosuch cmd=q",
                                     2000, error, sizeof(error)));
    assert_non_null(strstr(error, "unknown command 'nosuch'"));
    assert_int_equal(tweak_value(share), 7);

    recorder_share_close(share);
    finish_child(&c, NULL, 0);
}

/* A command's items apply as those of RECORDER_TRACES do: a newline
 * separates two, and the answer says which applied and which not. */
static void test_partly_applied_commands_say_what_applied(void **state)
{
    (void) state;
    child c = start_child(share_here);
    recorder_share *share = open_ok(path);
    char error[512];
    assert_false(recorder_share_send(share, "cmd_tweak=9 nosuch", 2000, error,
                                     sizeof(error)));
    assert_non_null(strstr(error, "'cmd_tweak=9 nosuch': applied cmd_tweak=9; "
                                  "refused nosuch: no recorder or tweak "
                                  "'nosuch'"));
    assert_null(strstr(error, "refused 'cmd_tweak=9 nosuch'"));
    assert_int_equal(tweak_value(share), 9);

    assert_false(recorder_share_send(share, "cmd_tweak=7\nnosuch", 2000,
                                     error, sizeof(error)));
    assert_non_null(strstr(error, "applied cmd_tweak=7; refused nosuch"));
    assert_int_equal(tweak_value(share), 7);
    recorder_share_close(share);
    finish_child(&c, NULL, 0);
}

/* Control characters in a command are refused, and neither the writer's
 * stderr nor the sender's message carries them raw. */
static void test_control_characters_are_refused_and_shown_escaped(void **state)
{
    (void) state;
    child c = start_child(share_here);
    recorder_share *share = open_ok(path);
    char error[512];
    assert_true(recorder_share_send(share, "cmd_tweak=3", 2000, error,
                                    sizeof(error)));
    const char *hostile[] = {
        "cmd_tweak=500\r\033[2Kfake",
        "cmd\033]0;PWNED\a_tweak=4",
        "cmd_tweak=4\2332J",                 /* 0x9b: CSI of 8-bit terminals */
    };
    for (unsigned h = 0; h < sizeof(hostile) / sizeof(*hostile); h++)
    {
        assert_false(recorder_share_send(share, hostile[h], 2000, error,
                                         sizeof(error)));
        assert_non_null(strstr(error, "control character"));
        for (const char *e = error; *e; e++)
            if ((unsigned char) *e < 0x20 || (unsigned char) *e == 0x7f)
                fail_msg("raw control character %#x in the sender's message",
                         (unsigned char) *e);
    }
    assert_int_equal(tweak_value(share), 3);
    recorder_share_close(share);
    char output[8192];
    finish_child(&c, output, sizeof(output));
    assert_non_null(strstr(output, "control character '\\x0d' in "
                                   "'cmd_tweak=500\\x0d\\x1b[2Kfake'"));
    for (const char *o = output; *o; o++)
        if (((unsigned char) *o < 0x20 && *o != '\n') ||
            (unsigned char) *o == 0x7f)
            fail_msg("raw control character %#x on the writer's stderr:\n%s",
                     (unsigned char) *o, output);
}

/* Post now, answer later: a user interface never blocks. A command that
 * changes nothing (a name the program lacks) is refused with the name. */
static void test_post_then_answer(void **state)
{
    (void) state;
    child c = start_child(share_here);
    recorder_share *share = open_ok(path);
    char error[512], text[256];
    recorder_share_ticket good, typo, bad;
    assert_true(recorder_share_post(share, "cmd_tweak=6", &good, error,
                                    sizeof(error)));
    assert_true(recorder_share_post(share, "cmd_twaek=6", &typo, error,
                                    sizeof(error)));
    assert_true(recorder_share_post(share, "cmd_tweak=six", &bad, error,
                                    sizeof(error)));
    assert_int_equal(recorder_share_answer(share, good, 2000, text,
                                           sizeof(text)),
                     RECORDER_SHARE_APPLIED);
    assert_string_equal(text, "");
    assert_int_equal(recorder_share_answer(share, typo, 2000, text,
                                           sizeof(text)),
                     RECORDER_SHARE_REJECTED);
    assert_string_equal(text, "no recorder or tweak 'cmd_twaek'");
    assert_int_equal(recorder_share_answer(share, bad, 2000, text,
                                           sizeof(text)),
                     RECORDER_SHARE_REJECTED);
    assert_string_equal(text, "invalid trace value 'six' in 'cmd_tweak=six'");
    /* Asked again, the same answer. */
    assert_int_equal(recorder_share_answer(share, typo, 0, text,
                                           sizeof(text)),
                     RECORDER_SHARE_REJECTED);
    assert_int_equal(tweak_value(share), 6);
    assert_false(recorder_share_send(share, "nosuch=1", 2000, error,
                                     sizeof(error)));
    assert_non_null(strstr(error, "refused 'nosuch=1': "
                                  "no recorder or tweak 'nosuch'"));

    /* A stopped writer: pending, at once with timeout 0. */
    kill(c.pid, SIGSTOP);
    int status;
    assert_int_equal(waitpid(c.pid, &status, WUNTRACED), c.pid);
    recorder_share_ticket late;
    assert_true(recorder_share_post(share, "cmd_tweak=8", &late, error,
                                    sizeof(error)));
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    assert_int_equal(recorder_share_answer(share, late, 0, text,
                                           sizeof(text)),
                     RECORDER_SHARE_PENDING);
    assert_true(ms_since(&start) < 50);
    assert_int_equal(recorder_share_answer(share, late, 30, text,
                                           sizeof(text)),
                     RECORDER_SHARE_PENDING);
    assert_non_null(strstr(text, "did not answer within 30 ms"));

    /* It dies: no answer will come, and the wait ends long before 5 s. */
    kill(c.pid, SIGKILL);
    assert_int_equal(waitpid(c.pid, &status, 0), c.pid);
    clock_gettime(CLOCK_MONOTONIC, &start);
    assert_int_equal(recorder_share_answer(share, late, 5000, text,
                                           sizeof(text)),
                     RECORDER_SHARE_UNANSWERED);
    assert_true(ms_since(&start) < 500);
    assert_non_null(strstr(text, "died without answering"));
    assert_false(recorder_share_post(share, "cmd_tweak=9", &late, error,
                                     sizeof(error)));
    assert_non_null(strstr(error, "died"));

    recorder_share_close(share);
    close(c.ready);
    close(c.go);
    close(c.output);
}

#define SENDERS         4
#define SENT_EACH       40

typedef struct sender
{
    unsigned id;
    unsigned wrong;                     /* answers that were not ours */
    char     first_wrong[640];
} sender;

/* Alternately a good command and a bad one whose reason names this
 * sender and this command: any mix-up of answers shows. */
static void *send_many(void *arg)
{
    sender *s = arg;
    char error[512];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    if (!share)
    {
        s->wrong = SENT_EACH;
        snprintf(s->first_wrong, sizeof(s->first_wrong), "%s", error);
        return NULL;
    }
    for (unsigned i = 0; i < SENT_EACH; i++)
    {
        char command[64], expected[64];
        bool good = i % 2 == 0;
        if (good)
            snprintf(command, sizeof(command), "cmd_tweak=%u", s->id * 1000 + i);
        else
            snprintf(command, sizeof(command), "cmd_tweak=s%u_%u", s->id, i);
        snprintf(expected, sizeof(expected), "invalid trace value 's%u_%u'",
                 s->id, i);
        bool sent = recorder_share_send(share, command, 5000, error,
                                        sizeof(error));
        if (sent != good || (!good && !strstr(error, expected)))
        {
            if (!s->wrong++)
                snprintf(s->first_wrong, sizeof(s->first_wrong),
                         "'%s' gave %s: %s", command, sent ? "ok" : "failure",
                         sent ? "" : error);
        }
    }
    recorder_share_close(share);
    return NULL;
}

static void test_concurrent_senders_get_their_own_answers(void **state)
{
    (void) state;
    child c = start_child(share_here);
    pthread_t threads[SENDERS];
    sender senders[SENDERS];
    for (unsigned t = 0; t < SENDERS; t++)
    {
        senders[t] = (sender) { .id = t + 1 };
        assert_int_equal(pthread_create(&threads[t], NULL, send_many,
                                        &senders[t]), 0);
    }
    for (unsigned t = 0; t < SENDERS; t++)
    {
        pthread_join(threads[t], NULL);
        if (senders[t].wrong)
            fail_msg("sender %u: %u wrong answers, first %s", t + 1,
                     senders[t].wrong, senders[t].first_wrong);
    }
    finish_child(&c, NULL, 0);
}

/* The ticket a sender reads is text from a file anyone with write access
 * may forge: bounded, terminated, printable. */
static void test_forged_tickets_are_bounded_text(void **state)
{
    (void) state;
    share_command_ring *ring = calloc(1, sizeof(*ring));
    assert_non_null(ring);
    char why[256], reason[512];
    int64_t index = share_command_send(ring, "dump", why, sizeof(why));
    assert_int_equal(index, 0);
    uint32_t status = 0;
    assert_int_equal(share_command_answer(ring, 0, &status, reason,
                                          sizeof(reason)),
                     SHARE_ANSWER_PENDING);

    share_ticket *ticket = &ring->tickets[0];
    memset(ticket->reason, 'A', sizeof(ticket->reason));   /* no NUL */
    memcpy(ticket->reason, "\033]52;c;evil\007\033[2J\r\n\xc2\x9b", 18);
    ticket->status = 0xdeadbeef;
    ticket->seq = 1;
    assert_int_equal(share_command_answer(ring, 0, &status, reason,
                                          sizeof(reason)),
                     SHARE_ANSWER_GIVEN);
    assert_int_equal(status, 0xdeadbeef);
    assert_int_equal(strlen(reason), SHARE_TICKET_TEXT - 1);
    for (const char *p = reason; *p; p++)
        assert_true(*p >= 0x20 && *p < 0x7f);
    assert_non_null(strstr(reason, "?]52;c;evil??[2J"));

    /* A smaller buffer is filled, not overrun. */
    char small[8];
    assert_int_equal(share_command_answer(ring, 0, &status, small,
                                          sizeof(small)),
                     SHARE_ANSWER_GIVEN);
    assert_int_equal(strlen(small), 7);

    /* A ticket for a later command: this one's answer is gone. */
    ticket->seq = 1 + SHARE_COMMANDS;
    assert_int_equal(share_command_answer(ring, 0, &status, reason,
                                          sizeof(reason)),
                     SHARE_ANSWER_LOST);
    ticket->seq = UINT64_MAX;
    assert_int_equal(share_command_answer(ring, 0, &status, reason,
                                          sizeof(reason)),
                     SHARE_ANSWER_LOST);
    free(ring);
}

/* The whole ring of a live segment, mapped writable as any sender can. */
static share_command_ring *map_ring(void **mapping, size_t *size)
{
    int fd = open(path, O_RDWR);
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    *size = (size_t) st.st_size;
    *mapping = mmap(NULL, *size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    assert_true(*mapping != MAP_FAILED);
    const share_header *h = *mapping;
    return (share_command_ring *) ((char *) *mapping + h->commands.offset);
}

static void test_silent_or_forging_writer(void **state)
{
    (void) state;
    child c = start_child(share_here);
    recorder_share *share = open_ok(path);
    void *mapping;
    size_t size;
    share_command_ring *ring = map_ring(&mapping, &size);
    char error[512];

    /* A writer that never answers: a timeout, as before tickets. */
    kill(c.pid, SIGSTOP);
    int stopped;
    assert_int_equal(waitpid(c.pid, &stopped, WUNTRACED), c.pid);
    assert_true(WIFSTOPPED(stopped));
    assert_false(recorder_share_send(share, "cmd_tweak=1", 100, error,
                                     sizeof(error)));
    assert_non_null(strstr(error, "did not apply 'cmd_tweak=1' within 100 ms"));

    /* A forged answer to the next command, while the writer sleeps. */
    uint64_t next = __atomic_load_n(&ring->writer, __ATOMIC_ACQUIRE);
    share_ticket *ticket = &ring->tickets[next % SHARE_COMMANDS];
    ticket->status = 77;
    memset(ticket->reason, '\033', sizeof(ticket->reason));
    __atomic_store_n(&ticket->seq, next + 1, __ATOMIC_RELEASE);
    assert_false(recorder_share_send(share, "cmd_tweak=2", 2000, error,
                                     sizeof(error)));
    assert_non_null(strstr(error, "refused 'cmd_tweak=2'"));
    assert_true(strlen(error) < 200);
    assert_null(strchr(error, '\033'));

    /* 'applied' moved past a command without an answer. */
    next = __atomic_load_n(&ring->writer, __ATOMIC_ACQUIRE);
    __atomic_store_n(&ring->applied, next + 1, __ATOMIC_RELEASE);
    assert_false(recorder_share_send(share, "cmd_tweak=3", 2000, error,
                                     sizeof(error)));
    assert_non_null(strstr(error, "left no answer"));

    kill(c.pid, SIGKILL);
    munmap(mapping, size);
    recorder_share_close(share);
    finish_child(&c, NULL, 0);
}

/* ---- commands that name files ------------------------------------------------ */

static void test_ring_commands_may_not_name_files(void **state)
{
    (void) state;
    child c = start_child(share_here);
    recorder_share *share = open_ok(path);
    char error[512], file[400], moved[400], chrome[400];
    snprintf(file, sizeof(file), "%s/written", directory);
    snprintf(moved, sizeof(moved), "%s/moved", directory);
    snprintf(chrome, sizeof(chrome), "%s/trace.json", directory);
    const char *forms[] = { "output=%s", "output_append=%s", "@output=%s",
                            "share=%s", "dump output=%s", "chrome=%s",
                            "@chrome=%s" };
    for (unsigned f = 0; f < sizeof(forms) / sizeof(*forms); f++)
    {
        char command[512];
        snprintf(command, sizeof(command), forms[f],
                 strstr(forms[f], "share") ? moved
                 : strstr(forms[f], "chrome") ? chrome : file);
        assert_false(recorder_share_send(share, command, 2000, error,
                                         sizeof(error)));
        assert_non_null(strstr(error, "refused from another process"));
        assert_non_null(strstr(error, "RECORDER_COMMANDS_FILES=1"));
    }
    struct stat st;
    assert_int_equal(stat(file, &st), -1);
    assert_int_equal(stat(moved, &st), -1);
    /* Still sharing where it was, still taking commands. */
    assert_int_equal(recorder_share_state(share), RECORDER_SHARE_ALIVE);
    assert_true(recorder_share_send(share, "cmd_tweak=3", 2000, error,
                                    sizeof(error)));
    recorder_share_close(share);
    char output[16384];
    finish_child(&c, output, sizeof(output));
    /* The program's user hears of each attempt. */
    assert_non_null(strstr(output, "output= refused from another process"));
    assert_non_null(strstr(output, "share= refused from another process"));
    assert_non_null(strstr(output, "chrome= refused from another process"));
    /* chrome= would have written its file at exit. */
    assert_int_equal(stat(chrome, &st), -1);
}

static void share_with_file_commands(void)
{
    setenv("RECORDER_COMMANDS_FILES", "1", 1);
    share_here();
}

static void test_program_can_allow_file_commands(void **state)
{
    (void) state;
    child c = start_child(share_with_file_commands);
    recorder_share *share = open_ok(path);
    char error[512], file[400], command[512];
    snprintf(file, sizeof(file), "%s/written", directory);
    snprintf(command, sizeof(command), "output=%s", file);
    if (!recorder_share_send(share, command, 2000, error, sizeof(error)))
        fail_msg("opted in, yet: %s", error);
    assert_true(recorder_share_send(share, "dump", 2000, error, sizeof(error)));
    recorder_share_close(share);
    finish_child(&c, NULL, 0);
    FILE *written = fopen(file, "r");
    assert_non_null(written);
    char text[4096];
    size_t n = fread(text, 1, sizeof(text) - 1, written);
    text[n] = 0;
    fclose(written);
    assert_non_null(strstr(text, "cmd: sharing"));
}

/* ---- what the writer could not set up ------------------------------------------ */

/* Threads get 1 GiB stacks and the address space only 128 MiB more than
 * now: the command thread cannot start, the rest works. */
static void share_without_threads(void)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1u << 30);
    pthread_setattr_default_np(&attr);
    pthread_attr_destroy(&attr);
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    unsigned long kib = 0;
    while (status && fgets(line, sizeof(line), status))
        sscanf(line, "VmSize: %lu kB", &kib);
    if (status)
        fclose(status);
    struct rlimit space = { (kib << 10) + (128ul << 20), RLIM_INFINITY };
    setrlimit(RLIMIT_AS, &space);
    share_here();
}

static void test_commands_unavailable_said_and_send_fails_at_once(void **state)
{
    (void) state;
    if (getenv("SANITIZED"))
    {
        skip();                         /* sanitizers need address space */
        return;
    }
    child c = start_child(share_without_threads);
    recorder_share *share = open_ok(path);
    char why[256], error[512];
    assert_int_equal(recorder_share_state(share), RECORDER_SHARE_ALIVE);
    assert_false(recorder_share_available(share, RECORDER_SHARE_COMMANDS, why,
                                          sizeof(why)));
    assert_non_null(strstr(why, "pthread_create: "));
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    assert_false(recorder_share_send(share, "cmd_tweak=2", 2000, error,
                                     sizeof(error)));
    assert_true(ms_since(&start) < 100);
    assert_non_null(strstr(error, "cannot take commands: pthread_create: "));
    recorder_share_close(share);
    char output[16384];
    finish_child(&c, output, sizeof(output));
    assert_non_null(strstr(output,
                           "recorder: commands from readers unavailable: "
                           "pthread_create: "));
}

/* Only one descriptor left, which the segment takes: /proc/self/maps
 * cannot be opened. */
static void share_with_one_descriptor_left(void)
{
    int lowest = open("/dev/null", O_RDONLY);
    close(lowest);
    struct rlimit files;
    getrlimit(RLIMIT_NOFILE, &files);
    files.rlim_cur = (rlim_t) lowest + 1;
    setrlimit(RLIMIT_NOFILE, &files);
    share_here();
    recorder_trace_set("cmd=a,");       /* more sharing: said only once */
}

static void test_module_table_unavailable_is_said(void **state)
{
    (void) state;
    child c = start_child(share_with_one_descriptor_left);
    recorder_share *share = open_ok(path);
    char why[256];
    assert_false(recorder_share_available(share, RECORDER_SHARE_MODULES, why,
                                          sizeof(why)));
    assert_string_equal(why, "/proc/self/maps: Too many open files");
    assert_true(recorder_share_available(share, RECORDER_SHARE_COMMANDS, why,
                                         sizeof(why)));
    FILE *dump = tmpfile();
    recorder_share_dump(share, "recorder_error", dump);
    rewind(dump);
    char text[8192];
    size_t n = fread(text, 1, sizeof(text) - 1, dump);
    text[n] = 0;
    fclose(dump);
    assert_non_null(strstr(text, "Module table unavailable: /proc/self/maps"));
    recorder_share_close(share);
    char output[16384];
    finish_child(&c, output, sizeof(output));
    const char *said = strstr(output, "recorder: module table unavailable: "
                                      "/proc/self/maps: Too many open files");
    assert_non_null(said);
    assert_null(strstr(said + 20, "module table unavailable"));
}

#define TEST(fn) cmocka_unit_test_setup_teardown(fn, make_directory, \
                                                 remove_directory)

int main(void)
{
    signal(SIGPIPE, SIG_IGN);           /* releasing a child killed meanwhile */
    const struct CMUnitTest tests[] = {
        TEST(test_applied_ok_rejected_with_the_writers_reason),
        TEST(test_post_then_answer),
        TEST(test_partly_applied_commands_say_what_applied),
        TEST(test_control_characters_are_refused_and_shown_escaped),
        TEST(test_concurrent_senders_get_their_own_answers),
        TEST(test_forged_tickets_are_bounded_text),
        TEST(test_silent_or_forging_writer),
        TEST(test_ring_commands_may_not_name_files),
        TEST(test_program_can_allow_file_commands),
        TEST(test_commands_unavailable_said_and_send_fails_at_once),
        TEST(test_module_table_unavailable_is_said),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
