/* kept_image.h - a part of a frame kept as an image while what it shows
 * stays the same.
 *
 * Text is dear: cairo shapes and rasterises it when a frame draws it, and
 * GTK pays again when it replays the frame. In a frame drawn whole (with
 * a crosshair, readout, cursors or a zoom band over the plot), a legend
 * of 32 entries whose numbers change a few times a second is drawn once
 * into an image and painted every frame until its key (the bytes that
 * decide what it shows) changes; a frame in kept bands draws it in the
 * top band, itself kept while it shows the same.
 *
 * The part must paint its own opaque background: drawn on that in an
 * image whose pixels land on the output's one for one, it has the pixels
 * it would have drawn in place. The output may have several pixels
 * per unit of user space (a HiDPI screen, where GTK replays the frame at
 * its scale): the image is drawn at that scale, or it would be blurred.
 *
 * Cairo only, no GTK.
 */
#ifndef SCOPE_KEPT_IMAGE_H
#define SCOPE_KEPT_IMAGE_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct scope_kept_image scope_kept_image;

/* Draws the part in user space, over its whole rectangle. */
typedef void scope_kept_draw(cairo_t *cr, void *data);

/* NULL if out of memory. */
scope_kept_image *scope_kept_image_new(void);
void scope_kept_image_delete(scope_kept_image *kept);

/* Put on 'cr' what 'draw' draws in the rectangle (x, y, w, h) of user
 * space (whole units), for an output of 'scale' pixels per unit (a whole
 * number): the kept image if it was drawn for the same rectangle, scale
 * and 'size' bytes of 'key', else a new one drawn by 'draw' and kept.
 * False, drawing nothing, if 'cr' does not map user space to its device
 * by a whole translation (scope_pixel_aligned) or memory ran out: the
 * caller draws in place. */
bool scope_kept_image_put(scope_kept_image *kept, cairo_t *cr, int x, int y,
                          int w, int h, int scale, const void *key,
                          size_t size, scope_kept_draw *draw, void *data);

/* Images drawn so far: a part that did not change drew none. */
unsigned long scope_kept_image_drawn(const scope_kept_image *kept);

/* Whether 'cr' maps user space to its device one unit to one pixel, by a
 * whole translation: an image painted at whole coordinates then lands on
 * the target's pixels as it is, once the output's scale is applied. */
bool scope_pixel_aligned(cairo_t *cr);

/* Paint the rectangle (x, y, w, h) of user space from 'image' (of
 * 'scale' pixels per unit, opaque), its unit column 'from' at x and its
 * top at y, through a raster source rather than as a surface: cairo
 * snapshots a surface a recording paints, and copies it whole when it is
 * drawn on or released while the recording lives (GTK keeps the last
 * frame's). False, painting nothing, when out of memory. */
bool scope_paint_held(cairo_t *cr, cairo_surface_t *image, int scale,
                      double from, double x, double y, double w, double h);

/* An image of w x h units for an output of 'scale' pixels per unit: that
 * many more pixels, drawn on in units. NULL if out of memory. */
cairo_surface_t *scope_scaled_image(int w, int h, int scale);

#endif /* SCOPE_KEPT_IMAGE_H */
