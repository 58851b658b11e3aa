/* test_ring_api.c - the generic ring of <recorder/recorder_ring.h>, as
 * recorder 1.2 programs use it: typed and static rings, the block and
 * overflow callbacks, several writer and reader threads at once. Built from
 * the public header only. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "recorder_ring.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>

RECORDER_RING_TYPE_DECLARE(int_ring, int)

/* The ring's indices, as a writer thread sees them. */
static ringidx_t load(ringidx_t *index)
{
    return recorder_ring_load(*index);
}


static void test_typed_ring_reads_what_was_written(void **state)
{
    (void) state;
    int_ring *ring = int_ring_new(8);
    assert_non_null(ring);
    assert_int_equal(int_ring_readable(ring), 0);
    assert_int_equal(int_ring_writable(ring), 8);
    assert_null(int_ring_peek(ring));

    int in[5] = { 1, 2, 3, 4, 5 };
    ringidx_t at = 99;
    assert_int_equal(int_ring_write(ring, in, 5, NULL, NULL, &at), 5);
    assert_int_equal(at, 0);
    assert_int_equal(int_ring_readable(ring), 5);
    assert_int_equal(int_ring_writable(ring), 3);
    assert_int_equal(*int_ring_peek(ring), 1);

    int out[8];
    assert_int_equal(int_ring_read(ring, out, 3, NULL, NULL, NULL), 3);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[2], 3);
    assert_int_equal(int_ring_readable(ring), 2);
    assert_int_equal(int_ring_writable(ring), 6);

    /* Past the end of the array: the items come back in order. */
    int more[5] = { 6, 7, 8, 9, 10 };
    assert_int_equal(int_ring_write(ring, more, 5, NULL, NULL, &at), 5);
    assert_int_equal(at, 5);
    assert_int_equal(int_ring_read(ring, out, 8, NULL, NULL, NULL), 7);
    for (int i = 0; i < 7; i++)
        assert_int_equal(out[i], 4 + i);
    assert_int_equal(int_ring_read(ring, out, 8, NULL, NULL, NULL), 0);
    assert_int_equal(ring->ring.overflow, 0);
    int_ring_delete(ring);

    assert_null(recorder_ring_new(0, sizeof(int)));
    assert_null(recorder_ring_new(SIZE_MAX / 2, 16));
}

/* A reader with its own index sees everything, and does not hold writers. */
static void test_private_readers_each_see_every_item(void **state)
{
    (void) state;
    int_ring *ring = int_ring_new(4);
    int in[3] = { 7, 8, 9 }, out[4];
    int_ring_write(ring, in, 3, NULL, NULL, NULL);
    ringidx_t first = 0, second = 0;
    assert_int_equal(recorder_ring_readable(&ring->ring, &first), 3);
    assert_int_equal(int_ring_read(ring, out, 4, &first, NULL, NULL), 3);
    assert_int_equal(out[2], 9);
    assert_int_equal(int_ring_read(ring, out, 2, &second, NULL, NULL), 2);
    assert_int_equal(out[0], 7);
    assert_int_equal(first, 3);
    assert_int_equal(second, 2);
    assert_int_equal(int_ring_readable(ring), 3);       /* shared: untouched */
    int_ring_delete(ring);
}

typedef struct overflow_seen
{
    unsigned  calls;
    ringidx_t from, to;
    bool      answer;
} overflow_seen;
static overflow_seen overflow_log;

static bool note_overflow(int_ring *ring, ringidx_t from, ringidx_t to)
{
    (void) ring;
    overflow_log.calls++;
    overflow_log.from = from;
    overflow_log.to = to;
    return overflow_log.answer;
}

/* Writers that do not wait overwrite the oldest items; a reader loses
 * exactly those, the overflow callback is told which, 'overflow' counts
 * them, whatever the callback answers. */
static void overflow_case(bool answer)
{
    int_ring *ring = int_ring_new(8);
    int in[8], out[8];
    for (int i = 0; i < 5; i++)
        in[i] = i + 1;
    int_ring_write(ring, in, 5, NULL, NULL, NULL);
    assert_int_equal(int_ring_read(ring, out, 3, NULL, NULL, NULL), 3);
    for (int i = 0; i < 8; i++)
        in[i] = 6 + i;                  /* items 5..12: 4 and 5 are lost */
    assert_int_equal(int_ring_write(ring, in, 8, NULL, NULL, NULL), 8);
    assert_int_equal(int_ring_writable(ring), 0);

    memset(&overflow_log, 0, sizeof(overflow_log));
    overflow_log.answer = answer;
    size_t got = 0;
    int all[8];
    size_t n;
    while ((n = int_ring_read(ring, out, 8, NULL, NULL, note_overflow)) > 0)
    {
        memcpy(all + got, out, n * sizeof(int));
        got += n;
    }
    assert_int_equal(got, 8);
    for (int i = 0; i < 8; i++)
        assert_int_equal(all[i], 6 + i);
    assert_true(overflow_log.calls >= 1);
    assert_int_equal(overflow_log.from, 3);
    assert_int_equal(overflow_log.to, 5);
    assert_int_equal(ring->ring.overflow, 2);
    int_ring_delete(ring);
}

static void test_overflow_callback_skips(void **state)
{
    (void) state;
    overflow_case(false);
}

static void test_overflow_callback_reads_on(void **state)
{
    (void) state;
    overflow_case(true);
}

/* A peek past an overflow moves to the first item still there. */
static void test_peek_catches_up(void **state)
{
    (void) state;
    int_ring *ring = int_ring_new(4);
    int in[6] = { 1, 2, 3, 4, 5, 6 };
    int_ring_write(ring, in, 6, NULL, NULL, NULL);
    assert_int_equal(*int_ring_peek(ring), 3);
    assert_int_equal(ring->ring.overflow, 2);
    int_ring_delete(ring);
}

/* --- blocking ------------------------------------------------------------- */

static unsigned block_calls;

/* The other thread acts once this one is blocked in the ring. */
static void until_blocked(void)
{
    while (!__atomic_load_n(&block_calls, __ATOMIC_ACQUIRE))
        sched_yield();
}

/* Wait until the items wanted are committed, as 1.2's tests did. */
static bool wait_for_items(recorder_ring_p ring, ringidx_t from, ringidx_t to)
{
    (void) from;
    __atomic_fetch_add(&block_calls, 1, __ATOMIC_RELEASE);
    while ((intptr_t) (load(&ring->commit) - to) < 0)
        sched_yield();
    return true;
}

static void *write_later(void *arg)
{
    int_ring *ring = arg;
    until_blocked();
    int in[3] = { 40, 41, 42 };
    int_ring_write(ring, in, 3, NULL, NULL, NULL);
    return NULL;
}

static void test_blocking_read_waits_for_writer(void **state)
{
    (void) state;
    int_ring *ring = int_ring_new(8);
    int out[3];
    block_calls = 0;
    /* Without a callback, a read takes what is there: nothing. */
    assert_int_equal(int_ring_read(ring, out, 3, NULL, NULL, NULL), 0);

    pthread_t writer;
    pthread_create(&writer, NULL, write_later, ring);
    assert_int_equal(recorder_ring_read(&ring->ring, out, 3, NULL,
                                        wait_for_items, NULL), 3);
    pthread_join(writer, NULL);
    assert_true(block_calls >= 1);
    assert_int_equal(out[0], 40);
    assert_int_equal(out[2], 42);
    int_ring_delete(ring);
}

static bool refuse(recorder_ring_p ring, ringidx_t from, ringidx_t to)
{
    (void) ring; (void) from; (void) to;
    __atomic_fetch_add(&block_calls, 1, __ATOMIC_RELAXED);
    return false;
}

/* Wait for readers to make room for items from..to. */
static bool wait_for_room(recorder_ring_p ring, ringidx_t from, ringidx_t to)
{
    (void) from;
    __atomic_fetch_add(&block_calls, 1, __ATOMIC_RELEASE);
    while ((intptr_t) (to - load(&ring->released)) > (intptr_t) ring->size)
        sched_yield();
    return true;
}

static void *read_later(void *arg)
{
    int_ring *ring = arg;
    until_blocked();
    int out[2];
    int_ring_read(ring, out, 2, NULL, NULL, NULL);
    return NULL;
}

static void test_blocking_write_waits_for_reader(void **state)
{
    (void) state;
    int_ring *ring = int_ring_new(4);
    int in[4] = { 1, 2, 3, 4 }, out[4];
    int_ring_write(ring, in, 4, NULL, NULL, NULL);

    /* A callback that refuses to wait: only what fits is written. */
    block_calls = 0;
    int extra[2] = { 5, 6 };
    assert_int_equal(recorder_ring_write(&ring->ring, extra, 2, refuse, NULL,
                                         NULL), 0);
    assert_int_equal(block_calls, 1);

    /* One that waits: the write completes once a reader made room, and
     * nothing was overwritten. */
    block_calls = 0;
    pthread_t reader;
    pthread_create(&reader, NULL, read_later, ring);
    assert_int_equal(recorder_ring_write(&ring->ring, extra, 2,
                                         wait_for_room, NULL, NULL), 2);
    pthread_join(reader, NULL);
    assert_true(block_calls >= 1);
    assert_int_equal(int_ring_read(ring, out, 4, NULL, NULL, NULL), 4);
    assert_int_equal(out[0], 3);
    assert_int_equal(out[3], 6);
    assert_int_equal(ring->ring.overflow, 0);
    int_ring_delete(ring);
}

/* Another writer reserved item 0 and has not committed it yet. */
static ringidx_t commit_seen[2];
static bool commit_answer;

static bool earlier_writer_done(recorder_ring_p ring, ringidx_t commit,
                                ringidx_t mine)
{
    commit_seen[0] = commit;
    commit_seen[1] = mine;
    block_calls++;
    if (commit_answer)
        recorder_ring_store(ring->commit, 1);   /* the other one commits */
    return commit_answer;
}

static void test_commit_waits_for_earlier_writers(void **state)
{
    (void) state;
    int value = 9, out[2];
    for (int answer = 0; answer <= 1; answer++)
    {
        int_ring *ring = int_ring_new(4);
        ring->data[0] = 8;
        ring->ring.writer = 1;                  /* item 0: still copying */
        block_calls = 0;
        commit_answer = answer;
        assert_int_equal(recorder_ring_write(&ring->ring, &value, 1, NULL,
                                             earlier_writer_done, NULL), 1);
        assert_int_equal(block_calls, 1);
        assert_int_equal(commit_seen[0], 0);
        assert_int_equal(commit_seen[1], 1);
        /* Waiting (true) commits in order; refusing (false) counts this
         * writer's item out of order: either way both are committed once
         * the first one commits too. */
        assert_int_equal(ring->ring.commit, answer ? 2 : 1);
        if (answer)
        {
            assert_int_equal(int_ring_read(ring, out, 2, NULL, NULL, NULL), 2);
            assert_int_equal(out[1], 9);
        }
        int_ring_delete(ring);
    }
}

/* --- static rings ---------------------------------------------------------- */

RECORDER_RING_DECLARE(text_ring, char, 16)
RECORDER_RING_DEFINE(text_ring, char, 16)

static void test_static_ring(void **state)
{
    (void) state;
    assert_int_equal(text_ring.ring.size, 16);
    assert_int_equal(text_ring.ring.item_size, 1);
    assert_int_equal(text_ring_readable(), 0);
    assert_int_equal(text_ring_writable(), 16);
    assert_int_equal(text_ring_write("hello", 5), 5);
    assert_int_equal(*text_ring_peek(), 'h');
    ringidx_t at;
    assert_int_equal(text_ring_block_write(", world", 7, wait_for_room, NULL,
                                           &at), 7);
    assert_int_equal(at, 5);
    char out[17] = { 0 };
    assert_int_equal(text_ring_read(out, 5), 5);
    assert_string_equal(out, "hello");
    memset(out, 0, sizeof(out));
    assert_int_equal(text_ring_block_read(out, 7, NULL, wait_for_items, NULL),
                     7);
    assert_string_equal(out, ", world");
}

/* --- threads --------------------------------------------------------------- */

#define WRITERS         3
#define READERS         2
#define PER_WRITER      20000
#define THREAD_RING     64

RECORDER_RING_TYPE_DECLARE(item_ring, uint64_t)

static item_ring *shared_ring;
static unsigned char seen[WRITERS][PER_WRITER];
static uint64_t items_read;
static unsigned order_errors;

static void *writer_thread(void *arg)
{
    uint64_t id = (uint64_t) (uintptr_t) arg;
    uint64_t block[5];
    for (unsigned seq = 0; seq < PER_WRITER;)
    {
        unsigned n = 1 + (seq + (unsigned) id) % 5;     /* 1 to 5 items */
        if (n > PER_WRITER - seq)
            n = PER_WRITER - seq;
        for (unsigned i = 0; i < n; i++)
            block[i] = id << 32 | (seq + i);
        size_t written = recorder_ring_write(&shared_ring->ring, block, n,
                                             wait_for_room, NULL, NULL);
        assert_int_equal(written, n);
        seq += n;
    }
    return NULL;
}

static void *reader_thread(void *arg)
{
    (void) arg;
    uint64_t last[WRITERS];
    memset(last, 0xFF, sizeof(last));
    uint64_t out[7];
    while (__atomic_load_n(&items_read, __ATOMIC_ACQUIRE) <
           (uint64_t) WRITERS * PER_WRITER)
    {
        size_t n = item_ring_read(shared_ring, out, 7, NULL, NULL, NULL);
        if (!n)
        {
            sched_yield();
            continue;
        }
        for (size_t i = 0; i < n; i++)
        {
            unsigned writer = (unsigned) (out[i] >> 32);
            uint32_t seq = (uint32_t) out[i];
            if (writer >= WRITERS || seq >= PER_WRITER)
            {
                __atomic_fetch_add(&order_errors, 1, __ATOMIC_RELAXED);
                continue;
            }
            /* One writer's items reach each reader in the order written. */
            if (last[writer] != UINT64_MAX && seq <= last[writer])
                __atomic_fetch_add(&order_errors, 1, __ATOMIC_RELAXED);
            last[writer] = seq;
            __atomic_fetch_add(&seen[writer][seq], 1, __ATOMIC_RELAXED);
        }
        __atomic_fetch_add(&items_read, n, __ATOMIC_RELEASE);
    }
    return NULL;
}

static void test_threads_deliver_every_item_once(void **state)
{
    (void) state;
    shared_ring = item_ring_new(THREAD_RING);
    memset(seen, 0, sizeof(seen));
    items_read = 0;
    order_errors = 0;
    pthread_t writers[WRITERS], readers[READERS];
    for (uintptr_t r = 0; r < READERS; r++)
        pthread_create(&readers[r], NULL, reader_thread, NULL);
    for (uintptr_t w = 0; w < WRITERS; w++)
        pthread_create(&writers[w], NULL, writer_thread, (void *) w);
    for (unsigned w = 0; w < WRITERS; w++)
        pthread_join(writers[w], NULL);
    for (unsigned r = 0; r < READERS; r++)
        pthread_join(readers[r], NULL);

    assert_int_equal(items_read, (uint64_t) WRITERS * PER_WRITER);
    assert_int_equal(order_errors, 0);
    unsigned missing = 0, repeated = 0;
    for (unsigned w = 0; w < WRITERS; w++)
        for (unsigned s = 0; s < PER_WRITER; s++)
        {
            missing += seen[w][s] == 0;
            repeated += seen[w][s] > 1;
        }
    assert_int_equal(missing, 0);
    assert_int_equal(repeated, 0);
    assert_int_equal(shared_ring->ring.overflow, 0);
    assert_int_equal(shared_ring->ring.commit, shared_ring->ring.writer);
    item_ring_delete(shared_ring);
}

static void test_load_and_store_macros(void **state)
{
    (void) state;
    ringidx_t value = 0;
    recorder_ring_store(value, 41);
    assert_int_equal(recorder_ring_fetch_add(value, 1), 41);
    assert_int_equal(recorder_ring_load(value), 42);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_typed_ring_reads_what_was_written),
        cmocka_unit_test(test_private_readers_each_see_every_item),
        cmocka_unit_test(test_overflow_callback_skips),
        cmocka_unit_test(test_overflow_callback_reads_on),
        cmocka_unit_test(test_peek_catches_up),
        cmocka_unit_test(test_blocking_read_waits_for_writer),
        cmocka_unit_test(test_blocking_write_waits_for_reader),
        cmocka_unit_test(test_commit_waits_for_earlier_writers),
        cmocka_unit_test(test_static_ring),
        cmocka_unit_test(test_threads_deliver_every_item_once),
        cmocka_unit_test(test_load_and_store_macros),
    };
    return cmocka_run_group_tests(tests, 0, 0);
}
