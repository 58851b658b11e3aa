/* test_crash.c - crash reports: each test crashes a forked child in a
 * different way (inside malloc with its lock held, stack overflow, another
 * thread, abort, a full output pipe, a fault inside the report) and checks
 * what it printed, the signal it died of and how long it took; then reads
 * the report back from the shared segment, and feeds the reader corrupt
 * reports. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "default_signals.h"
#include "stack_overflow.h"

#include "recorder.h"
#include "recorder_backtrace.h"
#include "recorder_share.h"
#include "backtrace/crash_report_private.h"
#include "segment/share_layout_private.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <malloc.h>
#include <poll.h>
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

/* The library looks for recorder_symbolize beside the program and one
 * level up; this test runs from $(BUILD)/tests/lib, two levels below it. */
static void use_built_symbolizer(void)
{
    char program[PATH_MAX], helper[PATH_MAX + 32];
    ssize_t length = readlink("/proc/self/exe", program, sizeof(program) - 1);
    program[length > 0 ? length : 0] = 0;
    char *slash = strrchr(program, '/');
    if (slash)
        *slash = 0;
    snprintf(helper, sizeof(helper), "%s/../../recorder_symbolize", program);
    setenv("RECORDER_SYMBOLIZE", helper, 1);
}

RECORDER(crashing, 64, "Records made by the child before it crashes");

#if defined(__SANITIZE_ADDRESS__)
#define ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ADDRESS_SANITIZER 1
#endif
#endif

/* No child may take longer than this; a hang fails the test. */
#define CHILD_LIMIT_MS  10000

typedef struct outcome
{
    int    status;                      /* from waitpid */
    double seconds;                     /* from fork to death */
    char   output[1 << 17];             /* child's stderr */
} outcome;

static outcome result;
static char directory[256];
static char segment[320];
static char host[256];

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Run 'body' in a child set up as a program would be, its stderr captured.
 * With 'read_late', the parent reads nothing until the child is dead (its
 * output pipe may fill up). */
static void run_child(void (*body)(void), bool read_late, outcome *out)
{
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    fflush(NULL);
    double start = now();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0)
    {
        struct rlimit no_core = { 0, 0 };
        setrlimit(RLIMIT_CORE, &no_core);
        close(pipefd[0]);
        dup2(pipefd[1], 2);
        close(pipefd[1]);
        default_signals();
        recorder_dump_on_common_signals(0, 0);
        body();
        _exit(0);
    }
    close(pipefd[1]);
    size_t len = 0;
    bool dead = false;
    if (read_late)
    {
        while (!dead && now() - start < CHILD_LIMIT_MS / 1000.0)
        {
            dead = waitpid(pid, &out->status, WNOHANG) == pid;
            if (!dead)
                usleep(1000);
        }
        out->seconds = now() - start;
    }
    for (;;)
    {
        struct pollfd poller = { pipefd[0], POLLIN, 0 };
        int left = (int) (CHILD_LIMIT_MS - (now() - start) * 1000);
        if (left <= 0 || poll(&poller, 1, left) <= 0)
            break;
        ssize_t n = read(pipefd[0], out->output + len,
                         sizeof(out->output) - 1 - len);
        if (n <= 0)
            break;
        len += (size_t) n;
    }
    out->output[len] = 0;
    close(pipefd[0]);
    while (!dead && now() - start < CHILD_LIMIT_MS / 1000.0)
    {
        /* Its output closes a moment before it can be waited for. */
        dead = waitpid(pid, &out->status, WNOHANG) == pid;
        if (dead)
            out->seconds = now() - start;
        else
            usleep(500);
    }
    if (!dead)
    {
        {
            kill(pid, SIGKILL);
            waitpid(pid, &out->status, 0);
            fail_msg("child still running after %d ms; it printed:\n%s",
                     CHILD_LIMIT_MS, out->output);
        }
    }
}

/* The line of the report for frame 'index', without its "N/M " number;
 * "" if there is none. */
static const char *frame_line(const outcome *out, unsigned index)
{
    static char line[1024];
    char prefix[32];
    snprintf(prefix, sizeof(prefix), "%u/", index);
    for (const char *p = out->output; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
    {
        if (strncmp(p, prefix, strlen(prefix)) != 0)
            continue;
        const char *space = strchr(p, ' ');
        const char *end = strchr(p, '\n');
        if (!space || !end || space > end)
            continue;
        snprintf(line, sizeof(line), "%.*s", (int) (end - space - 1), space + 1);
        return line;
    }
    return "";
}

static void expect_frame(const outcome *out, unsigned index,
                         const char *verb, const char *function,
                         unsigned line)
{
    char want[1024];
    snprintf(want, sizeof(want),
             "test_crash @ %s %s file \"tests/lib/test_crash.c\", line %u, in %s",
             host, verb, line, function);
    const char *got = frame_line(out, index);
    if (strcmp(got, want) != 0)
        fail_msg("frame %u is\n  '%s', expected\n  '%s'\nin:\n%s",
                 index, got, want, out->output);
}

static void expect_death(const outcome *out, int sig)
{
    if (!WIFSIGNALED(out->status) || WTERMSIG(out->status) != sig)
        fail_msg("child did not die by signal %d (status %#x):\n%s",
                 sig, out->status, out->output);
}

/* Some frame, any number, whose line contains 'text'. */
static bool has_frame_with(const outcome *out, const char *text)
{
    for (unsigned f = 0; f < 256; f++)
    {
        const char *line = frame_line(out, f);
        if (!*line)
            return false;
        if (strstr(line, text))
            return true;
    }
    return false;
}

/* ---- the crashes, each on a line the tests know ------------------------- */

/* Faults made by the machine, not undefined behaviour a sanitizer would
 * catch first (make check-asan): a store to an unmapped, non-null address,
 * a division instruction by zero. */
static int *volatile nowhere = (int *) 16;
static volatile int zero;

static const unsigned segv_line = __LINE__ + 3;
__attribute__((noinline)) static void write_through_null(void)
{
    *nowhere = 1;
    __asm__ __volatile__("");           /* no tail call into the fault */
}

static const unsigned segv_call_line = __LINE__ + 4;
__attribute__((noinline)) static void segfault_in_function(void)
{
    record(crashing, "about to write at %p", (void *) nowhere);
    write_through_null();
    __asm__ __volatile__("");
}

#if defined(__x86_64__) || defined(__i386__)
#define DIVIDE(Value, Divisor)                                          \
    ({ int q_ = (Value), r_, d_ = (Divisor);                            \
       __asm__ __volatile__("cltd\n\tidivl %2"                           \
                            : "+a"(q_), "=&d"(r_) : "r"(d_));           \
       q_; })
#else
#define DIVIDE(Value, Divisor)  ((Value) / (Divisor))
#endif

static const unsigned fpe_line = __LINE__ + 3;
__attribute__((noinline)) static int divide_by_zero(int value)
{
    return DIVIDE(value, zero);
}

static volatile int quotient;
static void divides(void)
{
    record(crashing, "dividing by %d", zero);
    quotient = divide_by_zero(7);
}

static const unsigned abort_line = __LINE__ + 4;
__attribute__((noinline)) static void aborts(void)
{
    record(crashing, "calling abort");
    abort();
}

static void overflows(void)
{
    record(crashing, "about to overflow the stack");
    recurse(NULL, 0);
}

/* ---- tests ------------------------------------------------------------- */

static void test_segv_report_names_function_file_and_line(void **state)
{
    (void) state;
    run_child(segfault_in_function, false, &result);
    expect_death(&result, SIGSEGV);
    assert_non_null(strstr(result.output, "crashing: about to write at 0x10"));
    assert_non_null(strstr(result.output, "Received SIGSEGV (address not "
                                          "mapped) at address 0x10 in thread"));
    expect_frame(&result, 0, "Crashed at", "write_through_null", segv_line);
    expect_frame(&result, 1, "Called from", "segfault_in_function",
                 segv_call_line);
    /* The dump comes first, then the report. */
    assert_true(strstr(result.output, "about to write") <
                strstr(result.output, "0/"));
    print_message("segv: reported and died in %.0f ms\n", result.seconds * 1e3);
}

static void test_fpe_reports_and_dies_by_sigfpe(void **state)
{
    (void) state;
    run_child(divides, false, &result);
    expect_death(&result, SIGFPE);
    assert_non_null(strstr(result.output, "Received SIGFPE (integer divide "
                                          "by zero)"));
    expect_frame(&result, 0, "Crashed at", "divide_by_zero", fpe_line);
}

static void test_abort_reports_and_dies_by_sigabrt(void **state)
{
    (void) state;
    run_child(aborts, false, &result);
    expect_death(&result, SIGABRT);
    assert_non_null(strstr(result.output, "crashing: calling abort\n"));
    assert_non_null(strstr(result.output, "Received SIGABRT sent by process"));
    char want[128];
    snprintf(want, sizeof(want), "line %u, in aborts", abort_line);
    assert_true(has_frame_with(&result, " in abort"));
    assert_true(has_frame_with(&result, want));
}

/* malloc_stats() holds the arena lock while it prints to stderr: make
 * stderr a stream whose write faults, and the crash happens inside malloc
 * with its lock held (and stdio's). A handler that allocated, or forked
 * with fork(), would deadlock here. */
static ssize_t faulting_write(void *cookie, const char *data, size_t size)
{
    (void) cookie;
    (void) data;
    *nowhere = (int) size;
    return (ssize_t) size;
}

static void *nothing(void *arg)
{
    return arg;
}

static void crash_in_malloc(void)
{
    /* One thread more, or glibc skips the lock. */
    pthread_t thread;
    pthread_create(&thread, NULL, nothing, NULL);
    pthread_join(thread, NULL);
    free(malloc(100));
    recorder_configure_output(stderr);  /* the real one, for the report */
    cookie_io_functions_t io = { .write = faulting_write };
    FILE *trap = fopencookie(NULL, "w", io);
    setvbuf(trap, NULL, _IONBF, 0);
    record(crashing, "calling malloc_stats");
    stderr = trap;
    malloc_stats();
}

static void test_crash_inside_malloc_with_lock_held_reports(void **state)
{
    (void) state;
#ifdef ADDRESS_SANITIZER
    skip();                             /* its malloc_stats() prints nothing */
#endif
    run_child(crash_in_malloc, false, &result);
    expect_death(&result, SIGSEGV);
    assert_non_null(strstr(result.output, "crashing: calling malloc_stats"));
    assert_true(strstr(frame_line(&result, 0), "in faulting_write") != NULL);
    assert_true(has_frame_with(&result, "malloc_stats"));
    assert_true(has_frame_with(&result, "in crash_in_malloc"));
    assert_null(strstr(result.output, "stopped after"));
    /* Well within the 2 s timeout: nothing waited for a lock. */
    assert_true(result.seconds < 1.0);
    print_message("crash in malloc: reported and died in %.0f ms\n",
                  result.seconds * 1e3);
}

static void test_stack_overflow_reports(void **state)
{
    (void) state;
    run_child(overflows, false, &result);
    expect_death(&result, SIGSEGV);
    assert_non_null(strstr(result.output, "about to overflow the stack"));
    assert_true(strstr(frame_line(&result, 0), "in recurse") != NULL);
    assert_true(strstr(frame_line(&result, CRASH_FRAMES - 1), "in recurse"));
    assert_non_null(strstr(result.output, "Deeper frames were not captured"));
}

/* ---- threads ----------------------------------------------------------- */

static const unsigned worker_line = __LINE__ + 6;
static void *crashing_worker(void *arg)
{
    (void) arg;
    pthread_setname_np(pthread_self(), "worker");
    record(crashing, "worker about to crash");
    *nowhere = 2;
    return NULL;
}

static void crash_in_thread(void)
{
    pthread_t thread;
    pthread_create(&thread, NULL, crashing_worker, NULL);
    pthread_join(thread, NULL);
}

static void test_crash_in_second_thread_reports_that_thread(void **state)
{
    (void) state;
    run_child(crash_in_thread, false, &result);
    expect_death(&result, SIGSEGV);
    assert_non_null(strstr(result.output, "\"worker\", pid"));
    expect_frame(&result, 0, "Crashed at", "crashing_worker", worker_line);
    /* The thread is not the main one: its id is not the pid. */
    unsigned tid = 0, pid = 0;
    const char *header = strstr(result.output, "in thread ");
    assert_non_null(header);
    assert_int_equal(sscanf(header, "in thread %u \"worker\", pid %u",
                            &tid, &pid), 2);
    assert_int_not_equal(tid, pid);
}

static void *overflowing_worker(void *arg)
{
    if (arg)
        recorder_backtrace_thread_init();
    pthread_setname_np(pthread_self(), "deep");
    recurse(NULL, 0);
    return NULL;
}

static void overflow_in_prepared_thread(void)
{
    pthread_t thread;
    pthread_create(&thread, NULL, overflowing_worker, (void *) 1);
    pthread_join(thread, NULL);
}

static void overflow_in_plain_thread(void)
{
    pthread_t thread;
    pthread_create(&thread, NULL, overflowing_worker, NULL);
    pthread_join(thread, NULL);
}

static void test_overflow_in_thread_with_signal_stack_reports(void **state)
{
    (void) state;
    run_child(overflow_in_prepared_thread, false, &result);
    expect_death(&result, SIGSEGV);
    assert_non_null(strstr(result.output, "\"deep\", pid"));
    assert_true(strstr(frame_line(&result, 0), "in recurse") != NULL);
}

/* Documented limit: a thread without recorder_backtrace_thread_init() has
 * no signal stack, so the kernel cannot run the handler when the thread's
 * own stack is gone. The process still dies by SIGSEGV, without a report. */
static void test_overflow_in_plain_thread_dies_unreported(void **state)
{
    (void) state;
    run_child(overflow_in_plain_thread, false, &result);
    expect_death(&result, SIGSEGV);
#ifndef ADDRESS_SANITIZER                /* which gives every thread one */
    assert_null(strstr(result.output, "Received SIGSEGV"));
#endif
}

static pthread_barrier_t both_ready;
static void *crash_together(void *arg)
{
    (void) arg;
    pthread_barrier_wait(&both_ready);
    *nowhere = 3;
    return NULL;
}

static void two_threads_crash_at_once(void)
{
    pthread_barrier_init(&both_ready, NULL, 2);
    pthread_t thread;
    pthread_create(&thread, NULL, crash_together, NULL);
    crash_together(NULL);
}

static void test_two_threads_crashing_at_once_give_one_report(void **state)
{
    (void) state;
    run_child(two_threads_crash_at_once, false, &result);
    expect_death(&result, SIGSEGV);
    const char *first = strstr(result.output, "Received SIGSEGV (address");
    assert_non_null(first);
    assert_null(strstr(first + 1, "Received SIGSEGV (address"));
    assert_true(strstr(frame_line(&result, 0), "in crash_together") != NULL);
    assert_true(result.seconds < 1.5);
}

/* ---- bounded in time, whatever happens ---------------------------------- */

/* Fill our stderr pipe, which the parent does not read: the dump blocks
 * on its first write, and only the watchdog can end the report. */
static void crash_with_output_blocked(void)
{
    recorder_trace_set("recorder_crash_timeout=300");
    record(crashing, "filling the output pipe");
    int flags = fcntl(2, F_GETFL);
    fcntl(2, F_SETFL, flags | O_NONBLOCK);
    char block[4096];
    memset(block, 'x', sizeof(block));
    while (write(2, block, sizeof(block)) > 0)
        ;
    fcntl(2, F_SETFL, flags);
    *nowhere = 4;
}

static void test_blocked_output_still_dies_by_signal_in_time(void **state)
{
    (void) state;
    run_child(crash_with_output_blocked, true, &result);
    expect_death(&result, SIGSEGV);
    print_message("blocked output: died %.0f ms after start "
                  "(timeout 300 ms)\n", result.seconds * 1e3);
    assert_true(result.seconds >= 0.3);
    assert_true(result.seconds < 1.5);
}

/* A fault inside the report itself (here, in the show function the dump
 * uses) ends the report with a message; the process still dies by the
 * signal it was reporting. */
static unsigned faulting_show(const char *text, size_t len, void *arg)
{
    (void) text;
    (void) arg;
    *nowhere = (int) len;
    return 0;
}

static void fault_while_reporting(void)
{
    recorder_configure_show(faulting_show);
    record(crashing, "this dump will fault");
    abort();
}

static void test_fault_inside_report_dies_by_first_signal(void **state)
{
    (void) state;
    run_child(fault_while_reporting, false, &result);
    expect_death(&result, SIGABRT);
    assert_non_null(strstr(result.output, "recorder: SIGSEGV while reporting "
                                          "SIGABRT, report cut short"));
    assert_true(result.seconds < 1.0);
}


/* Raw frames: module and offset, the offset an ELF address in the module
 * (the child is forked: same mappings as ours). */
static void test_without_symbolizer_raw_frames_are_printed(void **state)
{
    (void) state;
    setenv("RECORDER_SYMBOLIZE", "", 1);        /* read as the child starts */
    run_child(segfault_in_function, false, &result);
    use_built_symbolizer();
    expect_death(&result, SIGSEGV);
    assert_non_null(strstr(result.output, "frames are not symbolized"));
    const char *line = frame_line(&result, 0);
    char want[1024];
    snprintf(want, sizeof(want),
             "test_crash @ %s Crashed at module \"test_crash\", offset 0x",
             host);
    if (strncmp(line, want, strlen(want)) != 0)
        fail_msg("raw frame 0 is '%s'", line);
    unsigned long offset = strtoul(line + strlen(want), NULL, 16);
    Dl_info info;
    assert_true(dladdr((void *) write_through_null, &info));
    unsigned long function = (unsigned long) (uintptr_t) write_through_null
                           - (unsigned long) (uintptr_t) info.dli_fbase;
    assert_true(offset >= function && offset < function + 256);
}

/* ---- the report in the segment -------------------------------------------- */

static void crash_sharing(void)
{
    setenv("RECORDER_SHARE", segment, 1);
    recorder_dump_on_common_signals(0, 0);      /* shares from here */
    segfault_in_function();
}

static char *print_to_string(recorder_backtrace *bt)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    recorder_backtrace_print(bt, out);
    fclose(out);
    return text;
}

static void test_segment_report_matches_what_the_process_printed(void **state)
{
    (void) state;
    unlink(segment);
    run_child(crash_sharing, false, &result);
    expect_death(&result, SIGSEGV);

    char error[256];
    recorder_share *share = recorder_share_open(segment, error, sizeof(error));
    if (!share)
        fail_msg("cannot open %s: %s", segment, error);
    assert_int_equal(recorder_share_state(share), RECORDER_SHARE_DIED);
    recorder_backtrace *bt = recorder_share_crash_backtrace(share, error,
                                                            sizeof(error));
    if (!bt)
        fail_msg("no crash report: '%s'", error);

    recorder_backtrace_frame frame;
    assert_true(recorder_backtrace_frame_info(bt, 0, &frame));
    assert_string_equal(frame.function, "write_through_null");
    assert_string_equal(frame.file, "tests/lib/test_crash.c");
    assert_int_equal(frame.line, segv_line);
    assert_int_equal(frame.signal, SIGSEGV);
    assert_string_equal(frame.program, "test_crash");

    /* Line for line what the dying process printed. */
    char *text = print_to_string(bt);
    const char *from = strstr(result.output, "test_crash @");
    assert_non_null(from);
    if (strcmp(from, text) != 0)
        fail_msg("segment says:\n%s\nprocess printed:\n%s", text, from);
    free(text);
    recorder_backtrace_delete(bt);
    recorder_share_close(share);
}

/* Map the segment left by the previous test and corrupt its report. */
typedef void (*corruption)(crash_report *report);

static void bad_magic(crash_report *r)        { r->magic ^= 1; }
static void bad_version(crash_report *r)      { r->version = 99; }
static void incomplete(crash_report *r)       { r->state = CRASH_STATE_WRITING; }
static void too_many_frames(crash_report *r)  { r->frame_count = CRASH_FRAMES + 1; }
static void too_many_modules(crash_report *r) { r->module_count = 100000; }
static void strings_overflow(crash_report *r) { r->strings_used = CRASH_STRINGS + 9; }
static void frame_module(crash_report *r)     { r->frames[0].module = r->module_count; }
static void path_offset(crash_report *r)      { r->modules[0].path = r->strings_used; }
static void long_build_id(crash_report *r)    { r->modules[0].build_id_size = 200; }
static void bad_signal(crash_report *r)       { r->signal = -5; }
static void unterminated(crash_report *r)
{
    memset(r->program, 'A', sizeof(r->program));
}
static void unterminated_path(crash_report *r)
{
    memset(r->strings, 'B', r->strings_used);
}

static void test_corrupt_report_in_segment_is_rejected(void **state)
{
    (void) state;
    struct { corruption fn; const char *says; } cases[] = {
        { bad_magic, "bad magic" }, { bad_version, "another version" },
        { incomplete, "incomplete" }, { too_many_frames, "counts" },
        { too_many_modules, "counts" }, { strings_overflow, "counts" },
        { frame_module, "does not exist" }, { path_offset, "module path" },
        { long_build_id, "build id" }, { bad_signal, "signal" },
        { unterminated, "unterminated" }, { unterminated_path, "module path" },
    };
    int fd = open(segment, O_RDWR);
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    uint8_t *base = mmap(NULL, (size_t) st.st_size, PROT_READ | PROT_WRITE,
                         MAP_SHARED, fd, 0);
    assert_true(base != MAP_FAILED);
    crash_report *live = (crash_report *) (base +
                                           ((share_header *) base)->crash);
    crash_report *saved = malloc(sizeof(*saved));
    memcpy(saved, live, sizeof(*saved));

    for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
    {
        memcpy(live, saved, sizeof(*saved));
        cases[c].fn(live);
        char error[256];
        recorder_share *share = recorder_share_open(segment, error,
                                                    sizeof(error));
        assert_non_null(share);
        recorder_backtrace *bt = recorder_share_crash_backtrace(share, error,
                                                                sizeof(error));
        if (bt || !strstr(error, cases[c].says))
            fail_msg("case %u: %s, error '%s'", c,
                     bt ? "accepted" : "wrong reason", error);
        assert_int_equal(recorder_share_crash_print(share, stdout, error,
                                                    sizeof(error)), -1);
        recorder_share_close(share);
    }

    /* Random damage: any outcome but a crash or a hang. */
    srand(7);
    unsigned accepted = 0, runs = 100;
    for (unsigned run = 0; run < runs; run++)
    {
        memcpy(live, saved, sizeof(*saved));
        uint8_t *bytes = (uint8_t *) live;
        for (int flips = 1 + rand() % 8; flips > 0; flips--)
        {
            size_t at = (size_t) rand() % 512;      /* header, frames */
            if (rand() % 2)
                at = (size_t) rand() % sizeof(*live);
            bytes[at] = (uint8_t) rand();
        }
        char error[256];
        recorder_share *share = recorder_share_open(segment, error,
                                                    sizeof(error));
        assert_non_null(share);
        recorder_backtrace *bt = recorder_share_crash_backtrace(share, error,
                                                                sizeof(error));
        accepted += bt != NULL;
        recorder_backtrace_delete(bt);
        recorder_share_close(share);
    }
    print_message("%u damaged reports read, %u of them still accepted\n",
                  runs, accepted);
    memcpy(live, saved, sizeof(*saved));
    free(saved);
    munmap(base, (size_t) st.st_size);
    close(fd);
}

static void test_segment_without_crash_has_no_report(void **state)
{
    (void) state;
    char path[400], error[256];
    snprintf(path, sizeof(path), "%s/clean", directory);
    pid_t pid = fork();
    if (pid == 0)
    {
        default_signals();
        setenv("RECORDER_SHARE", path, 1);
        recorder_dump_on_common_signals(0, 0);
        record(crashing, "exiting normally");
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    assert_non_null(share);
    assert_null(recorder_share_crash_backtrace(share, error, sizeof(error)));
    assert_string_equal(error, "");
    assert_int_equal(recorder_share_crash_print(share, stdout, error,
                                                sizeof(error)), 0);
    recorder_share_close(share);
}

/* ---- fixture ------------------------------------------------------------------ */

static int setup(void **state)
{
    (void) state;
    snprintf(directory, sizeof(directory), "/tmp/recorder_crash_XXXXXX");
    if (!mkdtemp(directory))
        return -1;
    snprintf(segment, sizeof(segment), "%s/segment", directory);
    gethostname(host, sizeof(host) - 1);
    unsetenv("RECORDER_SHARE");
    unsetenv("RECORDER_TRACES");
    use_built_symbolizer();
    return 0;
}

static int teardown(void **state)
{
    (void) state;
    char command[400];
    snprintf(command, sizeof(command), "rm -rf '%s'", directory);
    return system(command);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_segv_report_names_function_file_and_line),
        cmocka_unit_test(test_fpe_reports_and_dies_by_sigfpe),
        cmocka_unit_test(test_abort_reports_and_dies_by_sigabrt),
        cmocka_unit_test(test_crash_inside_malloc_with_lock_held_reports),
        cmocka_unit_test(test_stack_overflow_reports),
        cmocka_unit_test(test_crash_in_second_thread_reports_that_thread),
        cmocka_unit_test(test_overflow_in_thread_with_signal_stack_reports),
        cmocka_unit_test(test_overflow_in_plain_thread_dies_unreported),
        cmocka_unit_test(test_two_threads_crashing_at_once_give_one_report),
        cmocka_unit_test(test_blocked_output_still_dies_by_signal_in_time),
        cmocka_unit_test(test_fault_inside_report_dies_by_first_signal),
        cmocka_unit_test(test_without_symbolizer_raw_frames_are_printed),
        cmocka_unit_test(test_segment_report_matches_what_the_process_printed),
        cmocka_unit_test(test_corrupt_report_in_segment_is_rejected),
        cmocka_unit_test(test_segment_without_crash_has_no_report),
    };
    return cmocka_run_group_tests_name("crash", tests, setup, teardown);
}
