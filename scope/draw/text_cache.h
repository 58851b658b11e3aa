/* text_cache.h - labels shaped once and drawn many times.
 *
 * A live window draws the same labels frame after frame (axis numbers,
 * channel names, legend values that change a few times a second), and
 * cairo's text calls turn each string into glyphs anew every time: about
 * a tenth of a 16-channel window's CPU. Here a string's glyphs and
 * advance are kept per font (cairo's scaled font: face, size and scale)
 * and reused; the pixels are those of cairo_show_text().
 *
 * One thread: the scope draws on its main thread only.
 */
#ifndef SCOPE_TEXT_CACHE_H
#define SCOPE_TEXT_CACHE_H

#include <cairo.h>

/* How far 'text' in the current font of 'cr' moves the pen (what
 * cairo_text_extents() gives as x_advance). */
double scope_text_advance(cairo_t *cr, const char *text);

/* cairo_show_text(): 'text' in the current font from the current point,
 * which it leaves at the end of the text. */
void scope_text_show(cairo_t *cr, const char *text);

/* Strings shaped since the start (for tests): reused ones are not. */
unsigned long scope_text_shaped(void);

#endif /* SCOPE_TEXT_CACHE_H */
