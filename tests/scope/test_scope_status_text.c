/* test_scope_status_text.c - the window's title and status line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "view/status_text.h"
#include "view/window_title.h"

#include <stdio.h>
#include <string.h>

static void test_title_names_program_and_pid(void **state)
{
    (void) state;
    char title[256];
    scope_window_title(title, sizeof(title), "/tmp/seg", "perfdata", 1234);
    assert_string_equal(title, "recorder_scope: perfdata[1234] /tmp/seg");
    scope_window_title(title, sizeof(title), "/tmp/seg", NULL, 0);
    assert_string_equal(title, "recorder_scope: /tmp/seg");
    scope_window_title(title, sizeof(title), "/tmp/seg", "", 7);
    assert_string_equal(title, "recorder_scope: /tmp/seg");
    /* From the segment: no control characters reach the title bar. */
    scope_window_title(title, sizeof(title), "/s", "evil\n\x1b[2J", 9);
    assert_string_equal(title, "recorder_scope: evil??[2J[9] /s");
}

static void test_news_comes_first(void **state)
{
    (void) state;
    char line[256];
    scope_status_compose(line, sizeof(line), "saved a1.png", "PAUSED 1 s",
                         "t 2 s");
    assert_string_equal(line, "saved a1.png   |   PAUSED 1 s   |   t 2 s");
    scope_status_compose(line, sizeof(line), "", NULL, "t 2 s");
    assert_string_equal(line, "t 2 s");
    scope_status_compose(line, sizeof(line), "", "", "");
    assert_string_equal(line, "");
}

static void test_saves_name_the_files_before_their_directory(void **state)
{
    (void) state;
    char line[512];
    scope_saved_text(line, sizeof(line), "/tmp/long/dir/shot-", 3, true,
                     true, 300, NULL);
    assert_string_equal(line, "saved shot-3.png and shot-3.csv (300 rows) "
                              "in /tmp/long/dir");
    scope_saved_text(line, sizeof(line), "recorder_scope_data-", 1, true,
                     false, 0, NULL);
    assert_string_equal(line, "saved recorder_scope_data-1.png");
    scope_saved_text(line, sizeof(line), "/x-", 2, false, true, 0,
                     "no sample in the span shown");
    assert_string_equal(line, "saved x-2.csv (no rows: no sample in the "
                              "span shown) in /");
}

/* Seven pixels a character, as the status line's font about is: wide
 * enough a measure for the tests of fitting. Counts characters, not
 * bytes (the ellipsis is one). */
static double seven_pixels(const char *text, void *data)
{
    (void) data;
    double chars = 0;
    for (const char *p = text; *p; p++)
        chars += ((unsigned char) *p & 0xc0) != 0x80;
    return 7 * chars;
}

/* What a long save, a pause and a readout of two channels between two
 * cursors say: 900 pixels less the margins do not hold all of it. */
static const char readout_lines[] =
    "t 11.831443 s\n"
    "bytes     326.385 Mbytes\n"
    "loops      12.122 kiterations\n"
    "dt    3.451 s  1/dt  289.751 mHz\n"
    "bytes A  186.786 Mbytes  B  283.159 Mbytes  delta   96.373 Mbytes\n"
    "loops A    5.426 kiterations  B    8.288 kiterations  delta    "
    "2.862 kiterations\n";

static void test_status_fits_900_pixels(void **state)
{
    (void) state;
    char action[600], readout[600], full[2048], line[2048];
    scope_saved_text(action, sizeof(action),
                     "/home/someone/recordings/of/the/perfdata/example/"
                     "kept/for/a/week/perfdata-", 12, true, true, 4000, NULL);
    scope_status_readout_line(readout_lines, readout, sizeof(readout));
    assert_string_equal(readout, "t 11.831443 s | bytes 326.385 Mbytes | "
                        "loops 12.122 kiterations | dt 3.451 s 1/dt 289.751 "
                        "mHz | bytes A 186.786 Mbytes B 283.159 Mbytes delta "
                        "96.373 Mbytes | loops A 5.426 kiterations B 8.288 "
                        "kiterations delta 2.862 kiterations");
    scope_status_parts parts = {
        .action = action, .paused = true, .from = 3.2, .to = 13.2,
        .readout = readout,
    };
    const double width = 900 - 16;
    scope_status_full(full, sizeof(full), &parts);
    assert_true(seven_pixels(full, NULL) > width);  /* what was cut */
    scope_status_fit(line, sizeof(line), &parts, width, seven_pixels, NULL);
    assert_true(seven_pixels(line, NULL) <= width);
    /* The news whole but for its path's middle; the pause; the time. */
    assert_non_null(strstr(line, "saved perfdata-12.png and perfdata-12.csv "
                                 "(4000 rows) in /home/"));
    assert_non_null(strstr(line, "…"));
    assert_non_null(strstr(line, "/week  |  paused 3.2–13.2 s  |  "
                                 "t 11.831443 s"));
    /* Of the readout, whole parts only. */
    char parts_shown[2048];
    snprintf(parts_shown, sizeof(parts_shown), "%s",
             strstr(line, "t 11.831443 s"));
    for (char *part = strtok(parts_shown, "|"); part;
         part = strtok(NULL, "|"))
    {
        while (*part == ' ')
            part++;
        size_t n = strlen(part);
        while (n && part[n - 1] == ' ')
            part[--n] = 0;
        assert_non_null(strstr(readout, part));
    }

    /* With room, all of it, as it was. */
    scope_status_fit(line, sizeof(line), &parts, 4000, seven_pixels, NULL);
    assert_string_equal(line, full);
}

/* A message with no path and no room: cut in its middle, never past the
 * width. */
static void test_status_cuts_what_it_must_in_the_middle(void **state)
{
    (void) state;
    char line[512];
    scope_status_parts parts = {
        .action = "the program has no tweak 'transfer_delay_in_microseconds'"
                  " that this slider could set",
    };
    scope_status_fit(line, sizeof(line), &parts, 300, seven_pixels, NULL);
    assert_true(seven_pixels(line, NULL) <= 300);
    assert_true(seven_pixels(line, NULL) > 280);
    assert_non_null(strstr(line, "…"));
    assert_memory_equal(line, "the program", 11);
    size_t n = strlen(line);
    assert_string_equal(line + n - 6, "ld set");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_title_names_program_and_pid),
        cmocka_unit_test(test_news_comes_first),
        cmocka_unit_test(test_saves_name_the_files_before_their_directory),
        cmocka_unit_test(test_status_fits_900_pixels),
        cmocka_unit_test(test_status_cuts_what_it_must_in_the_middle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
