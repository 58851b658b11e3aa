/* test_chrome_json.c - the Chrome trace-event JSON writer: strings
 * escaped for JSON whatever bytes they hold (quotes, backslashes,
 * controls, bad UTF-8), events sorted by time with metadata first, typed
 * arguments and times written exactly; recorder_dump_chrome_json() on the
 * process's own rings, its exported channels as counters, and its errors.
 * Whether the files parse is checked by check-scope-chrome-json.sh
 * (python3's json). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "recorder.h"
#include "trace/chrome_json_private.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

RECORDER(json_event, 64, "Records the JSON test writes");

static char *escaped(const char *text, size_t length)
{
    static char out[512];
    chrome_json_escape(out, sizeof(out), text, length);
    return out;
}

static void test_escape(void **state)
{
    (void) state;
    assert_string_equal(escaped("plain", 5), "plain");
    assert_string_equal(escaped("say \"hi\"", 8), "say \\\"hi\\\"");
    assert_string_equal(escaped("a\\b", 3), "a\\\\b");
    /* Controls become the text \xNN, as dumps show them: in JSON, its
     * backslash is escaped. */
    assert_string_equal(escaped("tab\there\n", 9), "tab\\\\x09here\\\\x0a");
    assert_string_equal(escaped("\033]0;x\a", 6), "\\\\x1b]0;x\\\\x07");
    assert_string_equal(escaped("del\177", 4), "del\\\\x7f");
    /* Valid UTF-8 stays; bad bytes and C1 controls do not. */
    assert_string_equal(escaped("caf\xc3\xa9", 5), "caf\xc3\xa9");
    assert_string_equal(escaped("bad\xff\xc3", 5), "bad\\\\xff\\\\xc3");
    assert_string_equal(escaped("\xc2\x85", 2), "\\\\xc2\\\\x85");
    /* A NUL inside the length is a control too. */
    assert_string_equal(escaped("a\0b", 3), "a\\\\x00b");

    /* Never past the buffer, never half a JSON escape. */
    char small[6];
    size_t n = chrome_json_escape(small, sizeof(small), "abcd\"", 5);
    assert_int_equal(n, 4);
    assert_string_equal(small, "abcd");
    n = chrome_json_escape(small, sizeof(small), "\x01\x02", 2);
    assert_string_equal(small, "\\\\x01");
    assert_int_equal(n, 5);
    char none[1] = { 'x' };
    assert_int_equal(chrome_json_escape(none, 1, "abc", 3), 0);
    assert_int_equal(none[0], 0);
    /* Long text: six bytes out per byte in at most. */
    char *long_text = malloc(5000);
    char *long_out = malloc(6 * 5000 + 1);
    assert_non_null(long_text);
    assert_non_null(long_out);
    for (unsigned i = 0; i < 5000; i++)
        long_text[i] = (char) (i % 3 == 0 ? '"' : i % 3 == 1 ? '\n' : 'z');
    n = chrome_json_escape(long_out, 6 * 5000 + 1, long_text, 5000);
    assert_int_equal(n, strlen(long_out));
    assert_true(n > 5000 && n <= 6 * 5000);
    free(long_text);
    free(long_out);
}

/* What the writer wrote for the events given, in text[size]. */
static void written(chrome_json *json, char *text, size_t size)
{
    FILE *out = fmemopen(text, size, "w");
    assert_non_null(out);
    assert_true(chrome_json_write(json, out));
    fclose(out);
    chrome_json_delete(json);
}

static void test_events_sorted_and_typed(void **state)
{
    (void) state;
    chrome_json *json = chrome_json_new();
    assert_non_null(json);
    unsigned p = chrome_json_process(json, 42, "prog \"x\"");
    recorder_share_arg args[] = {
        { RECORDER_SHARE_ARG_SIGNED, { .i = -7 } },
        { RECORDER_SHARE_ARG_UNSIGNED, { .u = 18446744073709551615ull } },
        { RECORDER_SHARE_ARG_REAL, { .r = 0.25 } },
        { RECORDER_SHARE_ARG_STRING, { .s = "q\"" } },
        { RECORDER_SHARE_ARG_POINTER, { .u = 0xbeef } },
        { RECORDER_SHARE_ARG_REAL, { .r = NAN } },
    };
    recorder_share_record late = {
        .recorder = "rec", .message = "second", .format = "%d",
        .file = "f.c", .function = "fn", .line = 12, .lane = 2,
        .nargs = 6, .args = args,
    };
    recorder_share_record early = late;
    early.message = "first";
    early.nargs = 0;
    early.lane = 0;
    chrome_json_record(json, p, 2000123456, &late);
    chrome_json_record(json, p, 1999, &early);
    chrome_json_counter(json, p, 5, "chan", 1.5);
    chrome_json_counter(json, p, 6, "chan", INFINITY);     /* left out */
    assert_true(chrome_json_last_ns(json, p) == 2000123456);

    char text[4096];
    written(json, text, sizeof(text));
    const char *expected =
        "{\"traceEvents\":[\n"
        "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":42,\"tid\":0,"
        "\"args\":{\"name\":\"prog \\\"x\\\"\"}},\n"
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":42,\"tid\":2,"
        "\"args\":{\"name\":\"lane 2\"}},\n"
        "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":42,\"tid\":0,"
        "\"args\":{\"name\":\"lane 0\"}},\n"
        "{\"ph\":\"C\",\"ts\":0.005,\"pid\":42,\"tid\":0,\"name\":\"chan\","
        "\"args\":{\"chan\":1.5}},\n"
        "{\"ph\":\"i\",\"s\":\"t\",\"ts\":1.999,\"pid\":42,\"tid\":0,"
        "\"cat\":\"rec\",\"name\":\"first\",\"args\":{\"format\":\"%d\","
        "\"file\":\"f.c\",\"line\":12,\"function\":\"fn\","
        "\"arguments\":[]}},\n"
        "{\"ph\":\"i\",\"s\":\"t\",\"ts\":2000123.456,\"pid\":42,\"tid\":2,"
        "\"cat\":\"rec\",\"name\":\"second\",\"args\":{\"format\":\"%d\","
        "\"file\":\"f.c\",\"line\":12,\"function\":\"fn\",\"arguments\":"
        "[-7,18446744073709551615,0.25,\"q\\\"\",\"0xbeef\",\"nan\"]}}\n"
        "],\"displayTimeUnit\":\"ns\"}\n";
    assert_string_equal(text, expected);
}

static void test_dump_own_rings(void **state)
{
    (void) state;
    char path[] = "/tmp/recorder_json_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(recorder_trace_set("json_event=level,"),
                     RECORDER_TRACE_OK);
    for (int i = 0; i < 3; i++)
        record(json_event, "step %d of \"%+s\"", 10 * i, "three");
    int records = recorder_dump_chrome_json(path);
    assert_true(records >= 3);

    char text[65536];
    FILE *in = fopen(path, "r");
    assert_non_null(in);
    size_t length = fread(text, 1, sizeof(text) - 1, in);
    fclose(in);
    text[length] = 0;
    assert_non_null(strstr(text, "{\"traceEvents\":[\n"));
    assert_non_null(strstr(text, "\"cat\":\"json_event\","
                                 "\"name\":\"step 20 of \\\"three\\\"\""));
    assert_non_null(strstr(text, "\"arguments\":[20,\"three\"]"));
    assert_non_null(strstr(text, "\"function\":\"test_dump_own_rings\""));
    /* The exported argument: a counter per record. */
    assert_non_null(strstr(text, "\"name\":\"level\",\"args\":{\"level\":20}"));
    char process[64];
    snprintf(process, sizeof(process), "\"pid\":%d", (int) getpid());
    assert_non_null(strstr(text, process));

    /* A snapshot: the next dump still prints the records. */
    assert_true(recorder_dump_for("json_event") >= 3);

    /* Errors: -1 and errno. */
    errno = 0;
    assert_int_equal(recorder_dump_chrome_json("/nonexistent/dir/x.json"),
                     -1);
    assert_int_equal(errno, ENOENT);
    errno = 0;
    assert_int_equal(recorder_dump_chrome_json(""), -1);
    assert_int_equal(errno, EINVAL);
    unlink(path);
}

int main(void)
{
    /* Exporting a channel shares the rings: in a directory of our own. */
    char directory[] = "/tmp/recorder_json_test_XXXXXX", spec[128];
    if (!mkdtemp(directory))
        return 1;
    snprintf(spec, sizeof(spec), "share=%s/segment", directory);
    if (recorder_trace_set(spec) != RECORDER_TRACE_OK)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),
        cmocka_unit_test(test_events_sorted_and_typed),
        cmocka_unit_test(test_dump_own_rings),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    char command[128];
    snprintf(command, sizeof(command), "rm -rf '%s'", directory);
    if (system(command) != 0)
        failed++;
    return failed;
}
