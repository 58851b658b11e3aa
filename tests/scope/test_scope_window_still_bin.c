/* test_scope_window_still_bin.c - with the cairo renderer, a still bin's
 * child is drawn once per change, not at every frame of a window whose
 * plot scrolls; what it paints is what its child draws; a change of the
 * child is shown; input still reaches the child. Needs a display: with
 * SCOPE_TEST_DISPLAY=1 (check-scope-chrome.sh, under Xvfb); skipped
 * without. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "window/still_bin.h"

#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

/* A window with chrome in a still bin (a toggle button and a label) over
 * an area redrawn at every frame, as a scrolling plot is. */
typedef struct window
{
    GtkWidget *window, *bin, *chrome, *button, *area;
    unsigned   area_draws;
    bool       ticking;
} window;

static void draw_area(GtkDrawingArea *area, cairo_t *cr, int width,
                      int height, gpointer data)
{
    (void) area;
    window *w = data;
    w->area_draws++;
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    cairo_rectangle(cr, 0, 0, width, height);
    cairo_fill(cr);
}

static gboolean tick(GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
    (void) clock;
    window *w = data;
    if (w->ticking)
        gtk_widget_queue_draw(widget);
    return G_SOURCE_CONTINUE;
}

/* Run GTK for 'ms' milliseconds. */
static void run_for(unsigned ms)
{
    gint64 end = g_get_monotonic_time() + (gint64) ms * 1000;
    while (g_get_monotonic_time() < end)
        if (!g_main_context_iteration(NULL, FALSE))
            g_usleep(2000);
}

static void window_open(window *w)
{
    if (!getenv("SCOPE_TEST_DISPLAY"))
        skip();
    setenv("GSK_RENDERER", "cairo", 1);
    assert_true(gtk_init_check());
    memset(w, 0, sizeof(*w));
    w->window = gtk_window_new();
    gtk_window_set_default_size(GTK_WINDOW(w->window), 400, 300);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    w->chrome = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    w->button = gtk_toggle_button_new_with_label("Pause");
    gtk_box_append(GTK_BOX(w->chrome), w->button);
    gtk_box_append(GTK_BOX(w->chrome), gtk_label_new("what changes rarely"));
    w->bin = scope_still_bin_new(w->chrome);
    gtk_box_append(GTK_BOX(box), w->bin);
    w->area = gtk_drawing_area_new();
    gtk_widget_set_vexpand(w->area, TRUE);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(w->area), draw_area, w,
                                   NULL);
    gtk_widget_add_tick_callback(w->area, tick, w, NULL);
    gtk_box_append(GTK_BOX(box), w->area);
    gtk_window_set_child(GTK_WINDOW(w->window), box);
    gtk_window_present(GTK_WINDOW(w->window));
    /* Mapped, laid out, drawn, any transition of the theme's over. */
    for (int i = 0; i < 200 && !w->area_draws; i++)
        run_for(10);
    run_for(500);
    GskRenderer *renderer = gtk_native_get_renderer(
        gtk_widget_get_native(w->window));
    assert_true(renderer && GSK_IS_CAIRO_RENDERER(renderer));
}

static void window_close(window *w)
{
    gtk_window_destroy(GTK_WINDOW(w->window));
    run_for(50);
}

/* The image of what 'node' draws, w x h, transparent around it. */
static cairo_surface_t *image_of(GskRenderNode *node, int width, int height)
{
    cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
                                                        width, height);
    cairo_t *cr = cairo_create(image);
    gsk_render_node_draw(node, cr);
    cairo_destroy(cr);
    cairo_surface_flush(image);
    return image;
}

static bool same_pixels(cairo_surface_t *a, cairo_surface_t *b)
{
    int h = cairo_image_surface_get_height(a);
    int stride = cairo_image_surface_get_stride(a);
    return h == cairo_image_surface_get_height(b) &&
           stride == cairo_image_surface_get_stride(b) &&
           memcmp(cairo_image_surface_get_data(a),
                  cairo_image_surface_get_data(b), (size_t) (h * stride)) == 0;
}

/* The image of what 'snapshot' holds, the bin's size. */
static cairo_surface_t *image_at_bin(window *w, GtkSnapshot *snapshot)
{
    GskRenderNode *node = gtk_snapshot_free_to_node(snapshot);
    assert_non_null(node);
    cairo_surface_t *image = image_of(node, gtk_widget_get_width(w->bin),
                                      gtk_widget_get_height(w->bin));
    gsk_render_node_unref(node);
    return image;
}

/* What the bin paints now, drawn by its snapshot as GTK asks for it. */
static cairo_surface_t *bin_image(window *w)
{
    GtkSnapshot *snapshot = gtk_snapshot_new();
    GTK_WIDGET_GET_CLASS(w->bin)->snapshot(w->bin, snapshot);
    return image_at_bin(w, snapshot);
}

/* And what its child draws, in place, without the bin. */
static cairo_surface_t *child_image(window *w)
{
    GtkSnapshot *snapshot = gtk_snapshot_new();
    gtk_widget_snapshot_child(w->bin, w->chrome, snapshot);
    return image_at_bin(w, snapshot);
}

static void test_frames_leave_the_image_alone(void **state)
{
    (void) state;
    window w;
    window_open(&w);
    unsigned long drawn = scope_still_bin_drawn(SCOPE_STILL_BIN(w.bin));
    assert_true(drawn >= 1);
    unsigned draws = w.area_draws;
    w.ticking = true;
    for (int i = 0; i < 300 && w.area_draws < draws + 30; i++)
        run_for(10);
    w.ticking = false;
    /* Thirty frames of the window, and not one image more. */
    assert_true(w.area_draws >= draws + 30);
    assert_int_equal(scope_still_bin_drawn(SCOPE_STILL_BIN(w.bin)), drawn);
    window_close(&w);
}

static void test_the_image_is_what_the_child_draws(void **state)
{
    (void) state;
    window w;
    window_open(&w);
    cairo_surface_t *bin = bin_image(&w), *child = child_image(&w);
    assert_true(same_pixels(bin, child));
    cairo_surface_destroy(bin);
    cairo_surface_destroy(child);
    window_close(&w);
}

static void test_a_change_is_drawn(void **state)
{
    (void) state;
    window w;
    window_open(&w);
    cairo_surface_t *before = child_image(&w);
    unsigned long drawn = scope_still_bin_drawn(SCOPE_STILL_BIN(w.bin));
    gtk_toggle_button_set_active(GTK_TOGGLE_BUTTON(w.button), TRUE);
    run_for(500);
    /* GTK asked the bin again, and its image shows the button pressed. */
    assert_true(scope_still_bin_drawn(SCOPE_STILL_BIN(w.bin)) > drawn);
    cairo_surface_t *after = bin_image(&w), *child = child_image(&w);
    assert_false(same_pixels(before, after));
    assert_true(same_pixels(after, child));
    cairo_surface_destroy(before);
    cairo_surface_destroy(after);
    cairo_surface_destroy(child);
    window_close(&w);
}

static void test_input_reaches_the_child(void **state)
{
    (void) state;
    window w;
    window_open(&w);
    graphene_point_t centre;
    assert_true(gtk_widget_compute_point(
        w.button, w.window,
        &GRAPHENE_POINT_INIT(gtk_widget_get_width(w.button) / 2.f,
                             gtk_widget_get_height(w.button) / 2.f),
        &centre));
    GtkWidget *picked = gtk_widget_pick(w.window, centre.x, centre.y,
                                        GTK_PICK_DEFAULT);
    assert_non_null(picked);
    assert_true(picked == w.button || gtk_widget_is_ancestor(picked,
                                                             w.button));
    window_close(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_leave_the_image_alone),
        cmocka_unit_test(test_the_image_is_what_the_child_draws),
        cmocka_unit_test(test_a_change_is_drawn),
        cmocka_unit_test(test_input_reaches_the_child),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
