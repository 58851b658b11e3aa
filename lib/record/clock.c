/* clock.c - stamp records, and calibrate the stamps against CLOCK_MONOTONIC.
 *
 * Calibration never makes anyone wait: the first point pairs the counter
 * with CLOCK_MONOTONIC at start, with a provisional rate; later points are
 * taken when due, by whoever converts a record then (renderers, dumps) or
 * by the shared segment's command thread. Each new point starts on the
 * line of the one before, at a tick nobody can have converted yet (in this
 * process, published by the same compare-and-swap that conversions raise
 * their reach with; for readers of the segment, checked against the time
 * just before), so no converted time ever changes (time_base_private.h). Its rate is the best
 * one known (measured since start), bent a little to pull the accumulated
 * error back to zero by the next point. While no other process reads our
 * times, a point can instead go exactly through a fresh measurement, with a
 * bridge from the newest tick converted so far.
 */
#include "record/clock_private.h"
#include "record/time_base_private.h"
#include "recorder.h"

#include <pthread.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

bool recorder_clock_uses_counter = false;

static recorder_time_base base;         /* our points: this process converts */
static recorder_time_base *mirror;      /* the shared segment's copy */
static uint64_t start_ticks;            /* the pair measured at start */
static uint64_t start_ns;               /* CLOCK_MONOTONIC at start */
static int64_t  start_local_us;         /* wall clock + UTC offset at start */
/* Conversions in this process and the points they use, in one word: the
 * count of points published (top bits) and how far ticks have been
 * converted here (the rest: units of 64 ticks past start, rounded up). A
 * conversion raises the second and takes the count from the same word; a
 * point is published by raising the count only if no conversion reached
 * its start. One compare-and-swap decides both, so an appender preempted
 * anywhere cannot change a time this process already gave. */
static uint64_t published;
static uint64_t due_ns;                 /* next point, since start */
static uint64_t due_ticks;              /* the same, roughly, in ticks */

#define FIRST_INTERVAL_NS       250000ull       /* 250 us */
#define LAST_INTERVAL_NS        65536000000ull  /* 250 us doubled 18 times */
#define TIMED_UNTIL_NS          1500000000ull   /* later: when anyone wakes */
#define PROVISIONAL_NS          20000ull        /* shortest provisional */
#define MARGIN_S                1e-4            /* a new point's lead */
#define COUNT_SHIFT             56              /* 'published': count */
#define REACH_MASK              ((1ull << COUNT_SHIFT) - 1)
#define REACH_UNIT_SHIFT        6               /* 64 ticks */

/* The reach that covers 'ticks': one unit past the unit holding it. */
static uint64_t reach_of(uint64_t ticks)
{
    if (ticks <= start_ticks)
        return 0;
    uint64_t reach = ((ticks - start_ticks) >> REACH_UNIT_SHIFT) + 1;
    return reach < REACH_MASK ? reach : REACH_MASK;
}

/* The first tick a reach does not cover. */
static uint64_t first_tick_beyond(uint64_t reach)
{
    return start_ticks + (reach << REACH_UNIT_SHIFT);
}

/* Note that 'ticks' is converted here; the count of points to use. */
static unsigned note_converted(uint64_t ticks)
{
    uint64_t reach = reach_of(ticks);
    uint64_t word = __atomic_load_n(&published, __ATOMIC_ACQUIRE);
    while ((word & REACH_MASK) < reach &&
           !__atomic_compare_exchange_n(&published, &word,
                                        (word & ~REACH_MASK) | reach, true,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ;
    return (unsigned) (word >> COUNT_SHIFT);
}

/* The counter is usable only if it ticks at a constant rate whatever the
 * power state and is synchronised across cores ("invariant TSC"). */
static bool counter_is_invariant(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(0x80000000, &eax, &ebx, &ecx, &edx) || eax < 0x80000007)
        return false;
    __get_cpuid(0x80000007, &eax, &ebx, &ecx, &edx);
    return (edx >> 8) & 1;
#elif defined(__aarch64__)
    return true;                        /* the generic timer is architectural */
#else
    return false;
#endif
}

/* A (ticks, ns) pair read as close together as we can: the counter read
 * between two clock reads, keeping the tightest of a few tries. A thread
 * preempted between two reads would otherwise skew the rate by the length
 * of the preemption over the calibration interval. */
static void paired_read(uint64_t *ticks, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    for (int attempt = 0; attempt < 16; attempt++)
    {
        uint64_t before = recorder_monotonic_ns();
        uint64_t counter = recorder_ticks();
        uint64_t after = recorder_monotonic_ns();
        if (after - before < best)
        {
            best = after - before;
            *ticks = counter;
            *ns = before + (after - before) / 2;
        }
        if (best < 200)
            break;
    }
}

/* The rate of the counter when the processor states it, else 0. */
static double stated_hz(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) && eax >= 0x15)
    {
        __cpuid_count(0x15, 0, eax, ebx, ecx, edx);
        if (eax && ebx && ecx)
            return (double) ecx * ebx / eax;    /* crystal * TSC ratio */
    }
#elif defined(__aarch64__)
    uint64_t frequency;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(frequency));
    return (double) frequency;
#endif
    return 0;
}

static void forget_append_after_fork(void)
{
    /* A thread that was appending does not exist in the child. Readers of
     * the parent's segment may have converted anything made until now, and
     * the child's segment will show the parent's records too. */
    __atomic_store_n(&base.claim, 0, __ATOMIC_RELAXED);
    note_converted(recorder_ticks());
}

void recorder_clock_init(void)
{
    if (start_ns)
        return;
    recorder_clock_uses_counter = counter_is_invariant();
    uint64_t ticks, ns;
    paired_read(&ticks, &ns);
    if (!recorder_clock_uses_counter)
        ticks = ns;                     /* the ticks are CLOCK_MONOTONIC */

    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    struct tm local;
    localtime_r(&wall.tv_sec, &local);
    start_local_us = ((int64_t) wall.tv_sec + local.tm_gmtoff) * 1000000
                   + wall.tv_nsec / 1000;

    /* The provisional rate: the one the processor states, else measured
     * over the work just done (reading the time zone takes tens of us;
     * with TZ set, it is made up to 20 us). Good to about 1e-3: a few
     * hundred ns of error by the first calibration, 250 us after start. */
    double hz = 1e9;
    if (recorder_clock_uses_counter)
    {
        hz = stated_hz();
        if (!(hz >= 1e6 && hz < 1e11))
        {
            uint64_t now_ticks, now_ns;
            do
                paired_read(&now_ticks, &now_ns);
            while (now_ns - ns < PROVISIONAL_NS);
            hz = (double) (now_ticks - ticks) * 1e9 / (double) (now_ns - ns);
        }
    }
    base.points[0] = (recorder_time_point) { ticks, ns, hz };
    start_ticks = ticks;
    __atomic_store_n(&due_ns, FIRST_INTERVAL_NS, __ATOMIC_RELAXED);
    __atomic_store_n(&due_ticks, ticks + (uint64_t) (hz * 1e-9 * FIRST_INTERVAL_NS),
                     __ATOMIC_RELAXED);
    __atomic_store_n(&base.count, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&published, 1ull << COUNT_SHIFT, __ATOMIC_RELEASE);
    __atomic_store_n(&start_ns, ns, __ATOMIC_RELEASE);
    pthread_atfork(NULL, NULL, forget_append_after_fork);
}

/* Copy the points of ours below 'want' that 'table' (the segment's) does
 * not count yet. Two threads may do it at once: they write the same
 * values. */
static void mirror_copy(recorder_time_base *table, unsigned want)
{
    unsigned have = __atomic_load_n(&table->count, __ATOMIC_ACQUIRE);
    for (unsigned i = have; i < want; i++)
    {
        __atomic_store_n(&table->points[i].ticks, base.points[i].ticks,
                         __ATOMIC_RELAXED);
        __atomic_store_n(&table->points[i].ns, base.points[i].ns,
                         __ATOMIC_RELAXED);
        __atomic_store(&table->points[i].hz, &base.points[i].hz,
                       __ATOMIC_RELAXED);
    }
}

/* Publish 'want' points in 'table', after mirror_copy. Release: a reader
 * that sees the count sees the points. */
static void mirror_count(recorder_time_base *table, unsigned want)
{
    unsigned have = __atomic_load_n(&table->count, __ATOMIC_RELAXED);
    while (have < want &&
           !__atomic_compare_exchange_n(&table->count, &have, want, false,
                                        __ATOMIC_RELEASE, __ATOMIC_RELAXED))
        ;
}

/* Copy points the segment does not have yet, then publish them there. */
static void mirror_sync(void)
{
    recorder_time_base *table = __atomic_load_n(&mirror, __ATOMIC_ACQUIRE);
    if (!table)
        return;
    unsigned want = __atomic_load_n(&base.count, __ATOMIC_ACQUIRE);
    mirror_copy(table, want);
    mirror_count(table, want);
}

/* The points that continue the table from tick 'frozen' for a fresh
 * measurement (ticks, ns) at 'rate': how many (0 to 2) went into 'out'. */
static unsigned plan_points(const recorder_time_point *points, unsigned count,
                            uint64_t frozen, uint64_t ticks, uint64_t ns,
                            double rate, uint64_t interval,
                            recorder_time_point out[2])
{
    const recorder_time_point *last = &points[count - 1];
    recorder_time_point from = {
        frozen, recorder_time_ns(points, count, frozen), 0
    };
    recorder_time_point exact = { ticks, ns, rate };
    unsigned added = 0;
    if (frozen < ticks && ns > from.ns && count + 2 <= RECORDER_TIME_POINTS)
    {
        /* Nobody converted ticks in between: bridge to the measurement. */
        from.hz = (double) (ticks - frozen) * 1e9 / (double) (ns - from.ns);
        if (from.hz > rate * 0.5 && from.hz < rate * 2)
            added = 2;
    }
    if (!added && count + 1 <= RECORDER_TIME_POINTS)
    {
        /* Run at the measured rate, bent to catch up with CLOCK_MONOTONIC
         * by the next point: 'error' is how far ahead we are at 'frozen'. */
        double truth = (double) ns +
                       ((double) frozen - (double) ticks) * 1e9 / rate;
        double error = (double) from.ns - truth;
        double limit = interval * 0.5;
        if (error > limit)
            error = limit;
        if (error < -limit)
            error = -limit;
        from.hz = rate * interval / (interval - error);
        added = 1;
    }
    if (!added || !recorder_time_point_valid(last, &from) ||
        (added == 2 && !recorder_time_point_valid(&from, &exact)))
        return 0;
    out[0] = from;
    out[1] = exact;
    return added;
}

/* The first tick nobody may have converted yet, and so where a point
 * published now may start: readers of the segment may have converted
 * anything stamped until now, so a little after now; else just after the
 * newest tick this process converted. */
static uint64_t first_unconverted(double rate)
{
    if (__atomic_load_n(&mirror, __ATOMIC_ACQUIRE))
        return recorder_ticks() + (uint64_t) (rate * MARGIN_S);
    uint64_t word = __atomic_load_n(&published, __ATOMIC_ACQUIRE);
    return first_tick_beyond(word & REACH_MASK);
}

/* Count 'count + added' points whose first starts at 'frozen', unless a
 * tick at or past 'frozen' may have been converted: the appender may have
 * been preempted since it chose 'frozen', and the new point would change
 * that time. In this process that is exact (one compare-and-swap with the
 * conversions' reach); readers of the segment convert what is stamped by
 * now, so there half the margin is left for the few instructions between
 * this check and the segment's count. */
static bool publish(unsigned count, unsigned added, uint64_t frozen,
                    double rate)
{
    if (__atomic_load_n(&mirror, __ATOMIC_ACQUIRE) &&
        recorder_ticks() + (uint64_t) (rate * MARGIN_S * 0.5) >= frozen)
        return false;
    if (recorder_clock_hold_before_counting)
        recorder_clock_hold_before_counting();
    uint64_t word = __atomic_load_n(&published, __ATOMIC_ACQUIRE);
    do
        if (first_tick_beyond(word & REACH_MASK) > frozen)
            return false;
    while (!__atomic_compare_exchange_n(
               &published, &word,
               ((uint64_t) (count + added) << COUNT_SHIFT) |
               (word & REACH_MASK), true, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE));
    __atomic_store_n(&base.count, count + added, __ATOMIC_RELEASE);
    return true;
}

void (*recorder_clock_hold_before_publishing)(void);
void (*recorder_clock_hold_before_counting)(void);

/* Append the points for a fresh measurement (ticks, ns). The caller holds
 * the claim. */
static void append_claimed(uint64_t ticks, uint64_t ns)
{
    unsigned count = __atomic_load_n(&base.count, __ATOMIC_ACQUIRE);
    const recorder_time_point *last = &base.points[count - 1];
    if (ticks <= start_ticks || ns <= start_ns)
        return;
    double rate = (double) (ticks - start_ticks) * 1e9 / (double) (ns - start_ns);
    uint64_t since_start = ns - start_ns;
    uint64_t interval = since_start < FIRST_INTERVAL_NS ? FIRST_INTERVAL_NS
                      : since_start > LAST_INTERVAL_NS ? LAST_INTERVAL_NS
                      : since_start;

    /* Chosen again if the check before counting finds it too late: a few
     * tries, else the point waits for the next calibration. */
    unsigned added = 0;
    for (unsigned attempt = 0; attempt < 4 && !added; attempt++)
    {
        uint64_t frozen = first_unconverted(rate);
        if (frozen <= last->ticks)
            frozen = last->ticks + 1;
        recorder_time_point planned[2];
        added = plan_points(base.points, count, frozen, ticks, ns, rate,
                            interval, planned);
        if (!added)
            break;
        /* Written where nobody reads yet (past 'count'), in this process
         * and in the segment, so that the check and the counts below are
         * all that remain. */
        memcpy(&base.points[count], planned, added * sizeof(planned[0]));
        recorder_time_base *table = __atomic_load_n(&mirror, __ATOMIC_ACQUIRE);
        if (table)
            mirror_copy(table, count + added);
        if (recorder_clock_hold_before_publishing)
            recorder_clock_hold_before_publishing();
        /* Release: a reader that sees the count sees the points. */
        if (!publish(count, added, frozen, rate))
        {
            added = 0;
            continue;
        }
        if (table)
            mirror_count(table, count + added);
    }

    /* Only the calibrating thread writes these; the record path and the
     * command thread read them to know when to calibrate again, and a
     * stale value only moves that by one look. */
    uint64_t next_ns = since_start + interval;
    uint64_t next_ticks = ticks + (uint64_t) (rate * 1e-9 * interval);
    if (count + added >= RECORDER_TIME_POINTS)
        next_ticks = next_ns = UINT64_MAX;
    __atomic_store_n(&due_ns, next_ns, __ATOMIC_RELAXED);
    __atomic_store_n(&due_ticks, next_ticks, __ATOMIC_RELAXED);
}

void recorder_clock_share(recorder_time_base *table)
{
    /* Before the first segment publishes them, only this process converted
     * ticks: a point can still go exactly through a fresh measurement. */
    if (table && recorder_clock_uses_counter &&
        !__atomic_load_n(&mirror, __ATOMIC_ACQUIRE) &&
        !__atomic_exchange_n(&base.claim, 1, __ATOMIC_ACQUIRE))
    {
        uint64_t ticks, ns;
        paired_read(&ticks, &ns);
        append_claimed(ticks, ns);
        __atomic_store_n(&base.claim, 0, __ATOMIC_RELEASE);
    }
    __atomic_store_n(&mirror, table, __ATOMIC_RELEASE);
    mirror_sync();
}

/* Measure and append a point unless another thread is appending one, or,
 * with 'if_due', unless none is due by the time of the measurement. */
static bool take_point(bool if_due)
{
    if (__atomic_exchange_n(&base.claim, 1, __ATOMIC_ACQUIRE))
        return false;
    uint64_t ticks, ns;
    paired_read(&ticks, &ns);
    unsigned before = __atomic_load_n(&base.count, __ATOMIC_RELAXED);
    if (!if_due || ticks >= __atomic_load_n(&due_ticks, __ATOMIC_RELAXED))
        append_claimed(ticks, ns);
    bool appended = __atomic_load_n(&base.count, __ATOMIC_RELAXED) > before;
    __atomic_store_n(&base.claim, 0, __ATOMIC_RELEASE);
    mirror_sync();
    return appended;
}

uint64_t recorder_clock_calibrate(void)
{
    if (!recorder_clock_uses_counter)
        return UINT64_MAX;
    if (recorder_ticks() >= __atomic_load_n(&due_ticks, __ATOMIC_RELAXED))
        take_point(true);
    /* Only the first second is worth waking for: the rate is good to about
     * 1e-7 then, and an idle program must cost nothing. */
    uint64_t next = __atomic_load_n(&due_ns, __ATOMIC_RELAXED);
    if (next > TIMED_UNTIL_NS)
        return UINT64_MAX;
    uint64_t now = recorder_monotonic_ns() - start_ns;
    return next > now ? next - now : 0;
}

bool recorder_clock_calibrate_now(void)
{
    return recorder_clock_uses_counter && take_point(false);
}

uint64_t recorder_clock_start_mono_ns(void)
{
    return start_ns;
}

int64_t recorder_clock_start_local_us(void)
{
    return start_local_us;
}

uint64_t recorder_clock_ns_since_start(uint64_t ticks)
{
    /* A calibration that is due goes first: if nothing converted 'ticks'
     * yet, its point may start before them, and they get the measured
     * rate instead of the one stated at start (good to 1e-3 only: a
     * microsecond off for a first record a millisecond late). */
    if (recorder_clock_uses_counter &&
        recorder_ticks() >= __atomic_load_n(&due_ticks, __ATOMIC_RELAXED))
        recorder_clock_calibrate();
    /* Noted, with the count it goes with: a point published from now on
     * starts after 'ticks', so it cannot change what this gives. */
    unsigned count = note_converted(ticks);
    uint64_t ns = recorder_time_ns(base.points, count, ticks);
    return ns > start_ns ? ns - start_ns : 0;
}

uint64_t recorder_clock_us_since_start(uint64_t ticks)
{
    return recorder_clock_ns_since_start(ticks) / 1000;
}

uintptr_t recorder_tick(void)
{
    return (recorder_monotonic_ns() - start_ns) / (1000000000 / RECORDER_HZ);
}

uint64_t recorder_ticks_without_counter(void)
{
    return recorder_monotonic_ns();
}
