/* clock.c - calibrate the cycle counter and convert ticks to time. */
#include "clock_private.h"
#include "recorder.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

bool recorder_clock_uses_counter = false;

static uint64_t start_ticks;
static uint64_t start_ns;               /* CLOCK_MONOTONIC at start */
static int64_t  start_local_us;         /* wall clock + UTC offset at start */
static double   provisional_hz;         /* measured after 10 ms */
static double   calibrated_hz;          /* measured after one second */

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

void recorder_clock_init(void)
{
    if (start_ns)
        return;
    recorder_clock_uses_counter = counter_is_invariant();
    paired_read(&start_ticks, &start_ns);

    struct timespec wall;
    clock_gettime(CLOCK_REALTIME, &wall);
    struct tm local;
    localtime_r(&wall.tv_sec, &local);
    start_local_us = ((int64_t) wall.tv_sec + local.tm_gmtoff) * 1000000
                   + wall.tv_nsec / 1000;
}

/* The rate is measured over the longest interval available: a first value
 * after 10 ms (good to about 1e-6), kept until one second has passed, then
 * a final one (about 1e-8). Between the two, every conversion uses the same
 * value, so equal ticks always give equal times. */
double recorder_clock_hz(void)
{
    if (!recorder_clock_uses_counter)
        return 1e9;
    double hz;
    __atomic_load(&calibrated_hz, &hz, __ATOMIC_ACQUIRE);
    if (hz > 0)
        return hz;

    uint64_t ticks, ns;
    do
        paired_read(&ticks, &ns);
    while (ns - start_ns < 10000000);

    bool final = ns - start_ns >= 1000000000;
    double provisional;
    __atomic_load(&provisional_hz, &provisional, __ATOMIC_ACQUIRE);
    if (provisional > 0 && !final)
        return provisional;

    hz = (double) (ticks - start_ticks) * 1e9 / (double) (ns - start_ns);
    __atomic_store(final ? &calibrated_hz : &provisional_hz, &hz,
                   __ATOMIC_RELEASE);
    return hz;
}

uint64_t recorder_clock_start_ticks(void)
{
    return start_ticks;
}

uint64_t recorder_clock_start_mono_ns(void)
{
    return start_ns;
}

int64_t recorder_clock_start_local_us(void)
{
    return start_local_us;
}

uint64_t recorder_clock_us_since_start(uint64_t ticks)
{
    if (ticks <= start_ticks)
        return 0;
    return (uint64_t) ((double) (ticks - start_ticks) * 1e6
                       / recorder_clock_hz());
}

uintptr_t recorder_tick(void)
{
    return (recorder_monotonic_ns() - start_ns) / (1000000000 / RECORDER_HZ);
}

uint64_t recorder_ticks_without_counter(void)
{
    return recorder_monotonic_ns();
}
