/* clock_private.h - the recorder's time base.
 *
 * Records are stamped with the CPU's cycle counter when it is invariant and
 * synchronised across cores (one instruction, no system call, no shared cache
 * line), else with CLOCK_MONOTONIC in nanoseconds. Ticks become time only
 * when a record is read, through calibration points (time_base_private.h)
 * that pair ticks with CLOCK_MONOTONIC.
 */
#ifndef RECORDER_CLOCK_PRIVATE_H
#define RECORDER_CLOCK_PRIVATE_H

#include "base/visibility_private.h"

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/* True when recorder_ticks() reads the cycle counter. Set once at load. */
extern bool recorder_clock_uses_counter RECORDER_HIDDEN;

static inline uint64_t recorder_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* CLOCK_MONOTONIC 'ms' milliseconds from now, for a timed wait of the
 * library's threads (their condition variables use that clock). */
static inline struct timespec recorder_monotonic_after_ms(uint64_t ms)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += (time_t) (ms / 1000);
    until.tv_nsec += (long) (ms % 1000) * 1000000;
    if (until.tv_nsec >= 1000000000)
    {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    return until;
}

/* recorder_monotonic_ns(), out of line: keeps the call (and the registers
 * it clobbers) out of the record path when the counter is used. */
uint64_t recorder_ticks_without_counter(void) RECORDER_HIDDEN;

/* The record path's clock: no system call, no lock, no shared write. */
static inline uint64_t recorder_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    if (__builtin_expect(recorder_clock_uses_counter, 1))
        return __rdtsc();
#elif defined(__aarch64__)
    if (__builtin_expect(recorder_clock_uses_counter, 1))
    {
        uint64_t value;
        __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(value));
        return value;
    }
#endif
    return recorder_ticks_without_counter();
}

/* Set up the time base; idempotent, called from the library constructor.
 * Takes the first calibration point, with a provisional rate measured over
 * the constructor's own work (at least 20 us). */
void recorder_clock_init(void) RECORDER_HIDDEN;

/* CLOCK_MONOTONIC at library start, and the wall-clock time (microseconds
 * since the epoch, local time zone applied) at that moment. */
uint64_t recorder_clock_start_mono_ns(void) RECORDER_HIDDEN;
int64_t recorder_clock_start_local_us(void) RECORDER_HIDDEN;

/* Microseconds between library start and 'ticks' (0 if before start),
 * final: the same now and after any later calibration. Takes a calibration
 * point first if one is due. Never waits; async-signal-safe. */
uint64_t recorder_clock_us_since_start(uint64_t ticks) RECORDER_HIDDEN;
/* The same in nanoseconds, for exports that keep them. */
uint64_t recorder_clock_ns_since_start(uint64_t ticks) RECORDER_HIDDEN;

/* Take a calibration point if one is due (they follow doubling intervals
 * from 250 us, then one a minute). Returns the nanoseconds until the next is
 * due if it is worth a wake-up (in the first second), else UINT64_MAX. */
uint64_t recorder_clock_calibrate(void) RECORDER_HIDDEN;

/* Take a calibration point now, due or not; false if none was added (another
 * thread was adding one, or the table is full, or there is no counter).
 * For tests that pin what a calibration may and may not change. */
bool recorder_clock_calibrate_now(void) RECORDER_HIDDEN;

/* Tests only: called by the thread adding a point between its measurement
 * and the point's publication, to stand for a preemption there. */
extern void (*recorder_clock_hold_before_publishing)(void) RECORDER_HIDDEN;
/* Tests only: the same, once the point is checked against what the
 * segment's readers may have converted, just before it is counted. */
extern void (*recorder_clock_hold_before_counting)(void) RECORDER_HIDDEN;

/* Publish the calibration points in 'table' too, now and as they come (the
 * shared segment's table, zeroed); NULL to stop. */
struct recorder_time_base;
void recorder_clock_share(struct recorder_time_base *table) RECORDER_HIDDEN;

#endif /* RECORDER_CLOCK_PRIVATE_H */
