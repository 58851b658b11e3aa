/* test_share_v12.c - commands into the segment of a recorder 1.2 program.
 *
 * A child holds the file open as the 1.2 program would; the test plays
 * that program's command thread by moving the ring's reader index. Two
 * commands posted without waiting must stay apart (1.2 takes everything
 * unread as one specification), a full ring and a long command are
 * refused, and a command counts as applied only once it was taken.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"

#include "recorder_share.h"
#include "segment/share_v12_layout_private.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void write_segment(void)
{
    static v12_header header;
    header.magic = V12_MAGIC;
    header.version = V12_VERSION;
    header.serial = 7;
    header.end = sizeof(header);
    header.commands = (v12_ring) { .size = V12_COMMAND_BYTES, .item_size = 1 };
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, &header, sizeof(header)), sizeof(header));
    assert_int_equal(ftruncate(fd, 4096), 0);
    close(fd);
}

/* The 1.2 program: has the file open, does nothing else. */
static pid_t start_holder(void)
{
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
    {
        int fd = open(path, O_RDWR);
        if (fd < 0 || write(ready[1], "r", 1) != 1)
            _exit(1);
        pause();
        _exit(0);
    }
    char byte;
    assert_int_equal(read(ready[0], &byte, 1), 1);
    close(ready[0]);
    close(ready[1]);
    return pid;
}

/* The header as the file holds it now. */
static v12_header *on_disk(void)
{
    static v12_header copy;
    int fd = open(path, O_RDONLY);
    assert_int_equal(pread(fd, &copy, sizeof(copy), 0), sizeof(copy));
    close(fd);
    return &copy;
}

/* What the program's thread does: take everything up to 'index'. */
static void take_until(uint64_t index)
{
    int fd = open(path, O_RDWR);
    assert_int_equal(pwrite(fd, &index, sizeof(index),
                            offsetof(v12_header, commands.reader)),
                     sizeof(index));
    close(fd);
}

static void test_commands_reach_a_12_program(void **state)
{
    (void) state;
    write_segment();
    pid_t holder = start_holder();
    char error[256], text[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    assert_non_null(share);
    recorder_share_process process;
    recorder_share_process_info(share, &process);
    assert_int_equal(process.pid, holder);
    assert_int_equal(recorder_share_state(share), RECORDER_SHARE_ALIVE);

    recorder_share_ticket first, second, third;
    assert_true(recorder_share_post(share, "a=1", &first, error,
                                    sizeof(error)));
    assert_true(recorder_share_post(share, "dump", &second, error,
                                    sizeof(error)));
    v12_header *h = on_disk();
    assert_memory_equal(h->command_bytes, "a=1:dump", 8);
    assert_int_equal(h->commands.writer, 8);
    assert_int_equal(h->commands.commit, 8);
    assert_int_equal(first, 3);
    assert_int_equal(second, 8);

    /* Applied only once taken. */
    assert_int_equal(recorder_share_answer(share, first, 0, text,
                                           sizeof(text)),
                     RECORDER_SHARE_PENDING);
    take_until(3);
    assert_int_equal(recorder_share_answer(share, first, 0, text,
                                           sizeof(text)),
                     RECORDER_SHARE_APPLIED);
    assert_int_equal(recorder_share_answer(share, second, 0, text,
                                           sizeof(text)),
                     RECORDER_SHARE_PENDING);
    take_until(8);

    /* Nothing unread: no separator. */
    assert_true(recorder_share_post(share, "x", &third, error,
                                    sizeof(error)));
    assert_int_equal(on_disk()->command_bytes[8], 'x');
    assert_int_equal(third, 9);

    /* Room for 1023 unread bytes, as 1.2's ring keeps one free. */
    char command[V12_COMMAND_BYTES];
    memset(command, 'y', sizeof(command));
    command[V12_COMMAND_BYTES - 1] = 0;
    assert_false(recorder_share_post(share, command, &third, error,
                                     sizeof(error)));
    assert_non_null(strstr(error, "too long"));
    command[V12_COMMAND_BYTES - 2] = 0;
    assert_false(recorder_share_post(share, command, &third, error,
                                     sizeof(error)));
    assert_non_null(strstr(error, "no room"));

    /* The program goes away: no answer will come, nothing more is sent. */
    kill(holder, SIGKILL);
    waitpid(holder, NULL, 0);
    assert_int_equal(recorder_share_answer(share, 9, 50, text, sizeof(text)),
                     RECORDER_SHARE_UNANSWERED);
    assert_non_null(strstr(text, "exited"));
    assert_false(recorder_share_send(share, "dump", 100, error,
                                     sizeof(error)));
    assert_non_null(strstr(error, "exited"));
    recorder_share_close(share);
}

/* Our own readers hold the file too: none of them is the writer. */
static void test_readers_are_not_the_writer(void **state)
{
    (void) state;
    write_segment();
    char error[256];
    recorder_share *one = recorder_share_open(path, error, sizeof(error));
    recorder_share *two = recorder_share_open(path, error, sizeof(error));
    assert_non_null(one);
    assert_non_null(two);
    assert_int_equal(recorder_share_state(one), RECORDER_SHARE_EXITED);
    recorder_share_ticket ticket;
    assert_false(recorder_share_post(one, "dump", &ticket, error,
                                     sizeof(error)));
    assert_non_null(strstr(error, "exited"));
    recorder_share_close(two);
    recorder_share_close(one);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_commands_reach_a_12_program,
                                        make_directory, remove_directory),
        cmocka_unit_test_setup_teardown(test_readers_are_not_the_writer,
                                        make_directory, remove_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
