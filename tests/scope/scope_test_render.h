/* scope_test_render.h - draw a graph model offscreen, as the window and
 * --png do, for the scope's rendering tests. Include after cmocka.h.
 * SCOPE_TEST_PNG=/tmp/x writes each picture drawn as /tmp/xNAME1.png...,
 * to look at what a test draws. */
#ifndef SCOPE_TEST_RENDER_H
#define SCOPE_TEST_RENDER_H

#include "draw/graph_draw.h"

#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>

#define WIDTH   900
#define HEIGHT  300

/* Fontconfig keeps its caches until exit: not a leak of ours (for a
 * sanitized test run by hand; make check-asan reads tests/support/lsan.supp). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig.so\n";
}

/* 'model' drawn WIDTH x HEIGHT, where things went in *frame (if not
 * NULL); 'name' names the PNG kept on request. */
static inline cairo_surface_t *render_framed(const graph_model *model,
                                            const char *name,
                                            graph_frame *frame)
{
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                                          WIDTH, HEIGHT);
    cairo_t *cr = cairo_create(surface);
    graph_draw_frame(cr, WIDTH, HEIGHT, model, frame);
    assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    if (getenv("SCOPE_TEST_PNG"))
    {
        static unsigned number;
        char path[256];
        snprintf(path, sizeof(path), "%s%s%u.png", getenv("SCOPE_TEST_PNG"),
                 name, ++number);
        cairo_surface_write_to_png(surface, path);
    }
    return surface;
}

static inline cairo_surface_t *render_named(const graph_model *model,
                                           const char *name)
{
    return render_framed(model, name, NULL);
}

#endif /* SCOPE_TEST_RENDER_H */
