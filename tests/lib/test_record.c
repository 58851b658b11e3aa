/* test_record.c - what record() keeps and how dumps render it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "capture.h"

#include <limits.h>
#include <pthread.h>
#include <regex.h>
#include <stdbool.h>
#include <time.h>

RECORDER(alpha, 64, "First recorder");
RECORDER(beta, 64, "Second recorder");
RECORDER(gamma, 64, "Third recorder");
RECORDER(timing, 16, "For RECORD_TIMING");
RECORDER(background, 16, "For background dumps");

static int reset(void **state)
{
    (void) state;
    capture_start();
    recorder_dump();                    /* forget earlier records */
    capture_start();
    RECORDER_TRACE(alpha) = 0;
    RECORDER_TRACE(beta) = 0;
    RECORDER_TRACE(gamma) = 0;
    RECORDER_TWEAK(recorder_location) = 0;
    RECORDER_TWEAK(recorder_function) = 0;
    RECORDER_TWEAK(recorder_order) = 1;
    RECORDER_TWEAK(recorder_reltime) = 1;
    RECORDER_TWEAK(recorder_abstime) = 0;
    RECORDER_TWEAK(recorder_indent) = 16;
    RECORDER_TWEAK(recorder_time_precision) = 6;
    return 0;
}

/* The MESSAGE part of the only line captured. */
static const char *only_message(void)
{
    static char message[4096];
    assert_int_equal(count_of(captured, "\n"), 1);
    const char *colon = strstr(captured, "alpha: ");
    assert_non_null(colon);
    snprintf(message, sizeof(message), "%s", colon + strlen("alpha: "));
    message[strcspn(message, "\n")] = 0;
    return message;
}

static void assert_matches(const char *text, const char *pattern)
{
    regex_t regex;
    assert_int_equal(regcomp(&regex, pattern, REG_EXTENDED | REG_NOSUB), 0);
    int result = regexec(&regex, text, 0, NULL, 0);
    regfree(&regex);
    if (result != 0)
        fail_msg("'%s' does not match '%s'", text, pattern);
}

static void test_line_has_order_seconds_name_message(void **state)
{
    (void) state;
    record(alpha, "Hello %d", 42);
    assert_int_equal(recorder_dump_for("alpha"), 1);
    assert_matches(captured, "^\\[[0-9]+ [0-9]+\\.[0-9]{6}\\] alpha: Hello 42\n$");
}

static void test_integers_of_every_width_render_like_printf(void **state)
{
    (void) state;
    record(alpha, "%hhd %hhu %hd %hu %d %u %ld %lu %lld %llu %c %d",
           (signed char) -5, (unsigned char) 250, (short) -300,
           (unsigned short) 65000, INT_MIN, 4000000000u, LONG_MIN,
           ULONG_MAX, LLONG_MIN, ULLONG_MAX, 'z', (_Bool) 1);
    recorder_dump_for("alpha");
    char expected[512];
    snprintf(expected, sizeof(expected),
             "%hhd %hhu %hd %hu %d %u %ld %lu %lld %llu %c %d",
             (signed char) -5, (unsigned char) 250, (short) -300,
             (unsigned short) 65000, INT_MIN, 4000000000u, LONG_MIN,
             ULONG_MAX, LLONG_MIN, ULLONG_MAX, 'z', 1);
    assert_string_equal(only_message(), expected);
}

static void test_float_and_double_are_kept_exactly(void **state)
{
    (void) state;
    float f = 1.0f / 3.0f;
    double d = 2.0 / 3.0;
    record(alpha, "%.9g %.17g %e %a", f, d, -1e300, 0.1);
    recorder_dump_for("alpha");
    char expected[256];
    snprintf(expected, sizeof(expected), "%.9g %.17g %e %a",
             (double) f, d, -1e300, 0.1);
    assert_string_equal(only_message(), expected);
}

static void test_flags_width_precision_apply(void **state)
{
    (void) state;
    record(alpha, "[%-6d|%+05d|%#x|%08.3f|%*d|%.*s]", 12, 7, 255, 3.14159,
           5, 3, 4, "abcdefgh");
    recorder_dump_for("alpha");
    /* The final %.*s has no '+': a string is printed as its address. */
    assert_matches(only_message(),
                   "^\\[12    \\|\\+0007\\|0xff\\|0003\\.142\\|    3\\|0x[0-9a-f]+\\]$");
}

static void test_plus_s_prints_the_string(void **state)
{
    (void) state;
    static const char name[] = "persistent";
    record(alpha, "name %+s, width [%+12s]", name, "right");
    recorder_dump_for("alpha");
    assert_string_equal(only_message(), "name persistent, width [       right]");
}

static void test_plain_s_prints_pointer_at_dump_time(void **state)
{
    (void) state;
    char transient[] = "gone soon";
    record(alpha, "%s", transient);
    recorder_dump_for("alpha");
    char expected[64];
    snprintf(expected, sizeof(expected), "%p", (void *) transient);
    assert_string_equal(only_message(), expected);
}

static void test_traced_recorder_prints_strings_and_keeps_record(void **state)
{
    (void) state;
    char transient[] = "live text";
    RECORDER_TRACE(alpha) = 1;
    record(alpha, "now: %s", transient);
    RECORDER_TRACE(alpha) = 0;
    assert_non_null(strstr(captured, "alpha: now: live text\n"));
    assert_matches(captured, "^\\[[0-9]+ [0-9]+\\.[0-9]{6}\\] alpha: now");
    capture_start();
    assert_int_equal(recorder_dump_for("alpha"), 1);
}

/* A traced record is printed from the ring: every argument, whichever
 * writer made it (one slot, two slots, fast). */
static void test_traced_records_print_every_argument(void **state)
{
    (void) state;
    capture_start();
    RECORDER_TRACE(alpha) = 1;
    record(alpha, "five %d %d %d %d %d", 1, 2, 3, 4, 5);
    record(alpha, "twelve %d %d %d %d %d %d %d %d %d %d %d %d",
           1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    record_fast(alpha, "fast %d %d %d %d %d", 5, 4, 3, 2, 1);
    record_fast(alpha, "fast twelve %d %d %d %d %d %d %d %d %d %d %d %d",
                12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
    RECORDER_TRACE(alpha) = 0;
    assert_non_null(strstr(captured, "alpha: five 1 2 3 4 5\n"));
    assert_non_null(strstr(captured,
                           "alpha: twelve 1 2 3 4 5 6 7 8 9 10 11 12\n"));
    assert_non_null(strstr(captured, "alpha: fast 5 4 3 2 1\n"));
    assert_non_null(strstr(captured,
                           "alpha: fast twelve 12 11 10 9 8 7 6 5 4 3 2 1\n"));
    capture_start();
    assert_int_equal(recorder_dump_for("alpha"), 4);
}

static void test_pointers_and_null(void **state)
{
    (void) state;
    int x;
    record(alpha, "%p %p", (void *) &x, (void *) 0);
    recorder_dump_for("alpha");
    char expected[64];
    snprintf(expected, sizeof(expected), "%p %p", (void *) &x, (void *) 0);
    assert_string_equal(only_message(), expected);
}

static void test_twelve_arguments_all_kept(void **state)
{
    (void) state;
    record(alpha, "%d %d %d %d %d %d %d %d %d %d %d %d",
           1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    record(alpha, "%d %d %d %d %d", 1, 2, 3, 4, 5);
    record(alpha, "%d %d %d %d %d %d", 1, 2, 3, 4, 5, 6);
    record(alpha, "no arguments");
    assert_int_equal(recorder_dump_for("alpha"), 4);
    assert_non_null(strstr(captured, "alpha: 1 2 3 4 5 6 7 8 9 10 11 12\n"));
    assert_non_null(strstr(captured, "alpha: 1 2 3 4 5\n"));
    assert_non_null(strstr(captured, "alpha: 1 2 3 4 5 6\n"));
    assert_non_null(strstr(captured, "alpha: no arguments\n"));
}

static void test_trailing_newline_is_optional(void **state)
{
    (void) state;
    record(alpha, "with newline\n");
    recorder_dump_for("alpha");
    assert_string_equal(only_message(), "with newline");
}

static void test_missing_argument_is_visible(void **state)
{
    (void) state;
    record(alpha, "%d and %d", 1);
    recorder_dump_for("alpha");
    assert_string_equal(only_message(), "1 and <missing>");
}

static void test_merge_follows_record_order_across_recorders(void **state)
{
    (void) state;
    record(alpha, "step %d", 1);
    record(beta, "step %d", 2);
    record(alpha, "step %d", 3);
    record(gamma, "step %d", 4);
    record(beta, "step %d", 5);
    record(gamma, "step %d", 6);
    assert_int_equal(recorder_dump_for("alpha|beta|gamma"), 6);
    const char *expected[] = { "alpha: step 1", "beta: step 2",
                               "alpha: step 3", "gamma: step 4",
                               "beta: step 5", "gamma: step 6" };
    const char *at = captured;
    for (unsigned i = 0; i < 6; i++)
    {
        const char *found = strstr(at, expected[i]);
        if (!found)
            fail_msg("'%s' missing or out of order in:\n%s", expected[i],
                     captured);
        at = found;
    }
}

static void test_dump_shows_only_new_records(void **state)
{
    (void) state;
    record(alpha, "first");
    assert_int_equal(recorder_dump_for("alpha"), 1);
    assert_int_equal(recorder_dump_for("alpha"), 0);
    record(alpha, "second");
    assert_int_equal(recorder_dump_for("alpha"), 1);
}

static void test_dump_for_selects_by_whole_name(void **state)
{
    (void) state;
    record(alpha, "a");
    record(beta, "b");
    assert_int_equal(recorder_dump_for("alph"), 0);
    assert_int_equal(recorder_dump_for("b.*"), 1);
    assert_null(strstr(captured, "alpha"));
}

static void test_disabled_recorder_records_nothing(void **state)
{
    (void) state;
    RECORDER_TRACE(alpha) = -1;
    record(alpha, "not kept %d", 1);
    RECORDER_TRACE(alpha) = 0;
    assert_int_equal(recorder_dump_for("alpha"), 0);
}

static uintptr_t stamps[8];
static unsigned stamp_count;
static void stamp_format(recorder_show_fn show, void *out, const char *label,
                         const char *location, uintptr_t order,
                         uintptr_t timestamp, const char *message)
{
    (void) show; (void) out; (void) label; (void) location; (void) order;
    (void) message;
    if (stamp_count < 8)
        stamps[stamp_count++] = timestamp;
}

static void test_record_fast_reuses_last_timestamp(void **state)
{
    (void) state;
    record(alpha, "timed");
    struct timespec pause = { 0, 3000000 };
    nanosleep(&pause, NULL);
    record_fast(alpha, "fast %d", 1);
    nanosleep(&pause, NULL);
    record(alpha, "timed again");
    stamp_count = 0;
    assert_int_equal(recorder_sort("alpha", stamp_format, NULL, NULL), 3);
    assert_int_equal(stamp_count, 3);
    assert_true(stamps[0] == stamps[1]);
    assert_true(stamps[2] >= stamps[1] + 2000);         /* microseconds */
}

static void test_order_hidden_by_tweak(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_order) = 0;
    record(alpha, "x");
    recorder_dump_for("alpha");
    assert_matches(captured, "^\\[[0-9]+\\.[0-9]{6}\\] alpha: x\n$");
}

static void test_relative_time_hidden_by_tweak(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_reltime) = 0;
    record(alpha, "x");
    recorder_dump_for("alpha");
    assert_matches(captured, "^\\[[0-9]+\\] alpha: x\n$");
}

static void test_no_order_no_time_drops_brackets(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_reltime) = 0;
    RECORDER_TWEAK(recorder_order) = 0;
    record(alpha, "x");
    recorder_dump_for("alpha");
    assert_string_equal(captured, "alpha: x\n");
}

static void test_abstime_shows_time_of_day(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_abstime) = 1;
    time_t now = time(NULL);
    struct tm local;
    localtime_r(&now, &local);
    record(alpha, "x");
    recorder_dump_for("alpha");
    /* As in recorder 1.2, the relative time stays, after the time of day. */
    assert_matches(captured,
                   "^\\[[0-9]+ [0-2][0-9]:[0-5][0-9]:[0-6][0-9]\\.[0-9]{6} "
                   "[0-9]+\\.[0-9]{6}\\] alpha: x\n$");
    char hour[8];
    snprintf(hour, sizeof(hour), " %02d:", local.tm_hour);
    /* Allow the hour to roll over between the two readings. */
    struct tm later;
    time_t after = time(NULL);
    localtime_r(&after, &later);
    char hour2[8];
    snprintf(hour2, sizeof(hour2), " %02d:", later.tm_hour);
    assert_true(strstr(captured, hour) || strstr(captured, hour2));
}

static void test_abstime_without_order(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_abstime) = 1;
    RECORDER_TWEAK(recorder_order) = 0;
    record(alpha, "x");
    recorder_dump_for("alpha");
    assert_matches(captured, "^\\[[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6} "
                             "[0-9]+\\.[0-9]{6}\\] alpha: x\n$");
}

/* recorder 1.2's README: recorder_abstime=1 recorder_reltime=0 gives
 * "[11 09:06:16.718056] recorder: ...". */
static void test_abstime_alone_when_reltime_is_off(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_abstime) = 1;
    RECORDER_TWEAK(recorder_reltime) = 0;
    record(alpha, "x");
    recorder_dump_for("alpha");
    assert_matches(captured, "^\\[[0-9]+ [0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{6}\\] "
                             "alpha: x\n$");
}

/* recorder_time_precision: digits after the second, in both times. */
static void test_time_precision_sets_digits(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_time_precision) = 3;
    record(alpha, "x");
    recorder_dump_for("alpha");
    assert_matches(captured, "^\\[[0-9]+ [0-9]+\\.[0-9]{3}\\] alpha: x\n$");

    capture_start();
    RECORDER_TWEAK(recorder_abstime) = 1;
    RECORDER_TWEAK(recorder_time_precision) = 0;
    record(alpha, "y");
    recorder_dump_for("alpha");
    assert_matches(captured, "^\\[[0-9]+ [0-9]{2}:[0-9]{2}:[0-9]{2} [0-9]+\\] "
                             "alpha: y\n$");

    capture_start();
    RECORDER_TWEAK(recorder_time_precision) = 99;     /* microseconds at most */
    record(alpha, "z");
    recorder_dump_for("alpha");
    assert_matches(captured, "^\\[[0-9]+ [0-9:]{8}\\.[0-9]{6} [0-9]+\\.[0-9]{6}\\] "
                             "alpha: z\n$");
}

static void test_location_prefixes_file_and_line(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_location) = 1;
    int line = __LINE__ + 1;
    record(alpha, "x");
    recorder_dump_for("alpha");
    char prefix[128];
    snprintf(prefix, sizeof(prefix), "tests/lib/test_record.c:%d:[", line);
    assert_ptr_equal(strstr(captured, prefix), captured);
}

static void test_function_prefixes_function_name(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_function) = 1;
    record(alpha, "x");
    recorder_dump_for("alpha");
    assert_ptr_equal(strstr(captured, "test_function_prefixes_function_name:["),
                     captured);
}

/* recorder 1.2: recorder_location=N pads FILE:LINE: to N columns, right-
 * aligned; -N left-aligns. */
static void test_location_padded_to_width(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_location) = 30;
    RECORDER_TWEAK(recorder_order) = 0;
    RECORDER_TWEAK(recorder_reltime) = 0;
    int line = __LINE__ + 1;
    record(alpha, "x");
    recorder_dump_for("alpha");
    char where[64], expected[128];
    snprintf(where, sizeof(where), "tests/lib/test_record.c:%d:", line);
    snprintf(expected, sizeof(expected), "%30salpha: x\n", where);
    assert_string_equal(captured, expected);

    capture_start();
    RECORDER_TWEAK(recorder_location) = -30;
    line = __LINE__ + 1;
    record(alpha, "y");
    recorder_dump_for("alpha");
    snprintf(where, sizeof(where), "tests/lib/test_record.c:%d:", line);
    snprintf(expected, sizeof(expected), "%-30salpha: y\n", where);
    assert_string_equal(captured, expected);

    capture_start();
    RECORDER_TWEAK(recorder_location) = 5;           /* narrower: all of it */
    line = __LINE__ + 1;
    record(alpha, "z");
    recorder_dump_for("alpha");
    snprintf(expected, sizeof(expected), "tests/lib/test_record.c:%d:alpha: z\n",
             line);
    assert_string_equal(captured, expected);
}

/* recorder_function=N pads FUNCTION to N columns, before its colon. */
static void test_function_padded_to_width(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_function) = 40;
    RECORDER_TWEAK(recorder_order) = 0;
    RECORDER_TWEAK(recorder_reltime) = 0;
    record(alpha, "x");
    recorder_dump_for("alpha");
    char expected[128];
    snprintf(expected, sizeof(expected), "%40s:alpha: x\n", __func__);
    assert_string_equal(captured, expected);

    capture_start();
    RECORDER_TWEAK(recorder_function) = -40;
    record(alpha, "y");
    recorder_dump_for("alpha");
    snprintf(expected, sizeof(expected), "%-40s:alpha: y\n", __func__);
    assert_string_equal(captured, expected);
}

static void test_location_and_function_together(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_location) = 1;
    RECORDER_TWEAK(recorder_function) = 1;
    RECORDER_TWEAK(recorder_order) = 0;
    RECORDER_TWEAK(recorder_reltime) = 0;
    int line = __LINE__ + 1;
    record(alpha, "x");
    recorder_dump_for("alpha");
    char expected[256];
    snprintf(expected, sizeof(expected),
             "tests/lib/test_record.c:%d:test_location_and_function_together:"
             "alpha: x\n", line);
    assert_string_equal(captured, expected);
}

static void test_indent_markers_nest_messages(void **state)
{
    (void) state;
    record(alpha, ">enter %d", 1);
    record(alpha, ">nested");
    record(alpha, "inside");
    record(alpha, "<nested done");
    record(alpha, "<leave");
    record(alpha, "=reset");
    recorder_dump_for("alpha");
    assert_non_null(strstr(captured, "alpha: enter 1\n"));
    assert_non_null(strstr(captured, "alpha:   nested\n"));
    assert_non_null(strstr(captured, "alpha:     inside\n"));
    assert_non_null(strstr(captured, "alpha:   nested done\n"));
    assert_non_null(strstr(captured, "alpha: leave\n"));
    assert_non_null(strstr(captured, "alpha: reset\n"));
    assert_int_equal(recorder_indent(), 0);
}

static void test_indent_is_capped_by_tweak(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_indent) = 1;
    record(alpha, ">a");
    record(alpha, ">b");
    record(alpha, ">c");
    record(alpha, "deep");
    record(alpha, "=");
    recorder_dump_for("alpha");
    assert_non_null(strstr(captured, "alpha:   deep\n"));
}

static size_t hex_type(intptr_t trace, const char *format, char *buffer,
                       size_t length, uintptr_t data)
{
    return (size_t) snprintf(buffer, length, "<%s %ld %lx>", format,
                             (long) trace, (unsigned long) data);
}

static void test_custom_type_gets_trace_and_plus_bit(void **state)
{
    (void) state;
    recorder_configure_type('V', hex_type);
    RECORDER_TRACE(alpha) = 0;
    record(alpha, "%V %+V", 0x10, 0x20);
    recorder_dump_for("alpha");
    recorder_configure_type('V', NULL);
    assert_string_equal(only_message(), "<%V 0 10> <%+V 1 20>");
}

static char custom_line[512];
static void custom_format(recorder_show_fn show, void *out, const char *label,
                          const char *location, uintptr_t order,
                          uintptr_t timestamp, const char *message)
{
    (void) timestamp;
    snprintf(custom_line, sizeof(custom_line), "%s|%s|%lu|%s", label,
             location, (unsigned long) order, message);
    show(custom_line, strlen(custom_line), out);
}

/* As in recorder 1.2, a format function gets the function as 'location'
 * and the message after its "FILE:LINE:", whatever the tweaks say. */
static void test_configured_format_and_show_are_used(void **state)
{
    (void) state;
    recorder_dump_for("beta");
    capture_start();
    int line = __LINE__ + 1;
    record(beta, "custom %d", 9);
    recorder_format_fn old = recorder_configure_format(custom_format);
    recorder_dump_for("beta");
    recorder_configure_format(old);
    char expected[256];
    snprintf(expected, sizeof(expected),
             "^beta\\|test_configured_format_and_show_are_used\\|[0-9]+\\|"
             "tests/lib/test_record\\.c:%d:custom 9\n$", line);
    assert_matches(captured, expected);
}

static void test_sort_with_own_functions(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_location) = 1;      /* no effect on the split */
    RECORDER_TWEAK(recorder_function) = 1;
    int line = __LINE__ + 1;
    record(gamma, "sorted %d", 3);
    captured_len = 0;
    unsigned count = recorder_sort("gamma", custom_format, capture_show, NULL);
    assert_int_equal(count, 1);
    char expected[256];
    snprintf(expected, sizeof(expected),
             "^gamma\\|test_sort_with_own_functions\\|[0-9]+\\|"
             "tests/lib/test_record\\.c:%d:sorted 3\n$", line);
    assert_matches(captured, expected);
}

/* recorder 1.2 compiled dump patterns with REG_ICASE. */
static void test_dump_for_ignores_case(void **state)
{
    (void) state;
    record(gamma, "found");
    assert_int_equal(recorder_dump_for("GAMMA"), 1);
    assert_non_null(strstr(captured, "gamma: found\n"));
}

/* What a show function got, call by call. */
static char shown[8][256];
static unsigned shown_count;
static unsigned record_show(const char *text, size_t len, void *out)
{
    (void) out;
    if (shown_count < 8)
        snprintf(shown[shown_count++], sizeof(shown[0]), "%.*s", (int) len,
                 text);
    return (unsigned) len;
}

/* recorder 1.2 gave show functions each line without its newline (its
 * default show added it); the library's own messages come one line a
 * call too. */
static void test_show_gets_lines_without_newline(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_order) = 0;
    RECORDER_TWEAK(recorder_reltime) = 0;
    record(beta, "first %d", 1);
    record(beta, "second\n");
    shown_count = 0;
    recorder_show_fn old = recorder_configure_show(record_show);
    recorder_dump_for("beta");
    assert_int_equal(shown_count, 2);
    assert_string_equal(shown[0], "beta: first 1");
    assert_string_equal(shown[1], "beta: second");

    shown_count = 0;
    RECORDER_TRACE(beta) = 1;
    record(beta, "traced");
    RECORDER_TRACE(beta) = 0;
    assert_int_equal(shown_count, 1);
    assert_string_equal(shown[0], "beta: traced");

    shown_count = 0;
    recorder_trace_set("traces");
    assert_true(shown_count >= 1);
    for (unsigned s = 0; s < shown_count; s++)
        assert_null(strchr(shown[s], '\n'));
    recorder_configure_show(old);
}

/* A format or show function that hands on to the one it replaced, as
 * recorder 1.2 allowed: the default ones are returned, and print the
 * line the library would have printed. */
static recorder_format_fn previous_format;
static unsigned formats_seen;
static void chained_format(recorder_show_fn show, void *out, const char *label,
                           const char *location, uintptr_t order,
                           uintptr_t timestamp, const char *message)
{
    formats_seen++;
    previous_format(show, out, label, location, order, timestamp, message);
}

static recorder_show_fn previous_show;
static unsigned shows_seen;
static unsigned chained_show(const char *text, size_t len, void *out)
{
    shows_seen++;
    return previous_show(text, len, out);
}

static void test_replaced_defaults_can_be_called(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_location) = -32;
    RECORDER_TWEAK(recorder_function) = 1;
    RECORDER_TWEAK(recorder_order) = 0;
    RECORDER_TWEAK(recorder_reltime) = 0;
    int line = __LINE__ + 1;
    record(beta, "chained %d:%d:", 4, 5);
    recorder_configure_show(NULL);
    FILE *file = tmpfile();
    assert_non_null(file);
    recorder_configure_output(file);
    previous_format = recorder_configure_format(chained_format);
    previous_show = recorder_configure_show(chained_show);
    assert_non_null(previous_format);
    assert_non_null(previous_show);
    formats_seen = shows_seen = 0;
    recorder_dump_for("beta");
    assert_ptr_equal(recorder_configure_format(previous_format),
                     chained_format);
    assert_ptr_equal(recorder_configure_show(previous_show), chained_show);
    recorder_configure_output(NULL);
    assert_int_equal(formats_seen, 1);
    assert_int_equal(shows_seen, 1);

    char text[256] = "", where[64], expected[256];
    rewind(file);
    size_t n = fread(text, 1, sizeof(text) - 1, file);
    text[n] = 0;
    fclose(file);
    snprintf(where, sizeof(where), "tests/lib/test_record.c:%d:", line);
    snprintf(expected, sizeof(expected),
             "%-32stest_replaced_defaults_can_be_called:beta: chained 4:5:\n",
             where);
    assert_string_equal(text, expected);
}

static void test_order_is_index_in_recorder(void **state)
{
    (void) state;
    recorder_dump_for("gamma");
    capture_start();
    RECORDER_TWEAK(recorder_reltime) = 0;
    record(gamma, "one");
    record(gamma, "two");
    recorder_dump_for("gamma");
    unsigned long first, second;
    assert_int_equal(sscanf(captured, "[%lu] gamma: one\n[%lu] gamma: two",
                            &first, &second), 2);
    assert_int_equal(second, first + 1);
}

static void test_record_timing_reports_rate(void **state)
{
    (void) state;
    for (int i = 0; i < 12; i++)
    {
        RECORD_TIMING_BEGIN(timing);
        struct timespec pause = { 0, 100000000 };
        nanosleep(&pause, NULL);
        RECORD_TIMING_END(timing, "sleep", "naps", 1);
    }
    assert_true(recorder_dump_for("timing") >= 1);
    assert_non_null(strstr(captured, "timing: sleep "));
    assert_non_null(strstr(captured, " naps/s, total "));
    assert_non_null(strstr(captured, "avg duration 1"));
}

static void test_tick_counts_microseconds(void **state)
{
    (void) state;
    uintptr_t before = recorder_tick();
    struct timespec pause = { 0, 20000000 };
    nanosleep(&pause, NULL);
    uintptr_t after = recorder_tick();
    assert_true(after - before >= 20000);
    assert_true(after - before < 2000000);
    assert_int_equal(RECORDER_HZ, 1000000);
}

/* What the background thread prints, read by the test thread meanwhile. */
static pthread_mutex_t background_lock = PTHREAD_MUTEX_INITIALIZER;
static char background_text[1 << 16];
static size_t background_len;

static unsigned background_show(const char *text, size_t len, void *arg)
{
    (void) arg;
    pthread_mutex_lock(&background_lock);
    if (background_len + len >= sizeof(background_text))
        len = sizeof(background_text) - 1 - background_len;
    memcpy(background_text + background_len, text, len);
    background_len += len;
    background_text[background_len] = 0;
    pthread_mutex_unlock(&background_lock);
    return (unsigned) len;
}

static unsigned background_count(const char *text)
{
    pthread_mutex_lock(&background_lock);
    unsigned count = count_of(background_text, text);
    pthread_mutex_unlock(&background_lock);
    return count;
}

/* Wait up to 2 s (200 periods) for 'text' to be printed while the thread
 * runs: only a periodic dump can print it, the final one comes at stop. */
static bool printed_while_running(const char *text)
{
    for (unsigned tries = 0; tries < 2000; tries++)
    {
        if (background_count(text))
            return true;
        struct timespec pause = { 0, 1000000 };
        nanosleep(&pause, NULL);
    }
    return false;
}

static void test_background_dump_prints_new_records(void **state)
{
    (void) state;
    RECORDER_TWEAK(recorder_dump_sleep) = 10;
    background_len = 0;
    background_text[0] = 0;
    recorder_configure_show(background_show);
    recorder_background_dump("background");
    record(background, "first, seen while running");
    bool first = printed_while_running("first, seen");
    /* Another period, another dump: new records only. */
    record(background, "second, seen while running");
    bool second = printed_while_running("second, seen");
    record(background, "third, seen at stop");
    recorder_background_dump_stop();            /* joins: output is complete */
    RECORDER_TWEAK(recorder_dump_sleep) = 100;
    capture_start();
    assert_true(first);
    assert_true(second);
    assert_int_equal(background_count("background: first, seen while running"), 1);
    assert_int_equal(background_count("background: second, seen while running"), 1);
    assert_int_equal(background_count("background: third, seen at stop"), 1);
}

static void test_version_macros(void **state)
{
    (void) state;
    unsigned v = RECORDER_CURRENT_VERSION;
    assert_true(v >= RECORDER_VERSION(1, 2, 0));
    assert_int_equal(RECORDER_VERSION_MAJOR(RECORDER_VERSION(1, 2, 3)), 1);
    assert_int_equal(RECORDER_VERSION_MINOR(RECORDER_VERSION(1, 2, 3)), 2);
    assert_int_equal(RECORDER_VERSION_PATCH(RECORDER_VERSION(1, 2, 3)), 3);
    uintptr_t counter = 5;
    assert_int_equal(recorder_ring_fetch_add(counter, 2), 5);
    assert_int_equal(counter, 7);
}

static void test_more_than_twelve_arguments_fail_to_compile(void **state)
{
    (void) state;
    const char *source =
        "#include <recorder/recorder.h>\n"
        "RECORDER(r, 8, \"\");\n"
        "void f(void) { record(r, \"\", 1,2,3,4,5,6,7,8,9,10,11,12,13); }\n";
    FILE *file = fopen("/tmp/recorder_thirteen.c", "w");
    assert_non_null(file);
    fputs(source, file);
    fclose(file);
    FILE *compiler = popen("cc -std=gnu11 -Iinclude -c /tmp/recorder_thirteen.c"
                           " -o /tmp/recorder_thirteen.o 2>&1", "r");
    assert_non_null(compiler);
    char output[8192];
    size_t n = fread(output, 1, sizeof(output) - 1, compiler);
    output[n] = 0;
    int status = pclose(compiler);
    unlink("/tmp/recorder_thirteen.c");
    assert_int_not_equal(status, 0);
    assert_non_null(strstr(output, "at most 12 arguments"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define TEST(name) cmocka_unit_test_setup(name, reset)
        TEST(test_line_has_order_seconds_name_message),
        TEST(test_integers_of_every_width_render_like_printf),
        TEST(test_float_and_double_are_kept_exactly),
        TEST(test_flags_width_precision_apply),
        TEST(test_plus_s_prints_the_string),
        TEST(test_plain_s_prints_pointer_at_dump_time),
        TEST(test_traced_recorder_prints_strings_and_keeps_record),
        TEST(test_traced_records_print_every_argument),
        TEST(test_pointers_and_null),
        TEST(test_twelve_arguments_all_kept),
        TEST(test_trailing_newline_is_optional),
        TEST(test_missing_argument_is_visible),
        TEST(test_merge_follows_record_order_across_recorders),
        TEST(test_dump_shows_only_new_records),
        TEST(test_dump_for_selects_by_whole_name),
        TEST(test_disabled_recorder_records_nothing),
        TEST(test_record_fast_reuses_last_timestamp),
        TEST(test_order_hidden_by_tweak),
        TEST(test_relative_time_hidden_by_tweak),
        TEST(test_no_order_no_time_drops_brackets),
        TEST(test_abstime_shows_time_of_day),
        TEST(test_abstime_without_order),
        TEST(test_abstime_alone_when_reltime_is_off),
        TEST(test_time_precision_sets_digits),
        TEST(test_location_prefixes_file_and_line),
        TEST(test_location_padded_to_width),
        TEST(test_function_padded_to_width),
        TEST(test_function_prefixes_function_name),
        TEST(test_location_and_function_together),
        TEST(test_indent_markers_nest_messages),
        TEST(test_indent_is_capped_by_tweak),
        TEST(test_custom_type_gets_trace_and_plus_bit),
        TEST(test_configured_format_and_show_are_used),
        TEST(test_sort_with_own_functions),
        TEST(test_show_gets_lines_without_newline),
        TEST(test_replaced_defaults_can_be_called),
        TEST(test_dump_for_ignores_case),
        TEST(test_order_is_index_in_recorder),
        TEST(test_record_timing_reports_rate),
        TEST(test_tick_counts_microseconds),
        TEST(test_background_dump_prints_new_records),
        TEST(test_version_macros),
        TEST(test_more_than_twelve_arguments_fail_to_compile),
    };
    return cmocka_run_group_tests_name("record", tests, NULL, NULL);
}
