/* test_scope_save_file.c - numbered saves that never overwrite. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "common/save_file.h"
#include "scope_test_series.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];
static char base[128];

static int make_dir(void **state)
{
    (void) state;
    snprintf(dir, sizeof(dir), "/tmp/test_scope_save-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(base, sizeof(base), "%s/shot-", dir);
    return 0;
}

static int remove_dir(void **state)
{
    (void) state;
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.')
        {
            snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(dir);
    return 0;
}

static unsigned files_in_dir(void)
{
    unsigned count = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            count++;
    closedir(d);
    return count;
}

static bool write_text(const char *path, void *arg, char *error, size_t size)
{
    FILE *file = fopen(path, "w");
    if (!file)
    {
        snprintf(error, size, "cannot open %s", path);
        return false;
    }
    fputs(arg, file);
    return fclose(file) == 0;
}

static bool write_nothing(const char *path, void *arg, char *error,
                          size_t size)
{
    (void) path;
    (void) arg;
    snprintf(error, size, "disk on fire");
    return false;
}

static void expect_file(unsigned number, const char *ext, const char *text)
{
    char path[256];
    snprintf(path, sizeof(path), "%s%u%s", base, number, ext);
    char *got = test_slurp(path);
    assert_non_null(got);
    assert_string_equal(got, text);
    free(got);
}

static void test_numbers_increase(void **state)
{
    (void) state;
    unsigned next = 1;
    char error[256];
    scope_save_item png = { ".png", write_text, "image" };
    scope_save_item csv = { ".csv", write_text, "data" };
    assert_int_equal(scope_save_numbered(base, &next, &png, 1, error,
                                         sizeof(error)), 1);
    assert_int_equal(scope_save_numbered(base, &next, &csv, 1, error,
                                         sizeof(error)), 2);
    assert_int_equal(next, 3);
    expect_file(1, ".png", "image");
    expect_file(2, ".csv", "data");
    assert_int_equal(files_in_dir(), 2);         /* no temporary left */
}

static void test_both_files_share_a_number(void **state)
{
    (void) state;
    unsigned next = 1;
    char error[256];
    scope_save_item both[] = {
        { ".png", write_text, "picture" },
        { ".csv", write_text, "values" },
    };
    /* 1 and 2 are taken (one extension each): both go to 3. */
    assert_int_equal(scope_save_numbered(base, &next, both, 2, error,
                                         sizeof(error)), 3);
    expect_file(3, ".png", "picture");
    expect_file(3, ".csv", "values");
}

static void test_existing_files_are_never_overwritten(void **state)
{
    (void) state;
    char path[256];
    snprintf(path, sizeof(path), "%s5.png", base);
    FILE *file = fopen(path, "w");
    fputs("precious", file);
    fclose(file);

    unsigned next = 4;                  /* a new session starts from 4 */
    char error[256];
    scope_save_item png = { ".png", write_text, "new" };
    assert_int_equal(scope_save_numbered(base, &next, &png, 1, error,
                                         sizeof(error)), 4);
    assert_int_equal(scope_save_numbered(base, &next, &png, 1, error,
                                         sizeof(error)), 6);
    expect_file(5, ".png", "precious");
}

static void test_failed_writer_leaves_nothing(void **state)
{
    (void) state;
    unsigned before = files_in_dir(), next = 1;
    char error[256];
    scope_save_item items[] = {
        { ".png", write_text, "fine" },
        { ".csv", write_nothing, NULL },
    };
    assert_int_equal(scope_save_numbered(base, &next, items, 2, error,
                                         sizeof(error)), 0);
    assert_string_equal(error, "disk on fire");
    assert_int_equal(files_in_dir(), before);
}

static void test_unwritable_directory_is_an_error(void **state)
{
    (void) state;
    unsigned next = 1;
    char error[256];
    scope_save_item png = { ".png", write_text, "x" };
    assert_int_equal(scope_save_numbered("/nonexistent/dir/shot-", &next,
                                         &png, 1, error, sizeof(error)), 0);
    assert_non_null(strstr(error, "/nonexistent/dir/shot-"));
}

static void test_replace_writes_the_named_file(void **state)
{
    (void) state;
    char path[256], error[256];
    snprintf(path, sizeof(path), "%s/named.csv", dir);
    assert_true(scope_save_replace(path, write_text, "one", error,
                                   sizeof(error)));
    assert_true(scope_save_replace(path, write_text, "two", error,
                                   sizeof(error)));
    char *got = test_slurp(path);
    assert_string_equal(got, "two");
    free(got);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_mode & S_IRUSR);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers_increase),
        cmocka_unit_test(test_both_files_share_a_number),
        cmocka_unit_test(test_existing_files_are_never_overwritten),
        cmocka_unit_test(test_failed_writer_leaves_nothing),
        cmocka_unit_test(test_unwritable_directory_is_an_error),
        cmocka_unit_test(test_replace_writes_the_named_file),
    };
    return cmocka_run_group_tests_name("scope_save_file", tests, make_dir,
                                       remove_dir);
}
