/* test_scope_status_text.c - the window's title and status line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "view/status_text.h"
#include "view/window_title.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_title_names_program_and_pid),
        cmocka_unit_test(test_news_comes_first),
        cmocka_unit_test(test_saves_name_the_files_before_their_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
