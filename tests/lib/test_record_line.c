/* test_record_line.c - one line renderer: a dump of a program's shared
 * segment prints exactly the lines the program's own dump prints, with the
 * program's location, function, indentation and time settings. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "scratch_dir.h"
#include "writer_child.h"

#include "recorder.h"
#include "recorder_share.h"
#include "text/record_line_private.h"

#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

RECORDER(lines, 64, "Records dumped in the program and from its segment");
RECORDER(lines_too, 64, "A second recorder, merged with the first");

static char inprocess[400];             /* the program's own dump */
static const char *line_tweaks =        /* what the program asks of lines */
    "recorder_location=1:recorder_function=1:recorder_indent=2:"
    "recorder_abstime=1:recorder_order=1";

static void record_then_dump_here(void)
{
    char spec[512];
    snprintf(spec, sizeof(spec), "share=%s", path);
    if (recorder_trace_set(spec) != RECORDER_TRACE_OK)
        _exit(3);
    /* Both dumps convert ticks with the rate the program published last;
     * the clock's final rate comes at one second (clock.c): be past it. */
    while (recorder_tick() < 1100000)
        usleep(10000);

    static char text[] = "a string of the program";
    record(lines, ">enter %d", 1);
    record(lines_too, "other recorder %#x, %+s", 255u, text);
    record(lines, ">deeper %.3f", 2.5);
    record(lines, ">deepest, capped %s", text);
    record(lines, "inside %ld %u %c", -7L, 8u, 'z');
    record(lines_too, "twelve %d %d %d %d %d %d %d %d %d %d %d %d",
           1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
    record(lines, "<out %d", 3);
    record(lines, "<out %d", 2);
    record(lines, "<out %d", 1);
    record(lines, "=flat\n");

    /* Published to the segment by the writer as it applies them. */
    if (recorder_trace_set(line_tweaks) != RECORDER_TRACE_OK)
        _exit(4);
    FILE *file = fopen(inprocess, "w");
    if (!file)
        _exit(5);
    recorder_configure_output(file);
    recorder_dump_for("lines.*");
    recorder_configure_output(NULL);
    fclose(file);
}

static size_t read_all(FILE *file, char *text, size_t size)
{
    rewind(file);
    size_t n = fread(text, 1, size - 1, file);
    text[n] = 0;
    return n;
}

/* Run the child that records and dumps in-process into ours[size], and
 * dump its segment's recorders matching 'regex' into theirs[size]. */
static void dump_both_ways(const char *regex, char *ours, char *theirs,
                           size_t size)
{
    snprintf(inprocess, sizeof(inprocess), "%s/inprocess.txt", directory);
    child c = start_child(record_then_dump_here);

    char error[512];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    if (!share)
        fail_msg("cannot open %s: %s", path, error);
    FILE *out = tmpfile();
    assert_int_equal(recorder_share_dump(share, regex, out), 10);
    read_all(out, theirs, size);
    fclose(out);
    recorder_share_close(share);
    finish_child(&c, NULL, 0);

    FILE *file = fopen(inprocess, "r");
    assert_non_null(file);
    read_all(file, ours, size);
    fclose(file);
}

static void test_segment_dump_prints_the_programs_own_lines(void **state)
{
    (void) state;
    static char theirs[65536], ours[65536];
    dump_both_ways("lines.*", ours, theirs, sizeof(ours));

    /* The settings took effect, so the comparison means something. */
    assert_non_null(strstr(ours, "test_record_line.c:"));
    assert_non_null(strstr(ours, ":record_then_dump_here:["));
    assert_non_null(strstr(ours, "lines:     inside -7 8 z\n"));
    assert_non_null(strstr(ours, "lines_too:   other recorder 0xff, "
                                 "a string of the program\n"));
    assert_non_null(strstr(ours, "lines: flat\n"));
    if (strcmp(ours, theirs) != 0)
        fail_msg("the program printed:\n%s\nits segment dump printed:\n%s",
                 ours, theirs);
}

/* The widths and time precision of recorder 1.2's tweaks reach the
 * segment's dump too. */
static void test_segment_dump_pads_and_rounds_as_the_program(void **state)
{
    (void) state;
    line_tweaks = "recorder_location=-36:recorder_function=24:"
                  "recorder_time_precision=3:recorder_abstime=1:"
                  "recorder_indent=2";
    static char theirs[65536], ours[65536];
    dump_both_ways("LINES.*", ours, theirs, sizeof(ours));

    char function[64];
    snprintf(function, sizeof(function), "%24s:[", "record_then_dump_here");
    assert_non_null(strstr(ours, function));
    regex_t regex;
    assert_int_equal(regcomp(&regex, "^tests/lib/test_record_line\\.c:[0-9]+: +"
                             "record_then_dump_here:\\[[0-9]+ [0-9:]{8}"
                             "\\.[0-9]{3} [0-9]+\\.[0-9]{3}\\] lines: ",
                             REG_EXTENDED | REG_NOSUB | REG_NEWLINE), 0);
    assert_int_equal(regexec(&regex, ours, 0, NULL, 0), 0);
    regfree(&regex);
    if (strcmp(ours, theirs) != 0)
        fail_msg("the program printed:\n%s\nits segment dump printed:\n%s",
                 ours, theirs);
}

/* Exact lines for given settings and times: the layout recorder 1.2's
 * tweaks describe, and times rounded as printf's "%.*f" rounds them. */
static void test_line_layout_is_exact(void **state)
{
    (void) state;
    char line[RECORDER_LINE_MAX];
    recorder_line_settings s = { .order = true, .reltime = true,
                                 .precision = 6, .indent_max = 16 };
#define LINE(expected, timestamp)                                           \
    do {                                                                    \
        size_t n = recorder_format_line(line, sizeof(line), &s, "net",      \
                                        "a.c:12:", "send", 7, timestamp,    \
                                        "sent 3");                          \
        assert_string_equal(line, expected);                                \
        assert_int_equal(n, strlen(expected));                              \
    } while (0)
    LINE("[7 1.234567] net: sent 3\n", 1234567);
    s.precision = 3;
    LINE("[7 1.235] net: sent 3\n", 1234567);
    LINE("[7 2.000] net: sent 3\n", 1999600);
    s.precision = 0;
    LINE("[7 2] net: sent 3\n", 1500000);
    LINE("[7 1] net: sent 3\n", 1499999);
    s.precision = -4;                   /* out of range: nearest */
    LINE("[7 1] net: sent 3\n", 1499999);

    /* Time of day, then seconds since start; both rounded alike. */
    s.precision = 6;
    s.abstime = true;
    s.start_local_us = (int64_t) (13 * 3600 + 5 * 60 + 9) * 1000000 + 250;
    LINE("[7 13:05:10.234817 1.234567] net: sent 3\n", 1234567);
    s.precision = 2;
    s.start_local_us = (int64_t) 86399 * 1000000 + 990000;
    LINE("[7 00:00:00.00 0.01] net: sent 3\n", 6000);
    s.order = false;
    s.reltime = false;
    LINE("[23:59:59.99] net: sent 3\n", 1000);
    s.abstime = false;
    LINE("net: sent 3\n", 1000);

    /* Widths: 1 as it is, N right-aligned, -N left-aligned. */
    s.location = 1;
    s.function = 1;
    LINE("a.c:12:send:net: sent 3\n", 0);
    s.location = 10;
    s.function = -6;
    LINE("   a.c:12:send  :net: sent 3\n", 0);
    s.location = -9;
    s.function = 3;                     /* narrower: not cut */
    LINE("a.c:12:  send:net: sent 3\n", 0);
    s.location = 1000000;               /* bounded by the line */
    s.function = 0;
    size_t n = recorder_format_line(line, sizeof(line), &s, "net", "a.c:12:",
                                    "send", 7, 0, "sent 3");
    assert_int_equal(n, RECORDER_LOCATION_MAX + strlen("net: sent 3\n"));
    assert_int_equal(line[n - 1], '\n');
#undef LINE
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            test_segment_dump_prints_the_programs_own_lines,
            make_directory, remove_directory),
        cmocka_unit_test_setup_teardown(
            test_segment_dump_pads_and_rounds_as_the_program,
            make_directory, remove_directory),
        cmocka_unit_test(test_line_layout_is_exact),
    };
    return cmocka_run_group_tests_name("record_line", tests, NULL, NULL);
}
