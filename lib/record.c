/* record.c - the record path: reserve slots, fill them, publish them.
 *
 * Cost budget: well under one clock_gettime(). No allocation, lock or system
 * call; the only write shared between threads is the reservation on the
 * recorder's own ring, so threads on different recorders never contend.
 */
#include "recorder.h"
#include "clock_private.h"
#include "slot_read_private.h"
#include "trace_private.h"

/* Reserve 'count' consecutive slots. Release fence: the reservation must be
 * visible before any word we then write into the slots (a reader that sees
 * our words must also see that the writer index moved past its record). */
static inline uint64_t reserve(recorder_buffer *buffer, unsigned count)
{
    uint64_t index = __atomic_fetch_add(&buffer->writer, count,
                                        __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return index;
}

static inline void put(recorder_slot *slot, unsigned word, uint64_t value)
{
    __atomic_store_n(&slot->word[word], value, __ATOMIC_RELAXED);
}

/* Release: a reader that sees this sequence number sees the words above. */
static inline void commit(recorder_slot *slot, uint64_t index, bool tail)
{
    __atomic_store_n(&slot->seq, recorder_slot_seq(index, tail),
                     __ATOMIC_RELEASE);
}

/* The last timestamp this thread took, for record_fast(). Kept per thread,
 * not per recorder: a store into the recorder's header would put a second
 * write on the one cache line that threads sharing a recorder contend for. */
static __thread uint64_t last_stamp __attribute__((tls_model("initial-exec")));

static inline uint64_t stamp_now(void)
{
    uint64_t stamp = recorder_ticks();
    last_stamp = stamp;
    return stamp;
}

static inline uint64_t stamp_last(void)
{
    return last_stamp ? last_stamp : stamp_now();   /* first in this thread */
}

/* Mask first, then ring, both acquire: if we see the mask of a larger ring,
 * we also see that ring (it is published first), so we never index a small
 * ring with a large mask. */
static inline recorder_buffer *ring_of(recorder_info *rec, uint64_t *mask)
{
    *mask = __atomic_load_n(&rec->mask, __ATOMIC_ACQUIRE);
    return __atomic_load_n(&rec->buffer, __ATOMIC_ACQUIRE);
}

static inline void write_short(recorder_info *rec, const recorder_site *site,
                               unsigned count, uint64_t stamp,
                               uint64_t a0, uint64_t a1, uint64_t a2,
                               uint64_t a3, uint64_t a4)
{
    uint64_t mask;
    recorder_buffer *buffer = ring_of(rec, &mask);
    uint64_t index = reserve(buffer, 1);
    recorder_slot *slot = &RECORDER_BUFFER_SLOTS(buffer)[index & mask];
    put(slot, 0, stamp);
    put(slot, 1, (uintptr_t) site | count);
    put(slot, 2, a0);
    put(slot, 3, a1);
    put(slot, 4, a2);
    put(slot, 5, a3);
    put(slot, 6, a4);
    commit(slot, index, false);

    if (__builtin_expect(rec->trace != 0, 0))
    {
        uint64_t args[RECORDER_MAX_ARGS] = { a0, a1, a2, a3, a4 };
        recorder_trace_print(rec, site, index, stamp, args, count);
    }
}

static inline void write_long(recorder_info *rec, const recorder_site *site,
                              unsigned count, uint64_t stamp,
                              const uint64_t args[RECORDER_MAX_ARGS])
{
    uint64_t mask;
    recorder_buffer *buffer = ring_of(rec, &mask);
    uint64_t index = reserve(buffer, 2);
    recorder_slot *head = &RECORDER_BUFFER_SLOTS(buffer)[index & mask];
    recorder_slot *tail = &RECORDER_BUFFER_SLOTS(buffer)[(index + 1) & mask];
    put(head, 0, stamp);
    put(head, 1, (uintptr_t) site | count);
    for (unsigned a = 0; a < 5; a++)
        put(head, 2 + a, args[a]);
    for (unsigned a = 0; a < 7; a++)
        put(tail, a, args[5 + a]);
    commit(tail, index + 1, true);
    commit(head, index, false);

    if (__builtin_expect(rec->trace != 0, 0))
        recorder_trace_print(rec, site, index, stamp, args, count);
}

void recorder_write(recorder_info *rec, const recorder_site *site,
                    unsigned count, uint64_t a0, uint64_t a1, uint64_t a2,
                    uint64_t a3, uint64_t a4)
{
    write_short(rec, site, count, stamp_now(), a0, a1, a2, a3, a4);
}

void recorder_write_fast(recorder_info *rec, const recorder_site *site,
                         unsigned count, uint64_t a0, uint64_t a1,
                         uint64_t a2, uint64_t a3, uint64_t a4)
{
    write_short(rec, site, count, stamp_last(),
                a0, a1, a2, a3, a4);
}

void recorder_write12(recorder_info *rec, const recorder_site *site,
                      unsigned count,
                      uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                      uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
                      uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11)
{
    const uint64_t args[RECORDER_MAX_ARGS] =
        { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11 };
    write_long(rec, site, count, stamp_now(), args);
}

void recorder_write12_fast(recorder_info *rec, const recorder_site *site,
                           unsigned count,
                           uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                           uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
                           uint64_t a8, uint64_t a9, uint64_t a10,
                           uint64_t a11)
{
    const uint64_t args[RECORDER_MAX_ARGS] =
        { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11 };
    write_long(rec, site, count, stamp_last(), args);
}
