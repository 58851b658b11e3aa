/* test_segment_guard.c - a mapped file truncated under us: guarded ranges
 * turn into private memory (zeros, or what is left of the file) and the
 * program goes on; any other SIGBUS still reaches the handler that was
 * there before, or kills as it would have. Each case runs in a child: the
 * guard's handler is installed once per process, and some cases die. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"

#include "recorder.h"
#include "recorder_share.h"
#include "backtrace/crash_report_private.h"
#include "segment/segment_guard_private.h"
#include "segment/share_reader_private.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define PAGES   8

RECORDER(guarded, 64, "Records of the segment guard tests");

static size_t page;

/* A file of PAGES pages, page i filled with byte 'A' + i, mapped shared. */
static char *map_file(const char *name, int prot, int *fd_out)
{
    page = (size_t) sysconf(_SC_PAGESIZE);
    char file[400];
    snprintf(file, sizeof(file), "%s/%s", directory, name);
    int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        _exit(90);
    char *block = malloc(page);
    for (unsigned i = 0; i < PAGES; i++)
    {
        memset(block, 'A' + i, page);
        if (write(fd, block, page) != (ssize_t) page)
            _exit(91);
    }
    free(block);
    char *base = mmap(NULL, PAGES * page, prot, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED)
        _exit(92);
    *fd_out = fd;
    return base;
}

/* Run 'body' in a child; return its wait status. */
static int in_child(void (*body)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0)
    {
        signal(SIGBUS, SIG_DFL);        /* not cmocka's: as in a program */
        body();
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    return status;
}

static void assert_exited(int status, int code)
{
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), code);
}

static void assert_killed_by(int status, int sig)
{
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), sig);
}

/* ---- repairs ---------------------------------------------------------------- */

static volatile sig_atomic_t notified;
static void count_notice(void *arg)
{
    notified += (int) (intptr_t) arg;
}

static void reader_sees_zeros(void)
{
    int fd;
    char *base = map_file("reader", PROT_READ, &fd);
    int handle = segment_guard_add(base, PAGES * page, PROT_READ, fd, false,
                                   count_notice, (void *) 1);
    if (handle < 0 || segment_guard_detached(handle) || base[page] != 'B')
        _exit(10);
    if (ftruncate(fd, 0) != 0)
        _exit(11);
    volatile char *bytes = base;
    for (unsigned i = 0; i < PAGES; i++)
        if (bytes[i * page] != 0)
            _exit(12);
    if (!segment_guard_detached(handle) || notified != 1)
        _exit(13);
    segment_guard_remove(handle);
    munmap(base, PAGES * page);
}

static void test_reader_range_reads_zeros_once_truncated(void **state)
{
    (void) state;
    assert_exited(in_child(reader_sees_zeros), 0);
}

static void writer_keeps_what_is_left(void)
{
    int fd;
    char *base = map_file("writer", PROT_READ | PROT_WRITE, &fd);
    int handle = segment_guard_add(base, PAGES * page, PROT_READ | PROT_WRITE,
                                   fd, true, count_notice, (void *) 1);
    if (handle < 0)
        _exit(10);
    if (ftruncate(fd, 2 * page) != 0)
        _exit(11);
    volatile char *bytes = base;
    bytes[5 * page] = 'x';              /* faults, then writes privately */
    if (bytes[5 * page] != 'x' || bytes[5 * page + 1] != 0 ||
        bytes[0] != 'A' || bytes[2 * page - 1] != 'B' || bytes[3 * page] != 0)
        _exit(12);
    bytes[0] = 'y';                     /* private: the file keeps its 'A' */
    char first;
    if (pread(fd, &first, 1, 0) != 1 || first != 'A')
        _exit(13);
    if (!segment_guard_detached(handle) || notified != 1)
        _exit(14);
}

static void test_writer_range_keeps_what_is_left_of_the_file(void **state)
{
    (void) state;
    assert_exited(in_child(writer_keeps_what_is_left), 0);
}

/* Several threads fault on the range at once: one repairs, the others wait
 * for it, all go on; the notice comes once. */
static char *shared_base;
static volatile int go;

static void *touch_pages(void *arg)
{
    unsigned first = (unsigned) (uintptr_t) arg;
    while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
        ;
    volatile char *bytes = shared_base;
    unsigned sum = 0;
    for (unsigned round = 0; round < 2000; round++)
        for (unsigned i = 0; i < PAGES; i++)
            sum += bytes[((i + first) % PAGES) * page + round % page];
    return (void *) (uintptr_t) sum;
}

static void threads_fault_together(void)
{
    int fd;
    shared_base = map_file("threads", PROT_READ | PROT_WRITE, &fd);
    int handle = segment_guard_add(shared_base, PAGES * page,
                                   PROT_READ | PROT_WRITE, fd, true,
                                   count_notice, (void *) 1);
    if (handle < 0)
        _exit(10);
    pthread_t threads[4];
    for (unsigned t = 0; t < 4; t++)
        pthread_create(&threads[t], NULL, touch_pages,
                       (void *) (uintptr_t) (t * 2));
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    if (ftruncate(fd, 0) != 0)
        _exit(11);
    for (unsigned t = 0; t < 4; t++)
        pthread_join(threads[t], NULL);
    shared_base[page] = 1;              /* in case all ended before */
    if (!segment_guard_detached(handle) || notified != 1)
        _exit(12);
}

static void test_threads_faulting_together_all_survive(void **state)
{
    (void) state;
    for (int run = 0; run < 5; run++)
        assert_exited(in_child(threads_fault_together), 0);
}

/* ---- what is not ours --------------------------------------------------------- */

static sigjmp_buf back;
static volatile sig_atomic_t previous_called;

static void program_handler(int sig, siginfo_t *info, void *context)
{
    (void) sig, (void) info, (void) context;
    previous_called++;
    siglongjmp(back, 1);
}

/* The program's own SIGBUS handler, there before the guard, still gets the
 * faults of mappings the guard does not know. */
static void other_fault_goes_to_program(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = program_handler;
    action.sa_flags = SA_SIGINFO;
    sigaction(SIGBUS, &action, NULL);

    int fd, other_fd;
    char *guarded = map_file("guarded", PROT_READ, &fd);
    if (segment_guard_add(guarded, PAGES * page, PROT_READ, fd, false, NULL,
                          NULL) < 0)
        _exit(10);
    char *other = map_file("other", PROT_READ, &other_fd);
    if (ftruncate(other_fd, 0) != 0 || ftruncate(fd, 0) != 0)
        _exit(11);
    if (sigsetjmp(back, 1) == 0)
    {
        volatile char byte = other[page];
        (void) byte;
        _exit(12);                      /* the fault must not be hidden */
    }
    if (previous_called != 1)
        _exit(13);
    volatile char byte = guarded[page];  /* ours: repaired, no call */
    if (byte != 0 || previous_called != 1)
        _exit(14);
}

static void test_other_sigbus_reaches_the_previous_handler(void **state)
{
    (void) state;
    assert_exited(in_child(other_fault_goes_to_program), 0);
}

/* Without a previous handler, a fault elsewhere kills as it always did. */
static void other_fault_kills(void)
{
    int fd, other_fd;
    char *guarded = map_file("guarded", PROT_READ, &fd);
    segment_guard_add(guarded, PAGES * page, PROT_READ, fd, false, NULL, NULL);
    char *other = map_file("other", PROT_READ, &other_fd);
    if (ftruncate(other_fd, 0) != 0)
        _exit(11);
    volatile char byte = other[page];
    (void) byte;
    _exit(12);
}

static void test_other_sigbus_kills_by_default(void **state)
{
    (void) state;
    assert_killed_by(in_child(other_fault_kills), SIGBUS);
}

/* A SIGBUS sent by a process carries no fault address: never "repaired". */
static void sent_sigbus_kills(void)
{
    int fd;
    char *guarded = map_file("guarded", PROT_READ, &fd);
    segment_guard_add(guarded, PAGES * page, PROT_READ, fd, false, NULL, NULL);
    kill(getpid(), SIGBUS);
    _exit(12);
}

static void test_sent_sigbus_still_kills(void **state)
{
    (void) state;
    assert_killed_by(in_child(sent_sigbus_kills), SIGBUS);
}

/* A range removed is no longer guarded. */
static void removed_range_faults(void)
{
    int fd;
    char *base = map_file("removed", PROT_READ, &fd);
    int handle = segment_guard_add(base, PAGES * page, PROT_READ, fd, false,
                                   NULL, NULL);
    segment_guard_remove(handle);
    if (segment_guard_detached(handle) || ftruncate(fd, 0) != 0)
        _exit(11);
    volatile char byte = base[page];
    (void) byte;
    _exit(12);
}

static void test_removed_range_is_not_guarded(void **state)
{
    (void) state;
    assert_killed_by(in_child(removed_range_faults), SIGBUS);
}

/* The table is bounded: when full, add says so, and removing frees a slot. */
static void table_fills_and_frees(void)
{
    int fd;
    char *base = map_file("table", PROT_READ, &fd);
    int handles[SEGMENT_GUARD_RANGES];
    for (int i = 0; i < SEGMENT_GUARD_RANGES; i++)
        if ((handles[i] = segment_guard_add(base, page, PROT_READ, fd, false,
                                            NULL, NULL)) < 0)
            _exit(10);
    if (segment_guard_add(base, page, PROT_READ, fd, false, NULL, NULL) != -1)
        _exit(11);
    segment_guard_remove(handles[3]);
    if (segment_guard_add(base, page, PROT_READ, fd, false, NULL, NULL) != 3)
        _exit(12);
    segment_guard_remove(-1);           /* ignored */
    if (segment_guard_detached(-1) || segment_guard_detached(1 << 20))
        _exit(13);
}

static void test_table_is_bounded(void **state)
{
    (void) state;
    assert_exited(in_child(table_fills_and_frees), 0);
}

/* The library's crash handler (signals.c), installed after the guard, asks
 * the guard first: a truncated range is no crash. */
static void crash_handler_lets_guard_repair(void)
{
    int fd;
    char *base = map_file("crash", PROT_READ | PROT_WRITE, &fd);
    segment_guard_add(base, PAGES * page, PROT_READ | PROT_WRITE, fd, true,
                      count_notice, (void *) 1);
    recorder_dump_on_signal(SIGBUS);
    if (ftruncate(fd, 0) != 0)
        _exit(11);
    base[3 * page] = 7;
    if (base[3 * page] != 7 || notified != 1)
        _exit(12);
}

static void test_library_crash_handler_lets_the_guard_repair(void **state)
{
    (void) state;
    assert_exited(in_child(crash_handler_lets_guard_repair), 0);
}

/* ... and a fault elsewhere is still a crash it reports, whichever of
 * the two handlers was installed first. */
static void crash_elsewhere(bool guard_first)
{
    int quiet = open("/dev/null", O_WRONLY);
    dup2(quiet, 2);                     /* the crash report: not checked */
    int fd, other_fd;
    char *base = map_file("guarded", PROT_READ, &fd);
    if (!guard_first)
        recorder_dump_on_signal(SIGBUS);
    segment_guard_add(base, PAGES * page, PROT_READ, fd, false, NULL, NULL);
    if (guard_first)
        recorder_dump_on_signal(SIGBUS);
    char *other = map_file("other", PROT_READ, &other_fd);
    if (ftruncate(other_fd, 0) != 0)
        _exit(11);
    volatile char byte = other[page];
    (void) byte;
    _exit(12);
}

static void crash_elsewhere_guard_first(void)
{
    crash_elsewhere(true);
}

static void crash_elsewhere_guard_last(void)
{
    crash_elsewhere(false);
}

static void test_other_sigbus_is_still_a_crash(void **state)
{
    (void) state;
    setenv("RECORDER_SYMBOLIZE", "", 1);    /* no backtrace helper: faster */
    assert_killed_by(in_child(crash_elsewhere_guard_first), SIGBUS);
    assert_killed_by(in_child(crash_elsewhere_guard_last), SIGBUS);
}

/* ---- in the library ------------------------------------------------------ */

/* A reader truncated between its checks and its reads: the dump's first
 * line truncates the file, the next reads fault, and the guard turns them
 * into zeros; the state then says the segment is gone. Writer and reader
 * are this one process here: two mappings, both guarded. */
static char segment[400];

static ssize_t truncate_on_write(void *cookie, const char *data, size_t size)
{
    (void) data;
    int *lines = cookie;
    if ((*lines)++ == 0 && truncate(segment, 0) != 0)
        _exit(20);
    return (ssize_t) size;
}

static void reader_truncated_while_dumping(void)
{
    snprintf(segment, sizeof(segment), "%s/segment", directory);
    char spec[500];
    snprintf(spec, sizeof(spec), "share=%s", segment);
    if (recorder_trace_set(spec) != RECORDER_TRACE_OK)
        _exit(10);
    for (int i = 0; i < 50; i++)
        record(guarded, "record %d", i);
    char error[256];
    recorder_share *share = recorder_share_open(segment, error, sizeof(error));
    if (!share)
        _exit(11);
    int lines = 0;
    FILE *out = fopencookie(&lines, "w", (cookie_io_functions_t) {
                                .write = truncate_on_write });
    setvbuf(out, NULL, _IONBF, 0);
    recorder_share_dump(share, NULL, out);
    fclose(out);
    size_t size;
    if (lines < 1 ||
        recorder_share_state(share) != RECORDER_SHARE_REPLACED ||
        recorder_share_channel_count(share) != 0 ||
        recorder_share_crash_region(share, &size) != NULL ||
        strcmp(recorder_share_state_name(RECORDER_SHARE_REPLACED),
               "replaced or truncated") != 0)
        _exit(12);
    recorder_share_close(share);
}

static void test_reader_truncated_while_dumping(void **state)
{
    (void) state;
    assert_exited(in_child(reader_truncated_while_dumping), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define TEST(name) cmocka_unit_test_setup_teardown(name, make_directory, remove_directory)
        TEST(test_reader_range_reads_zeros_once_truncated),
        TEST(test_writer_range_keeps_what_is_left_of_the_file),
        TEST(test_threads_faulting_together_all_survive),
        TEST(test_other_sigbus_reaches_the_previous_handler),
        TEST(test_other_sigbus_kills_by_default),
        TEST(test_sent_sigbus_still_kills),
        TEST(test_removed_range_is_not_guarded),
        TEST(test_table_is_bounded),
        TEST(test_library_crash_handler_lets_the_guard_repair),
        TEST(test_other_sigbus_is_still_a_crash),
        TEST(test_reader_truncated_while_dumping),
    };
    return cmocka_run_group_tests_name("segment_guard", tests, NULL, NULL);
}
