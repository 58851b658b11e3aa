/* test_scope_graph_files.c - graphs saved as PNG and CSV, the one path the
 * window's save and the headless capture share (scope/capture/graph_files.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "capture/csv_export.h"
#include "capture/graph_files.h"
#include "scope_test_series.h"

#include <cairo.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];

static int make_dir(void **state)
{
    (void) state;
    snprintf(dir, sizeof(dir), "/tmp/test_scope_graph_files-XXXXXX");
    assert_non_null(mkdtemp(dir));
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

/* Two graphs of one series each, as the headless capture stacks them. */
typedef struct two_graphs
{
    scope_series *      series[2];
    graph_model         model[2];
    const graph_model * list[2];
} two_graphs;

static void two_graphs_init(two_graphs *g)
{
    g->series[0] = test_series("ramp", 50, 0, 0.02, 0, 1);
    g->series[1] = test_series("wave", 50, 0, 0.02, 5, -0.5);
    for (unsigned i = 0; i < 2; i++)
    {
        g->model[i] = (graph_model) {
            .series = &g->series[i], .series_count = 1,
            .views = SCOPE_VIEW_NORMAL, .view_end = 1, .duration = 1,
            .max_samples = -1,
        };
        g->list[i] = &g->model[i];
    }
}

static void two_graphs_free(two_graphs *g)
{
    test_series_delete(g->series[0]);
    test_series_delete(g->series[1]);
}

static void test_items_name_their_extension(void **state)
{
    (void) state;
    graph_files files = { 0 };
    scope_save_item png = graph_files_item(&files, GRAPH_FILE_PNG);
    scope_save_item csv = graph_files_item(&files, GRAPH_FILE_CSV);
    assert_string_equal(png.extension, ".png");
    assert_string_equal(csv.extension, ".csv");
    assert_ptr_equal(png.arg, &files);
    assert_ptr_equal(csv.arg, &files);
    assert_true(png.write != csv.write);
}

static void test_png_is_the_picture_asked_for(void **state)
{
    (void) state;
    two_graphs g;
    two_graphs_init(&g);
    graph_files files = { .models = g.list, .count = 2, .width = 320,
                          .height = 240 };
    char path[128], error[256];
    snprintf(path, sizeof(path), "%s/shot.png", dir);
    scope_save_item png = graph_files_item(&files, GRAPH_FILE_PNG);
    assert_true(png.write(path, png.arg, error, sizeof(error)));
    cairo_surface_t *back = cairo_image_surface_create_from_png(path);
    assert_int_equal(cairo_surface_status(back), CAIRO_STATUS_SUCCESS);
    assert_int_equal(cairo_image_surface_get_width(back), 320);
    assert_int_equal(cairo_image_surface_get_height(back), 240);
    cairo_surface_destroy(back);
    two_graphs_free(&g);
}

/* The file holds what scope_csv_write_graphs() writes for the same graphs,
 * and 'rows' says how many rows that was. */
static void test_csv_is_what_the_graphs_show(void **state)
{
    (void) state;
    two_graphs g;
    two_graphs_init(&g);
    graph_files files = { .models = g.list, .count = 2, .width = 320,
                          .height = 240, .rows = -5 };
    char path[128], error[256];
    snprintf(path, sizeof(path), "%s/data.csv", dir);
    scope_save_item csv = graph_files_item(&files, GRAPH_FILE_CSV);
    assert_true(csv.write(path, csv.arg, error, sizeof(error)));

    test_memfile m;
    test_memfile_open(&m);
    long rows = scope_csv_write_graphs(m.file, g.list, 2, 320);
    test_memfile_close(&m);
    char *written = test_slurp(path);
    assert_non_null(written);
    assert_string_equal(written, m.text);
    assert_true(rows > 0);
    assert_int_equal(files.rows, rows);
    assert_non_null(strstr(written, "time,ramp,wave\n"));
    free(written);
    free(m.text);
    two_graphs_free(&g);
}

static void test_unwritable_path_says_why(void **state)
{
    (void) state;
    two_graphs g;
    two_graphs_init(&g);
    graph_files files = { .models = g.list, .count = 2, .width = 320,
                          .height = 240 };
    char error[256] = "";
    scope_save_item csv = graph_files_item(&files, GRAPH_FILE_CSV);
    assert_false(csv.write("/nonexistent/dir/data.csv", csv.arg, error,
                           sizeof(error)));
    assert_string_equal(error,
                        "/nonexistent/dir/data.csv: No such file or directory");
    scope_save_item png = graph_files_item(&files, GRAPH_FILE_PNG);
    error[0] = 0;
    assert_false(png.write("/nonexistent/dir/shot.png", png.arg, error,
                           sizeof(error)));
    assert_non_null(strstr(error, "/nonexistent/dir/shot.png"));
    two_graphs_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_items_name_their_extension),
        cmocka_unit_test_setup_teardown(test_png_is_the_picture_asked_for,
                                        make_dir, remove_dir),
        cmocka_unit_test_setup_teardown(test_csv_is_what_the_graphs_show,
                                        make_dir, remove_dir),
        cmocka_unit_test(test_unwritable_path_says_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
