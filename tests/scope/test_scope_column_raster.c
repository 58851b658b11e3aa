/* test_scope_column_raster.c - traces rasterised column by column cover
 * pixels as the shapes do: exact bands, strokes as cairo strokes them,
 * the same pixels drawn in parts as whole, at a scale, and in a
 * recording replayed after the mask was reused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "draw/column_raster.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define W       64
#define H       48

static cairo_surface_t *black(int w, int h)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(s);
    cairo_paint(cr);                    /* black */
    cairo_destroy(cr);
    return s;
}

/* The green level of pixel (x, y): the coverage painted white. */
static int level(cairo_surface_t *s, int x, int y)
{
    cairo_surface_flush(s);
    const unsigned char *row = cairo_image_surface_get_data(s) +
                               y * cairo_image_surface_get_stride(s);
    return (((const uint32_t *) row)[x] >> 8) & 0xff;
}

static long total(cairo_surface_t *s)
{
    long sum = 0;
    for (int y = 0; y < cairo_image_surface_get_height(s); y++)
        for (int x = 0; x < cairo_image_surface_get_width(s); x++)
            sum += level(s, x, y);
    return sum;
}

static void test_level_band_covers_its_rows_exactly(void **state)
{
    (void) state;
    cairo_surface_t *s = black(W, H);
    cairo_t *cr = cairo_create(s);
    column_raster *r = column_raster_new(cr, 0, 0, W, H);
    assert_non_null(r);
    column_raster_band(r, 4, 14, 10.25, 10.25, 12.25, 12.25);
    cairo_set_source_rgb(cr, 1, 1, 1);
    column_raster_paint(r, cr);
    /* Rows 10, 11, 12 covered 3/4, whole, 1/4; nothing else. */
    for (int x = 4; x < 14; x++)
    {
        assert_int_equal(level(s, x, 9), 0);
        assert_in_range(level(s, x, 10), 190, 192);
        assert_int_equal(level(s, x, 11), 255);
        assert_in_range(level(s, x, 12), 63, 65);
        assert_int_equal(level(s, x, 13), 0);
    }
    assert_int_equal(level(s, 3, 11), 0);
    assert_int_equal(level(s, 14, 11), 0);
    column_raster_delete(r);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}

/* A segment 2 pixels wide at each angle, through column_raster and
 * through cairo: the same ink, and no pixel far from cairo's. Up to a
 * slope of 1/2 its ends are cut vertically (the segments of a line then
 * meet without a notch): cairo fills that shape; steeper, cairo strokes
 * it with butt caps. */
static void test_strokes_cover_what_cairo_strokes(void **state)
{
    (void) state;
    static const double degrees[] = { 0, 10, 20, 26.5, 26.6, 30, 45, 60,
                                      80, 89.5 };
    for (unsigned i = 0; i < sizeof(degrees) / sizeof(degrees[0]); i++)
    {
        double a = degrees[i] * M_PI / 180, length = 30;
        double xa = 17.5, ya = 40.3;
        double xb = xa + length * cos(a), yb = ya - length * sin(a);

        cairo_surface_t *ours = black(W, H), *theirs = black(W, H);
        cairo_t *cr = cairo_create(ours);
        column_raster *r = column_raster_new(cr, 0, 0, W, H);
        column_raster_segment(r, xa, ya, xb, yb, 1);
        cairo_set_source_rgb(cr, 1, 1, 1);
        column_raster_paint(r, cr);
        column_raster_delete(r);
        cairo_destroy(cr);

        cr = cairo_create(theirs);
        cairo_set_source_rgb(cr, 1, 1, 1);
        if (fabs(yb - ya) <= 0.5 * fabs(xb - xa))
        {
            double h = hypot(xb - xa, yb - ya) / fabs(xb - xa);
            cairo_move_to(cr, xa, ya - h);
            cairo_line_to(cr, xb, yb - h);
            cairo_line_to(cr, xb, yb + h);
            cairo_line_to(cr, xa, ya + h);
            cairo_fill(cr);
        }
        else
        {
            cairo_set_line_width(cr, 2);
            cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
            cairo_move_to(cr, xa, ya);
            cairo_line_to(cr, xb, yb);
            cairo_stroke(cr);
        }
        cairo_destroy(cr);

        long ink = total(ours), expected = total(theirs);
        int worst = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
            {
                int d = abs(level(ours, x, y) - level(theirs, x, y));
                if (d > worst)
                    worst = d;
            }
        print_message("%5.1f degrees: ink %ld against cairo's %ld, "
                      "worst pixel %d levels apart\n", degrees[i], ink,
                      expected, worst);
        assert_true(labs(ink - expected) <= expected / 50);
        assert_true(worst <= 40);
        cairo_surface_destroy(ours);
        cairo_surface_destroy(theirs);
    }
}

/* Bands and discs drawn into one mask over the whole image, or into two
 * masks over its halves (a tile and the rest): the same pixels. */
static void shapes(column_raster *r)
{
    column_raster_band(r, 2.5, 40.5, 5.3, 30.9, 9.1, 31.2);
    column_raster_segment(r, 10.5, 44.2, 30.5, 3.7, 1);
    column_raster_segment(r, 14.5, 20, 17.5, 21.5, 1);
    column_raster_disc(r, 15.7, 25.2, 1.5);
    column_raster_disc(r, 16.2, 12.9, 1.5);
}

static void test_parts_equal_whole(void **state)
{
    (void) state;
    cairo_surface_t *whole = black(W, H), *parts = black(W, H);
    cairo_t *cr = cairo_create(whole);
    cairo_set_source_rgb(cr, 1, 1, 1);
    column_raster *r = column_raster_new(cr, 0, 0, W, H);
    shapes(r);
    column_raster_paint(r, cr);
    column_raster_delete(r);
    cairo_destroy(cr);

    cr = cairo_create(parts);
    cairo_set_source_rgb(cr, 1, 1, 1);
    static const double cuts[] = { 0, 16, W };
    for (unsigned p = 0; p < 2; p++)
    {
        r = column_raster_new(cr, cuts[p], 0, cuts[p + 1] - cuts[p], H);
        shapes(r);
        column_raster_paint(r, cr);
        column_raster_delete(r);
    }
    cairo_destroy(cr);
    long ink = total(whole);
    assert_true(ink > 255 * 100);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            assert_int_equal(level(parts, x, y), level(whole, x, y));
    cairo_surface_destroy(whole);
    cairo_surface_destroy(parts);
}

/* At twice the pixels (a HiDPI window), a band covers twice the rows. */
static void test_scaled_target_gets_its_pixels(void **state)
{
    (void) state;
    cairo_surface_t *s = black(2 * W, 2 * H);
    cairo_surface_set_device_scale(s, 2, 2);
    cairo_t *cr = cairo_create(s);
    column_raster *r = column_raster_new(cr, 0, 0, W, H);
    column_raster_band(r, 4, 14, 10.25, 10.25, 12.25, 12.25);
    cairo_set_source_rgb(cr, 1, 1, 1);
    column_raster_paint(r, cr);
    column_raster_delete(r);
    cairo_destroy(cr);
    /* Device rows 20.5 to 24.5: 20 half, 21 to 23 whole, 24 half. */
    assert_int_equal(level(s, 10, 19), 0);
    assert_in_range(level(s, 10, 20), 126, 129);
    assert_int_equal(level(s, 10, 21), 255);
    assert_int_equal(level(s, 10, 23), 255);
    assert_in_range(level(s, 10, 24), 126, 129);
    assert_int_equal(level(s, 10, 25), 0);
    assert_int_equal(level(s, 7, 22), 0);
    assert_int_equal(level(s, 8, 22), 255);
    assert_int_equal(level(s, 27, 22), 255);
    assert_int_equal(level(s, 28, 22), 0);
    cairo_surface_destroy(s);
}

/* GTK records a frame and replays it later, after the mask has been
 * cleared and used for the next trace: the recording keeps what was
 * painted. */
static void test_recording_replays_what_was_painted(void **state)
{
    (void) state;
    cairo_surface_t *recording =
        cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, NULL);
    cairo_t *cr = cairo_create(recording);
    column_raster *r = column_raster_new(cr, 0, 0, W, H);
    column_raster_band(r, 4, 14, 10, 10, 12, 12);
    cairo_set_source_rgb(cr, 1, 1, 1);
    column_raster_paint(r, cr);
    column_raster_band(r, 30, 40, 30, 30, 32, 32);
    cairo_set_source_rgb(cr, 1, 0, 0);  /* no green */
    column_raster_paint(r, cr);
    column_raster_delete(r);
    cairo_destroy(cr);

    cairo_surface_t *s = black(W, H);
    cr = cairo_create(s);
    cairo_set_source_surface(cr, recording, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    assert_int_equal(level(s, 8, 10), 255);
    assert_int_equal(level(s, 8, 11), 255);
    assert_int_equal(level(s, 35, 31), 0);
    assert_int_equal(total(s), 2 * 10 * 255);
    cairo_surface_destroy(s);
    cairo_surface_destroy(recording);
}

static void test_disc_has_its_area(void **state)
{
    (void) state;
    cairo_surface_t *s = black(W, H);
    cairo_t *cr = cairo_create(s);
    column_raster *r = column_raster_new(cr, 0, 0, W, H);
    column_raster_disc(r, 20.3, 20.8, 1.5);
    cairo_set_source_rgb(cr, 1, 1, 1);
    column_raster_paint(r, cr);
    column_raster_delete(r);
    cairo_destroy(cr);
    double area = total(s) / 255.0;
    print_message("disc of radius 1.5: %.2f pixels (%.2f)\n", area,
                  M_PI * 2.25);
    assert_true(fabs(area - M_PI * 2.25) < 0.35);
    assert_int_equal(level(s, 20, 20), 255);
    assert_int_equal(level(s, 24, 20), 0);
    cairo_surface_destroy(s);
}

/* Far outside the mask, not a number, or nothing wide: nothing drawn and
 * nothing touched outside. */
static void test_shapes_outside_draw_nothing(void **state)
{
    (void) state;
    cairo_surface_t *s = black(W, H);
    cairo_t *cr = cairo_create(s);
    column_raster *r = column_raster_new(cr, 8, 8, 16, 16);
    column_raster_band(r, -1e9, 1e9, -5e8, -5e8, -4e8, -4e8);
    column_raster_band(r, 10, 12, NAN, 0, 1, 1);
    column_raster_band(r, 12, 12, 10, 10, 20, 20);
    column_raster_segment(r, 10, 10, 10, 10, 1);
    column_raster_disc(r, 1e12, 10, 1.5);
    column_raster_band(r, 0, 100, 0, 0, 100, 100);  /* clipped to the mask */
    cairo_set_source_rgb(cr, 1, 1, 1);
    column_raster_paint(r, cr);
    column_raster_delete(r);
    cairo_destroy(cr);
    assert_int_equal(total(s), 16 * 16 * 255);
    assert_int_equal(level(s, 8, 8), 255);
    assert_int_equal(level(s, 7, 8), 0);
    assert_int_equal(level(s, 24, 23), 0);
    cairo_surface_destroy(s);
}

/* Painted straight into an image, or through cairo's mask: the same
 * pixels, in colour, with alpha, over a background. */
static void paint_shapes(cairo_t *cr)
{
    column_raster *r = column_raster_new(cr, 0, 0, W, H);
    assert_non_null(r);
    cairo_set_source_rgb(cr, 0.11, 0.12, 0.15);
    cairo_paint(cr);
    shapes(r);
    cairo_set_source_rgba(cr, 0.95, 0.76, 0.2, 0.22);
    column_raster_paint(r, cr);
    column_raster_segment(r, 3.5, 30.2, 60.5, 12.9, 1);
    column_raster_band(r, 0, W, 40.6, 40.6, 47.1, 47.1);
    cairo_set_source_rgb(cr, 0.35, 0.8, 0.95);
    column_raster_paint(r, cr);
    column_raster_delete(r);
}

/* Pixels of a and b that differ (their colour; RGB24 ignores the rest). */
static int differing(cairo_surface_t *a, cairo_surface_t *b)
{
    cairo_surface_flush(a);
    cairo_surface_flush(b);
    int count = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
        {
            const uint32_t *pa = (const uint32_t *) (cairo_image_surface_get_data(
                                     a) + y * cairo_image_surface_get_stride(a));
            const uint32_t *pb = (const uint32_t *) (cairo_image_surface_get_data(
                                     b) + y * cairo_image_surface_get_stride(b));
            if ((pa[x] & 0xffffff) != (pb[x] & 0xffffff) && count < 5)
                print_message("%d,%d: %06x against %06x\n", x, y,
                              pa[x] & 0xffffff, pb[x] & 0xffffff);
            count += (pa[x] & 0xffffff) != (pb[x] & 0xffffff);
        }
    return count;
}

static void test_straight_blend_equals_cairo_mask(void **state)
{
    (void) state;
    cairo_surface_t *straight = black(W, H);
    cairo_t *cr = cairo_create(straight);
    paint_shapes(cr);
    cairo_destroy(cr);

    /* The same drawn through cairo_mask() on an image: a clip that is no
     * list of rectangles (a disc around it all) turns the straight blend
     * off. */
    cairo_surface_t *masked = black(W, H);
    cr = cairo_create(masked);
    cairo_arc(cr, W / 2, H / 2, 4 * W, 0, 2 * M_PI);
    cairo_clip(cr);
    paint_shapes(cr);
    cairo_destroy(cr);

    assert_int_equal(differing(straight, masked), 0);
    cairo_surface_destroy(straight);
    cairo_surface_destroy(masked);
}

/* A clip inside the mask is kept: nothing is painted outside it. */
static void test_clip_inside_mask_is_kept(void **state)
{
    (void) state;
    cairo_surface_t *s = black(W, H);
    cairo_t *cr = cairo_create(s);
    column_raster *r = column_raster_new(cr, 0, 0, W, H);
    cairo_rectangle(cr, 10, 10, 20, 20);
    cairo_clip(cr);
    column_raster_band(r, 0, W, 0, 0, H, H);
    cairo_set_source_rgb(cr, 1, 1, 1);
    column_raster_paint(r, cr);
    column_raster_delete(r);
    cairo_destroy(cr);
    assert_int_equal(total(s), 20 * 20 * 255);
    assert_int_equal(level(s, 10, 10), 255);
    assert_int_equal(level(s, 9, 10), 0);
    cairo_surface_destroy(s);
}

/* A plot's background and grid (level lines, time lines, ticks reaching
 * out of the clip, lines crossing) written straight, as cairo paints and
 * strokes them, translated as the ring's columns are. */
static void grid(cairo_t *cr, bool straight)
{
    cairo_translate(cr, -7, 3);
    cairo_rectangle(cr, 12, 2, 40, 30);
    cairo_clip(cr);
    cairo_set_source_rgb(cr, 0.11, 0.12, 0.14);
    if (!straight || !column_raster_fill_straight(cr, 12, 2, 40, 30))
        cairo_paint(cr);
    cairo_set_source_rgb(cr, 0.2, 0.23, 0.27);
    cairo_set_line_width(cr, 1);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    for (int y = 0; y < 40; y += 9)
    {
        cairo_move_to(cr, 5, y + 0.5);
        cairo_line_to(cr, 60, y + 0.5);
    }
    for (int x = 10; x < 60; x += 13)
    {
        cairo_move_to(cr, x + 0.5, 28);
        cairo_line_to(cr, x + 0.5, 36);
    }
    if (straight)
        assert_true(column_raster_stroke_straight(cr));
    else
        cairo_stroke(cr);
}

static void test_straight_grid_is_cairos(void **state)
{
    (void) state;
    cairo_surface_t *a = black(W, H), *b = black(W, H);
    cairo_t *cr = cairo_create(a);
    grid(cr, true);
    cairo_destroy(cr);
    cr = cairo_create(b);
    grid(cr, false);
    cairo_destroy(cr);
    assert_int_equal(differing(a, b), 0);
    /* Something was drawn, and only inside the clip. */
    assert_true(level(a, 20 - 7, 9 + 3) > 0);
    assert_int_equal(level(a, 4, 9 + 3), 0);
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
}

/* What cannot be written straight is left to cairo, nothing drawn: a
 * colour not opaque, a line off the pixel middles, a round cap, a HiDPI
 * target, a clip that is no rectangle. */
static void test_straight_refuses_what_it_cannot_match(void **state)
{
    (void) state;
    cairo_surface_t *s = black(W, H);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.5);
    assert_false(column_raster_fill_straight(cr, 0, 0, 10, 10));
    cairo_set_source_rgb(cr, 1, 1, 1);
    assert_false(column_raster_fill_straight(cr, 0.5, 0, 10, 10));
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, 0, 10);           /* on a pixel edge: two half rows */
    cairo_line_to(cr, 20, 10);
    assert_false(column_raster_stroke_straight(cr));
    cairo_new_path(cr);
    cairo_move_to(cr, 0, 10.5);
    cairo_line_to(cr, 20, 10.5);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    assert_false(column_raster_stroke_straight(cr));
    cairo_new_path(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_arc(cr, 30, 30, 10, 0, 6.3);
    cairo_clip(cr);
    assert_false(column_raster_fill_straight(cr, 0, 0, 10, 10));
    cairo_destroy(cr);
    assert_int_equal(total(s), 0);
    cairo_surface_t *hidpi = black(W, H);
    cairo_surface_set_device_scale(hidpi, 2, 2);
    cr = cairo_create(hidpi);
    cairo_set_source_rgb(cr, 1, 1, 1);
    assert_false(column_raster_fill_straight(cr, 0, 0, 10, 10));
    cairo_destroy(cr);
    assert_int_equal(total(hidpi), 0);
    cairo_surface_destroy(hidpi);
    cairo_surface_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_level_band_covers_its_rows_exactly),
        cmocka_unit_test(test_strokes_cover_what_cairo_strokes),
        cmocka_unit_test(test_parts_equal_whole),
        cmocka_unit_test(test_scaled_target_gets_its_pixels),
        cmocka_unit_test(test_recording_replays_what_was_painted),
        cmocka_unit_test(test_disc_has_its_area),
        cmocka_unit_test(test_shapes_outside_draw_nothing),
        cmocka_unit_test(test_straight_blend_equals_cairo_mask),
        cmocka_unit_test(test_clip_inside_mask_is_kept),
        cmocka_unit_test(test_straight_grid_is_cairos),
        cmocka_unit_test(test_straight_refuses_what_it_cannot_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
