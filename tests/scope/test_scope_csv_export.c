/* test_scope_csv_export.c - the values a graph shows, as CSV. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "capture/csv_export.h"
#include "view/graph_model.h"
#include "common/number_text.h"
#include "scope_test_series.h"

#include <math.h>

static char *csv_of(scope_series **series, unsigned count,
                    const uint64_t *first, const uint64_t *end,
                    unsigned views, long *rows)
{
    test_memfile m;
    test_memfile_open(&m);
    *rows = scope_csv_write(m.file, series, count, first, end, views);
    test_memfile_close(&m);
    return m.text;
}

static void test_header_then_one_row_per_sample(void **state)
{
    (void) state;
    scope_series *s = test_series("bytes", 3, 1.0, 0.5, 100, 10);
    uint64_t first = 0, end = 3;
    long rows;
    char *text = csv_of(&s, 1, &first, &end, SCOPE_VIEW_NORMAL, &rows);
    assert_int_equal(rows, 3);
    assert_string_equal(text, "time,bytes\n"
                              "1.000000000,100\n"
                              "1.500000000,110\n"
                              "2.000000000,120\n");
    free(text);
    test_series_delete(s);
}

static void test_values_read_back_exactly(void **state)
{
    (void) state;
    static const double values[] = {
        0.1, 1.0 / 3, -2.5e-300, 9007199254740993.0, 123456789012345.0, -0.0,
        1e308,
    };
    const unsigned n = sizeof(values) / sizeof(values[0]);
    scope_series *s = malloc(sizeof(*s));
    scope_series_init(s, "x", 0.99);
    for (unsigned i = 0; i < n; i++)
        scope_series_append(s, i, values[i]);
    uint64_t first = 0, end = n;
    long rows;
    char *text = csv_of(&s, 1, &first, &end, SCOPE_VIEW_NORMAL, &rows);
    char *line = strchr(text, '\n') + 1;
    for (unsigned i = 0; i < n; i++)
    {
        char *comma = strchr(line, ',');
        assert_non_null(comma);
        double back = strtod(comma + 1, &line);
        assert_memory_equal(&back, &values[i], sizeof(back));
        line++;                         /* the newline */
    }
    free(text);
    test_series_delete(s);
}

static void test_channels_merge_by_time_with_empty_cells(void **state)
{
    (void) state;
    scope_series *s[2] = {
        test_series("a", 3, 0.0, 1.0, 1, 1),        /* t 0 1 2 */
        test_series("b", 2, 1.0, 0.5, 7, 1),        /* t 1 1.5 */
    };
    uint64_t first[2] = { 0, 0 }, end[2] = { 3, 2 };
    long rows;
    char *text = csv_of(s, 2, first, end, SCOPE_VIEW_NORMAL, &rows);
    assert_int_equal(rows, 4);
    assert_string_equal(text, "time,a,b\n"
                              "0.000000000,1,\n"
                              "1.000000000,2,7\n"
                              "1.500000000,,8\n"
                              "2.000000000,3,\n");
    free(text);
    test_series_delete(s[0]);
    test_series_delete(s[1]);
}

static void test_only_the_given_range_is_written(void **state)
{
    (void) state;
    scope_series *s = test_series("r", 10, 0.0, 1.0, 0, 1);
    uint64_t first = 4, end = 6;
    long rows;
    char *text = csv_of(&s, 1, &first, &end, SCOPE_VIEW_NORMAL, &rows);
    assert_string_equal(text, "time,r\n4.000000000,4\n5.000000000,5\n");
    free(text);
    test_series_delete(s);
}

static void test_views_add_their_columns(void **state)
{
    (void) state;
    scope_series *s = test_series("v", 2, 0.0, 0.001, 10, 10);
    uint64_t first = 0, end = 2;
    long rows;
    char *text = csv_of(&s, 1, &first, &end,
                        SCOPE_VIEW_NORMAL | SCOPE_VIEW_TIMING |
                        SCOPE_VIEW_AVERAGE | SCOPE_VIEW_MINMAX, &rows);
    char *second = strchr(text, '\n') + 1;
    second[-1] = 0;
    *strchr(second, '\n') = 0;
    assert_string_equal(text, "time,v,v.average,v.min,v.max,v.interval_us");
    /* First sample: no interval yet, so an empty cell. */
    assert_string_equal(second, "0.000000000,10,10,10,10,");
    free(text);
    test_series_delete(s);
}

static void test_names_with_commas_are_quoted(void **state)
{
    (void) state;
    scope_series *s = test_series("a,\"b\"", 1, 0, 1, 1, 0);
    uint64_t first = 0, end = 1;
    long rows;
    char *text = csv_of(&s, 1, &first, &end, SCOPE_VIEW_NORMAL, &rows);
    assert_string_equal(text, "time,\"a,\"\"b\"\"\"\n0.000000000,1\n");
    free(text);
    test_series_delete(s);
}

static void test_graphs_export_what_they_show(void **state)
{
    (void) state;
    /* 100 samples over 10 s; a graph of the last 2 s shows 20 of them. */
    scope_series *s = test_series("w", 100, 0.05, 0.1, 0, 1);
    graph_model model = {
        .series = &s, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = 10.0, .duration = 2.0, .max_samples = -1,
    };
    const graph_model *models[] = { &model };
    test_memfile m;
    test_memfile_open(&m);
    long rows = scope_csv_write_graphs(m.file, models, 1, 600);
    test_memfile_close(&m);
    assert_int_equal(rows, 20);
    assert_non_null(strstr(m.text, "\n8.050000000,80\n"));
    free(m.text);

    /* With -w 5: the newest five. */
    model.max_samples = 5;
    test_memfile_open(&m);
    rows = scope_csv_write_graphs(m.file, models, 1, 600);
    test_memfile_close(&m);
    assert_int_equal(rows, 5);
    assert_non_null(strstr(m.text, "\n9.550000000,95\n"));
    assert_null(strstr(m.text, "\n9.450000000,94\n"));
    free(m.text);
    test_series_delete(s);
}

static void test_a_channel_in_two_graphs_is_written_once(void **state)
{
    (void) state;
    scope_series *s = test_series("twice", 3, 0, 1, 0, 1);
    graph_model a = {
        .series = &s, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = NAN, .duration = 0, .max_samples = -1,
    };
    graph_model b = a;
    const graph_model *models[] = { &a, &b };
    test_memfile m;
    test_memfile_open(&m);
    long rows = scope_csv_write_graphs(m.file, models, 2, 600);
    test_memfile_close(&m);
    assert_int_equal(rows, 3);
    assert_string_equal(strchr(m.text, '\n') - strlen("time,twice"),
                        "time,twice\n0.000000000,0\n1.000000000,1\n"
                        "2.000000000,2\n");
    free(m.text);
    test_series_delete(s);
}

static void test_numbers_are_shortest_and_exact(void **state)
{
    (void) state;
    static const struct { double value; const char *text; } cases[] = {
        { 0.1, "0.1" }, { 100, "100" }, { -2.5, "-2.5" }, { 0, "0" },
        { -0.0, "-0" }, { 1e308, "1e+308" }, { 1.0 / 3, "0.3333333333333333" },
        { 0.1 + 0.2, "0.30000000000000004" }, { 5e-324, "5e-324" },
        { 123456789012345.0, "123456789012345" },
    };
    char text[40];
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    {
        scope_shortest_double(cases[i].value, text, sizeof(text));
        assert_string_equal(text, cases[i].text);
    }
    scope_shortest_double(NAN, text, sizeof(text));
    assert_string_equal(text, "nan");
    scope_shortest_double(-INFINITY, text, sizeof(text));
    assert_string_equal(text, "-inf");
    /* Shortest: one digit less would not read back. */
    for (double v = 0.001; v < 1e6; v *= 1.37)
    {
        scope_shortest_double(v, text, sizeof(text));
        assert_true(strtod(text, NULL) == v);
        char *e = strchr(text, 'e');
        size_t digits = 0;
        bool significant = false;       /* past the leading zeros */
        for (char *p = text; *p && p != e; p++)
        {
            significant |= *p >= '1' && *p <= '9';
            digits += significant && *p >= '0' && *p <= '9';
        }
        if (digits > 1)
        {
            char shorter[400];
            snprintf(shorter, sizeof(shorter), "%.*g", (int) digits - 1, v);
            assert_false(strtod(shorter, NULL) == v);
        }
    }
}

static void test_csv_values_are_shortest(void **state)
{
    (void) state;
    scope_series *s = test_series("x", 2, 0, 1, 0.1, 0.2);
    uint64_t first = 0, end = 2;
    long rows;
    char *text = csv_of(&s, 1, &first, &end, SCOPE_VIEW_NORMAL, &rows);
    assert_string_equal(text, "time,x\n0.000000000,0.1\n"
                              "1.000000000,0.30000000000000004\n");
    free(text);
    test_series_delete(s);
}

/* Each channel has the columns of the views that are on for it. */
static void test_columns_follow_each_channels_views(void **state)
{
    (void) state;
    scope_series *a = test_series("a", 2, 0, 1, 1, 1);
    scope_series *b = test_series("b", 2, 0.5, 1, 7, 1);
    graph_model values = {
        .series = &a, .series_count = 1, .views = SCOPE_VIEW_NORMAL,
        .view_end = NAN, .duration = 0, .max_samples = -1,
    };
    graph_model timing = {
        .series = &b, .series_count = 1, .views = SCOPE_VIEW_TIMING,
        .view_end = NAN, .duration = 0, .max_samples = -1,
    };
    const graph_model *models[] = { &values, &timing };
    test_memfile m;
    test_memfile_open(&m);
    long rows = scope_csv_write_graphs(m.file, models, 2, 600);
    test_memfile_close(&m);
    assert_int_equal(rows, 4);
    assert_string_equal(m.text, "time,a,b.interval_us\n"
                                "0.000000000,1,\n"
                                "0.500000000,,\n"
                                "1.000000000,2,\n"
                                "1.500000000,,1000000\n");
    free(m.text);

    /* Nothing on: no column, no row, and a reason. */
    timing.views = 0;
    values.views = 0;
    test_memfile_open(&m);
    rows = scope_csv_write_graphs(m.file, models, 2, 600);
    test_memfile_close(&m);
    assert_int_equal(rows, 0);
    assert_string_equal(m.text, "time\n");
    free(m.text);
    assert_non_null(strstr(scope_csv_why_empty(models, 2), "no view"));
    values.views = SCOPE_VIEW_NORMAL;
    values.series_count = timing.series_count = 0;
    assert_non_null(strstr(scope_csv_why_empty(models, 2), "no channel"));
    values.series_count = 1;
    assert_non_null(strstr(scope_csv_why_empty(models, 2), "no sample"));
    test_series_delete(a);
    test_series_delete(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_then_one_row_per_sample),
        cmocka_unit_test(test_values_read_back_exactly),
        cmocka_unit_test(test_channels_merge_by_time_with_empty_cells),
        cmocka_unit_test(test_only_the_given_range_is_written),
        cmocka_unit_test(test_views_add_their_columns),
        cmocka_unit_test(test_names_with_commas_are_quoted),
        cmocka_unit_test(test_graphs_export_what_they_show),
        cmocka_unit_test(test_a_channel_in_two_graphs_is_written_once),
        cmocka_unit_test(test_numbers_are_shortest_and_exact),
        cmocka_unit_test(test_csv_values_are_shortest),
        cmocka_unit_test(test_columns_follow_each_channels_views),
    };
    return cmocka_run_group_tests_name("scope_csv_export", tests, NULL, NULL);
}
