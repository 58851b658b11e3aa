/* recorder_ring.h - atomic helpers shared by the recorder and its users.
 *
 * These macros keep the names of the original recorder library so code that
 * used them for its own counters builds unchanged. They take an lvalue, not
 * a pointer, like the original.
 */
#ifndef RECORDER_RING_H
#define RECORDER_RING_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Index into a ring; wraps around, so compare differences, never values. */
typedef uintptr_t ringidx_t;

/* The head of a recorder 1.2 ring, the type of recorder_info.ring. */
typedef struct recorder_ring
{
    size_t      size;           /* items in the ring */
    size_t      item_size;      /* bytes of each */
    ringidx_t   reader;
    ringidx_t   writer;
    ringidx_t   commit;
    ringidx_t   overflow;
} recorder_ring_t, *recorder_ring_p;

#if defined(__GNUC__) || defined(__clang__)

/* Acquire on the read-modify-write keeps the stores that follow (filling the
 * slot just reserved) from being seen before the reservation itself. */
#define recorder_ring_fetch_add(Value, Offset)                          \
    __atomic_fetch_add(&(Value), (Offset), __ATOMIC_ACQUIRE)

#define recorder_ring_add_fetch(Value, Offset)                          \
    __atomic_add_fetch(&(Value), (Offset), __ATOMIC_ACQUIRE)

#define recorder_ring_compare_exchange(Value, Expected, New)            \
    __atomic_compare_exchange_n(&(Value), &(Expected), (New), 0,       \
                                __ATOMIC_RELEASE, __ATOMIC_RELAXED)

#else
#error "recorder needs a compiler with GCC-style __atomic built-ins"
#endif

#ifdef __cplusplus
}
#endif

#endif /* RECORDER_RING_H */
