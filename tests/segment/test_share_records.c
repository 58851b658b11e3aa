/* test_share_records.c - following a flight recorder record by record:
 * the records of the recorders a regex names, in time order, each once;
 * the next read gives only newer ones; a new segment starts over; a
 * corrupt segment gives what it can, never a crash; each record comes with
 * its site's format, file, line and function, its lane and its arguments
 * typed by the format.
 *
 * The test process shares its own recorders and reads them back. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "recorder.h"
#include "recorder_share.h"
#include "segment/share_layout_private.h"

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

RECORDER(feed_event, 64, "Events the test follows");
RECORDER(feed_other, 64, "Records the regex leaves out");
RECORDER(tiny_event, 8, "A small ring, to overrun");
RECORDER(typed_event, 64, "Records whose arguments are looked at");

static char directory[256];
static char path[320];

typedef struct seen
{
    unsigned count;
    double   time[256];
    char     recorder[256][64];
    char     message[256][128];
} seen;

static void take(const recorder_share_record *record, void *arg)
{
    seen *s = arg;
    if (s->count >= 256)
        return;
    s->time[s->count] = record->time;
    snprintf(s->recorder[s->count], sizeof(s->recorder[0]), "%s",
             record->recorder);
    snprintf(s->message[s->count], sizeof(s->message[0]), "%s",
             record->message);
    s->count++;
}

/* What the typed test keeps of a record: its located fields and arguments
 * (strings copied, they live during the callback only). */
typedef struct typed
{
    unsigned           count;
    uint64_t           ticks[8], site[8];
    unsigned           line[8], lane[8], nargs[8];
    char               format[8][160], file[8][128], function[8][64];
    char               message[8][256];
    recorder_share_arg args[8][RECORDER_MAX_ARGS];
    char               strings[8][RECORDER_MAX_ARGS][64];
} typed;

static void take_typed(const recorder_share_record *record, void *arg)
{
    typed *t = arg;
    unsigned n = t->count++;
    if (n >= 8)
        return;
    t->ticks[n] = record->ticks;
    t->site[n] = record->site;
    t->line[n] = record->line;
    t->lane[n] = record->lane;
    t->nargs[n] = record->nargs;
    snprintf(t->format[n], sizeof(t->format[n]), "%s", record->format);
    snprintf(t->file[n], sizeof(t->file[n]), "%s", record->file);
    snprintf(t->function[n], sizeof(t->function[n]), "%s", record->function);
    snprintf(t->message[n], sizeof(t->message[n]), "%s", record->message);
    for (unsigned a = 0; a < record->nargs && a < RECORDER_MAX_ARGS; a++)
    {
        t->args[n][a] = record->args[a];
        if (record->args[a].type == RECORDER_SHARE_ARG_STRING)
        {
            snprintf(t->strings[n][a], sizeof(t->strings[n][a]), "%s",
                     record->args[a].value.s);
            t->args[n][a].value.s = t->strings[n][a];
        }
    }
}

static recorder_share *open_ok(const char *at)
{
    char error[512];
    recorder_share *share = recorder_share_open(at, error, sizeof(error));
    if (!share)
        fail_msg("cannot open %s: %s", at, error);
    return share;
}

static recorder_share_records *follow(const char *regex)
{
    char error[256];
    recorder_share_records *records = recorder_share_records_new(regex, error,
                                                                 sizeof(error));
    if (!records)
        fail_msg("cannot follow '%s': %s", regex ? regex : "(all)", error);
    return records;
}

static void test_records_in_order_then_only_new_ones(void **state)
{
    (void) state;
    for (int n = 0; n < 5; n++)
    {
        record(feed_event, "spike %d", n);
        record(feed_other, "noise %d", n);
    }
    recorder_share *share = open_ok(path);
    recorder_share_records *records = follow("feed_e.*");
    seen s = { 0 };
    uint64_t lost = 99;
    assert_int_equal(recorder_share_records_read(share, records, SIZE_MAX,
                                                 take, &s, &lost), 5);
    assert_int_equal(lost, 0);
    for (unsigned i = 0; i < 5; i++)
    {
        char want[32];
        snprintf(want, sizeof(want), "spike %u", i);
        assert_string_equal(s.message[i], want);
        assert_string_equal(s.recorder[i], "feed_event");
        assert_true(s.time[i] >= 0 && s.time[i] < 3600);
        if (i)
            assert_true(s.time[i] >= s.time[i - 1]);
    }

    /* Nothing new: nothing given. */
    seen again = { 0 };
    assert_int_equal(recorder_share_records_read(share, records, SIZE_MAX,
                                                 take, &again, NULL), 0);

    /* Only the new ones, after the old, and at most 'max' per read. */
    record(feed_event, "spike %d", 5);
    record(feed_other, "noise %d", 5);
    record(feed_event, "spike %d with \033]0;title\a", 6);
    assert_int_equal(recorder_share_records_read(share, records, 1, take,
                                                 &again, NULL), 1);
    assert_int_equal(recorder_share_records_read(share, records, SIZE_MAX,
                                                 take, &again, NULL), 1);
    assert_int_equal(again.count, 2);
    assert_string_equal(again.message[0], "spike 5");
    assert_true(again.time[0] >= s.time[4]);
    /* Text from the segment comes escaped. */
    assert_string_equal(again.message[1], "spike 6 with \\x1b]0;title\\x07");

    /* Two recorders: merged in time order. */
    recorder_share_records *both = follow("feed_(event|other)");
    seen merged = { 0 };
    assert_int_equal(recorder_share_records_read(share, both, SIZE_MAX, take,
                                                 &merged, NULL), 13);
    for (unsigned i = 1; i < merged.count; i++)
        assert_true(merged.time[i] >= merged.time[i - 1]);
    assert_string_equal(merged.message[0], "spike 0");
    assert_string_equal(merged.message[1], "noise 0");
    recorder_share_records_delete(both);

    recorder_share_records_delete(records);
    recorder_share_close(share);
}

static void test_times_match_the_dump(void **state)
{
    (void) state;
    recorder_share *share = open_ok(path);
    recorder_share_records *records = follow("feed_event");
    seen s = { 0 };
    recorder_share_records_read(share, records, SIZE_MAX, take, &s, NULL);
    assert_true(s.count >= 5);
    char dumped[8192];
    FILE *out = fmemopen(dumped, sizeof(dumped), "w");
    assert_non_null(out);
    recorder_share_dump(share, "feed_event", out);
    fclose(out);
    /* Each dump line says "[ORDER TIME] feed_event: MESSAGE", TIME in
     * microseconds, cut. */
    unsigned line = 0;
    for (char *p = dumped; *p && line < s.count; line++)
    {
        char *bracket = strchr(p, '[');
        assert_non_null(bracket);
        char *space = strchr(bracket, ' ');
        assert_non_null(space);
        double shown = strtod(space + 1, NULL);
        assert_true(fabs(shown - s.time[line]) < 2e-6);
        assert_non_null(strstr(p, s.message[line]));
        p = strchr(p, '\n');
        assert_non_null(p);
        p++;
    }
    assert_int_equal(line, s.count);
    recorder_share_records_delete(records);
    recorder_share_close(share);
}

static void test_regex_and_losses(void **state)
{
    (void) state;
    char error[256] = "";
    assert_null(recorder_share_records_new("feed_(", error, sizeof(error)));
    assert_true(error[0] != 0);

    recorder_share *share = open_ok(path);
    recorder_share_records *none = follow("no_such_recorder");
    seen s = { 0 };
    assert_int_equal(recorder_share_records_read(share, none, SIZE_MAX, take,
                                                 &s, NULL), 0);
    recorder_share_records_delete(none);

    /* A reader that falls behind a small ring hears how many it missed. */
    recorder_share_records *tiny = follow("TINY_EVENT");
    record(tiny_event, "first");
    assert_int_equal(recorder_share_records_read(share, tiny, SIZE_MAX, take,
                                                 &s, NULL), 1);
    for (int n = 0; n < 40; n++)
        record(tiny_event, "burst %d", n);
    uint64_t lost = 0;
    seen burst = { 0 };
    size_t got = recorder_share_records_read(share, tiny, SIZE_MAX, take,
                                             &burst, &lost);
    assert_true(got > 0 && got <= 8);
    assert_int_equal(got + lost, 40);
    assert_string_equal(burst.message[got - 1], "burst 39");
    recorder_share_records_delete(tiny);
    recorder_share_close(share);
}

static const char typed_format[] =
    "i=%d u=%u x=%#x c=%c h=%hhd l=%ld r=%.2f s=%s t=%+s p=%p w=%*d";
static const char fetched_text[] = "hello \001 world";

static void *record_from_a_thread(void *arg)
{
    unsigned *line = arg;
    *line = __LINE__; record(typed_event, "from a thread %u", 77u);
    return NULL;
}

static void test_records_come_typed_and_located(void **state)
{
    (void) state;
    recorder_share *share = open_ok(path);
    recorder_share_records *records = follow("typed_event");
    unsigned line[3];
    static const char plain[] = "plain";
    for (unsigned n = 0; n < 2; n++)
    {
        line[n] = __LINE__; record(typed_event, typed_format, -5, 4000000000u, 0xbeef, 'A', 0x1ff, -(1L << 40), 2.5, plain, fetched_text, (void *) 0x1234, 7, -9);
    }
    pthread_t thread;
    assert_int_equal(pthread_create(&thread, NULL, record_from_a_thread,
                                    &line[2]), 0);
    assert_int_equal(pthread_join(thread, NULL), 0);

    typed *t = calloc(1, sizeof(*t));
    assert_non_null(t);
    assert_int_equal(recorder_share_records_read(share, records, SIZE_MAX,
                                                 take_typed, t, NULL), 3);
    /* The dump shows a plain %s as the pointer it is. */
    char message[256];
    snprintf(message, sizeof(message),
             "i=-5 u=4000000000 x=0xbeef c=A h=-1 l=-1099511627776 r=2.50 "
             "s=%p t=hello \\x01 world p=0x1234 w=     -9", (void *) plain);
    for (unsigned n = 0; n < 2; n++)
    {
        assert_string_equal(t->message[n], message);
        assert_string_equal(t->format[n], typed_format);
        assert_string_equal(t->file[n], __FILE__);
        assert_string_equal(t->function[n], __func__);
        assert_int_equal(t->line[n], line[n]);
        assert_int_equal(t->nargs[n], 12);
        const recorder_share_arg *a = t->args[n];
        assert_int_equal(a[0].type, RECORDER_SHARE_ARG_SIGNED);
        assert_int_equal(a[0].value.i, -5);
        assert_int_equal(a[1].type, RECORDER_SHARE_ARG_UNSIGNED);
        assert_true(a[1].value.u == 4000000000u);
        assert_int_equal(a[2].type, RECORDER_SHARE_ARG_UNSIGNED);
        assert_int_equal(a[2].value.u, 0xbeef);
        assert_int_equal(a[3].type, RECORDER_SHARE_ARG_SIGNED);
        assert_int_equal(a[3].value.i, 'A');
        /* %hhd reads a signed char, as printf does: 0x1ff is -1. */
        assert_int_equal(a[4].type, RECORDER_SHARE_ARG_SIGNED);
        assert_int_equal(a[4].value.i, -1);
        assert_int_equal(a[5].type, RECORDER_SHARE_ARG_SIGNED);
        assert_true(a[5].value.i == -(1LL << 40));
        assert_int_equal(a[6].type, RECORDER_SHARE_ARG_REAL);
        assert_true(a[6].value.r == 2.5);
        /* A plain %s is a pointer in the writer: no text. A %+s is
         * fetched, and escaped like the message. */
        assert_int_equal(a[7].type, RECORDER_SHARE_ARG_STRING);
        assert_string_equal(a[7].value.s, "");
        assert_int_equal(a[8].type, RECORDER_SHARE_ARG_STRING);
        assert_string_equal(a[8].value.s, "hello \\x01 world");
        assert_int_equal(a[9].type, RECORDER_SHARE_ARG_POINTER);
        assert_int_equal(a[9].value.u, 0x1234);
        /* The '*' width: no conversion prints it. */
        assert_int_equal(a[10].type, RECORDER_SHARE_ARG_POINTER);
        assert_int_equal(a[10].value.u, 7);
        assert_int_equal(a[11].type, RECORDER_SHARE_ARG_SIGNED);
        assert_int_equal(a[11].value.i, -9);
    }
    /* One site, one identity; the clock moves forward. */
    assert_true(t->site[0] == t->site[1]);
    assert_true(t->site[2] != t->site[0]);
    assert_true(t->ticks[0] <= t->ticks[1] && t->ticks[1] <= t->ticks[2]);
    assert_true(t->ticks[0] != 0);

    /* The other thread's record: its own site, line and lane. */
    assert_string_equal(t->message[2], "from a thread 77");
    assert_string_equal(t->format[2], "from a thread %u");
    assert_string_equal(t->function[2], "record_from_a_thread");
    assert_int_equal(t->line[2], line[2]);
    assert_int_equal(t->nargs[2], 1);
    assert_int_equal(t->args[2][0].type, RECORDER_SHARE_ARG_UNSIGNED);
    assert_int_equal(t->args[2][0].value.u, 77);
    /* The main thread recorded first of all threads: lane 0; the other
     * thread took a lane of its own. */
    assert_int_equal(t->lane[0], 0);
    assert_int_equal(t->lane[1], 0);
    assert_true(t->lane[2] != 0 && t->lane[2] < RECORDER_LANES);

    free(t);
    recorder_share_records_delete(records);
    recorder_share_close(share);
}

/* A copy of the segment. */
static size_t snapshot(uint8_t **data)
{
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    *data = malloc((size_t) st.st_size);
    assert_non_null(*data);
    assert_int_equal(read(fd, *data, (size_t) st.st_size), st.st_size);
    close(fd);
    return (size_t) st.st_size;
}

static void write_copy(const char *at, const uint8_t *data, size_t size)
{
    int fd = open(at, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, size), (ssize_t) size);
    close(fd);
}

static void test_new_segment_starts_over(void **state)
{
    (void) state;
    recorder_share *share = open_ok(path);
    recorder_share_records *records = follow("feed_event");
    seen s = { 0 };
    size_t all = recorder_share_records_read(share, records, SIZE_MAX, take,
                                             &s, NULL);
    assert_true(all >= 7);
    recorder_share_close(share);

    /* The same segment again: nothing new. */
    share = open_ok(path);
    assert_int_equal(recorder_share_records_read(share, records, SIZE_MAX,
                                                 take, &s, NULL), 0);
    recorder_share_close(share);

    /* Another generation (a new process at the path): from the oldest. */
    uint8_t *data;
    size_t size = snapshot(&data);
    ((share_header *) data)->generation ^= 0x5a5a;
    char other[400];
    snprintf(other, sizeof(other), "%s/other", directory);
    write_copy(other, data, size);
    share = open_ok(other);
    seen fresh = { 0 };
    assert_int_equal(recorder_share_records_read(share, records, SIZE_MAX,
                                                 take, &fresh, NULL), all);
    assert_string_equal(fresh.message[0], "spike 0");
    recorder_share_close(share);
    free(data);
    recorder_share_records_delete(records);
}

static void test_corrupt_segments_do_not_crash(void **state)
{
    (void) state;
    uint8_t *data;
    size_t size = snapshot(&data);
    const share_header *h = (const share_header *) data;
    uint8_t *copy = malloc(size);
    assert_non_null(copy);
    char other[400];
    snprintf(other, sizeof(other), "%s/corrupt", directory);
    uint64_t values[] = { 0, 1, 7, 0x7FFFFFFF, 0xFFFFFFFF, UINT64_MAX,
                          size, size - 1 };
    uint64_t regions[] = { h->recorders.offset, h->sites.offset,
                           h->rings.offset, h->strings.offset,
                           offsetof(share_header, recorders.count) };
    unsigned runs = 0;
    srand(11);
    for (unsigned r = 0; r < sizeof(regions) / sizeof(*regions); r++)
        for (unsigned word = 0; word < 48; word++)
            for (unsigned v = 0; v < sizeof(values) / sizeof(*values); v++)
            {
                uint64_t at = regions[r] + word * 4;
                if (at + 8 > size)
                    continue;
                memcpy(copy, data, size);
                memcpy(copy + at, &values[v], 8);
                /* And some noise in the rings. */
                uint64_t noise = h->rings.offset + (uint64_t) rand() % 4096;
                if (noise < size)
                    copy[noise] ^= (uint8_t) rand();
                write_copy(other, copy, size);
                char error[256];
                recorder_share *share = recorder_share_open(other, error,
                                                            sizeof(error));
                if (!share)
                    continue;
                recorder_share_records *records = follow(NULL);
                seen s = { 0 };
                recorder_share_records_read(share, records, SIZE_MAX, take, &s,
                                            NULL);
                recorder_share_records_read(share, records, SIZE_MAX, take, &s,
                                            NULL);
                recorder_share_records_delete(records);
                recorder_share_close(share);
                runs++;
            }
    print_message("%u corrupted segments followed without a crash\n", runs);
    assert_true(runs > 100);
    free(copy);
    free(data);
}

int main(void)
{
    snprintf(directory, sizeof(directory), "/tmp/recorder_test_XXXXXX");
    if (!mkdtemp(directory))
        return 1;
    snprintf(path, sizeof(path), "%s/segment", directory);
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s", path);
    if (recorder_trace_set(spec) != RECORDER_TRACE_OK)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_records_in_order_then_only_new_ones),
        cmocka_unit_test(test_times_match_the_dump),
        cmocka_unit_test(test_regex_and_losses),
        cmocka_unit_test(test_records_come_typed_and_located),
        cmocka_unit_test(test_new_segment_starts_over),
        cmocka_unit_test(test_corrupt_segments_do_not_crash),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char command[400];
    snprintf(command, sizeof(command), "rm -rf '%s'", directory);
    if (system(command) != 0)
        failed++;
    return failed;
}
