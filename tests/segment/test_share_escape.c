/* test_share_escape.c - recorder_share_escape(): text from a segment made
 * safe for a terminal, UTF-8 kept. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "recorder_share.h"

#include <string.h>

static const char *escaped(const char *text, size_t length, size_t size)
{
    static char out[1024];
    memset(out, 'Z', sizeof(out));
    size_t n = recorder_share_escape(out, size, text, length);
    assert_true(n < size);
    assert_int_equal(out[n], 0);
    assert_int_equal(strlen(out), n);
    return out;
}

#define ESCAPED(Text)   escaped(Text, sizeof(Text) - 1, 1024)

static void test_controls_become_visible(void **state)
{
    (void) state;
    assert_string_equal(ESCAPED("\033]52;c;cHduZWQ=\007"),
                        "\\x1b]52;c;cHduZWQ=\\x07");
    assert_string_equal(ESCAPED("a\nb\tc\rd\177e"),
                        "a\\x0ab\\x09c\\x0dd\\x7fe");
    assert_string_equal(ESCAPED("nul\0here"), "nul\\x00here");
    /* C1 controls, raw and as UTF-8 (U+009B is CSI, U+0085 NEL). */
    assert_string_equal(ESCAPED("\x9b" "31m"), "\\x9b31m");
    assert_string_equal(ESCAPED("\xc2\x9b" "2J \xc2\x85"),
                        "\\xc2\\x9b2J \\xc2\\x85");
}

static void test_utf8_text_is_kept(void **state)
{
    (void) state;
    const char *text[] = {
        "caf\xc3\xa9", "\xc2\xa0nbsp", "\xe2\x82\xac euro",
        "\xf0\x9f\x98\x80 smile", "\xf4\x8f\xbf\xbf last", "plain ASCII ~",
    };
    for (unsigned t = 0; t < sizeof(text) / sizeof(*text); t++)
        assert_string_equal(escaped(text[t], strlen(text[t]), 1024), text[t]);
}

static void test_invalid_utf8_is_escaped(void **state)
{
    (void) state;
    /* Overlong forms, a surrogate, past U+10FFFF, a truncated sequence. */
    assert_string_equal(ESCAPED("\xc0\xaf"), "\\xc0\\xaf");
    assert_string_equal(ESCAPED("\xe0\x80\xaf"), "\\xe0\\x80\\xaf");
    assert_string_equal(ESCAPED("\xed\xa0\x80"), "\\xed\\xa0\\x80");
    assert_string_equal(ESCAPED("\xf4\x90\x80\x80"),
                        "\\xf4\\x90\\x80\\x80");
    assert_string_equal(ESCAPED("\xe2\x82"), "\\xe2\\x82");
    assert_string_equal(ESCAPED("\xff" "ok"), "\\xffok");
}

static void test_truncation_never_splits(void **state)
{
    (void) state;
    /* 5 bytes of room: "ab" fits, "\x1b" (4) does not after it. */
    assert_string_equal(escaped("ab\033c", 4, 6), "ab");
    assert_string_equal(escaped("ab\033c", 4, 7), "ab\\x1b");
    /* Nor a UTF-8 character. */
    assert_string_equal(escaped("a\xe2\x82\xac", 4, 3), "a");
    assert_string_equal(escaped("a\xe2\x82\xac", 4, 5), "a\xe2\x82\xac");
    char one[1] = { 'Z' };
    assert_int_equal(recorder_share_escape(one, 1, "abc", 3), 0);
    assert_int_equal(one[0], 0);
    assert_int_equal(recorder_share_escape(NULL, 0, "abc", 3), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_controls_become_visible),
        cmocka_unit_test(test_utf8_text_is_kept),
        cmocka_unit_test(test_invalid_utf8_is_escaped),
        cmocka_unit_test(test_truncation_never_splits),
    };
    return cmocka_run_group_tests_name("share_escape", tests, NULL, NULL);
}
