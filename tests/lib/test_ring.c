/* test_ring.c - ring wrap-around, whole records under races, stress. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "capture.h"
#include "record/slot_read_private.h"

#include <pthread.h>

RECORDER(small, 8, "Eight slots, to wrap quickly");
RECORDER(racy, 256, "Written by one thread while another reads");
RECORDER(left, 1024, "First stress thread");
RECORDER(right, 1024, "Second stress thread");
RECORDER(shared, 1024, "Both stress threads");

#define STRESS_RECORDS  500000          /* per thread: a million in all */

/* Every record carries its sequence number and values derived from it, so a
 * torn record (words from two different records) is detectable. */
#define PATTERN(i, k)   ((uint64_t) (i) * 0x9E3779B97F4A7C15ull + (k))

static recorder_buffer *lane(recorder_info *rec, unsigned which)
{
    return RECORDER_LANE(rec->buffer, rec->mask + 1, which);
}

static uint64_t lane_written(recorder_info *rec, unsigned which)
{
    return __atomic_load_n(&lane(rec, which)->writer, __ATOMIC_ACQUIRE);
}

/* The one lane written so far (these recorders have a single writer). */
static unsigned written_lane(recorder_info *rec)
{
    unsigned found = RECORDER_LANES;
    for (unsigned l = 0; l < RECORDER_LANES; l++)
        if (lane_written(rec, l))
        {
            assert_int_equal(found, RECORDER_LANES);
            found = l;
        }
    assert_true(found < RECORDER_LANES);
    return found;
}

/* Read the newest 'max' slots' worth of whole records of one lane. */
static unsigned read_recent(recorder_info *rec, unsigned which,
                            recorder_record *out, unsigned max)
{
    recorder_buffer *buffer = lane(rec, which);
    uint64_t end = __atomic_load_n(&buffer->writer, __ATOMIC_ACQUIRE);
    uint32_t size = (uint32_t) rec->mask + 1;
    uint64_t span = max < size ? max : size;
    uint64_t start = end > span ? end - span : 0;
    unsigned count = 0;
    for (uint64_t index = start; index < end && count < max;)
    {
        recorder_read_status status =
            recorder_slot_read(RECORDER_BUFFER_SLOTS(buffer), size,
                               &buffer->writer, index, &out[count]);
        if (status == RECORDER_READ_OK)
        {
            index += out[count].slots;
            count++;
        }
        else
        {
            index++;
        }
    }
    return count;
}

static void test_ring_size_rounds_up_to_power_of_two(void **state)
{
    (void) state;
    assert_int_equal(RECORDER_SLOTS_FOR(8), 8);
    assert_int_equal(RECORDER_SLOTS_FOR(9), 16);
    assert_int_equal(RECORDER_SLOTS_FOR(1000), 1024);
    assert_int_equal(RECORDER_SLOTS_FOR(1), 4);
    assert_int_equal(RECORDER_INFO(small)->mask + 1, 8);
}

static void test_wrap_around_keeps_last_records(void **state)
{
    (void) state;
    capture_start();
    recorder_dump_for("small");
    capture_start();
    for (int i = 0; i < 20; i++)
        record(small, "item %d", i);
    assert_int_equal(recorder_dump_for("small"), 8);
    for (int i = 0; i < 20; i++)
    {
        char text[32];
        snprintf(text, sizeof(text), "small: item %d\n", i);
        if (i < 12)
            assert_null(strstr(captured, text));
        else
            assert_non_null(strstr(captured, text));
    }
}

static void test_wrap_around_with_two_slot_records(void **state)
{
    (void) state;
    capture_start();
    recorder_dump_for("small");
    for (int i = 0; i < 21; i++)
    {
        if (i % 3 == 0)
            record(small, "%d %d %d %d %d %d %d", i, i, i, i, i, i, i);
        else
            record(small, "%d", i);
    }
    recorder_record records[16];
    unsigned count = read_recent(RECORDER_INFO(small),
                                 written_lane(RECORDER_INFO(small)), records, 16);
    assert_true(count >= 5);
    int previous = -1;
    for (unsigned r = 0; r < count; r++)
    {
        int value = (int) records[r].args[0];
        assert_true(value > previous);
        previous = value;
        if (records[r].nargs == 7)
            for (unsigned a = 1; a < 7; a++)
                assert_int_equal(records[r].args[a], value);
    }
    assert_int_equal(previous, 20);
}

static int stop_writer;
static void *racy_writer(void *arg)
{
    (void) arg;
    for (uint64_t i = 0; !__atomic_load_n(&stop_writer, __ATOMIC_RELAXED); i++)
    {
        if (i & 1)
            record(racy, "%lu %lu %lu %lu %lu", i, PATTERN(i, 1),
                   PATTERN(i, 2), PATTERN(i, 3), PATTERN(i, 4));
        else
            record(racy, "%lu %lu %lu %lu %lu %lu %lu %lu", i,
                   PATTERN(i, 1), PATTERN(i, 2), PATTERN(i, 3),
                   PATTERN(i, 4), PATTERN(i, 5), PATTERN(i, 6),
                   PATTERN(i, 7));
    }
    return NULL;
}

static void check_whole(const recorder_record *r)
{
    uint64_t i = r->args[0];
    unsigned expected = (i & 1) ? 5 : 8;
    if (r->nargs != expected)
        fail_msg("record %lu has %u args, expected %u", (unsigned long) i,
                 r->nargs, expected);
    for (unsigned k = 1; k < r->nargs; k++)
        if (r->args[k] != PATTERN(i, k))
            fail_msg("record %lu torn at argument %u", (unsigned long) i, k);
}

static void test_reader_racing_writer_never_sees_torn_records(void **state)
{
    (void) state;
    __atomic_store_n(&stop_writer, 0, __ATOMIC_RELAXED);
    pthread_t writer;
    pthread_create(&writer, NULL, racy_writer, NULL);
    unsigned long checked = 0;
    static recorder_record records[256];
    recorder_info *rec = RECORDER_INFO(racy);
    unsigned which = RECORDER_LANES;
    while (which == RECORDER_LANES)     /* let the writer start */
        for (unsigned l = 0; l < RECORDER_LANES; l++)
            if (lane_written(rec, l) >= 1000)
                which = l;
    uint64_t deadline = recorder_tick() + 300000; /* read for 0.3 s */
    while (recorder_tick() < deadline)
    {
        unsigned count = read_recent(rec, which, records, 32);
        for (unsigned r = 0; r < count; r++)
            check_whole(&records[r]);
        checked += count;
    }
    __atomic_store_n(&stop_writer, 1, __ATOMIC_RELAXED);
    pthread_join(writer, NULL);
    print_message("checked %lu records read while being written\n", checked);
    assert_true(checked > 1000);
}

typedef struct stress { recorder_info *rec; uint64_t tag; } stress;

static void *stress_writer(void *arg)
{
    stress *s = arg;
    for (uint64_t i = 0; i < STRESS_RECORDS; i++)
    {
        if (s->rec == RECORDER_INFO(left))
            record(left, "%lu %lu %lu", s->tag, i, PATTERN(i, s->tag));
        else if (s->rec == RECORDER_INFO(right))
            record(right, "%lu %lu %lu", s->tag, i, PATTERN(i, s->tag));
        else
            record(shared, "%lu %lu %lu", s->tag, i, PATTERN(i, s->tag));
    }
    return NULL;
}

static void run_stress(stress *a, stress *b)
{
    pthread_t ta, tb;
    pthread_create(&ta, NULL, stress_writer, a);
    pthread_create(&tb, NULL, stress_writer, b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
}

static void test_two_threads_two_recorders_keep_last_entries_in_order(void **state)
{
    (void) state;
    stress a = { RECORDER_INFO(left), 1 }, b = { RECORDER_INFO(right), 2 };
    run_stress(&a, &b);
    stress *both[] = { &a, &b };
    static recorder_record records[1024];
    for (unsigned s = 0; s < 2; s++)
    {
        recorder_info *rec = both[s]->rec;
        unsigned which = written_lane(rec);
        unsigned count = read_recent(rec, which, records, 1024);
        assert_int_equal(count, rec->mask + 1);
        for (unsigned r = 0; r < count; r++)
        {
            uint64_t expected = STRESS_RECORDS - count + r;
            assert_int_equal(records[r].args[0], both[s]->tag);
            assert_int_equal(records[r].args[1], expected);
            assert_int_equal(records[r].args[2],
                             PATTERN(expected, both[s]->tag));
            assert_int_equal(records[r].index,
                             lane_written(rec, which) - count + r);
        }
    }
}

/* Each thread writes its own lane: both keep their newest records whole
 * and in order, and neither pushes out the other's. */
static void test_two_threads_one_recorder_write_their_own_lanes(void **state)
{
    (void) state;
    recorder_info *rec = RECORDER_INFO(shared);
    stress a = { rec, 1 }, b = { rec, 2 };
    run_stress(&a, &b);
    static recorder_record records[1024];
    uint64_t total = 0;
    bool tag_seen[3] = { false, false, false };
    for (unsigned l = 0; l < RECORDER_LANES; l++)
    {
        total += lane_written(rec, l);
        if (!lane_written(rec, l))
            continue;
        assert_int_equal(lane_written(rec, l), STRESS_RECORDS);
        unsigned count = read_recent(rec, l, records, 1024);
        assert_int_equal(count, 1024);
        uint64_t tag = records[0].args[0];
        assert_true(tag == 1 || tag == 2);
        assert_false(tag_seen[tag]);
        tag_seen[tag] = true;
        for (unsigned r = 0; r < count; r++)
        {
            uint64_t expected = STRESS_RECORDS - count + r;
            assert_int_equal(records[r].args[0], tag);
            assert_int_equal(records[r].args[1], expected);
            assert_int_equal(records[r].args[2], PATTERN(expected, tag));
        }
    }
    assert_int_equal(total, 2 * STRESS_RECORDS);
    assert_true(tag_seen[1] && tag_seen[2]);
}

RECORDER(interleaved, 256, "Two threads taking turns");
static int turn;

static void *take_turns(void *arg)
{
    int me = (int) (intptr_t) arg;
    for (int i = 0; i < 50; i++)
    {
        while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != me)
            ;
        record(interleaved, "thread %d step %d", me, i);
        __atomic_store_n(&turn, 1 - me, __ATOMIC_RELEASE);
    }
    return NULL;
}

/* Records two threads made in turns come out of a dump in the order they
 * were made, although each thread wrote its own lane. */
static void test_dump_merges_lanes_in_time_order(void **state)
{
    (void) state;
    pthread_t threads[2];
    __atomic_store_n(&turn, 0, __ATOMIC_RELEASE);
    for (intptr_t t = 0; t < 2; t++)
        pthread_create(&threads[t], NULL, take_turns, (void *) t);
    for (int t = 0; t < 2; t++)
        pthread_join(threads[t], NULL);
    capture_start();
    assert_int_equal(recorder_dump_for("interleaved"), 100);
    const char *at = captured;
    for (int i = 0; i < 50; i++)
        for (int me = 0; me < 2; me++)
        {
            char text[64];
            snprintf(text, sizeof(text), "interleaved: thread %d step %d\n",
                     me, i);
            const char *found = strstr(at, text);
            if (!found)
                fail_msg("'%s' missing or out of order in:\n%s", text,
                         captured);
            at = found + strlen(text);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring_size_rounds_up_to_power_of_two),
        cmocka_unit_test(test_wrap_around_keeps_last_records),
        cmocka_unit_test(test_wrap_around_with_two_slot_records),
        cmocka_unit_test(test_reader_racing_writer_never_sees_torn_records),
        cmocka_unit_test(test_two_threads_two_recorders_keep_last_entries_in_order),
        cmocka_unit_test(test_two_threads_one_recorder_write_their_own_lanes),
        cmocka_unit_test(test_dump_merges_lanes_in_time_order),
    };
    return cmocka_run_group_tests_name("ring", tests, NULL, NULL);
}
