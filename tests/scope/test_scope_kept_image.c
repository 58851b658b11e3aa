/* test_scope_kept_image.c - a part kept as an image shows what it was
 * drawn with in every frame that painted it, though later frames redraw
 * the part on images used again.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "draw/kept_image.h"

#include <stdint.h>
#include <string.h>

#define W 40
#define H 20

/* The part: a background of one shade and a square of another, where
 * 'key' says; what it leaves undrawn stays as a new image has it. */
static void draw_part(cairo_t *cr, void *data)
{
    unsigned key = *(const unsigned *) data;
    cairo_set_source_rgb(cr, 0.1 * (key % 5), 0.2, 0.3);
    cairo_rectangle(cr, 10, 5, W - 4 - (key % 3) * 8, H);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_rectangle(cr, 10 + key % (W - 8), 7, 4, 4);
    cairo_fill(cr);
}

/* A frame as GTK keeps one: the part painted into a recording. */
static cairo_surface_t *frame(scope_kept_image *kept, unsigned key)
{
    cairo_surface_t *recording = cairo_recording_surface_create(
        CAIRO_CONTENT_COLOR, &(cairo_rectangle_t) { 0, 0, 60, 30 });
    cairo_t *cr = cairo_create(recording);
    assert_true(scope_kept_image_put(kept, cr, 10, 5, W, H, 1, &key,
                                     sizeof(key), draw_part, &key));
    cairo_destroy(cr);
    return recording;
}

/* What a recording shows, replayed. */
static cairo_surface_t *shown(cairo_surface_t *recording)
{
    cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                                        60, 30);
    cairo_t *cr = cairo_create(image);
    cairo_set_source_surface(cr, recording, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_flush(image);
    return image;
}

/* The part drawn straight, as a frame should show it. */
static cairo_surface_t *expected(unsigned key)
{
    cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                                        60, 30);
    cairo_t *cr = cairo_create(image);
    cairo_rectangle(cr, 10, 5, W, H);
    cairo_clip(cr);
    draw_part(cr, &key);
    cairo_destroy(cr);
    cairo_surface_flush(image);
    return image;
}

static void assert_same(cairo_surface_t *a, cairo_surface_t *b)
{
    assert_int_equal(cairo_image_surface_get_stride(a),
                     cairo_image_surface_get_stride(b));
    assert_memory_equal(cairo_image_surface_get_data(a),
                        cairo_image_surface_get_data(b),
                        (size_t) cairo_image_surface_get_stride(a) * 30);
}

static void assert_frame_shows(cairo_surface_t *recording, unsigned key)
{
    cairo_surface_t *got = shown(recording), *want = expected(key);
    assert_same(got, want);
    cairo_surface_destroy(got);
    cairo_surface_destroy(want);
}

/* Frames kept alive, each with its own key: every one still shows its
 * own part after the parts of later frames were drawn. */
static void test_held_frames_keep_their_pixels(void **state)
{
    (void) state;
    scope_kept_image *kept = scope_kept_image_new();
    assert_non_null(kept);
    enum { FRAMES = 6 };
    cairo_surface_t *frames[FRAMES];
    for (unsigned f = 0; f < FRAMES; f++)
        frames[f] = frame(kept, 3 * f + 1);
    for (unsigned f = 0; f < FRAMES; f++)
    {
        assert_frame_shows(frames[f], 3 * f + 1);
        cairo_surface_destroy(frames[f]);
    }
    assert_int_equal(scope_kept_image_drawn(kept), FRAMES);
    scope_kept_image_delete(kept);
}

/* As GTK does it: each frame released once the next is shown. Images are
 * then used again, and each part still comes out as drawn on a new one
 * (the background is not painted where the part leaves it: a reused
 * image must be cleared). */
static void test_released_frames_reuse_and_clear(void **state)
{
    (void) state;
    scope_kept_image *kept = scope_kept_image_new();
    assert_non_null(kept);
    cairo_surface_t *last = NULL;
    for (unsigned f = 0; f < 12; f++)
    {
        cairo_surface_t *now = frame(kept, 7 * f + 2);
        if (last)
            cairo_surface_destroy(last);
        assert_frame_shows(now, 7 * f + 2);
        /* The same key again: kept, not drawn. */
        cairo_surface_t *again = frame(kept, 7 * f + 2);
        assert_frame_shows(again, 7 * f + 2);
        cairo_surface_destroy(again);
        last = now;
    }
    assert_int_equal(scope_kept_image_drawn(kept), 12);
    cairo_surface_destroy(last);
    scope_kept_image_delete(kept);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_held_frames_keep_their_pixels),
        cmocka_unit_test(test_released_frames_reuse_and_clear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
