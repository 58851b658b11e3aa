/* kept_image.c - a part of a frame kept as an image while it stays the
 * same. */
#include "draw/kept_image.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct scope_kept_image
{
    cairo_surface_t *image;             /* NULL: none kept */
    cairo_surface_t *spare;             /* the one before, to draw on next */
    int              x, y, w, h, scale;
    void *           key;
    size_t           size, capacity;
    unsigned long    drawn;
};

scope_kept_image *scope_kept_image_new(void)
{
    return calloc(1, sizeof(scope_kept_image));
}

void scope_kept_image_delete(scope_kept_image *kept)
{
    if (!kept)
        return;
    if (kept->image)
        cairo_surface_destroy(kept->image);
    if (kept->spare)
        cairo_surface_destroy(kept->spare);
    free(kept->key);
    free(kept);
}

unsigned long scope_kept_image_drawn(const scope_kept_image *kept)
{
    return kept->drawn;
}

bool scope_pixel_aligned(cairo_t *cr)
{
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    double sx = 1, sy = 1;
    cairo_surface_get_device_scale(cairo_get_target(cr), &sx, &sy);
    return m.xx == 1 && m.yy == 1 && m.xy == 0 && m.yx == 0 &&
           m.x0 == round(m.x0) && m.y0 == round(m.y0) && sx == 1 && sy == 1;
}

cairo_surface_t *scope_scaled_image(int w, int h, int scale)
{
    cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                                        w * scale, h * scale);
    if (cairo_surface_status(image))
    {
        cairo_surface_destroy(image);
        return NULL;
    }
    cairo_surface_set_device_scale(image, scale, scale);
    return image;
}

static bool same(const scope_kept_image *kept, int x, int y, int w, int h,
                 int scale, const void *key, size_t size)
{
    return kept->image && kept->x == x && kept->y == y && kept->w == w &&
           kept->h == h && kept->scale == scale && kept->size == size &&
           memcmp(kept->key, key, size) == 0;
}

/* Drawn at more pixels per unit, text takes the glyph advances of that
 * size (cairo hints metrics in device pixels), while GTK lays a frame out
 * in units and replays it at the screen's scale: so the part is drawn as
 * GTK would, recorded in units and replayed on the image. */
static bool replay_scaled(cairo_surface_t *image, int x, int y, int w, int h,
                          scope_kept_draw *draw, void *data)
{
    cairo_surface_t *recording = cairo_recording_surface_create(
        CAIRO_CONTENT_COLOR, &(cairo_rectangle_t) { x, y, w, h });
    cairo_t *cr = cairo_create(recording);
    draw(cr, data);
    cairo_destroy(cr);
    cr = cairo_create(image);
    cairo_set_source_surface(cr, recording, -x, -y);
    cairo_paint(cr);
    cairo_status_t status = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(recording);
    return status == CAIRO_STATUS_SUCCESS;
}

/* An image to draw the part on: the one before last, cleared as a new
 * one is, if no frame holds it any more (GTK keeps the last frame, which
 * holds the one kept now) and it has the size; else a new one. A legend
 * changes a few times a second, and each new image was half a megabyte
 * of pages faulted in and unmapped again. */
static cairo_surface_t *image_to_draw(scope_kept_image *kept, int w, int h,
                                      int scale)
{
    cairo_surface_t *spare = kept->spare;
    kept->spare = NULL;
    double sx = 0, sy = 0;
    if (spare)
        cairo_surface_get_device_scale(spare, &sx, &sy);
    if (spare && cairo_surface_get_reference_count(spare) == 1 &&
        sx == scale && sy == scale &&
        cairo_image_surface_get_width(spare) == w * scale &&
        cairo_image_surface_get_height(spare) == h * scale)
    {
        cairo_t *cr = cairo_create(spare);
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_paint(cr);
        cairo_status_t status = cairo_status(cr);
        cairo_destroy(cr);
        if (status == CAIRO_STATUS_SUCCESS)
            return spare;
    }
    if (spare)
        cairo_surface_destroy(spare);
    return scope_scaled_image(w, h, scale);
}

/* A new image of the part; the one kept before may still be held by the
 * frame that painted it (GTK keeps the last one), so it is not drawn on
 * again: it is the spare for the next. */
static bool redraw(scope_kept_image *kept, int x, int y, int w, int h,
                   int scale, const void *key, size_t size,
                   scope_kept_draw *draw, void *data)
{
    if (size > kept->capacity)
    {
        void *room = realloc(kept->key, size);
        if (!room)
            return false;
        kept->key = room;
        kept->capacity = size;
    }
    cairo_surface_t *image = image_to_draw(kept, w, h, scale);
    if (!image)
        return false;
    if (scale == 1)
    {
        cairo_t *cr = cairo_create(image);
        cairo_translate(cr, -x, -y);
        draw(cr, data);
        cairo_destroy(cr);
    }
    else if (!replay_scaled(image, x, y, w, h, draw, data))
    {
        cairo_surface_destroy(image);
        return false;
    }
    kept->spare = kept->image;
    kept->image = image;
    kept->x = x;
    kept->y = y;
    kept->w = w;
    kept->h = h;
    kept->scale = scale;
    memcpy(kept->key, key, size);
    kept->size = size;
    kept->drawn++;
    return true;
}

bool scope_kept_image_put(scope_kept_image *kept, cairo_t *cr, int x, int y,
                          int w, int h, int scale, const void *key,
                          size_t size, scope_kept_draw *draw, void *data)
{
    if (w <= 0 || h <= 0 || scale < 1 || !scope_pixel_aligned(cr))
        return false;
    if (!same(kept, x, y, w, h, scale, key, size) &&
        !redraw(kept, x, y, w, h, scale, key, size, draw, data))
        return false;
    cairo_save(cr);
    bool painted = scope_paint_held(cr, kept->image, scale, 0, x, y, w, h);
    cairo_restore(cr);
    return painted;
}

/* ---- an image painted without a snapshot ---------------------------------- */

/* The pattern holds a reference to its image, and so does each copy of
 * it a recording makes. */
static cairo_surface_t *held_acquire(cairo_pattern_t *pattern, void *data,
                                     cairo_surface_t *target,
                                     const cairo_rectangle_int_t *extents)
{
    (void) pattern;
    (void) target;
    (void) extents;
    return cairo_surface_reference(data);
}

static void held_release(cairo_pattern_t *pattern, void *data,
                         cairo_surface_t *surface)
{
    (void) pattern;
    (void) data;
    cairo_surface_destroy(surface);
}

static cairo_status_t held_copy(cairo_pattern_t *pattern, void *data,
                                const cairo_pattern_t *other)
{
    (void) pattern;
    (void) other;
    cairo_surface_reference(data);
    return CAIRO_STATUS_SUCCESS;
}

static void held_finish(cairo_pattern_t *pattern, void *data)
{
    (void) pattern;
    cairo_surface_destroy(data);
}

bool scope_paint_held(cairo_t *cr, cairo_surface_t *image, int scale,
                      double from, double x, double y, double w, double h)
{
    cairo_pattern_t *pattern = cairo_pattern_create_raster_source(
        cairo_surface_reference(image), CAIRO_CONTENT_COLOR,
        cairo_image_surface_get_width(image),
        cairo_image_surface_get_height(image));
    if (cairo_pattern_status(pattern))
    {
        cairo_surface_destroy(image);   /* the pattern's, never finished */
        cairo_pattern_destroy(pattern);
        return false;
    }
    cairo_raster_source_pattern_set_acquire(pattern, held_acquire,
                                            held_release);
    cairo_raster_source_pattern_set_copy(pattern, held_copy);
    cairo_raster_source_pattern_set_finish(pattern, held_finish);
    /* The image's pixels, not its units: a raster source has no device
     * scale. */
    cairo_matrix_t m;
    cairo_matrix_init_scale(&m, scale, scale);
    cairo_matrix_translate(&m, from - x, -y);
    cairo_pattern_set_matrix(pattern, &m);
    cairo_set_source(cr, pattern);
    cairo_pattern_destroy(pattern);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
    return true;
}
