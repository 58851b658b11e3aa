/* test_scope_multi_source.c - several segments as one source: names,
 * which -S make a group, patterns watched, the command target; a planted
 * link refused at once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "source/multi_source.h"
#include "source/segment_list.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const scope_source_config config = { .duration = 5 };

static void test_names(void **state)
{
    (void) state;
    char buf[64];
    assert_string_equal(scope_group_full_name("qemu[12]", "bytes", buf,
                                              sizeof(buf)), "qemu[12]/bytes");
    /* One segment: names stay short. */
    assert_string_equal(scope_group_full_name("", "bytes", buf, sizeof(buf)),
                        "bytes");
    assert_string_equal(scope_group_channel_of(NULL, "qemu[12]/bytes"),
                        "bytes");
    assert_string_equal(scope_group_channel_of(NULL, "spice[13]/a/b"), "a/b");
    assert_string_equal(scope_group_channel_of(NULL, "a/b"), "a/b");
    assert_string_equal(scope_group_channel_of(NULL, "x[]/y"), "x[]/y");
    assert_string_equal(scope_group_channel_of(NULL, "[12]/y"), "[12]/y");
    assert_string_equal(scope_group_channel_of("qemu[12]", "qemu[12]/bytes"),
                        "bytes");
    assert_null(scope_group_channel_of("qemu[12]", "spice[13]/bytes"));
    assert_null(scope_group_channel_of("qemu[12]", "qemu[123]/bytes"));
    assert_string_equal(scope_group_channel_of("", "bytes"), "bytes");
}

static void test_one_path_is_no_group(void **state)
{
    (void) state;
    assert_false(scope_segment_is_pattern("/tmp/recorder_share"));
    assert_true(scope_segment_is_pattern("/tmp/recorder_share*"));
    assert_true(scope_segment_is_pattern("/tmp/seg.[ab]"));
    const char *one[] = { "/nonexistent/seg" };
    scope_source *source = scope_source_new_paths(one, 1, &config);
    assert_non_null(source);
    assert_null(scope_source_group(source));
    assert_int_equal(scope_source_segment_count(source), 1);
    assert_ptr_equal(scope_source_segment(source, 0), source);
    scope_source_set_target(source, 0);
    assert_int_equal(scope_source_target(source), -1);
    scope_source_delete(source);
    source = scope_source_new_paths(NULL, 0, &config);
    assert_non_null(source);
    assert_null(scope_source_group(source));
    scope_source_delete(source);
}

static void test_several_paths_wait_together(void **state)
{
    (void) state;
    const char *two[] = { "/nonexistent/a", "/nonexistent/b",
                          "/nonexistent/a" };
    scope_source *source = scope_source_new_paths(two, 3, &config);
    assert_non_null(source);
    assert_non_null(scope_source_group(source));
    assert_int_equal(scope_source_add_graph(source, "bytes"), 0);
    scope_source_poll(source, 1.0);
    /* Named twice, followed once. */
    assert_int_equal(scope_source_segment_count(source), 2);
    assert_int_equal(scope_source_get_state(source), SCOPE_SOURCE_WAITING);
    assert_string_equal(scope_source_message(source),
                        "waiting for /nonexistent/a; waiting for "
                        "/nonexistent/b");
    assert_string_equal(scope_source_segment_name(source, 1),
                        "/nonexistent/b");
    unsigned count = 99;
    scope_source_graph_series(source, 0, &count);
    assert_int_equal(count, 0);
    assert_int_equal(scope_source_graph_count(source), 1);
    assert_true(isnan(scope_source_axis_now(source, 5.0)));
    scope_source_set_target(source, 1);
    assert_int_equal(scope_source_target(source), 1);
    scope_source_set_target(source, 2);
    assert_int_equal(scope_source_target(source), -1);
    scope_source_delete(source);
}

/* A pattern is globbed again as the scope runs; what it catches that is
 * no segment says nothing. */
static void test_pattern_is_watched(void **state)
{
    (void) state;
    char dir[] = "/tmp/test_multi_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char pattern[64], file[64];
    snprintf(pattern, sizeof(pattern), "%s/seg.*", dir);
    const char *paths[] = { pattern };
    scope_source *source = scope_source_new_paths(paths, 1, &config);
    assert_non_null(source);
    scope_source_poll(source, 1.0);
    assert_int_equal(scope_source_segment_count(source), 0);
    char waiting[128];
    snprintf(waiting, sizeof(waiting), "waiting for %s", pattern);
    assert_string_equal(scope_source_message(source), waiting);

    snprintf(file, sizeof(file), "%s/seg.junk", dir);
    FILE *junk = fopen(file, "w");
    assert_non_null(junk);
    fputs("not a segment\n", junk);
    fclose(junk);
    scope_source_poll(source, 1.5);     /* within the second: not seen */
    assert_int_equal(scope_source_segment_count(source), 0);
    scope_source_poll(source, 2.1);
    assert_int_equal(scope_source_segment_count(source), 1);
    scope_source_poll(source, 5.0);     /* past the grace of a new file */
    scope_source_poll(source, 5.5);
    assert_int_equal(scope_source_get_state(source), SCOPE_SOURCE_WAITING);
    assert_string_equal(scope_source_message(source), waiting);
    scope_source_delete(source);
    unlink(file);
    rmdir(dir);
}

/* A new file may be a segment its writer is still making, and is given
 * a moment; a symbolic link just made is none: open never follows one,
 * so it is refused at the first poll, with why (a capture shorter than
 * that moment said only that no segment appeared). */
static void test_new_link_is_refused_at_once(void **state)
{
    (void) state;
    char dir[] = "/tmp/test_multi_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char file[64], link[64];
    snprintf(file, sizeof(file), "%s/junk", dir);
    snprintf(link, sizeof(link), "%s/seg", dir);
    FILE *junk = fopen(file, "w");
    assert_non_null(junk);
    fputs("not a segment\n", junk);
    fclose(junk);
    assert_int_equal(symlink(file, link), 0);
    scope_source *source = scope_source_new(link, &config);
    assert_non_null(source);
    scope_source_poll(source, 1.0);
    assert_int_equal(scope_source_get_state(source), SCOPE_SOURCE_FAILED);
    assert_non_null(strstr(scope_source_message(source),
                           "is a symbolic link; not following it"));
    scope_source_delete(source);
    /* The junk file itself, just written: given its moment first. */
    source = scope_source_new(file, &config);
    assert_non_null(source);
    scope_source_poll(source, 1.0);
    assert_int_equal(scope_source_get_state(source), SCOPE_SOURCE_WAITING);
    scope_source_poll(source, 2.5);
    assert_int_equal(scope_source_get_state(source), SCOPE_SOURCE_FAILED);
    scope_source_delete(source);
    unlink(link);
    unlink(file);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_one_path_is_no_group),
        cmocka_unit_test(test_several_paths_wait_together),
        cmocka_unit_test(test_pattern_is_watched),
        cmocka_unit_test(test_new_link_is_refused_at_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
