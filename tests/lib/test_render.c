/* test_render.c - recorder_render(): printf for records, at dump time.
 *
 * Most tests compare with the C library's own snprintf over every
 * combination of flags, widths, precisions and length modifiers, for values
 * at the edges of each type. Formats are built at run time on purpose.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "text/render_private.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>
#include <time.h>
#include <wchar.h>

/* Every file that includes recorder.h registers its module's call sites
 * from a constructor. This test links the renderer alone (render.c and
 * render_float.c), without the registry, so it stands in for it (weak:
 * the library's own wins when linked in). */
__attribute__((weak))
void recorder_sites_register(recorder_site *first, recorder_site *last)
{
    (void) first;
    (void) last;
}

/* ASan's printf interceptor does not know %b yet and warns about the
 * reference snprintf calls; it has nothing to check in this file anyway. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "check_printf=0";
}

#define WORDS(...)      ((const uint64_t[]) { __VA_ARGS__ })
#define COUNT(...)                                                      \
    ((unsigned) (sizeof(WORDS(__VA_ARGS__)) / sizeof(uint64_t)))
#define ARGS(...)       WORDS(__VA_ARGS__), COUNT(__VA_ARGS__)

static const recorder_render_options live = { .strings_valid = true };
static const recorder_render_options dumped = { .strings_valid = false };
static const recorder_render_options safe = { .strings_valid = true,
                                              .signal_safe = true };

static char output[65536];
static char expected[65536];

static uint64_t word_of_double(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof(bits));
    return bits;
}

static uint64_t word_of_pointer(const void *p)
{
    return (uint64_t) (uintptr_t) p;
}

/* Render into 'output'; check termination; return the length. */
static size_t render(const recorder_render_options *options,
                     const char *format, const uint64_t *args, unsigned nargs)
{
    size_t length = recorder_render(output, sizeof(output), format, args,
                                    nargs, options);
    assert_true(length < sizeof(output));
    assert_int_equal(output[length], 0);
    return length;
}

static const char *rendered(const recorder_render_options *options,
                            const char *format, const uint64_t *args,
                            unsigned nargs)
{
    render(options, format, args, nargs);
    return output;
}

/* Compare byte for byte (%c may legitimately produce a NUL). */
static void check_same(const char *format, uint64_t word, int want,
                       size_t got)
{
    assert_true(want >= 0);
    if ((size_t) want != got || memcmp(expected, output, got) != 0)
    {
        print_error("format \"%s\" word %#llx:\n  expected [%.*s] (%d)\n"
                    "  rendered [%.*s] (%zu)\n", format,
                    (unsigned long long) word, want, expected, want,
                    (int) got, output, got);
        fail();
    }
}

/* All 32 subsets of the flags. */
static void flags_for(unsigned mask, char *out)
{
    static const char flag_chars[] = "-+ #0";
    for (unsigned i = 0; i < 5; i++)
        if (mask & (1u << i))
            *out++ = flag_chars[i];
    *out = 0;
}

static const char *const widths[] = { "", "1", "7", "24" };
static const char *const precisions[] = { "", ".", ".0", ".1", ".7", ".30" };
#define ITEMS(Array)    (sizeof(Array) / sizeof(Array[0]))

static const uint64_t integer_values[] = {
    (uint64_t) INT64_MIN, (uint64_t) INT64_MIN + 1, (uint64_t) INT32_MIN,
    (uint64_t) -129, (uint64_t) -128, (uint64_t) -1, 0, 1, 7, 8, 127, 128,
    255, 256, 32767, 65535, INT32_MAX, UINT32_MAX, 0x123456789abcdef0ull,
    INT64_MAX, UINT64_MAX
};

/* snprintf with the argument type the length modifier asks for. */
static int reference_integer(const char *format, const char *length,
                             uint64_t word)
{
    size_t size = sizeof(expected);
    if (!strcmp(length, "l"))
        return snprintf(expected, size, format, (long) word);
    if (!strcmp(length, "ll") || !strcmp(length, "q"))
        return snprintf(expected, size, format, (long long) word);
    if (!strcmp(length, "j"))
        return snprintf(expected, size, format, (intmax_t) word);
    if (!strcmp(length, "z"))
        return snprintf(expected, size, format, (ssize_t) word);
    if (!strcmp(length, "t"))
        return snprintf(expected, size, format, (ptrdiff_t) word);
    return snprintf(expected, size, format, (int) word);  /* hh, h, none */
}

static void compare_integers(const char *conversions)
{
    static const char *const lengths[] = {
        "hh", "h", "", "l", "ll", "q", "j", "z", "t"
    };
    char flags[8], format[64];

    for (const char *c = conversions; *c; c++)
    for (unsigned f = 0; f < 32; f++)
    for (size_t w = 0; w < ITEMS(widths); w++)
    for (size_t p = 0; p < ITEMS(precisions); p++)
    for (size_t l = 0; l < ITEMS(lengths); l++)
    {
        flags_for(f, flags);
        snprintf(format, sizeof(format), "[%%%s%s%s%s%c]", flags, widths[w],
                 precisions[p], lengths[l], *c);
        for (size_t v = 0; v < ITEMS(integer_values); v++)
        {
            uint64_t word = integer_values[v];
            int want = reference_integer(format, lengths[l], word);
            size_t got = render(&dumped, format, &word, 1);
            check_same(format, word, want, got);
        }
    }
}


/* ------------------------------------------------------------------------ */
/*   Literal text and simple cases                                          */
/* ------------------------------------------------------------------------ */

static void test_literal_text_is_copied(void **state)
{
    (void) state;
    assert_string_equal(rendered(&dumped, "plain text, no args", NULL, 0),
                        "plain text, no args");
    assert_string_equal(rendered(&dumped, "", NULL, 0), "");
}

static void test_percent_percent_prints_one_percent(void **state)
{
    (void) state;
    assert_string_equal(rendered(&dumped, "100%% sure %5%", NULL, 0),
                        "100% sure %");
}

static void test_lone_percent_at_end_prints_percent(void **state)
{
    (void) state;
    assert_string_equal(rendered(&dumped, "%", NULL, 0), "%");
    assert_string_equal(rendered(&dumped, "abc%", ARGS(1)), "abc%");
}

static void test_null_format_renders_nothing(void **state)
{
    (void) state;
    assert_int_equal(render(&dumped, NULL, ARGS(1)), 0);
}

static void test_null_options_use_defaults(void **state)
{
    (void) state;
    assert_int_equal(recorder_render(output, sizeof(output), "%d %x",
                                     ARGS(-3, 255), NULL), 5);
    assert_string_equal(output, "-3 ff");
}


/* ------------------------------------------------------------------------ */
/*   Integers, characters, pointers, strings: exactly as snprintf          */
/* ------------------------------------------------------------------------ */

static void test_signed_integers_match_snprintf(void **state)
{
    (void) state;
    compare_integers("di");
}

static void test_unsigned_integers_match_snprintf(void **state)
{
    (void) state;
    compare_integers("uoxX");
}

static void test_binary_integers_match_snprintf(void **state)
{
    (void) state;
    compare_integers("bB");
}

static void test_length_modifier_narrows_like_printf(void **state)
{
    (void) state;
    uint64_t word = 0x1234567890ABCDEFull;
    assert_string_equal(rendered(&dumped, "%hhd %hd %d %ld %lld", ARGS(
                                     word, word, word, word, word)),
                        "-17 -12817 -1867788817 1311768467294899695 "
                        "1311768467294899695");
    assert_string_equal(rendered(&dumped, "%hhu %hu %u %zu %jx", ARGS(
                                     word, word, word, word, word)),
                        "239 52719 2427178479 1311768467294899695 "
                        "1234567890abcdef");
}

static void test_chars_match_snprintf(void **state)
{
    (void) state;
    static const uint64_t values[] = {
        0, 'A', 'z', ' ', '%', 127, 128, 255, 0x141, (uint64_t) -1
    };
    char flags[8], format[64];
    for (unsigned f = 0; f < 32; f++)
    for (size_t w = 0; w < ITEMS(widths); w++)
    for (size_t p = 0; p < ITEMS(precisions); p++)
    {
        flags_for(f, flags);
        snprintf(format, sizeof(format), "[%%%s%s%sc]", flags, widths[w],
                 precisions[p]);
        for (size_t v = 0; v < ITEMS(values); v++)
        {
            int want = snprintf(expected, sizeof(expected), format,
                                (int) values[v]);
            check_same(format, values[v], want,
                       render(&dumped, format, &values[v], 1));
        }
    }
}

static void test_wide_chars_match_snprintf_for_ascii(void **state)
{
    (void) state;
    char flags[8], format[64];
    for (unsigned f = 0; f < 32; f++)
    for (size_t w = 0; w < ITEMS(widths); w++)
    {
        flags_for(f, flags);
        snprintf(format, sizeof(format), "[%%%s%slc]", flags, widths[w]);
        for (uint64_t c = 0; c < 128; c += 13)
        {
            int want = snprintf(expected, sizeof(expected), format,
                                (wint_t) c);
            check_same(format, c, want, render(&dumped, format, &c, 1));
        }
    }
}

static void test_wide_chars_beyond_ascii_are_utf8(void **state)
{
    (void) state;
    assert_string_equal(rendered(&dumped, "%lc%lc%lc", ARGS(0xE9, 0x20AC,
                                                            0x1F600)),
                        "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
    assert_string_equal(rendered(&dumped, "%lc", ARGS(0xD800)), "?");
}

static void test_pointers_match_snprintf(void **state)
{
    (void) state;
    static const uint64_t values[] = {
        0, 1, 0xff, 0x7fff12345678ull, 0xdeadbeef, UINTPTR_MAX
    };
    char flags[8], format[64];
    for (unsigned f = 0; f < 32; f++)
    for (size_t w = 0; w < ITEMS(widths); w++)
    for (size_t p = 0; p < ITEMS(precisions); p++)
    {
        flags_for(f, flags);
        snprintf(format, sizeof(format), "[%%%s%s%sp]", flags, widths[w],
                 precisions[p]);
        for (size_t v = 0; v < ITEMS(values); v++)
        {
            int want = snprintf(expected, sizeof(expected), format,
                                (void *) (uintptr_t) values[v]);
            check_same(format, values[v], want,
                       render(&dumped, format, &values[v], 1));
        }
    }
}

static const char *const strings[] = {
    "", "a", "hello", "a string longer than every width tried here", NULL
};

static void test_live_strings_match_snprintf(void **state)
{
    (void) state;
    char flags[8], format[64];
    for (unsigned f = 0; f < 32; f++)
    for (size_t w = 0; w < ITEMS(widths); w++)
    for (size_t p = 0; p < ITEMS(precisions); p++)
    {
        flags_for(f, flags);
        snprintf(format, sizeof(format), "[%%%s%s%ss]", flags, widths[w],
                 precisions[p]);
        for (size_t v = 0; v < ITEMS(strings); v++)
        {
            uint64_t word = word_of_pointer(strings[v]);
            int want = snprintf(expected, sizeof(expected), format,
                                strings[v]);
            check_same(format, word, want, render(&live, format, &word, 1));
        }
    }
}

static void test_live_wide_strings_match_snprintf(void **state)
{
    (void) state;
    static const wchar_t *const wide[] = { L"", L"w", L"wide text", NULL };
    char flags[8], format[64];
    for (unsigned f = 0; f < 32; f += 3)
    for (size_t w = 0; w < ITEMS(widths); w++)
    for (size_t p = 0; p < ITEMS(precisions); p++)
    {
        flags_for(f, flags);
        snprintf(format, sizeof(format), "[%%%s%s%sls]", flags, widths[w],
                 precisions[p]);
        for (size_t v = 0; v < ITEMS(wide); v++)
        {
            uint64_t word = word_of_pointer(wide[v]);
            int want = snprintf(expected, sizeof(expected), format, wide[v]);
            check_same(format, word, want, render(&live, format, &word, 1));
        }
    }
}

static void test_wide_string_precision_never_splits_a_character(void **state)
{
    (void) state;
    static const wchar_t text[] = { 'a', 0xE9, 'b', 0 };
    assert_string_equal(rendered(&live, "[%.2ls][%.3ls][%5ls]",
                                 ARGS(word_of_pointer(text),
                                      word_of_pointer(text),
                                      word_of_pointer(text))),
                        "[a][a\xC3\xA9][ a\xC3\xA9" "b]");
}

static void test_plus_flag_dereferences_dumped_strings(void **state)
{
    (void) state;
    char format[64];
    for (size_t w = 0; w < ITEMS(widths); w++)
    for (size_t p = 0; p < ITEMS(precisions); p++)
    for (size_t v = 0; v < ITEMS(strings); v++)
    {
        uint64_t word = word_of_pointer(strings[v]);
        snprintf(format, sizeof(format), "[%%%s%ss]", widths[w],
                 precisions[p]);
        int want = snprintf(expected, sizeof(expected), format, strings[v]);
        snprintf(format, sizeof(format), "[%%+%s%ss]", widths[w],
                 precisions[p]);
        check_same(format, word, want, render(&dumped, format, &word, 1));
    }
}

static void test_dumped_strings_print_as_pointers(void **state)
{
    (void) state;
    char flags[8], format[64], pointer_format[64];
    for (unsigned f = 0; f < 32; f++)
    for (size_t w = 0; w < ITEMS(widths); w++)
    for (size_t p = 0; p < ITEMS(precisions); p++)
    for (size_t v = 0; v < ITEMS(strings); v++)
    {
        if (f & 2)
            continue;           /* '+' dereferences */
        uint64_t word = word_of_pointer(strings[v]);
        flags_for(f, flags);
        snprintf(format, sizeof(format), "[%%%s%s%ss]", flags, widths[w],
                 precisions[p]);
        /* Only the width and '-' apply. */
        snprintf(pointer_format, sizeof(pointer_format), "[%%%s%sp]",
                 (f & 1) ? "-" : "", widths[w]);
        int want = snprintf(expected, sizeof(expected), pointer_format,
                            (void *) strings[v]);
        check_same(format, word, want, render(&dumped, format, &word, 1));
    }
}

static void test_null_string_follows_glibc_precision_rule(void **state)
{
    (void) state;
    assert_string_equal(rendered(&live, "[%s][%.5s][%.6s][%8.2s]",
                                 ARGS(0, 0, 0, 0)),
                        "[(null)][][(null)][        ]");
}


/* ------------------------------------------------------------------------ */
/*   Floating point                                                         */
/* ------------------------------------------------------------------------ */

static const double float_values[] = {
    0.0, -0.0, 1.0, -1.5, 0.1, 0.5, 2.5, 3.25, 0.05, 1e-5, 999.9995,
    123456.789, 12345.678, 1e15, 1e16, 9.999999e22, 1e300, -1e-300,
    DBL_MAX, DBL_MIN, 4.9e-324, 0x1.fffp0, INFINITY, -INFINITY, NAN, -NAN
};

static void compare_floats(const recorder_render_options *options,
                           const char *const *lengths, size_t count)
{
    static const char *const float_widths[] = { "", "1", "12", "30" };
    static const char *const float_precisions[] = {
        "", ".", ".0", ".1", ".3", ".17", ".25", ".40"
    };
    static const char conversions[] = "fFeEgGaA";
    char flags[8], format[64];

    for (size_t l = 0; l < count; l++)
    for (const char *c = conversions; *c; c++)
    for (unsigned f = 0; f < 32; f++)
    for (size_t w = 0; w < ITEMS(float_widths); w++)
    for (size_t p = 0; p < ITEMS(float_precisions); p++)
    {
        bool long_double = !strcmp(lengths[l], "L");
        flags_for(f, flags);
        snprintf(format, sizeof(format), "[%%%s%s%s%s%c]", flags,
                 float_widths[w], float_precisions[p], lengths[l], *c);
        for (size_t v = 0; v < ITEMS(float_values); v++)
        {
            double d = float_values[v];
            /* glibc drops the zeros of "%#.3g" when 999.9995 rounds up to
             * 1e+03; safe mode keeps them, see the test below. */
            if (options->signal_safe && d == 999.9995 && (f & 8) &&
                (*c == 'g' || *c == 'G'))
                continue;
            uint64_t word = word_of_double(d);
            int want = long_double
                ? snprintf(expected, sizeof(expected), format,
                           (long double) d)
                : snprintf(expected, sizeof(expected), format, d);
            check_same(format, word, want, render(options, format, &word, 1));
        }
    }
}

static void test_floats_match_snprintf(void **state)
{
    (void) state;
    static const char *const lengths[] = { "", "l", "L" };
    compare_floats(&live, lengths, ITEMS(lengths));
}

static void test_huge_float_widths_and_precisions_match_snprintf(void **state)
{
    (void) state;
    static const char *const formats[] = {
        "[%5000.3f]", "[%-5000e]", "[%05000.2a]", "[%.2000f]", "[%#.1500g]",
        "[%.1500g]", "[%.1500e]", "[%+08000.1200f]", "[% -6000.1300E]",
        "[%.3000A]", "[%#.3000a]", "[%010000Lf]", "[%.1200Lf]", "[%5000f]"
    };
    static const double values[] = {
        1.0, -2.5, 0.1, 1e-300, 4.9e-324, 1e300, DBL_MAX, INFINITY, NAN
    };
    for (size_t i = 0; i < ITEMS(formats); i++)
    for (size_t v = 0; v < ITEMS(values); v++)
    {
        uint64_t word = word_of_double(values[v]);
        int want = strchr(formats[i], 'L')
            ? snprintf(expected, sizeof(expected), formats[i],
                       (long double) values[v])
            : snprintf(expected, sizeof(expected), formats[i], values[v]);
        assert_true((size_t) want < sizeof(expected));
        check_same(formats[i], word, want,
                   render(&live, formats[i], &word, 1));
    }
}

static void test_safe_floats_give_expected_text(void **state)
{
    (void) state;
    assert_string_equal(rendered(&safe, "%.6f", ARGS(word_of_double(3.25))),
                        "3.250000");
    assert_string_equal(rendered(&safe, "%g", ARGS(word_of_double(0.1))),
                        "0.1");
    assert_string_equal(rendered(&safe, "%e",
                                 ARGS(word_of_double(12345.678))),
                        "1.234568e+04");
    assert_string_equal(rendered(&safe, "%f|%.0f|%.0f|%.0f", ARGS(
                                     word_of_double(-0.0),
                                     word_of_double(0.5),
                                     word_of_double(1.5),
                                     word_of_double(2.5))),
                        "-0.000000|0|2|2");
    assert_string_equal(rendered(&safe, "%g %g %g %G", ARGS(
                                     word_of_double(100000),
                                     word_of_double(1e6),
                                     word_of_double(1e-5),
                                     word_of_double(1e-10))),
                        "100000 1e+06 1e-05 1E-10");
    assert_string_equal(rendered(&safe, "[%+08.2f][%-9.1e][% g][%#.3g]",
                                 ARGS(word_of_double(3.14159),
                                      word_of_double(-0.25),
                                      word_of_double(42),
                                      word_of_double(1))),
                        "[+0003.14][-2.5e-01 ][ 42][1.00]");
    assert_string_equal(rendered(&safe, "%f %F %e %G %a %05f %+F", ARGS(
                                     word_of_double(INFINITY),
                                     word_of_double(-INFINITY),
                                     word_of_double(NAN),
                                     word_of_double(-NAN),
                                     word_of_double(INFINITY),
                                     word_of_double(INFINITY),
                                     word_of_double(NAN))),
                        "inf -INF nan -NAN inf   inf +NAN");
    assert_string_equal(rendered(&safe, "%a %A %.1a %.0a %#a %a", ARGS(
                                     word_of_double(1.0),
                                     word_of_double(-10.5),
                                     word_of_double(1.09375),
                                     word_of_double(1.5),
                                     word_of_double(1.0),
                                     word_of_double(4.9e-324))),
                        "0x1p+0 -0X1.5P+3 0x1.2p+0 0x2p+0 0x1.p+0 "
                        "0x0.0000000000001p-1022");
    assert_string_equal(rendered(&safe, "%.3f %e", ARGS(
                                     word_of_double(999.9996),
                                     word_of_double(DBL_MAX))),
                        "1000.000 1.797693e+308");
}

static void test_safe_floats_match_snprintf_up_to_precision_40(void **state)
{
    (void) state;
    /* Not L: records keep doubles, and safe mode lays %La out as one. */
    static const char *const lengths[] = { "", "l" };
    compare_floats(&safe, lengths, ITEMS(lengths));
}

static void test_safe_floats_match_snprintf_for_random_doubles(void **state)
{
    (void) state;
    static const char conversions[] = "feEgGa";
    char format[32];
    srand(12345);
    for (unsigned i = 0; i < 40000; i++)
    {
        uint64_t word = ((uint64_t) rand() << 40) ^ ((uint64_t) rand() << 20)
                        ^ (uint64_t) rand() ^ ((uint64_t) rand() << 62);
        double d;
        memcpy(&d, &word, sizeof(d));
        snprintf(format, sizeof(format), "%%.%d%c", rand() % 41,
                 conversions[rand() % 6]);
        int want = snprintf(expected, sizeof(expected), format, d);
        check_same(format, word, want, render(&safe, format, &word, 1));
    }
}

/* C11 7.21.6.1: %#.3g of 999.9995 has exponent 3 after rounding, so it is
 * "%#.2e", "1.00e+03". glibc 2.36 prints "1.e+03" (it keeps the precision
 * of the %f style it first chose); safe mode follows the standard. */
static void test_safe_alternate_g_keeps_zeros_after_rounding_up(void **state)
{
    (void) state;
    assert_string_equal(rendered(&safe, "%#.3g %#.2g %#g %.3g", ARGS(
                                     word_of_double(999.9995),
                                     word_of_double(99.99),
                                     word_of_double(999999.5),
                                     word_of_double(999.9995))),
                        "1.00e+03 1.0e+02 1.00000e+06 1e+03");
}

static void test_safe_float_precision_is_capped_at_40(void **state)
{
    (void) state;
    uint64_t tenth = word_of_double(0.1);
    /* 0.1 has 55 significant decimals: only 40 are computed. */
    snprintf(expected, sizeof(expected), "%.40f", 0.1);
    assert_string_equal(rendered(&safe, "%.60f", &tenth, 1), expected);
    /* 3.25 has no more digits: the precision is honoured with zeros. */
    uint64_t exact = word_of_double(3.25);
    snprintf(expected, sizeof(expected), "%.60f|%.50e|%#.55g|%.50a",
             3.25, 3.25, 3.25, 3.25);
    assert_string_equal(rendered(&safe, "%.60f|%.50e|%#.55g|%.50a",
                                 ARGS(exact, exact, exact, exact)),
                        expected);
}

static void test_safe_floats_survive_huge_width_and_precision(void **state)
{
    (void) state;
    char small[48];
    uint64_t word = word_of_double(-1.5);
    size_t length = recorder_render(small, sizeof(small), "%0999999999.2f",
                                    &word, 1, &safe);
    assert_int_equal(length, sizeof(small) - 1);
    assert_memory_equal(small, "-0000000000", 11);
    length = recorder_render(small, sizeof(small), "%.2147483647e|%-*a",
                             ARGS(word, INT_MIN, word), &safe);
    assert_int_equal(length, sizeof(small) - 1);
    assert_memory_equal(small, "-1.5000000000000000000000000000000000000000",
                        42);
}


/* ------------------------------------------------------------------------ */
/*   Arguments: %n, stars, missing and extra                                */
/* ------------------------------------------------------------------------ */

static void test_percent_n_writes_nothing_and_prints_nothing(void **state)
{
    (void) state;
    int target = 42;
    long wide_target = 43;
    uint64_t where = word_of_pointer(&target);
    assert_string_equal(rendered(&live, "a%nb%hhn%lnc%d", ARGS(
                                     where, where,
                                     word_of_pointer(&wide_target), 7)),
                        "abc7");
    assert_int_equal(target, 42);
    assert_int_equal(wide_target, 43);
    /* A missing %n argument prints nothing either. */
    assert_string_equal(rendered(&live, "x%ny", NULL, 0), "xy");
}

static void test_width_star_consumes_argument(void **state)
{
    (void) state;
    assert_string_equal(rendered(&dumped, "[%*d][%-*d][%*d]",
                                 ARGS(5, 42, 4, 7, -4, 9)),
                        "[   42][7   ][9   ]");
}

static void test_precision_star_consumes_argument(void **state)
{
    (void) state;
    assert_string_equal(rendered(&live, "[%.*d][%.*d][%*.*x][%.*s]",
                                 ARGS(3, 7, 0, 0, 6, 4, 255,
                                      2, word_of_pointer("abc"))),
                        "[007][][  00ff][ab]");
}

static void test_negative_precision_star_means_no_precision(void **state)
{
    (void) state;
    assert_string_equal(rendered(&live, "[%.*d][%.*s][%05.*d]",
                                 ARGS((uint64_t) -1, 0,
                                      (uint64_t) -3, word_of_pointer("abc"),
                                      (uint64_t) -2, 42)),
                        "[0][abc][00042]");
}

static void test_star_width_int_min_does_not_overflow(void **state)
{
    (void) state;
    char small[16];
    size_t length = recorder_render(small, sizeof(small), "%*d|",
                                    ARGS((uint64_t) INT_MIN, 1), &dumped);
    assert_int_equal(length, 15);
    assert_string_equal(small, "1              ");
}

static void test_missing_arguments_render_as_missing(void **state)
{
    (void) state;
    assert_string_equal(rendered(&dumped, "%d %d %s", ARGS(1)),
                        "1 <missing> <missing>");
    assert_string_equal(rendered(&dumped, "[%*d] %u", ARGS(5)),
                        "[<missing>] <missing>");
    assert_string_equal(rendered(&dumped, "%f", NULL, 0), "<missing>");
}

static void test_extra_arguments_are_ignored(void **state)
{
    (void) state;
    assert_string_equal(rendered(&dumped, "%d!", ARGS(1, 2, 3, 4)), "1!");
}

static void test_unknown_conversions_are_copied_verbatim(void **state)
{
    (void) state;
    assert_string_equal(rendered(&dumped, "%y %5k %-08.3w %lm %d", ARGS(7)),
                        "%y %5k %-08.3w %lm 7");
    assert_string_equal(rendered(&dumped, "[%5][%l", NULL, 0), "[%5][%l");
}


/* ------------------------------------------------------------------------ */
/*   Custom conversions                                                     */
/* ------------------------------------------------------------------------ */

static intptr_t seen_trace;
static char seen_format[128];
static uintptr_t seen_data;
static size_t seen_length;
static unsigned seen_calls;

static size_t custom_hex(intptr_t trace, const char *format, char *buffer,
                         size_t length, uintptr_t data)
{
    seen_trace = trace;
    snprintf(seen_format, sizeof(seen_format), "%s", format);
    seen_data = data;
    seen_length = length;
    seen_calls++;
    return (size_t) snprintf(buffer, length, "<%lx>", (unsigned long) data);
}

/* Writes what it may, then claims far more. */
static size_t custom_liar(intptr_t trace, const char *format, char *buffer,
                          size_t length, uintptr_t data)
{
    (void) trace;
    (void) format;
    (void) data;
    memset(buffer, 'z', length);
    return length + 1000;
}

static void test_custom_conversion_gets_trace_plus_one_and_spec(void **state)
{
    (void) state;
    recorder_type_fn types[256] = { 0 };
    types['X'] = custom_hex;
    recorder_render_options options = { .trace = 4, .types = types };
    seen_calls = 0;

    assert_string_equal(rendered(&options, "a%+08Xb", ARGS(0xbeef)),
                        "a<beef>b");
    assert_int_equal(seen_calls, 1);
    assert_int_equal(seen_trace, 5);
    assert_string_equal(seen_format, "%+08X");
    assert_int_equal(seen_data, 0xbeef);
    /* Everything left, the byte kept for the final NUL included. */
    assert_int_equal(seen_length, sizeof(output) - 1);

    rendered(&options, "%X", ARGS(1));
    assert_int_equal(seen_trace, 4);
    assert_string_equal(seen_format, "%X");
}

static void test_custom_conversion_overrides_builtin(void **state)
{
    (void) state;
    recorder_type_fn types[256] = { 0 };
    types['d'] = custom_hex;
    recorder_render_options options = { .types = types };
    assert_string_equal(rendered(&options, "%d %u %*d", ARGS(255, 255, 3, 16)),
                        "<ff> 255 <10>");
    assert_string_equal(seen_format, "%*d");
}

static void test_missing_custom_argument_skips_the_call(void **state)
{
    (void) state;
    recorder_type_fn types[256] = { 0 };
    types['V'] = custom_hex;
    recorder_render_options options = { .types = types };
    seen_calls = 0;
    assert_string_equal(rendered(&options, "%V", NULL, 0), "<missing>");
    assert_int_equal(seen_calls, 0);
}

static void test_custom_conversion_result_is_clamped(void **state)
{
    (void) state;
    recorder_type_fn types[256] = { 0 };
    types['Z' + 1] = custom_liar;     /* '[' as a conversion */
    recorder_render_options options = { .types = types };
    char buffer[12];
    memset(buffer, '#', sizeof(buffer));
    size_t length = recorder_render(buffer, 8, "ab%[", ARGS(0), &options);
    assert_int_equal(length, 7);
    assert_memory_equal(buffer, "abzzzzz\0##", 10);
}

static void test_empty_custom_table_entries_fall_back(void **state)
{
    (void) state;
    recorder_type_fn types[256] = { 0 };
    recorder_render_options options = { .types = types };
    assert_string_equal(rendered(&options, "%x %y", ARGS(255)), "ff %y");
}


/* ------------------------------------------------------------------------ */
/*   Truncation and robustness                                              */
/* ------------------------------------------------------------------------ */

static void test_truncation_never_writes_past_size(void **state)
{
    (void) state;
    static const char *const strings_used[] = { "a string", "two" };
    const struct
    {
        const char *format;
        uint64_t args[3];
    } cases[] = {
        { "hello %d world", { (uint64_t) -12345 } },
        { "%-20s|", { word_of_pointer(strings_used[0]) } },
        { "%+.10f", { word_of_double(3.5) } },
        { "%#x %o %p", { 255, 8, 0x1234 } },
        { "%5%%c%%", { 'c' } },
        { "%lc%lc", { 0x1F600, 0xE9 } },
        { "%q", { 0 } },
        { "%s %s", { word_of_pointer(strings_used[0]),
                     word_of_pointer(strings_used[1]) } },
    };
    char full[256], buffer[64];
    for (size_t i = 0; i < ITEMS(cases); i++)
    {
        size_t length = recorder_render(full, sizeof(full), cases[i].format,
                                        cases[i].args, 3, &live);
        for (size_t size = 0; size <= length + 2; size++)
        {
            memset(buffer, '#', sizeof(buffer));
            size_t got = recorder_render(buffer, size, cases[i].format,
                                         cases[i].args, 3, &live);
            size_t want = size ? (length < size - 1 ? length : size - 1) : 0;
            assert_int_equal(got, want);
            assert_memory_equal(buffer, full, got);
            if (size)
                assert_int_equal(buffer[got], 0);
            assert_int_equal(buffer[size], '#');   /* the canary */
        }
    }
}

static void test_zero_size_writes_nothing(void **state)
{
    (void) state;
    char canary = '#';
    assert_int_equal(recorder_render(&canary, 0, "abc", NULL, 0, &dumped), 0);
    assert_int_equal(canary, '#');
    assert_int_equal(recorder_render(NULL, 10, "abc", NULL, 0, &dumped), 0);
}

static void test_huge_widths_truncate_quickly(void **state)
{
    (void) state;
    static const struct
    {
        const char *format;
        bool floating;
    } cases[] = {
        { "%999999999d", false }, { "%.2147483647s", false },
        { "%2147483647d", false }, { "%-2147483648d|", false },
        { "%99999999999999999999999d", false },
        { "%.99999999999999999999999d", false },
        { "%.2147483647x", false }, { "%999999999s", false },
        { "%999999999c", false }, { "%999999999p", false },
        { "%99999999999%", false }, { "%999999999f", true },
        { "%.999999999f", true }, { "%-999999999.999999999e|", true },
        { "%0999999999a", true }, { "%.2147483647g", true },
        { "%#.2147483647G", true }, { "%.2147483647La", true },
    };
    char buffer[80];
    clock_t start = clock();
    for (size_t i = 0; i < ITEMS(cases); i++)
    {
        uint64_t word = cases[i].floating ? word_of_double(1.5)
                                          : word_of_pointer("abc");
        for (unsigned mode = 0; mode < 2; mode++)
        {
            memset(buffer, '#', sizeof(buffer));
            size_t length = recorder_render(buffer, 64, cases[i].format,
                                            &word, 1, mode ? &safe : &live);
            assert_true(length < 64);
            assert_int_equal(buffer[length], 0);
            assert_int_equal(buffer[64], '#');
        }
    }
    assert_true(clock() - start < CLOCKS_PER_SEC);

    recorder_render(buffer, 64, "%.2147483647s", ARGS(word_of_pointer("abc")),
                    &live);
    assert_string_equal(buffer, "abc");
    recorder_render(buffer, 16, "%.99999999999999999999999d", ARGS(5), &live);
    assert_string_equal(buffer, "000000000000000");
    uint64_t one = word_of_double(1.5);
    recorder_render(buffer, 16, "%.999999999f", &one, 1, &live);
    assert_string_equal(buffer, "1.5000000000000");
    recorder_render(buffer, 16, "%-999999999.3e|", &one, 1, &live);
    assert_string_equal(buffer, "1.500e+00      ");
}

/* Random formats and arguments: nothing may crash, overflow or leave the
 * output unterminated. Strings are only dereferenced through a pointer that
 * is valid both as char * and as wchar_t *. */
static void test_random_formats_never_overflow(void **state)
{
    (void) state;
    static const char alphabet[] =
        "%%%%%%%-+ #0'123456789**..hhllLqjzZtdiuoxXbBcspnfFeEgGaAky";
    static const wchar_t text[] = L"text";
    recorder_type_fn types[256] = { 0 };
    types['k'] = custom_hex;
    char format[32], buffer[80];
    srand(4242);
    for (unsigned i = 0; i < 100000; i++)
    {
        size_t length = (size_t) rand() % (sizeof(format) - 1);
        for (size_t j = 0; j < length; j++)
            format[j] = alphabet[(size_t) rand() % (sizeof(alphabet) - 1)];
        format[length] = 0;

        bool has_strings = strchr(format, 's') != NULL;
        uint64_t args[RECORDER_MAX_ARGS];
        for (unsigned a = 0; a < RECORDER_MAX_ARGS; a++)
        {
            uint64_t r = ((uint64_t) rand() << 33) ^ (uint64_t) rand();
            switch (rand() % 4)
            {
            case 0:
                args[a] = r;
                break;
            case 1:
                args[a] = (uint64_t) (rand() % 64 - 32);
                break;
            case 2:
                args[a] = r % 2 ? (uint64_t) INT_MIN : INT_MAX;
                break;
            default:
                args[a] = word_of_double((double) r / 7e10);
                break;
            }
            if (has_strings)
                args[a] = rand() % 8 ? word_of_pointer(text) : 0;
        }

        size_t size = 1 + (size_t) rand() % 64;
        recorder_render_options options = {
            .trace = rand(), .strings_valid = (bool) (rand() % 2),
            .signal_safe = (bool) (rand() % 2), .types = types
        };
        memset(buffer, '#', sizeof(buffer));
        size_t got = recorder_render(buffer, size, format, args,
                                     (unsigned) rand() % 13, &options);
        assert_true(got < size);
        assert_int_equal(buffer[got], 0);
        assert_int_equal(buffer[size], '#');
    }
}

/* Guarded strings (rings others can write): a bad address is described,
 * never followed; a string that ends a mapping still comes through, and
 * one that runs off it is cut where the readable memory ends. */
static void test_guarded_strings_never_fault(void **state)
{
    (void) state;
    static const recorder_render_options guarded = {
        .strings_valid = true, .strings_guarded = true, .signal_safe = true
    };
    size_t page = (size_t) sysconf(_SC_PAGESIZE);
    char *two = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(two != MAP_FAILED);
    assert_int_equal(munmap(two + page, page), 0);
    recorder_render(output, sizeof(output), "[%+s] [%+8.2s] [%s]",
                    ARGS((uintptr_t) "live", (uintptr_t) "live",
                         (uintptr_t) "plain"), &guarded);
    assert_string_equal(output, "[live] [      li] [plain]");

    char *ends = two + page - 5;                /* its NUL is the last byte */
    memcpy(ends, "edge", 5);
    recorder_render(output, sizeof(output), "[%+s]",
                    ARGS((uintptr_t) ends), &guarded);
    assert_string_equal(output, "[edge]");

    memset(two + page - 8, 'x', 8);             /* no NUL before the end */
    recorder_render(output, sizeof(output), "[%+s]",
                    ARGS((uintptr_t) (two + page - 8)), &guarded);
    assert_string_equal(output, "[xxxxxxxx]");

    uintptr_t hole = (uintptr_t) (two + page);
    recorder_render(output, sizeof(output), "[%+s] [%+ls] [%+s]",
                    ARGS(hole, hole, 0), &guarded);
    snprintf(expected, sizeof(expected), "[<unreadable %#lx>] "
             "[<unreadable %#lx>] [(null)]", (unsigned long) hole,
             (unsigned long) hole);
    assert_string_equal(output, expected);

    static const wchar_t wide[] = L"w\u00e9";
    recorder_render(output, sizeof(output), "[%+ls]",
                    ARGS((uintptr_t) wide), &guarded);
    assert_string_equal(output, "[w\xc3\xa9]");
    munmap(two, page);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_literal_text_is_copied),
        cmocka_unit_test(test_percent_percent_prints_one_percent),
        cmocka_unit_test(test_lone_percent_at_end_prints_percent),
        cmocka_unit_test(test_null_format_renders_nothing),
        cmocka_unit_test(test_null_options_use_defaults),
        cmocka_unit_test(test_signed_integers_match_snprintf),
        cmocka_unit_test(test_unsigned_integers_match_snprintf),
        cmocka_unit_test(test_binary_integers_match_snprintf),
        cmocka_unit_test(test_length_modifier_narrows_like_printf),
        cmocka_unit_test(test_chars_match_snprintf),
        cmocka_unit_test(test_wide_chars_match_snprintf_for_ascii),
        cmocka_unit_test(test_wide_chars_beyond_ascii_are_utf8),
        cmocka_unit_test(test_pointers_match_snprintf),
        cmocka_unit_test(test_live_strings_match_snprintf),
        cmocka_unit_test(test_live_wide_strings_match_snprintf),
        cmocka_unit_test(test_wide_string_precision_never_splits_a_character),
        cmocka_unit_test(test_plus_flag_dereferences_dumped_strings),
        cmocka_unit_test(test_dumped_strings_print_as_pointers),
        cmocka_unit_test(test_null_string_follows_glibc_precision_rule),
        cmocka_unit_test(test_floats_match_snprintf),
        cmocka_unit_test(test_huge_float_widths_and_precisions_match_snprintf),
        cmocka_unit_test(test_safe_floats_give_expected_text),
        cmocka_unit_test(test_safe_floats_match_snprintf_up_to_precision_40),
        cmocka_unit_test(test_safe_floats_match_snprintf_for_random_doubles),
        cmocka_unit_test(test_safe_alternate_g_keeps_zeros_after_rounding_up),
        cmocka_unit_test(test_safe_float_precision_is_capped_at_40),
        cmocka_unit_test(test_safe_floats_survive_huge_width_and_precision),
        cmocka_unit_test(test_percent_n_writes_nothing_and_prints_nothing),
        cmocka_unit_test(test_width_star_consumes_argument),
        cmocka_unit_test(test_precision_star_consumes_argument),
        cmocka_unit_test(test_negative_precision_star_means_no_precision),
        cmocka_unit_test(test_star_width_int_min_does_not_overflow),
        cmocka_unit_test(test_missing_arguments_render_as_missing),
        cmocka_unit_test(test_extra_arguments_are_ignored),
        cmocka_unit_test(test_unknown_conversions_are_copied_verbatim),
        cmocka_unit_test(test_custom_conversion_gets_trace_plus_one_and_spec),
        cmocka_unit_test(test_custom_conversion_overrides_builtin),
        cmocka_unit_test(test_missing_custom_argument_skips_the_call),
        cmocka_unit_test(test_custom_conversion_result_is_clamped),
        cmocka_unit_test(test_empty_custom_table_entries_fall_back),
        cmocka_unit_test(test_truncation_never_writes_past_size),
        cmocka_unit_test(test_zero_size_writes_nothing),
        cmocka_unit_test(test_huge_widths_truncate_quickly),
        cmocka_unit_test(test_random_formats_never_overflow),
        cmocka_unit_test(test_guarded_strings_never_fault),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
