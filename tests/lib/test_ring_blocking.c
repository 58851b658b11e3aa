/* test_ring_blocking.c - a ring used as recorder 1.2 programs use it
 * (1.2's own ring_test.c has this shape): writer threads block in their
 * callback until the reader has made room, the reader keeps an index of
 * its own, blocks until the items it wants are committed, and then moves
 * the ring's reader index itself. Every item must be read exactly once,
 * in each writer's order, well within a timeout. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "recorder_ring.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define WRITERS         4
#define ITEMS           20000           /* per writer */
#define TIMEOUT_S       30

RECORDER_RING_DECLARE(items, uint32_t, 16);
RECORDER_RING_DEFINE(items, uint32_t, 16);

static unsigned write_blocks, read_blocks;

/* 1.2's rule: wait until the reader is past what this write would
 * overwrite, then say "go on". */
static bool wait_for_room(recorder_ring_t *ring, ringidx_t from, ringidx_t to)
{
    (void) from;
    __atomic_fetch_add(&write_blocks, 1, __ATOMIC_RELAXED);
    while ((intptr_t) (to - __atomic_load_n(&ring->reader, __ATOMIC_ACQUIRE))
           > (intptr_t) ring->size)
        sched_yield();
    return true;
}

/* Wait until the items wanted are committed. */
static bool wait_for_items(recorder_ring_t *ring, ringidx_t from, ringidx_t to)
{
    (void) from;
    __atomic_fetch_add(&read_blocks, 1, __ATOMIC_RELAXED);
    while ((intptr_t) (__atomic_load_n(&ring->commit, __ATOMIC_ACQUIRE) - to) < 0)
        sched_yield();
    return true;
}

static void *writer(void *arg)
{
    uint32_t id = (uint32_t) (uintptr_t) arg;
    for (uint32_t n = 0; n < ITEMS; n++)
    {
        uint32_t item = id << 24 | n;
        ringidx_t at;
        if (items_block_write(&item, 1, wait_for_room, NULL, &at) != 1)
            fail_msg("writer %u: item %u not written", id, n);
    }
    return NULL;
}

static void on_timeout(int sig)
{
    (void) sig;
    static const char text[] = "test_ring_blocking: the 1.2-style program "
                               "did not finish: a writer or the reader "
                               "never unblocked\n";
    ssize_t ignored = write(2, text, sizeof(text) - 1);
    (void) ignored;
    _exit(1);
}

static void test_blocking_writers_and_one_reader_lose_nothing(void **state)
{
    (void) state;
    signal(SIGALRM, on_timeout);
    alarm(TIMEOUT_S);
    pthread_t threads[WRITERS];
    for (uintptr_t w = 0; w < WRITERS; w++)
        assert_int_equal(pthread_create(&threads[w], NULL, writer, (void *) w),
                         0);

    uint32_t next[WRITERS] = { 0 };
    ringidx_t rd = 0;
    for (unsigned got = 0; got < WRITERS * ITEMS; got++)
    {
        uint32_t item;
        if (items_block_read(&item, 1, &rd, wait_for_items, NULL) != 1)
            fail_msg("read %u: nothing read", got);
        /* As 1.2 programs do: the reader publishes its own index. */
        __atomic_store_n(&items.ring.reader, rd, __ATOMIC_RELEASE);
        uint32_t id = item >> 24, n = item & 0xFFFFFF;
        if (id >= WRITERS || n != next[id])
            fail_msg("read %u: item %u of writer %u, expected item %u",
                     got, n, id, id < WRITERS ? next[id] : 0);
        next[id]++;
    }
    for (unsigned w = 0; w < WRITERS; w++)
        pthread_join(threads[w], NULL);
    alarm(0);
    assert_int_equal(items_readable(), 0);
    print_message("%u items through a ring of 16: %u write blocks, %u read "
                  "blocks\n", WRITERS * ITEMS, write_blocks, read_blocks);
    assert_true(write_blocks > 0);      /* the ring did fill up */
}

/* A 1.2 program that polls the room left before writing sees the room its
 * reader made by publishing its own index. */
static void test_writable_counts_from_the_published_reader(void **state)
{
    (void) state;
    recorder_ring_p ring = recorder_ring_new(8, sizeof(int));
    assert_non_null(ring);
    int in[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, out[3];
    assert_int_equal(recorder_ring_write(ring, in, 8, NULL, NULL, NULL), 8);
    assert_int_equal(recorder_ring_writable(ring), 0);

    ringidx_t rd = 0;
    assert_int_equal(recorder_ring_read(ring, out, 3, &rd, NULL, NULL), 3);
    assert_int_equal(out[2], 3);
    assert_int_equal(recorder_ring_writable(ring), 0);  /* not published */
    recorder_ring_store(ring->reader, rd);
    assert_int_equal(recorder_ring_writable(ring), 3);
    assert_int_equal(recorder_ring_readable(ring, NULL), 5);

    /* Filling that room leaves none, and loses nothing unread. */
    assert_int_equal(recorder_ring_write(ring, in, 3, NULL, NULL, NULL), 3);
    assert_int_equal(recorder_ring_writable(ring), 0);
    assert_int_equal(recorder_ring_read(ring, out, 3, &rd, NULL, NULL), 3);
    assert_int_equal(out[0], 4);
    assert_int_equal(ring->overflow, 0);
    recorder_ring_delete(ring);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocking_writers_and_one_reader_lose_nothing),
        cmocka_unit_test(test_writable_counts_from_the_published_reader),
    };
    return cmocka_run_group_tests_name("ring blocking", tests, NULL, NULL);
}
