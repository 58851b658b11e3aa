/* recorder_bench.c - make bench: the cost of recording, as ratios to
 * reference operations measured in the same run, against the targets.
 *
 * Every figure is the median of BENCH_REPEATS runs of at least
 * BENCH_MIN_SECONDS each, so a noisy neighbour on a shared machine moves
 * the median little. Exits non-zero, naming the item, if a target is missed.
 */
#include "recorder.h"
#include "recorder_share.h"
#include "bench_scope.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BENCH_REPEATS       5
#define BENCH_MIN_SECONDS   0.3

RECORDER(speed, 1024, "Records of the speed tests");
RECORDER(speed_other, 1024, "Second recorder, for two threads");
RECORDER(speed_off, 1024, "Disabled recorder");
RECORDER(speed_export, 1024, "Recorder with exported channels");
RECORDER(drain, 2048, "Eight arguments per record, exported");
RECORDER(hanoi, 1024, "Moves of the towers of Hanoi");
RECORDER(speed_watched, 1024, "Exported, watched by a snapshot condition");
RECORDER(speed_elsewhere, 1024, "Named by snapshot conditions, never used");

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static double median(double *values, unsigned count)
{
    qsort(values, count, sizeof(*values), compare_doubles);
    return values[count / 2];
}

/* ---- single-thread loops: ns per operation -------------------------------- */

typedef void (*loop_fn)(unsigned long iterations);

static volatile unsigned long sink;
static FILE *devnull;

static void loop_clock(unsigned long n)
{
    struct timespec ts;
    unsigned long sum = 0;
    for (unsigned long i = 0; i < n; i++)
    {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sum += (unsigned long) ts.tv_nsec;
    }
    sink = sum;
}

static void loop_snprintf(unsigned long n)
{
    char buffer[64];
    for (unsigned long i = 0; i < n; i++)
        snprintf(buffer, sizeof(buffer), "Speed test %u", (unsigned) i);
    sink = (unsigned long) buffer[11];
}

static void loop_fprintf(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        fprintf(devnull, "Speed test %u\n", (unsigned) i);
}

static void loop_atomic(unsigned long n)
{
    unsigned long counter = 0;
    for (unsigned long i = 0; i < n; i++)
        __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
    sink = counter;
}

static void loop_record(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        record(speed, "Speed test %u", (unsigned) i);
}

static void loop_record_fast(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        record_fast(speed, "Speed test %u", (unsigned) i);
}

static void loop_record_off(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        record(speed_off, "Speed test %u", (unsigned) i);
}

static void loop_record_export(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        record(speed_export, "Speed test %u", (unsigned) i);
}

/* ns per call of 'loop': grow the count until a run lasts long enough,
 * then take the median of the repeats. */
static double per_call(loop_fn loop)
{
    unsigned long n = 1000;
    double elapsed;
    for (;;)
    {
        double start = now();
        loop(n);
        elapsed = now() - start;
        if (elapsed >= BENCH_MIN_SECONDS)
            break;
        n = elapsed > 0.01 ? (unsigned long) (n * BENCH_MIN_SECONDS * 1.2 / elapsed)
                           : n * 10;
    }
    double runs[BENCH_REPEATS];
    runs[0] = elapsed * 1e9 / n;
    for (unsigned r = 1; r < BENCH_REPEATS; r++)
    {
        double start = now();
        loop(n);
        runs[r] = (now() - start) * 1e9 / n;
    }
    return median(runs, BENCH_REPEATS);
}

static void loop_record_watched(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        record(speed_watched, "Speed test %u", (unsigned) i);
}

/* ---- snapshot conditions: in turns, so noise hits both sides alike -------- */

/* Differences of a few percent or a nanosecond, below what a neighbour on
 * a shared machine moves a median: many short turns of each side in
 * alternation, and each side's fastest turn, its cost when undisturbed. */
#define BENCH_TURNS         41
#define BENCH_TURN_SECONDS  0.02

static void set_or_die(const char *spec)
{
    if (recorder_trace_set(spec) != RECORDER_TRACE_OK)
    {
        fprintf(stderr, "bench: cannot apply '%s'\n", spec);
        exit(1);
    }
}

static void no_op(void)
{
}

static void no_condition(void)
{
    set_or_die("snapshot=");
}

/* Conditions on recorders the loop does not use: a regex and a level. */
static void conditions_elsewhere(void)
{
    set_or_die("snapshot=speed_elsewhere snapshot=elsewhere>1e30");
}

typedef struct turns
{
    double a_ns, b_ns;                  /* each side's fastest turn */
} turns;

static double fastest(const double *values, unsigned count)
{
    double least = values[0];
    for (unsigned v = 1; v < count; v++)
        if (values[v] < least)
            least = values[v];
    return least;
}

/* 'a' and 'b' in turns, 'setup_a' before each turn of 'a' and 'setup_b'
 * before each of 'b'. */
static turns per_call_turns(loop_fn a, void (*setup_a)(void), loop_fn b,
                            void (*setup_b)(void))
{
    unsigned long n = 1000;
    setup_a();
    for (;;)
    {
        double start = now();
        a(n);
        double elapsed = now() - start;
        if (elapsed >= BENCH_TURN_SECONDS)
            break;
        n = elapsed > 0.002 ? (unsigned long) (n * BENCH_TURN_SECONDS * 1.2 /
                                               elapsed)
                            : n * 10;
    }
    double runs_a[BENCH_TURNS], runs_b[BENCH_TURNS];
    /* Each side goes first in every other turn. */
    for (unsigned t = 0; t < 2 * BENCH_TURNS; t++)
    {
        bool do_a = (t & 1) == (t / 2 & 1);
        (do_a ? setup_a : setup_b)();
        double start = now();
        (do_a ? a : b)(n);
        (do_a ? runs_a : runs_b)[t / 2] = (now() - start) * 1e9 / n;
    }
    return (turns) { fastest(runs_a, BENCH_TURNS),
                     fastest(runs_b, BENCH_TURNS) };
}

/* ---- two threads: ns per call per thread ---------------------------------- */

typedef struct pair_arg
{
    void (*loop)(unsigned long);
    unsigned long n;
    pthread_barrier_t *barrier;
    double elapsed;
} pair_arg;

static void *pair_thread(void *data)
{
    pair_arg *arg = data;
    pthread_barrier_wait(arg->barrier);
    double start = now();
    arg->loop(arg->n);
    arg->elapsed = now() - start;
    return NULL;
}

static void loop_record_other(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        record(speed_other, "Speed test %u", (unsigned) i);
}

static unsigned long shared_counter;
static void loop_contended_atomic(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
        __atomic_fetch_add(&shared_counter, 1, __ATOMIC_SEQ_CST);
}

/* What a shared ring costs two threads without any recorder code: reserve
 * an index on one counter, fill that slot's cache line. The line was last
 * written by either core a lap ago, so most stores miss. */
static struct
{
    unsigned long writer;
    char pad[56];
    struct { unsigned long word[8]; } __attribute__((aligned(64))) slot[1024];
} __attribute__((aligned(64))) shared_lines;

static void loop_shared_lines(unsigned long n)
{
    for (unsigned long i = 0; i < n; i++)
    {
        unsigned long index = __atomic_fetch_add(&shared_lines.writer, 1,
                                                 __ATOMIC_RELAXED);
        unsigned long *line = shared_lines.slot[index & 1023].word;
        for (unsigned w = 0; w < 8; w++)
            __atomic_store_n(&line[w], i + w, __ATOMIC_RELAXED);
    }
}

/* 'first' and 'second', each on a thread of its own for 'n' calls, from a
 * barrier: the seconds of the slower. */
static double run_pair(loop_fn first, loop_fn second, unsigned long n)
{
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, 2);
    pair_arg a = { first, n, &barrier, 0 }, b = { second, n, &barrier, 0 };
    pthread_t ta, tb;
    pthread_create(&ta, NULL, pair_thread, &a);
    pthread_create(&tb, NULL, pair_thread, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    pthread_barrier_destroy(&barrier);
    return a.elapsed > b.elapsed ? a.elapsed : b.elapsed;
}

static double per_call_pair(loop_fn first, loop_fn second)
{
    unsigned long n = (unsigned long) (BENCH_MIN_SECONDS * 1e9
                                       / (per_call(first) * 4 + 1));
    double runs[BENCH_REPEATS];
    for (unsigned r = 0; r < BENCH_REPEATS; r++)
        runs[r] = run_pair(first, second, n) * 1e9 / n;
    return median(runs, BENCH_REPEATS);
}

/* The loops pair_turn runs: per_call_turns times the turn whole, so
 * starting and joining the threads is in it, a small part of its 20 ms. */
static loop_fn pair_loops[2];

static void pair_turn(unsigned long n)
{
    run_pair(pair_loops[0], pair_loops[1], n);
}

/* 'first' and 'second' on two threads against 'alone' on one, in turns:
 * two threads need both CPUs, and a neighbour that takes one for a while
 * on a shared machine moved a median of the pair by a fifth. */
static turns pair_against(loop_fn alone, loop_fn first, loop_fn second)
{
    pair_loops[0] = first;
    pair_loops[1] = second;
    return per_call_turns(alone, no_op, pair_turn, no_op);
}

/* ---- the segment: reader drain rate, command latency ------------------------ */

static char segment_dir[] = "/tmp/recorder_bench_XXXXXX";
static char segment_path[128];

static double drain_rate(void)
{
    for (unsigned i = 0; i < 2048; i++)
        record(drain, "%u %u %u %u %u %u %u %u", i, i + 1, i + 2, i + 3,
               i + 4, i + 5, i + 6, i + 7);
    char error[256];
    recorder_share *share = recorder_share_open(segment_path, error,
                                                sizeof(error));
    if (!share)
    {
        fprintf(stderr, "bench: %s\n", error);
        exit(1);
    }
    int channels[8];
    int found = -1;
    for (unsigned c = 0; c < 8; c++)
        channels[c] = found = recorder_share_find_channel(share, "d[0-7]", found);
    static recorder_sample samples[4096];
    double runs[BENCH_REPEATS];
    for (unsigned r = 0; r < BENCH_REPEATS; r++)
    {
        unsigned long total = 0;
        double start = now();
        do
        {
            for (unsigned c = 0; c < 8; c++)
            {
                recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
                total += recorder_share_read(share, (unsigned) channels[c],
                                             &cursor, samples, 4096, NULL);
            }
        } while (now() - start < BENCH_MIN_SECONDS);
        runs[r] = total / (now() - start);
    }
    recorder_share_close(share);
    return median(runs, BENCH_REPEATS);
}

/* Latency of commands from another process, and CPU the writer spends
 * while idle. The writer is a child: commands come from outside. */
typedef struct latency { double p50, p99, idle_cpu_ms; } latency;

static double cpu_ms_of(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    FILE *file = fopen(path, "r");
    if (!file)
        return -1;
    unsigned long utime = 0, stime = 0;
    int scanned = fscanf(file, "%*d %*s %*c %*d %*d %*d %*d %*d %*u %*u %*u "
                               "%*u %*u %lu %lu", &utime, &stime);
    fclose(file);
    return scanned == 2 ? (utime + stime) * 1000.0 / sysconf(_SC_CLK_TCK) : -1;
}

static latency command_latency(void)
{
    char path[160];
    snprintf(path, sizeof(path), "%s/commands", segment_dir);
    int ready[2];
    if (pipe(ready))
        exit(1);
    pid_t pid = fork();
    if (pid == 0)
    {
        char spec[200];
        snprintf(spec, sizeof(spec), "share=%s", path);
        recorder_trace_set(spec);
        if (write(ready[1], "r", 1) != 1)
            _exit(1);
        for (;;)
            pause();
    }
    char byte;
    if (read(ready[0], &byte, 1) != 1)
        exit(1);
    char error[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    if (!share)
    {
        fprintf(stderr, "bench: %s\n", error);
        exit(1);
    }
    enum { COMMANDS = 200 };
    double times[COMMANDS];
    for (unsigned i = 0; i < COMMANDS; i++)
    {
        char command[64];
        snprintf(command, sizeof(command), "recorder_dump_sleep=%u", 100 + i);
        double start = now();
        if (!recorder_share_send(share, command, 1000, error, sizeof(error)))
        {
            fprintf(stderr, "bench: %s\n", error);
            exit(1);
        }
        times[i] = (now() - start) * 1e3;
        usleep(2000);
    }
    latency result;
    qsort(times, COMMANDS, sizeof(*times), compare_doubles);
    result.p50 = times[COMMANDS / 2];
    result.p99 = times[COMMANDS * 99 / 100];
    sleep(1);                           /* past the calibration wake-ups */
    double before = cpu_ms_of(pid);
    sleep(1);
    result.idle_cpu_ms = cpu_ms_of(pid) - before;
    recorder_share_close(share);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    return result;
}

/* ---- hanoi 20, as the original library shows it ------------------------------ */

static unsigned long moves;
static int hanoi_mode;                  /* 0 printed, 1 recorded, 2 fast */

static void hanoi_move(int disk, int from, int to)
{
    moves++;
    switch (hanoi_mode)
    {
    case 0: fprintf(devnull, "Move disk %d from %d to %d\n", disk, from, to); break;
    case 1: record(hanoi, "Move disk %d from %d to %d", disk, from, to); break;
    default: record_fast(hanoi, "Move disk %d from %d to %d", disk, from, to); break;
    }
}

static void hanoi_solve(int disks, int from, int to, int via)
{
    if (disks == 0)
        return;
    hanoi_solve(disks - 1, from, via, to);
    hanoi_move(disks, from, to);
    hanoi_solve(disks - 1, via, to, from);
}

static double hanoi_ms(int mode)
{
    double runs[BENCH_REPEATS];
    hanoi_mode = mode;
    for (unsigned r = 0; r < BENCH_REPEATS; r++)
    {
        double start = now();
        hanoi_solve(20, 1, 3, 2);
        runs[r] = (now() - start) * 1e3;
    }
    return median(runs, BENCH_REPEATS);
}

/* ---- report ---------------------------------------------------------------- */

static void machine_line(void)
{
    char model[256] = "unknown CPU";
    FILE *cpuinfo = fopen("/proc/cpuinfo", "r");
    char line[512];
    while (cpuinfo && fgets(line, sizeof(line), cpuinfo))
        if (strncmp(line, "model name", 10) == 0)
        {
            snprintf(model, sizeof(model), "%s", strchr(line, ':') + 2);
            model[strcspn(model, "\n")] = 0;
            break;
        }
    if (cpuinfo)
        fclose(cpuinfo);
    struct utsname uts;
    uname(&uts);
    printf("Machine: %s, %ld cores, Linux %s, %s\n", model,
           sysconf(_SC_NPROCESSORS_ONLN), uts.release, __VERSION__);
}

static int missed;

static void target(const char *item, double value, double limit, bool at_most)
{
    bool met = at_most ? value <= limit : value >= limit;
    printf("  %-44s %10.3f %s %-8g %s\n", item, value, at_most ? "<=" : ">=",
           limit, met ? "met" : "MISSED");
    if (!met)
    {
        fprintf(stderr, "bench: target missed: %s\n", item);
        missed++;
    }
}

int main(void)
{
    devnull = fopen("/dev/null", "w");
    if (!mkdtemp(segment_dir))
        return 1;
    snprintf(segment_path, sizeof(segment_path), "%s/segment", segment_dir);
    char spec[200];
    snprintf(spec, sizeof(spec), "share=%s", segment_path);
    recorder_configure_output(devnull);
    if (recorder_trace_set(spec) != RECORDER_TRACE_OK ||
        recorder_trace_set("speed_export=value,:drain=d0,d1,d2,d3,d4,d5,d6,d7")
            != RECORDER_TRACE_OK)
        return 1;
    RECORDER_TRACE(speed_off) = -1;
    /* Snapshot conditions never hold here; their files would go there. */
    setenv("RECORDER_SNAPSHOT_DIR", segment_dir, 1);
    set_or_die("speed_watched=watched,:speed_elsewhere=elsewhere,");

    machine_line();
    printf("Each figure: median of %d runs of at least %.1f s; * the fastest "
           "of %d alternating turns of %.2f s.\n\n", BENCH_REPEATS,
           BENCH_MIN_SECONDS, BENCH_TURNS, BENCH_TURN_SECONDS);

    double clock_ns = per_call(loop_clock);
    double snprintf_ns = per_call(loop_snprintf);
    double fprintf_ns = per_call(loop_fprintf);
    double atomic_ns = per_call(loop_atomic);
    double record_ns = per_call(loop_record);
    double fast_ns = per_call(loop_record_fast);
    double off_ns = per_call(loop_record_off);
    double export_ns = per_call(loop_record_export);
    turns two_diff = pair_against(loop_record, loop_record,
                                  loop_record_other);
    turns two_same = pair_against(loop_record, loop_record, loop_record);
    double contended_ns = per_call_pair(loop_contended_atomic,
                                        loop_contended_atomic);
    double lines_ns = per_call_pair(loop_shared_lines, loop_shared_lines);
    turns elsewhere = per_call_turns(loop_record, no_condition, loop_record,
                                     conditions_elsewhere);
    set_or_die("snapshot=watched>1e30");
    turns watched = per_call_turns(loop_record_export, no_op,
                                   loop_record_watched, no_op);
    set_or_die("snapshot=");

    printf("%-48s %10s %10s\n", "item", "ns/call", "x clock");
    struct { const char *name; double ns; } rows[] = {
        { "clock_gettime(CLOCK_MONOTONIC)", clock_ns },
        { "snprintf(buf, 64, \"Speed test %u\", i)", snprintf_ns },
        { "fprintf to /dev/null", fprintf_ns },
        { "atomic add, uncontended", atomic_ns },
        { "atomic add, 2 threads on one counter", contended_ns },
        { "add + fill a line of a shared ring, 2 threads", lines_ns },
        { "record, 1 thread", record_ns },
        { "record_fast, 1 thread", fast_ns },
        { "record, trace -1", off_ns },
        { "record, exported channel", export_ns },
        { "record, 1 thread, in turns with the next *", two_diff.a_ns },
        { "record, 2 threads, 2 recorders (each) *", two_diff.b_ns },
        { "record, 1 thread, in turns with the next *", two_same.a_ns },
        { "record, 2 threads, 1 recorder (each) *", two_same.b_ns },
        { "record, no snapshot condition armed *", elsewhere.a_ns },
        { "record, snapshot conditions on others *", elsewhere.b_ns },
        { "record, exported, not watched *", watched.a_ns },
        { "record, exported, watched, condition false *", watched.b_ns },
    };
    for (unsigned r = 0; r < sizeof(rows) / sizeof(*rows); r++)
        printf("%-48s %10.2f %10.2f\n", rows[r].name, rows[r].ns,
               rows[r].ns / clock_ns);

    double drain = drain_rate();
    latency commands = command_latency();
    printf("\n%-46s %12.1f\n", "reader drain, 8 channels (M samples/s)",
           drain / 1e6);
    printf("%-46s %12.2f / %.2f\n", "command latency p50 / p99 (ms)",
           commands.p50, commands.p99);
    printf("%-46s %12.1f\n", "writer CPU while idle for 1 s (ms)",
           commands.idle_cpu_ms);

    char sustain_path[160];
    snprintf(sustain_path, sizeof(sustain_path), "%s/sustain", segment_dir);
    bench_scope_rate sustain = bench_scope_sustain(sustain_path, 50000);
    printf("%-46s %12lu read, %lu lost\n",
           "scope, 8 channels at 50 000 samples/s, 3 s",
           (unsigned long) sustain.samples, (unsigned long) sustain.lost);

    bench_scope_result scope = bench_scope_render();
    printf("\n%-46s %12s\n", "scope offscreen frame, 1200x600, 4 channels",
           "CPU ms");
    printf("%-46s %12.3f\n", "  1 000 samples in view", scope.ms_1k);
    printf("%-46s %12.3f\n", "  100 000 samples in view", scope.ms_100k);
    printf("%-46s %12.3f\n", "  1 000 000 samples in view", scope.ms_1m);
    bench_scope_steps steps = bench_scope_zoom_pan();
    printf("%-46s %12s\n", "scope zoom/pan step offscreen, 1200x600",
           "CPU ms");
    printf("%-46s %12.3f\n", "  live frame, 4 x 1 000 samples", steps.live_ms);
    printf("%-46s %12.3f\n", "  pan step, 4 x 1 000 000, 1/1000 in view",
           steps.pan_ms);
    printf("%-46s %12.3f\n", "  zoom step, 4 x 1 000 000, from 1/1000",
           steps.zoom_ms);
    bench_scope_lookup lookup = bench_scope_value_at();
    printf("%-46s %12s\n", "hover readout lookup (value_at), CPU", "ns");
    printf("%-46s %12.1f / %.1f\n", "  1 200 random pointer times: 1k / 1M",
           lookup.pointer_1k, lookup.pointer_1m);
    printf("%-46s %12.1f / %.1f\n", "  each time new (cache-cold): 1k / 1M",
           lookup.ns_1k, lookup.ns_1m);

    double printed = hanoi_ms(0), recorded = hanoi_ms(1), fast = hanoi_ms(2);
    printf("\nhanoi 20 (%lu moves per run), ms: printed %.1f, recorded %.1f "
           "(%.1fx faster), fast-recorded %.1f (%.1fx faster)\n",
           moves / (3 * BENCH_REPEATS), printed, recorded, printed / recorded,
           fast, printed / fast);

    printf("\nTargets:\n");
    target("record / clock_gettime", record_ns / clock_ns, 0.75, true);
    target("record_fast / clock_gettime", fast_ns / clock_ns, 0.35, true);
    target("trace -1 (ns)", off_ns, 2.0, true);
    target("exported / record", export_ns / record_ns, 1.5, true);
    target("2 threads, 2 recorders / record", two_diff.b_ns / two_diff.a_ns,
           1.2, true);
    target("2 threads, 1 recorder / record", two_same.b_ns / two_same.a_ns,
           3.0, true);
    target("snapshot conditions on others / none armed",
           elsewhere.b_ns / elsewhere.a_ns, 1.03, true);
    target("watched, condition false - not watched (ns)",
           watched.b_ns - watched.a_ns, 2.0, true);
    target("reader drain (M samples/s)", drain / 1e6, 10, false);
    target("command latency p99 (ms)", commands.p99, 20, true);
    target("writer CPU while idle (ms per s)", commands.idle_cpu_ms, 0, true);
    target("render 1M / render 1k", scope.ms_1m / scope.ms_1k, 2.0, true);
    target("pan step 4 x 1M / live frame 4 x 1k", steps.pan_ms / steps.live_ms,
           2.0, true);
    target("zoom step 4 x 1M / live frame 4 x 1k",
           steps.zoom_ms / steps.live_ms, 2.0, true);
    /* O(log n): twice the steps for a thousand times the samples, and the
     * last steps in 16 MB of times miss the caches; a linear search would
     * be a thousand times slower. */
    target("hover lookup 1M / 1k", lookup.pointer_1m / lookup.pointer_1k, 5.0,
           true);
    target("scope at 8 x 50 000 samples/s: samples lost", (double) sustain.lost,
           0, true);
    target("scope at 8 x 50 000 samples/s: samples read (M)",
           sustain.samples / 1e6, 8 * 50000 * 3 * 0.95 / 1e6, false);

    char command[200];
    snprintf(command, sizeof(command), "rm -rf '%s'", segment_dir);
    if (system(command) != 0)
        fprintf(stderr, "bench: could not remove %s\n", segment_dir);
    return missed ? 1 : 0;
}
