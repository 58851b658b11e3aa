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

#include <stdio.h>
#include <string.h>
#include <unistd.h>

RECORDER(lines, 64, "Records dumped in the program and from its segment");
RECORDER(lines_too, 64, "A second recorder, merged with the first");

static char inprocess[400];             /* the program's own dump */

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
    if (recorder_trace_set("recorder_location=1:recorder_function=1:"
                           "recorder_indent=2:recorder_abstime=1:"
                           "recorder_order=1") != RECORDER_TRACE_OK)
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

static void test_segment_dump_prints_the_programs_own_lines(void **state)
{
    (void) state;
    snprintf(inprocess, sizeof(inprocess), "%s/inprocess.txt", directory);
    child c = start_child(record_then_dump_here);

    char error[512];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    if (!share)
        fail_msg("cannot open %s: %s", path, error);
    FILE *out = tmpfile();
    assert_int_equal(recorder_share_dump(share, "lines.*", out), 10);
    static char theirs[65536], ours[65536];
    read_all(out, theirs, sizeof(theirs));
    fclose(out);
    recorder_share_close(share);
    finish_child(&c, NULL, 0);

    FILE *file = fopen(inprocess, "r");
    assert_non_null(file);
    read_all(file, ours, sizeof(ours));
    fclose(file);

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(
            test_segment_dump_prints_the_programs_own_lines,
            make_directory, remove_directory),
    };
    return cmocka_run_group_tests_name("record_line", tests, NULL, NULL);
}
