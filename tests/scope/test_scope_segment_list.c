/* test_scope_segment_list.c - which segments -S and -L name, and the -L
 * table for files that are not segments. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "source/segment_list.h"
#include "scratch_dir.h"

#include <recorder/recorder_share.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void touch(const char *name)
{
    char file[400];
    snprintf(file, sizeof(file), "%s/%s", directory, name);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fputs("not a segment, but long enough to be looked at as one......",
          f);
    fclose(f);
}

static const char *in_dir(const char *name)
{
    static char buffers[8][400];
    static unsigned next;
    char *out = buffers[next++ % 8];
    snprintf(out, 400, "%s/%s", directory, name);
    return out;
}

static const char *base(const char *full)
{
    return strrchr(full, '/') + 1;
}

static void test_patterns_paths_and_duplicates(void **state)
{
    (void) state;
    touch("seg.b");
    touch("seg.a");
    touch("seg.a.grow.Ab12Cd");         /* a writer's temporary */
    touch("other");
    char hard[400];
    snprintf(hard, sizeof(hard), "%s/hardlink", directory);
    assert_int_equal(link(in_dir("seg.a"), hard), 0);

    const char *patterns[] = {
        in_dir("seg.b"), in_dir("seg.*"), in_dir("missing"),
        in_dir("nothing.*"), in_dir("hardlink"), in_dir("seg.b"),
    };
    scope_segment_set set;
    assert_true(scope_segment_set_expand(&set, patterns, 6, false));
    /* seg.b first (given first), then the pattern's sorted, each file
     * once (the hard link is seg.a), a missing path kept. */
    assert_int_equal(set.count, 3);
    assert_string_equal(base(set.paths[0]), "seg.b");
    assert_string_equal(base(set.paths[1]), "seg.a");
    assert_string_equal(base(set.paths[2]), "missing");
    assert_int_equal(set.empty_patterns, 1);
    assert_true(set.several);
    scope_segment_set_free(&set);

    /* One path without pattern characters: one process, no names. */
    const char *one[] = { in_dir("seg.a") };
    assert_true(scope_segment_set_expand(&set, one, 1, false));
    assert_int_equal(set.count, 1);
    assert_false(set.several);
    scope_segment_set_free(&set);
    /* A pattern, even matching one file, names processes. */
    const char *pattern[] = { in_dir("seg.[a]") };
    assert_true(scope_segment_set_expand(&set, pattern, 1, false));
    assert_int_equal(set.count, 1);
    assert_true(set.several);
    scope_segment_set_free(&set);
}

static void test_default_patterns(void **state)
{
    (void) state;
    const char *patterns[4];
    setenv("RECORDER_SHARE", "/run/x/seg.%n.%p%%", 1);
    setenv("XDG_RUNTIME_DIR", "/run/user/1000", 1);
    unsigned count = scope_segment_default_patterns(patterns, 4);
    assert_int_equal(count, 3);
    assert_string_equal(patterns[0], "/run/x/seg.*.*%");
    assert_string_equal(patterns[1], "/tmp/recorder_share*");
    assert_string_equal(patterns[2], "/run/user/1000/recorder_share*");
    unsetenv("RECORDER_SHARE");
    unsetenv("XDG_RUNTIME_DIR");
    count = scope_segment_default_patterns(patterns, 4);
    assert_int_equal(count, 1);
    assert_string_equal(patterns[0], "/tmp/recorder_share*");
}

/* Files that are not segments are rows with a reason, never a crash. */
static void test_table_of_unreadable_files(void **state)
{
    (void) state;
    touch("junk");
    char link_path[400];
    snprintf(link_path, sizeof(link_path), "%s/link", directory);
    assert_int_equal(symlink(in_dir("junk"), link_path), 0);
    const char *patterns[] = { in_dir("*") };
    scope_segment_set set;
    assert_true(scope_segment_set_expand(&set, patterns, 1, false));
    assert_int_equal(set.count, 2);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_int_equal(scope_segment_table(&set, 0, out), 0);
    fclose(out);
    char expected[2048];
    snprintf(expected, sizeof(expected),
             "PATH\tPROGRAM\tPID\tHOST\tSTARTED\tSTATE\tOWNER\tCHANNELS\tDETAIL\n"
             "%s/junk\t-\t-\t-\t-\tunreadable\t", directory);
    if (strncmp(text, expected, strlen(expected)) != 0)
        fail_msg("table:\n%s", text);
    assert_non_null(strstr(text, "\ttoo small for a recorder segment"));
    assert_non_null(strstr(text, "/link\t-\t-\t-\t-\tunreadable\t"));
    assert_non_null(strstr(text, "\ta symbolic link; not following it\n"));
    free(text);
    scope_segment_set_free(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_patterns_paths_and_duplicates,
                                        make_directory, remove_directory),
        cmocka_unit_test(test_default_patterns),
        cmocka_unit_test_setup_teardown(test_table_of_unreadable_files,
                                        make_directory, remove_directory),
    };
    return cmocka_run_group_tests_name("scope_segment_list", tests, NULL,
                                       NULL);
}
