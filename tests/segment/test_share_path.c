/* test_share_path.c - the escapes of RECORDER_SHARE and share= (%p %n %u
 * %h %%): each expands to its value, names are made safe for a file name,
 * and a path that cannot be expanded exactly is refused with its reason. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "recorder_share.h"
#include "segment/share_path_private.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const share_path_values some = {
    .pid = 4242, .program = "qemu-system-x86_64", .uid = 1000,
    .host = "builder.example.org",
};

static char out[PATH_MAX];
static char why[2 * PATH_MAX];

/* The expansion of 'path' with 'values', which must succeed. */
static const char *expanded(const char *path, const share_path_values *values)
{
    why[0] = 0;
    memset(out, 'Z', sizeof(out));
    assert_true(share_path_expand(path, values, out, sizeof(out), why,
                                  sizeof(why)));
    assert_string_equal(why, "");
    return out;
}

/* The reason 'path' is refused. */
static const char *refused(const char *path, size_t size)
{
    why[0] = 0;
    assert_false(share_path_expand(path, &some, out, size, why, sizeof(why)));
    assert_true(why[0] != 0);
    return why;
}

static void test_each_escape(void **state)
{
    (void) state;
    assert_string_equal(expanded("/tmp/s.%p", &some), "/tmp/s.4242");
    assert_string_equal(expanded("/tmp/s.%n", &some),
                        "/tmp/s.qemu-system-x86_64");
    assert_string_equal(expanded("/tmp/s.%u", &some), "/tmp/s.1000");
    assert_string_equal(expanded("/tmp/s.%h", &some),
                        "/tmp/s.builder.example.org");
    assert_string_equal(expanded("/tmp/%n.%u.%h/seg-%p%p", &some),
                        "/tmp/qemu-system-x86_64.1000.builder.example.org/"
                        "seg-42424242");
    assert_string_equal(expanded("%p", &some), "4242");
}

static void test_plain_paths_unchanged(void **state)
{
    (void) state;
    assert_string_equal(expanded("/tmp/recorder_share", &some),
                        "/tmp/recorder_share");
    assert_string_equal(expanded("", &some), "");
    assert_string_equal(expanded("/odd name/with*glob?[x]", &some),
                        "/odd name/with*glob?[x]");
}

static void test_percent_percent(void **state)
{
    (void) state;
    assert_string_equal(expanded("/tmp/100%%", &some), "/tmp/100%");
    /* %%p is a '%' then a 'p', not a pid. */
    assert_string_equal(expanded("/tmp/a%%p", &some), "/tmp/a%p");
    assert_string_equal(expanded("%%%%%p", &some), "%%4242");
}

static void test_unknown_escape_refused(void **state)
{
    (void) state;
    const char *reason = refused("/tmp/seg.%x", sizeof(out));
    assert_non_null(strstr(reason, "/tmp/seg.%x"));
    assert_non_null(strstr(reason, "unknown escape '%x'"));
    assert_non_null(strstr(reason, "%p %n %u %h %%"));
    reason = refused("/tmp/seg.%P", sizeof(out));
    assert_non_null(strstr(reason, "unknown escape '%P'"));
    /* A control after '%' is named by its value, not printed raw. */
    reason = refused("/tmp/seg.%\033", sizeof(out));
    assert_non_null(strstr(reason, "byte 0x1b"));
    reason = refused("/tmp/seg.%", sizeof(out));
    assert_non_null(strstr(reason, "'%' at the end"));
    reason = refused("/tmp/seg.%%%", sizeof(out));
    assert_non_null(strstr(reason, "'%' at the end"));
}

static void test_long_results_refused(void **state)
{
    (void) state;
    /* Exactly fits: 11 bytes and the NUL. */
    why[0] = 0;
    char small[12];
    assert_true(share_path_expand("/tmp/s.%p", &some, small, sizeof(small),
                                  why, sizeof(why)));
    assert_string_equal(small, "/tmp/s.4242");
    /* One byte short: refused, not truncated (two processes could then
     * share a name). */
    assert_non_null(strstr(refused("/tmp/s.%p", 11), "too long"));
    assert_non_null(strstr(refused("/tmp/%n", 10), "too long"));
    assert_non_null(strstr(refused("/tmp/abcdef", 5), "too long"));
    assert_non_null(strstr(refused("", 0), "too long"));

    /* A program name longer than any path. */
    static char name[PATH_MAX + 10];
    memset(name, 'a', sizeof(name) - 1);
    share_path_values values = some;
    values.program = name;
    why[0] = 0;
    assert_false(share_path_expand("/tmp/%n", &values, out, sizeof(out), why,
                                   sizeof(why)));
    assert_non_null(strstr(why, "too long"));
}

static void test_names_made_safe(void **state)
{
    (void) state;
    share_path_values values = some;
    values.program = "../../etc/passwd";
    values.host = "evil/host\n\033[2J";
    assert_string_equal(expanded("/tmp/%n.%h", &values),
                        "/tmp/.._.._etc_passwd.evil_host___2J");
    /* A name alone in a component is never a directory. */
    values.program = "..";
    values.host = ".";
    assert_string_equal(expanded("/tmp/%n/%h/x", &values), "/tmp/__/_/x");
    values.program = "...";
    assert_string_equal(expanded("/tmp/%n", &values), "/tmp/...");
    /* Spaces, pattern characters, non-ASCII bytes. */
    values.program = "my prog*?[1]";
    values.host = "caf\xc3\xa9";
    assert_string_equal(expanded("/tmp/%n@%h", &values),
                        "/tmp/my_prog___1_@caf__");
    /* Empty or missing names are not nothing. */
    values.program = "";
    values.host = NULL;
    assert_string_equal(expanded("/tmp/%n.%h", &values), "/tmp/_._");
    /* The path's own bytes are the user's: kept. */
    assert_string_equal(expanded("/tmp/my dir/%p", &some),
                        "/tmp/my dir/4242");
}

static void test_per_process(void **state)
{
    (void) state;
    assert_true(share_path_per_process("/tmp/s.%p"));
    assert_true(share_path_per_process("/tmp/%n/s"));
    assert_true(share_path_per_process("%%%p"));
    assert_false(share_path_per_process("/tmp/s"));
    assert_false(share_path_per_process("/tmp/s.%u.%h"));
    assert_false(share_path_per_process("/tmp/s.%%p"));
    assert_false(share_path_per_process("/tmp/s.%"));
    assert_false(share_path_per_process("/tmp/s.%%n%"));
}

static void test_values_here(void **state)
{
    (void) state;
    share_path_values values;
    char host[256];
    share_path_values_here(&values, host, sizeof(host));
    assert_int_equal(values.pid, (unsigned long) getpid());
    assert_int_equal(values.uid, (unsigned long) geteuid());
    assert_string_equal(values.program, program_invocation_short_name);
    char expected[256];
    assert_int_equal(gethostname(expected, sizeof(expected)), 0);
    assert_string_equal(values.host, expected);
}

/* Readers: the default path expands what a reader and its writer share (a
 * user, a host), never the reader's own %p or %n. */
static void test_reader_default_path(void **state)
{
    (void) state;
    char host[256], expected[PATH_MAX];
    assert_int_equal(gethostname(host, sizeof(host)), 0);
    share_path_values values;
    share_path_values_here(&values, host, sizeof(host));

    setenv("RECORDER_SHARE", "/tmp/seg.%u.%h.%%", 1);
    assert_true(share_path_expand("/tmp/seg.%u.%h.%%", &values, expected,
                                  sizeof(expected), why, sizeof(why)));
    assert_string_equal(recorder_share_default_path(), expected);

    setenv("RECORDER_SHARE", "/tmp/seg.%u.%p", 1);
    assert_string_equal(recorder_share_default_path(), "/tmp/seg.%u.%p");
    setenv("RECORDER_SHARE", "/tmp/seg.%n", 1);
    assert_string_equal(recorder_share_default_path(), "/tmp/seg.%n");
    setenv("RECORDER_SHARE", "/tmp/seg.%q", 1);
    assert_string_equal(recorder_share_default_path(), "/tmp/seg.%q");
    setenv("RECORDER_SHARE", "/tmp/seg", 1);
    assert_string_equal(recorder_share_default_path(), "/tmp/seg");

    /* Opening such a path says what it stands for. */
    char error[512] = "";
    assert_null(recorder_share_open("/nonexistent-dir/seg.%p", error,
                                    sizeof(error)));
    assert_non_null(strstr(error, "%p and %n stand for each writer"));
    assert_null(recorder_share_open("/nonexistent-dir/seg.%%p", error,
                                    sizeof(error)));
    assert_null(strstr(error, "stand for"));
    unsetenv("RECORDER_SHARE");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_escape),
        cmocka_unit_test(test_plain_paths_unchanged),
        cmocka_unit_test(test_percent_percent),
        cmocka_unit_test(test_unknown_escape_refused),
        cmocka_unit_test(test_long_results_refused),
        cmocka_unit_test(test_names_made_safe),
        cmocka_unit_test(test_per_process),
        cmocka_unit_test(test_values_here),
        cmocka_unit_test(test_reader_default_path),
    };
    return cmocka_run_group_tests_name("share_path", tests, NULL, NULL);
}
