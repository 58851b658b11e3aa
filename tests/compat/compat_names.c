/* Usage: compat_names SEGMENT
 * A program written for recorder 1.2, built from the public headers alone
 * as C and as C++ (check-compat-names.sh), that uses the 1.2 names
 * recorder.h keeps: RECORD_0 to RECORD_12 and RECORD_FAST_*,
 * RECORDER_SOURCE_LOCATION and RECORDER_SOURCE_FUNCTION, recorder_append*,
 * recorder_order, recorder_entry and recorder_trace_entry,
 * recorder_export_file and recorder_info's ring. It checks what each does
 * and exits non-zero, naming what differs. */
#include <recorder/recorder.h>
#include <recorder/recorder_share.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

RECORDER(compat, 64, "Records made the recorder 1.2 way");
RECORDER(compat_odd, 100, "A recorder whose size is not a power of two");

static char captured[65536];
static size_t captured_length;
static int failures;

/* As 1.2 does, the library hands a show function one line without its
 * newline: put it back. */
static unsigned capture(const char *text, size_t length, void *arg)
{
    (void) arg;
    if (length > sizeof(captured) - 2 - captured_length)
        length = sizeof(captured) - 2 - captured_length;
    memcpy(captured + captured_length, text, length);
    captured_length += length;
    captured[captured_length++] = '\n';
    captured[captured_length] = 0;
    return (unsigned) length;
}

static void dump_compat(void)
{
    captured_length = 0;
    captured[0] = 0;
    recorder_sort("compat", NULL, capture, NULL);
}

static void expect(const char *what, const char *text, const char *want)
{
    if (strstr(text, want))
        return;
    fprintf(stderr, "%s: missing '%s' in:\n%s\n", what, want, text);
    failures++;
}

static void expect_true(const char *what, int condition)
{
    if (condition)
        return;
    fprintf(stderr, "%s: false\n", what);
    failures++;
}

static void fixed_arity_macros(void)
{
    RECORD_0(compat, "RECORD_0");
    RECORD_1(compat, "RECORD_1 %d", 1);
    RECORD_2(compat, "RECORD_2 %d %d", 1, 2);
    RECORD_3(compat, "RECORD_3 %d %d %d", 1, 2, 3);
    RECORD_4(compat, "RECORD_4 %d %d %d %d", 1, 2, 3, 4);
    RECORD_5(compat, "RECORD_5 %d %d %d %d %d", 1, 2, 3, 4, 5);
    RECORD_6(compat, "RECORD_6 %d %d %d %d %d %d", 1, 2, 3, 4, 5, 6);
    RECORD_7(compat, "RECORD_7 %d %d %d %d %d %d %d", 1, 2, 3, 4, 5, 6, 7);
    RECORD_8(compat, "RECORD_8 %d %d %d %d %d %d %d %d",
             1, 2, 3, 4, 5, 6, 7, 8);
    RECORD_9(compat, "RECORD_9 %d %d %d %d %d %d %d %d %d",
             1, 2, 3, 4, 5, 6, 7, 8, 9);
    RECORD_10(compat, "RECORD_10 %d %d %d %d %d %d %d %d %d %d",
              1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    RECORD_11(compat, "RECORD_11 %d %d %d %d %d %d %d %d %d %d %d",
              1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
    RECORD_12(compat, "RECORD_12 %d %d %d %d %d %d %d %d %d %d %d %d",
              1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    RECORD_FAST_0(compat, "RECORD_FAST_0");
    RECORD_FAST_3(compat, "RECORD_FAST_3 %d %.1f %+s", 1, 2.5, "three");
    RECORD_FAST_12(compat, "RECORD_FAST_12 %d %d %d %d %d %d %d %d %d %d %d %d",
                   1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);

    dump_compat();
    expect("RECORD_0", captured, "compat: RECORD_0\n");
    char want[200];
    size_t at = 0;
    for (int n = 1; n <= 12; n++)
    {
        at += (size_t) snprintf(want + at, sizeof(want) - at, " %d", n);
        char line[240];
        snprintf(line, sizeof(line), "compat: RECORD_%d%s\n", n, want);
        expect("RECORD_N", captured, line);
    }
    expect("RECORD_FAST_0", captured, "compat: RECORD_FAST_0\n");
    expect("RECORD_FAST_3", captured, "compat: RECORD_FAST_3 1 2.5 three\n");
    snprintf(want, sizeof(want), "compat: RECORD_FAST_12%s\n",
             " 1 2 3 4 5 6 7 8 9 10 11 12");
    expect("RECORD_FAST_12", captured, want);
}

static void source_macros(void)
{
    char want[300];
    snprintf(want, sizeof(want), "%s:%d:", __FILE__, __LINE__ + 1);
    const char *location = RECORDER_SOURCE_LOCATION;
    expect_true("RECORDER_SOURCE_LOCATION is FILE:LINE:",
                strcmp(location, want) == 0);
    expect_true("RECORDER_SOURCE_FUNCTION is the function",
                strcmp(RECORDER_SOURCE_FUNCTION, "source_macros") == 0);
}

static void append_functions(void)
{
    uintptr_t order = recorder_order;
    char first_line[300];
    snprintf(first_line, sizeof(first_line), "%s:%d:append_functions:",
             __FILE__, __LINE__ + 1);
    ringidx_t first = recorder_append(RECORDER_INFO(compat), RECORDER_SOURCE_FUNCTION, RECORDER_SOURCE_LOCATION "append %d %+s", 42, (uintptr_t) "text", 0, 0); /* one line: its __LINE__ */
    ringidx_t second = recorder_append2(
        RECORDER_INFO(compat), RECORDER_SOURCE_FUNCTION,
        RECORDER_SOURCE_LOCATION "append2 %d %d %d %d %d %d %d %d",
        1, 2, 3, 4, 5, 6, 7, 8);
    recorder_append3(RECORDER_INFO(compat), RECORDER_SOURCE_FUNCTION,
                     RECORDER_SOURCE_LOCATION
                     "append3 %d %d %d %d %d %d %d %d %d %d %d %d",
                     1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    recorder_append_fast(RECORDER_INFO(compat), "by_hand",
                         "fast without location %u", 7, 0, 0, 0);
    recorder_append_fast2(RECORDER_INFO(compat), RECORDER_SOURCE_FUNCTION,
                          RECORDER_SOURCE_LOCATION "fast2 %d %d %d %d %d",
                          1, 2, 3, 4, 5, 0, 0, 0);
    recorder_append_fast3(RECORDER_INFO(compat), RECORDER_SOURCE_FUNCTION,
                          RECORDER_SOURCE_LOCATION "fast3 %d %d",
                          1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    /* The same format again: the same site, the next index. */
    for (int i = 0; i < 3; i++)
        recorder_append(RECORDER_INFO(compat), "loop",
                        "again %d", (uintptr_t) i, 0, 0, 0);

    expect_true("recorder_append returns the record's index in its lane",
                second == first + 1);
    expect_true("recorder_order counts the 9 appended records",
                recorder_order - order == 9);

    RECORDER_TWEAK(recorder_location) = 1;
    RECORDER_TWEAK(recorder_function) = 1;
    dump_compat();
    RECORDER_TWEAK(recorder_location) = 0;
    RECORDER_TWEAK(recorder_function) = 0;
    char line[400];
    snprintf(line, sizeof(line), "%s[%lu ", first_line, (unsigned long) first);
    expect("append location, function and order", captured, line);
    expect("append", captured, "] compat: append 42 text\n");
    expect("append2", captured, "] compat: append2 1 2 3 4 5 6 7 8\n");
    expect("append3", captured,
           "] compat: append3 1 2 3 4 5 6 7 8 9 10 11 12\n");
    expect("append_fast", captured,
           ":by_hand:[");                 /* no location, only the function */
    expect("append_fast", captured, "] compat: fast without location 7\n");
    expect("append_fast2", captured, "] compat: fast2 1 2 3 4 5\n");
    expect("append_fast3", captured, "] compat: fast3 1 2\n");
    for (int i = 0; i < 3; i++)
    {
        snprintf(line, sizeof(line), "] compat: again %d\n", i);
        expect("append again", captured, line);
    }
}

static void trace_entry(void)
{
    recorder_entry entry;
    entry.format = RECORDER_SOURCE_LOCATION "entry %d and %+s";
    entry.order = 7;
    entry.timestamp = 1123456;          /* 1.123456 s */
    entry.where = "some_function";
    entry.args[0] = 5;
    entry.args[1] = (uintptr_t) "five";
    entry.args[2] = entry.args[3] = 0;
    recorder_show_fn old = recorder_configure_show(capture);
    captured_length = 0;
    recorder_trace_entry(RECORDER_INFO(compat), &entry);
    RECORDER_TWEAK(recorder_function) = 1;
    recorder_trace_entry(RECORDER_INFO(compat), &entry);
    RECORDER_TWEAK(recorder_function) = 0;
    recorder_configure_show(old);
    expect("recorder_trace_entry", captured,
           "[7 1.123456] compat: entry 5 and five\n");
    expect("recorder_trace_entry", captured,
           "some_function:[7 1.123456] compat: entry 5 and five\n");
}

static void ring_field(void)
{
    expect_true("ring.size of a 64-entry recorder is 64",
                RECORDER_INFO(compat)->ring.size == 64);
    expect_true("ring.size of a 100-entry recorder is 128",
                RECORDER_INFO(compat_odd)->ring.size == 128);
    expect_true("ring.item_size is a slot's", RECORDER_INFO(compat)->
                ring.item_size == sizeof(recorder_slot));
}

/* Formats an append used before the segment existed are in it; later
 * ones say that they are not. Both render in this process. */
static void shared(const char *path)
{
    setenv("RECORDER_SHARE", path, 1);
    expect_true("recorder_export_file is $RECORDER_SHARE",
                strcmp(recorder_export_file(), path) == 0);
    recorder_append(RECORDER_INFO(compat), "shared", "before sharing %d",
                    1, 0, 0, 0);
    char spec[400];
    snprintf(spec, sizeof(spec), "share=%s", path);
    expect_true("share", recorder_trace_set(spec) == RECORDER_TRACE_OK);
    recorder_append(RECORDER_INFO(compat), "shared", "after sharing %d",
                    2, 0, 0, 0);

    dump_compat();
    expect("in-process dump while sharing", captured,
           "compat: before sharing 1\n");
    expect("in-process dump while sharing", captured,
           "compat: after sharing 2\n");

    char error[256];
    recorder_share *segment = recorder_share_open(path, error, sizeof(error));
    if (!segment)
    {
        fprintf(stderr, "cannot open %s: %s\n", path, error);
        failures++;
        return;
    }
    FILE *out = tmpfile();
    recorder_share_dump(segment, "compat", out);
    recorder_share_close(segment);
    rewind(out);
    size_t got = fread(captured, 1, sizeof(captured) - 1, out);
    captured[got] = 0;
    fclose(out);
    expect("segment", captured, "compat: before sharing 1\n");
    expect("segment", captured, "compat: (recorder 1.2 record: "
           "its format is not in this segment)\n");
}

int main(int argc, char **argv)
{
    if (argc != 2)
    {
        fprintf(stderr, "usage: %s SEGMENT\n", argv[0]);
        return 2;
    }
    fixed_arity_macros();
    source_macros();
    append_functions();
    trace_entry();
    ring_field();
    shared(argv[1]);
    printf("compat_names: %d failures\n", failures);
    return failures != 0;
}
