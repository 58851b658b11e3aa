/* test_scope_text_cache.c - labels shaped once draw and measure exactly as
 * cairo's own text calls do, and a label drawn again is not shaped again.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "draw/text_cache.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Fontconfig keeps its caches until exit: not a leak of ours. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig.so\n";
}

static const char *const labels[] = {
    "1.5", "-0.25", "3.2s", "c01 interval", "1.069 ms", "lost 3.2%",
    "µs", "", "bytes  960.4 G .. 2.03 T",
    /* Pairs a font may kern or join, were it shaped as a whole. */
    "AVAW To. Ty ffi fl", "x1.5 µs",
};
#define LABELS  (sizeof(labels) / sizeof(labels[0]))

/* Each label on its own row, at a fractional x, in two fonts: through
 * the cache or straight through cairo. */
static cairo_surface_t *draw(bool cached)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 300,
                                                    20 * 2 * LABELS);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    for (unsigned font = 0; font < 2; font++)
    {
        cairo_select_font_face(cr, font ? "monospace" : "sans-serif",
                               CAIRO_FONT_SLANT_NORMAL,
                               font ? CAIRO_FONT_WEIGHT_NORMAL
                                    : CAIRO_FONT_WEIGHT_BOLD);
        cairo_set_font_size(cr, font ? 11 : 12);
        for (unsigned i = 0; i < LABELS; i++)
        {
            cairo_move_to(cr, 3.25, 15 + 20 * (font * LABELS + i));
            if (cached)
                scope_text_show(cr, labels[i]);
            else
                cairo_show_text(cr, labels[i]);
            /* The pen ends where cairo's leaves it. */
            double x, y;
            cairo_get_current_point(cr, &x, &y);
            cairo_text_extents_t e;
            cairo_text_extents(cr, labels[i], &e);
            assert_float_equal(x, 3.25 + e.x_advance, 1e-9);
        }
    }
    assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

static void test_same_pixels_as_cairo(void **state)
{
    (void) state;
    cairo_surface_t *mine = draw(true), *cairos = draw(false);
    int stride = cairo_image_surface_get_stride(mine);
    int height = cairo_image_surface_get_height(mine);
    assert_memory_equal(cairo_image_surface_get_data(mine),
                        cairo_image_surface_get_data(cairos),
                        (size_t) stride * height);
    /* And something was drawn at all. */
    unsigned char *p = cairo_image_surface_get_data(mine);
    size_t lit = 0;
    for (size_t i = 0; i < (size_t) stride * height; i++)
        lit += p[i] != 0;
    assert_true(lit > 1000);
    cairo_surface_destroy(mine);
    cairo_surface_destroy(cairos);
}

static void test_advance_is_cairos(void **state)
{
    (void) state;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *cr = cairo_create(s);
    cairo_set_font_size(cr, 13);
    for (unsigned i = 0; i < LABELS; i++)
    {
        cairo_text_extents_t e;
        cairo_text_extents(cr, labels[i], &e);
        assert_float_equal(scope_text_advance(cr, labels[i]), e.x_advance,
                           1e-9);
    }
    /* Past what is kept, still right. */
    char longer[400];
    memset(longer, 'w', sizeof(longer) - 1);
    longer[sizeof(longer) - 1] = 0;
    cairo_text_extents_t e;
    cairo_text_extents(cr, longer, &e);
    assert_float_equal(scope_text_advance(cr, longer), e.x_advance, 1e-9);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}

static void test_second_frame_shapes_nothing(void **state)
{
    (void) state;
    cairo_surface_t *first = draw(true);
    unsigned long shaped = scope_text_shaped();
    cairo_surface_t *second = draw(true);
    assert_int_equal(scope_text_shaped(), shaped);
    /* The same string at another size is another shape. */
    cairo_t *cr = cairo_create(second);
    cairo_set_font_size(cr, 29);
    scope_text_advance(cr, labels[0]);
    assert_int_equal(scope_text_shaped(), shaped + 1);
    cairo_destroy(cr);
    cairo_surface_destroy(first);
    cairo_surface_destroy(second);
}

static void test_many_labels_stay_right(void **state)
{
    (void) state;
    /* More labels than are kept at once: emptied and refilled, every
     * answer still cairo's. */
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
    cairo_t *cr = cairo_create(s);
    char label[32];
    for (unsigned round = 0; round < 2; round++)
        for (unsigned i = 0; i < 5000; i++)
        {
            snprintf(label, sizeof(label), "%u.%03u ms", i / 7, i % 1000);
            cairo_text_extents_t e;
            cairo_text_extents(cr, label, &e);
            assert_float_equal(scope_text_advance(cr, label), e.x_advance,
                               1e-9);
        }
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_pixels_as_cairo),
        cmocka_unit_test(test_advance_is_cairos),
        cmocka_unit_test(test_second_frame_shapes_nothing),
        cmocka_unit_test(test_many_labels_stay_right),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
