/* record.c - the record path: reserve slots, fill them, publish them.
 *
 * Cost budget: well under one clock_gettime(). No allocation, lock or system
 * call. Each thread writes its own lane of the recorder's ring (see
 * RECORDER_LANES), so threads do not contend on a write unless there are
 * more of them than lanes.
 */
#include "record/record_private.h"
#include "record/clock_private.h"
#include "record/slot_read_private.h"
#include "record/trace_private.h"
#include "record/watch_private.h"
#include "record/share_hooks_private.h"

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

/* Per-thread state, set up by the thread's first record:
 * - its lane plus one (0 until then). Threads take lanes in turn, so the
 *   first RECORDER_LANES threads each write their own lines. A signal
 *   handler recording on this thread shares its lane, which the atomic
 *   reservation keeps safe.
 * - the last timestamp it took, for record_fast(). Kept per thread, not
 *   per recorder: the recorder's header is read by every thread that
 *   records into it, and a store there would make them all miss. */
static __thread unsigned thread_lane __attribute__((tls_model("initial-exec")));
static __thread uint64_t last_stamp __attribute__((tls_model("initial-exec")));
static unsigned lanes_given;

unsigned recorder_lanes_started(void)
{
    unsigned given = __atomic_load_n(&lanes_given, __ATOMIC_RELAXED);
    return given < RECORDER_LANES ? given : RECORDER_LANES;
}

/* Out of line and cold, like the first-record wrappers below that call it:
 * the common path makes no call for it. */
__attribute__((noinline, cold))
static void thread_start(void)
{
    unsigned turn = __atomic_fetch_add(&lanes_given, 1, __ATOMIC_RELAXED);
    last_stamp = recorder_ticks();
    thread_lane = turn % RECORDER_LANES + 1;
}

static inline uint64_t stamp_now(void)
{
    uint64_t stamp = recorder_ticks();
    last_stamp = stamp;
    return stamp;
}

/* Mask first, then ring, both acquire: if we see the mask of a larger ring,
 * we also see that ring (it is published first), so we never index a small
 * ring with a large mask. */
static inline recorder_buffer *ring_of(recorder_info *rec, unsigned lane,
                                       uint64_t *mask)
{
    *mask = __atomic_load_n(&rec->mask, __ATOMIC_ACQUIRE);
    recorder_buffer *first = __atomic_load_n(&rec->buffer, __ATOMIC_ACQUIRE);
    return RECORDER_LANE(first, *mask + 1, lane);
}

/* Print the record just made at 'index' of 'lane', for recorders traced
 * as well as recorded. Read back from the lane, so the writers keep no
 * copy of their arguments for it.
 * Only a record another writer of the lane overwrote meanwhile (a signal
 * handler, or more threads than lanes, filling the whole lane in between)
 * is not printed; it is gone from the ring too. */
__attribute__((noinline, cold))
static void trace_record(recorder_info *rec, const recorder_buffer *lane,
                         uint64_t mask, uint64_t index)
{
    recorder_record record;
    if (recorder_slot_read(RECORDER_BUFFER_SLOTS(lane), (uint32_t) mask + 1,
                           &lane->writer, index, &record) == RECORDER_READ_OK)
        recorder_trace_print(rec, (const recorder_site *) record.site, index,
                             record.timestamp, record.args, record.nargs);
}

/* The snapshot conditions that look at this recorder, or NULL (most). */
static inline recorder_watch *watch_of(recorder_info *rec)
{
    return __atomic_load_n((recorder_watch **) &rec->watch, __ATOMIC_ACQUIRE);
}

/* The first record in a lane of this ring (index 0): note that the
 * recorder holds records, and a segment writer may give its ring a place
 * in the segment now (share_hooks_private.h). Cold and out of line: the
 * common path only compares the index it has. */
__attribute__((noinline, cold))
static void first_in_lane(recorder_info *rec)
{
    __atomic_store_n(&RECORDER_RECORDED(rec), 1, __ATOMIC_SEQ_CST);
    recorder_share_first_record(rec);
}

/* Both return the index of the record in its lane (its ORDER in dumps). */
__attribute__((always_inline))
static inline uint64_t write_short(recorder_info *rec,
                                   const recorder_site *site,
                                   unsigned count, unsigned lane,
                                   uint64_t stamp, uint64_t a0, uint64_t a1,
                                   uint64_t a2, uint64_t a3, uint64_t a4)
{
    uint64_t mask;
    recorder_buffer *buffer = ring_of(rec, lane, &mask);
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

    if (__builtin_expect(index == 0, 0))
        first_in_lane(rec);
    if (__builtin_expect(rec->trace != 0, 0))
        trace_record(rec, buffer, mask, index);
    recorder_watch *watch = watch_of(rec);
    if (__builtin_expect(watch != NULL, 0))
        recorder_watch_check(watch, slot, NULL);
    return index;
}

__attribute__((always_inline))
static inline uint64_t write_long(recorder_info *rec,
                                  const recorder_site *site,
                                  unsigned count, unsigned lane,
                                  uint64_t stamp,
                                  const uint64_t args[RECORDER_MAX_ARGS])
{
    uint64_t mask;
    recorder_buffer *buffer = ring_of(rec, lane, &mask);
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

    if (__builtin_expect(index == 0, 0))
        first_in_lane(rec);
    if (__builtin_expect(rec->trace != 0, 0))
        trace_record(rec, buffer, mask, index);
    recorder_watch *watch = watch_of(rec);
    if (__builtin_expect(watch != NULL, 0))
        recorder_watch_check(watch, head, tail);
    return index;
}

/* A thread's first record sets the thread up, then records as usual,
 * reached by a tail call from the writers. */
#define WRITE_ARGS5     recorder_info *rec, const recorder_site *site,     \
                        unsigned count, uint64_t a0, uint64_t a1,         \
                        uint64_t a2, uint64_t a3, uint64_t a4
#define WRITE_ARGS12    WRITE_ARGS5, uint64_t a5, uint64_t a6, uint64_t a7, \
                        uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11
#define PASS_ARGS5      rec, site, count, a0, a1, a2, a3, a4
#define PASS_ARGS12     PASS_ARGS5, a5, a6, a7, a8, a9, a10, a11

#define FIRST_RECORD_OF(Writer, Params, Args)                           \
    __attribute__((noinline, cold)) static void first_##Writer(Params)  \
    {                                                                   \
        thread_start();                                                 \
        Writer(Args);                                                   \
    }
FIRST_RECORD_OF(recorder_write, WRITE_ARGS5, PASS_ARGS5)
FIRST_RECORD_OF(recorder_write_fast, WRITE_ARGS5, PASS_ARGS5)
FIRST_RECORD_OF(recorder_write12, WRITE_ARGS12, PASS_ARGS12)
FIRST_RECORD_OF(recorder_write12_fast, WRITE_ARGS12, PASS_ARGS12)

#define FIRST_RECORD(Writer, Args)                                      \
    unsigned lane = thread_lane;                                        \
    if (__builtin_expect(lane == 0, 0))                                 \
        return first_##Writer(Args);                                    \
    lane--

void recorder_write(recorder_info *rec, const recorder_site *site,
                    unsigned count, uint64_t a0, uint64_t a1, uint64_t a2,
                    uint64_t a3, uint64_t a4)
{
    FIRST_RECORD(recorder_write, PASS_ARGS5);
    write_short(rec, site, count, lane, stamp_now(), a0, a1, a2, a3, a4);
}

void recorder_write_fast(recorder_info *rec, const recorder_site *site,
                         unsigned count, uint64_t a0, uint64_t a1,
                         uint64_t a2, uint64_t a3, uint64_t a4)
{
    FIRST_RECORD(recorder_write_fast, PASS_ARGS5);
    write_short(rec, site, count, lane, last_stamp, a0, a1, a2, a3, a4);
}

void recorder_write12(recorder_info *rec, const recorder_site *site,
                      unsigned count,
                      uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                      uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
                      uint64_t a8, uint64_t a9, uint64_t a10, uint64_t a11)
{
    FIRST_RECORD(recorder_write12, PASS_ARGS12);
    const uint64_t args[RECORDER_MAX_ARGS] =
        { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11 };
    write_long(rec, site, count, lane, stamp_now(), args);
}

void recorder_write12_fast(recorder_info *rec, const recorder_site *site,
                           unsigned count,
                           uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                           uint64_t a4, uint64_t a5, uint64_t a6, uint64_t a7,
                           uint64_t a8, uint64_t a9, uint64_t a10,
                           uint64_t a11)
{
    FIRST_RECORD(recorder_write12_fast, PASS_ARGS12);
    const uint64_t args[RECORDER_MAX_ARGS] =
        { a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11 };
    write_long(rec, site, count, lane, last_stamp, args);
}

uint64_t recorder_write_indexed(recorder_info *rec, const recorder_site *site,
                                bool fast, unsigned count,
                                const uint64_t args[RECORDER_MAX_ARGS])
{
    if (__builtin_expect(thread_lane == 0, 0))
        thread_start();
    unsigned lane = thread_lane - 1;
    uint64_t stamp = fast ? last_stamp : stamp_now();
    if (count <= 5)
        return write_short(rec, site, count, lane, stamp,
                           args[0], args[1], args[2], args[3], args[4]);
    return write_long(rec, site, count, lane, stamp, args);
}
