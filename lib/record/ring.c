/* ring.c - the generic lock-free ring of <recorder/recorder_ring.h>.
 *
 * Writers reserve items by moving 'writer' forward with a compare-exchange,
 * copy them, then move 'commit' over them in reservation order, so readers
 * never see a block before every block ahead of it is complete. Shared
 * readers do the mirror image: take items by moving 'reader', copy them,
 * then move 'released' over them in order; writers that wait for room wait
 * for 'released', so a slot is never reused while a reader copies it.
 * Writers that do not wait overwrite the oldest items: a reader notices
 * (the writer index went more than a ring ahead of what it read) and drops
 * what was overwritten, counting it in 'overflow'.
 *
 * This is not the recorder's record path: waiting here may yield the CPU.
 */
#include "recorder_ring.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* Signed distance between two indices, valid across wrap-around. */
static intptr_t ahead(ringidx_t later, ringidx_t earlier)
{
    return (intptr_t) (later - earlier);
}

static char *slot(recorder_ring_p ring, ringidx_t index)
{
    return (char *) (ring + 1) + (index % ring->size) * ring->item_size;
}

/* Copy 'count' items between the ring, from 'index' on, and 'flat'. At
 * most two runs: up to the end of the array, then from its start. */
static void copy_items(recorder_ring_p ring, ringidx_t index, char *flat,
                       size_t count, bool into_ring)
{
    size_t item = ring->item_size;
    while (count)
    {
        size_t run = ring->size - index % ring->size;
        if (run > count)
            run = count;
        if (into_ring)
            memcpy(slot(ring, index), flat, run * item);
        else
            memcpy(flat, slot(ring, index), run * item);
        flat += run * item;
        index += run;
        count -= run;
    }
}

static bool advance(ringidx_t *index, ringidx_t from, ringidx_t to)
{
    return __atomic_compare_exchange_n(index, &from, to, false,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

/* Move '*index' from 'from' to 'to' once every block before 'from' moved
 * it there: blocks are published in the order they were taken. */
static void publish_in_order(ringidx_t *index, ringidx_t from, ringidx_t to)
{
    while (__atomic_load_n(index, __ATOMIC_ACQUIRE) != from)
        sched_yield();
    __atomic_store_n(index, to, __ATOMIC_RELEASE);
}

recorder_ring_p recorder_ring_init(recorder_ring_p ring,
                                   size_t size, size_t item_size)
{
    ring->size = size;
    ring->item_size = item_size;
    ring->reader = 0;
    ring->writer = 0;
    ring->commit = 0;
    ring->overflow = 0;
    ring->released = 0;
    return ring;
}

recorder_ring_p recorder_ring_new(size_t size, size_t item_size)
{
    if (!size || (item_size && size > (SIZE_MAX - sizeof(recorder_ring_t)) /
                                      item_size))
        return NULL;
    recorder_ring_p ring = malloc(sizeof(recorder_ring_t) + size * item_size);
    return ring ? recorder_ring_init(ring, size, item_size) : NULL;
}

void recorder_ring_delete(recorder_ring_p ring)
{
    free(ring);
}

size_t recorder_ring_readable(recorder_ring_p ring, ringidx_t *reader)
{
    ringidx_t from = __atomic_load_n(reader ? reader : &ring->reader,
                                     __ATOMIC_ACQUIRE);
    intptr_t committed = ahead(__atomic_load_n(&ring->commit,
                                               __ATOMIC_ACQUIRE), from);
    if (committed <= 0)
        return 0;
    return (size_t) committed > ring->size ? ring->size : (size_t) committed;
}

size_t recorder_ring_writable(recorder_ring_p ring)
{
    /* Counted from the reader index, as in 1.2: a 1.2 reader with an index
     * of its own publishes it there and never moves 'released'. */
    ringidx_t reader = __atomic_load_n(&ring->reader, __ATOMIC_ACQUIRE);
    ringidx_t released = __atomic_load_n(&ring->released, __ATOMIC_ACQUIRE);
    if (ahead(released, reader) > 0)
        reader = released;
    intptr_t used = ahead(__atomic_load_n(&ring->writer, __ATOMIC_ACQUIRE),
                          reader);
    if (used < 0)
        used = 0;
    return (size_t) used >= ring->size ? 0 : ring->size - (size_t) used;
}

/* The first item not overwritten yet, if 'reader' is behind it. */
static bool overwritten(recorder_ring_p ring, ringidx_t reader,
                        ringidx_t *first_intact)
{
    ringidx_t writer = __atomic_load_n(&ring->writer, __ATOMIC_ACQUIRE);
    if (ahead(writer, reader) <= (intptr_t) ring->size)
        return false;
    *first_intact = writer - ring->size;
    return true;
}

/* After copying 'count' items from 'reader' to 'data': drop those a writer
 * reached meanwhile (they may be torn), keep the rest at the front. */
static size_t keep_intact(recorder_ring_p ring, ringidx_t reader, char *data,
                          size_t count)
{
    /* The copies must be done before the writer index is looked at: a
     * release operation keeps them before it (a fence would do, but the
     * thread sanitizer does not follow fences). */
    ringidx_t writer = __atomic_fetch_add(&ring->writer, 0, __ATOMIC_ACQ_REL);
    if (ahead(writer, reader) <= (intptr_t) ring->size)
        return count;
    ringidx_t first_intact = writer - ring->size;
    size_t lost = (size_t) ahead(first_intact, reader);
    if (lost > count)
        lost = count;
    memmove(data, data + lost * ring->item_size,
            (count - lost) * ring->item_size);
    __atomic_fetch_add(&ring->overflow, lost, __ATOMIC_RELAXED);
    return count - lost;
}

/* How many of 'count' items from 'reader' to read, given what is
 * committed; 0 with '*again' set if the caller should look again. */
static size_t to_read(recorder_ring_p ring, ringidx_t reader, size_t count,
                      recorder_ring_block_fn read_block, bool *again)
{
    *again = false;
    intptr_t committed = ahead(__atomic_load_n(&ring->commit,
                                               __ATOMIC_ACQUIRE), reader);
    size_t available = committed > 0 ? (size_t) committed : 0;
    if (count <= available)
        return count;
    if (read_block && read_block(ring, reader, reader + count))
    {
        *again = true;
        return 0;
    }
    return available;
}

/* Readers sharing the ring's index take their items before copying them,
 * and release them after, in order. */
static size_t read_shared(recorder_ring_p ring, char *data, size_t count,
                          recorder_ring_block_fn read_block,
                          recorder_ring_block_fn read_overflow)
{
    for (;;)
    {
        ringidx_t reader = __atomic_load_n(&ring->reader, __ATOMIC_ACQUIRE);
        ringidx_t first_intact;
        if (overwritten(ring, reader, &first_intact) &&
            !(read_overflow && read_overflow(ring, reader, first_intact)))
        {
            if (advance(&ring->reader, reader, first_intact))
            {
                __atomic_fetch_add(&ring->overflow, first_intact - reader,
                                   __ATOMIC_RELAXED);
                publish_in_order(&ring->released, reader, first_intact);
            }
            continue;
        }
        bool again;
        size_t taken = to_read(ring, reader, count, read_block, &again);
        if (again)
            continue;
        if (!taken)
            return 0;
        if (!advance(&ring->reader, reader, reader + taken))
            continue;
        copy_items(ring, reader, data, taken, false);
        size_t kept = keep_intact(ring, reader, data, taken);
        publish_in_order(&ring->released, reader, reader + taken);
        return kept;
    }
}

/* A reader with an index of its own copies first, then moves its index;
 * writers do not wait for it. */
static size_t read_private(recorder_ring_p ring, char *data, size_t count,
                           ringidx_t *index,
                           recorder_ring_block_fn read_block,
                           recorder_ring_block_fn read_overflow)
{
    for (;;)
    {
        ringidx_t reader = __atomic_load_n(index, __ATOMIC_ACQUIRE);
        ringidx_t first_intact;
        if (overwritten(ring, reader, &first_intact) &&
            !(read_overflow && read_overflow(ring, reader, first_intact)))
        {
            if (advance(index, reader, first_intact))
                __atomic_fetch_add(&ring->overflow, first_intact - reader,
                                   __ATOMIC_RELAXED);
            continue;
        }
        bool again;
        size_t taken = to_read(ring, reader, count, read_block, &again);
        if (again)
            continue;
        if (!taken)
            return 0;
        copy_items(ring, reader, data, taken, false);
        size_t kept = keep_intact(ring, reader, data, taken);
        if (advance(index, reader, reader + taken))
            return kept;
    }
}

size_t recorder_ring_read(recorder_ring_p ring, void *data, size_t count,
                          ringidx_t *reader,
                          recorder_ring_block_fn read_block,
                          recorder_ring_block_fn read_overflow)
{
    if (!ring->size || !count)
        return 0;
    if (count > ring->size)
        count = ring->size;
    if (!reader || reader == &ring->reader)
        return read_shared(ring, data, count, read_block, read_overflow);
    return read_private(ring, data, count, reader, read_block,
                        read_overflow);
}

void *recorder_ring_peek(recorder_ring_p ring)
{
    if (!ring->size)
        return NULL;
    for (;;)
    {
        ringidx_t reader = __atomic_load_n(&ring->reader, __ATOMIC_ACQUIRE);
        ringidx_t first_intact;
        if (overwritten(ring, reader, &first_intact))
        {
            if (advance(&ring->reader, reader, first_intact))
            {
                __atomic_fetch_add(&ring->overflow, first_intact - reader,
                                   __ATOMIC_RELAXED);
                publish_in_order(&ring->released, reader, first_intact);
            }
            continue;
        }
        intptr_t committed = ahead(__atomic_load_n(&ring->commit,
                                                   __ATOMIC_ACQUIRE), reader);
        return committed > 0 ? slot(ring, reader) : NULL;
    }
}

/* Room before the oldest item not released would be overwritten. */
static size_t room(recorder_ring_p ring, ringidx_t writer)
{
    intptr_t used = ahead(writer, __atomic_load_n(&ring->released,
                                                  __ATOMIC_ACQUIRE));
    if (used < 0)
        used = 0;
    return (size_t) used >= ring->size ? 0 : ring->size - (size_t) used;
}

ringidx_t recorder_ring_write(recorder_ring_p ring, const void *data,
                              size_t count,
                              recorder_ring_block_fn write_block,
                              recorder_ring_block_fn commit_block,
                              ringidx_t *writer_index)
{
    if (!ring->size)
        return 0;
    /* A writer that waits for room can never get more than the ring. */
    if (write_block && count > ring->size)
        count = ring->size;

    ringidx_t writer;
    size_t taken;
    do
    {
        writer = __atomic_load_n(&ring->writer, __ATOMIC_ACQUIRE);
        taken = count;
        size_t free_slots = room(ring, writer);
        /* As in recorder 1.2, a block callback that returns true has
         * waited for room by its own rule (often the ring's reader index,
         * which a 1.2 reader may move itself): write all of it. */
        if (write_block && taken > free_slots &&
            !write_block(ring, writer, writer + count))
            taken = free_slots;
        if (advance(&ring->writer, writer, writer + taken))
            break;
    } while (true);
    if (writer_index)
        *writer_index = writer;

    /* Overwriting more than a ring: only the last items stay. */
    size_t skip = taken > ring->size ? taken - ring->size : 0;
    copy_items(ring, writer + skip, (char *) data + skip * ring->item_size,
               taken - skip, true);

    /* Commit after the blocks reserved before this one. */
    for (;;)
    {
        ringidx_t commit = writer;
        if (__atomic_compare_exchange_n(&ring->commit, &commit, writer + taken,
                                        false, __ATOMIC_RELEASE,
                                        __ATOMIC_ACQUIRE))
            break;
        /* Past this block's start: a later writer committed out of order
         * and this one must count its items the same way. */
        bool out_of_order = ahead(commit, writer) > 0;
        if (out_of_order ||
            (commit_block && !commit_block(ring, commit, writer)))
        {
            __atomic_fetch_add(&ring->commit, taken, __ATOMIC_RELEASE);
            break;
        }
        if (!commit_block)
            sched_yield();
    }
    return taken;
}
