/* test_record_merge.c - every reader follows lanes with one cursor and
 * merges them with one merge: a record still being written when a read
 * gets to it is read later, never skipped; overwritten ones are lost and
 * counted; lanes come out in time order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "capture.h"
#include "trace/dump_private.h"
#include "record/record_merge_private.h"

#include <signal.h>

RECORDER(pending, 16, "Records whose writer is slow to commit");

/* The call site of the records this test writes by hand. */
static recorder_site RECORDER_SITE_SECTION late_site =
    { "late %d", __FILE__, "writer", __LINE__, 0 };

static int reset(void **state)
{
    (void) state;
    capture_start();
    recorder_dump();                    /* forget earlier records */
    capture_start();
    return 0;
}

/* ---- a writer that reserved its slot but has not committed it yet -------- */

static recorder_buffer *lane_written(recorder_info *rec)
{
    uint32_t size = (uint32_t) rec->mask + 1;
    for (unsigned l = 0; l < RECORDER_LANES; l++)
    {
        recorder_buffer *lane = RECORDER_LANE(rec->buffer, size, l);
        if (lane->writer)
            return lane;
    }
    fail_msg("no lane of %s has a record", rec->name);
    return NULL;
}

/* Reserve and fill one slot of 'lane' as record.c does, but do not commit
 * it (the writer is preempted there). */
static uint64_t reserve(recorder_buffer *lane, uint32_t size, uint64_t stamp,
                        uint64_t arg)
{
    uint64_t index = __atomic_fetch_add(&lane->writer, 1, __ATOMIC_RELAXED);
    recorder_slot *slot = &RECORDER_BUFFER_SLOTS(lane)[index & (size - 1)];
    slot->word[0] = stamp;
    slot->word[1] = (uintptr_t) &late_site | 1;
    slot->word[2] = arg;
    return index;
}

static void commit(recorder_buffer *lane, uint32_t size, uint64_t index)
{
    recorder_slot *slot = &RECORDER_BUFFER_SLOTS(lane)[index & (size - 1)];
    __atomic_store_n(&slot->seq, recorder_slot_seq(index, false),
                     __ATOMIC_RELEASE);
}

/* Record "before 1", reserve "late 2" by hand, record "after 3". */
static uint64_t before_late_after(recorder_buffer **lane, uint32_t *size)
{
    recorder_info *rec = RECORDER_INFO(pending);
    record(pending, "before %d", 1);
    *lane = lane_written(rec);
    *size = (uint32_t) rec->mask + 1;
    uint64_t last = (*lane)->writer - 1;
    uint64_t stamp = RECORDER_BUFFER_SLOTS(*lane)[last & (*size - 1)].word[0];
    uint64_t late = reserve(*lane, *size, stamp + 1, 2);
    record(pending, "after %d", 3);
    return late;
}

static void assert_in_order(const char *text, const char *first,
                            const char *second)
{
    const char *a = strstr(text, first), *b = strstr(text, second);
    if (!a || !b || b < a)
        fail_msg("'%s' then '%s' expected in:\n%s", first, second, text);
}

static void test_record_pending_at_a_dump_is_printed_by_the_next(void **state)
{
    (void) state;
    recorder_buffer *lane;
    uint32_t size;
    uint64_t late = before_late_after(&lane, &size);

    /* The lane stops before the unfinished record: what follows it in the
     * lane waits too, so the lane stays in order. */
    assert_int_equal(recorder_dump_for("pending"), 1);
    assert_non_null(strstr(captured, "pending: before 1\n"));
    assert_null(strstr(captured, "late"));
    assert_null(strstr(captured, "after"));

    commit(lane, size, late);
    capture_start();
    assert_int_equal(recorder_dump_for("pending"), 2);
    assert_in_order(captured, "pending: late 2\n", "pending: after 3\n");

    capture_start();
    assert_int_equal(recorder_dump_for("pending"), 0);
    assert_string_equal(captured, "");
}

static void test_signal_dump_leaves_pending_record_to_next_dump(void **state)
{
    (void) state;
    recorder_dump_on_signal(SIGUSR1);
    recorder_buffer *lane;
    uint32_t size;
    uint64_t late = before_late_after(&lane, &size);

    raise(SIGUSR1);
    assert_non_null(strstr(captured, "pending: before 1\n"));
    assert_null(strstr(captured, "pending: late"));

    commit(lane, size, late);
    capture_start();
    assert_int_equal(recorder_dump_for("pending"), 2);
    assert_in_order(captured, "pending: late 2\n", "pending: after 3\n");
    signal(SIGUSR1, SIG_DFL);
}

static void test_final_dump_prints_past_a_record_never_finished(void **state)
{
    (void) state;
    recorder_buffer *lane;
    uint32_t size;
    before_late_after(&lane, &size);

    /* The crash handler's dump is the last: nobody will finish it. */
    recorder_output out = recorder_output_current(true);
    recorder_dump_all(&out, true);
    assert_in_order(captured, "pending: before 1\n", "pending: after 3\n");
    assert_null(strstr(captured, "pending: late"));
}

/* ---- lanes made by hand, read with the cursor and the merge -------------- */

#define SLOTS 8

typedef struct hand_lane
{
    recorder_buffer head;
    recorder_slot   slots[SLOTS];
} hand_lane;

/* Write the record at the next index of 'lane', committed or not. */
static uint64_t put(hand_lane *lane, uint64_t stamp, uint64_t arg,
                    bool committed)
{
    uint64_t index = reserve(&lane->head, SLOTS, stamp, arg);
    if (committed)
        commit(&lane->head, SLOTS, index);
    return index;
}

typedef struct taken
{
    uint64_t args[32];
    unsigned sources[32];
    unsigned count;
} taken;

static bool take(const recorder_record *record, unsigned source, void *arg)
{
    taken *t = arg;
    t->args[t->count] = record->args[0];
    t->sources[t->count++] = source;
    return true;
}

static bool gone(void *arg)
{
    (void) arg;
    return true;
}

/* Merge lanes a and b from 'from' (updated), as a channel read does. */
static void merge(hand_lane *a, hand_lane *b, uint64_t from[2], bool dead,
                  uint64_t *lost, taken *t)
{
    lane_losses losses = { .count = lost, .writers_gone = dead ? gone : NULL,
                           .gone = -1 };
    lane_cursor cursors[2];
    lane_cursor_open(&cursors[0], &a->head, SLOTS, from[0], &losses);
    lane_cursor_open(&cursors[1], &b->head, SLOTS, from[1], &losses);
    memset(t, 0, sizeof(*t));
    record_merge(cursors, 2, SIZE_MAX, &losses, take, t);
    from[0] = cursors[0].index;
    from[1] = cursors[1].index;
}

static void assert_taken(const taken *t, unsigned count, const uint64_t *args)
{
    assert_int_equal(t->count, count);
    for (unsigned i = 0; i < count; i++)
        assert_int_equal(t->args[i], args[i]);
}

static void test_merge_is_in_time_order_and_waits_for_a_pending_record(
    void **state)
{
    (void) state;
    static hand_lane a, b;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    put(&a, 10, 1, true);
    put(&b, 20, 2, true);
    uint64_t slow = put(&a, 30, 3, false);
    put(&b, 40, 4, true);
    put(&a, 50, 5, true);
    put(&b, 60, 6, true);

    uint64_t from[2] = { 0, 0 }, lost = 0;
    taken t;
    merge(&a, &b, from, false, &lost, &t);
    assert_taken(&t, 4, (uint64_t[]) { 1, 2, 4, 6 });
    assert_int_equal(t.sources[0], 0);
    assert_int_equal(t.sources[1], 1);
    assert_int_equal(from[0], slow);            /* read again next time */
    assert_int_equal(from[1], 3);

    commit(&a.head, SLOTS, slow);
    merge(&a, &b, from, false, &lost, &t);
    assert_taken(&t, 2, (uint64_t[]) { 3, 5 });
    assert_int_equal(lost, 0);
    merge(&a, &b, from, false, &lost, &t);
    assert_int_equal(t.count, 0);
}

static void test_record_of_a_dead_writer_is_lost_not_waited_for(void **state)
{
    (void) state;
    static hand_lane a, b;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    put(&a, 10, 1, true);
    put(&a, 30, 3, false);
    put(&a, 50, 5, true);
    put(&b, 40, 4, true);

    uint64_t from[2] = { 0, 0 }, lost = 0;
    taken t;
    merge(&a, &b, from, true, &lost, &t);
    assert_taken(&t, 3, (uint64_t[]) { 1, 4, 5 });
    assert_int_equal(lost, 1);
    assert_int_equal(from[0], 3);
}

static void test_lapped_reader_counts_what_it_missed(void **state)
{
    (void) state;
    static hand_lane a, b;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    for (uint64_t i = 0; i < SLOTS + 3; i++)
        put(&a, 100 + i, i, true);

    uint64_t from[2] = { 0, 0 }, lost = 0;
    taken t;
    merge(&a, &b, from, false, &lost, &t);
    assert_int_equal(lost, 3);
    assert_int_equal(t.count, SLOTS);
    assert_int_equal(t.args[0], 3);
    assert_int_equal(t.args[SLOTS - 1], SLOTS + 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define TEST(name) cmocka_unit_test_setup(name, reset)
        TEST(test_record_pending_at_a_dump_is_printed_by_the_next),
        TEST(test_signal_dump_leaves_pending_record_to_next_dump),
        TEST(test_final_dump_prints_past_a_record_never_finished),
        TEST(test_merge_is_in_time_order_and_waits_for_a_pending_record),
        TEST(test_record_of_a_dead_writer_is_lost_not_waited_for),
        TEST(test_lapped_reader_counts_what_it_missed),
    };
    return cmocka_run_group_tests_name("record_merge", tests, NULL, NULL);
}
