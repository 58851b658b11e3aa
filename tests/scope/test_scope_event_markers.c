/* test_scope_event_markers.c - the marker store (bounded, oldest first
 * out, text cut on a character), finding the marker under the pointer,
 * and drawing: each kind at its time, in a colour no channel has. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "view/event_markers.h"
#include "draw/graph_draw.h"
#include "draw/marker_draw.h"
#include "view/marker_feed.h"
#include "scope_test_series.h"

#include <math.h>
#include <string.h>

/* Fontconfig keeps its caches until exit: not a leak of ours. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig.so\n";
}

#define WIDTH   900
#define HEIGHT  300

static unsigned observed;
static void observe(const scope_marker *marker, void *arg)
{
    (void) marker;
    (void) arg;
    observed++;
}

static void test_store_is_bounded_and_keeps_the_newest(void **state)
{
    (void) state;
    /* A graph with no store (graph_model.markers NULL, as an embedded
     * graph may have) holds none: the retained drawing counts them. */
    assert_int_equal(scope_markers_count(NULL), 0);
    scope_markers *markers = scope_markers_new(4);
    assert_non_null(markers);
    observed = 0;
    scope_markers_observe(markers, observe, NULL);
    assert_int_equal(scope_markers_count(markers), 0);
    assert_null(scope_markers_get(markers, 0));
    for (int i = 0; i < 6; i++)
    {
        char text[16];
        snprintf(text, sizeof(text), "event %d", i);
        scope_markers_add(markers, SCOPE_MARKER_RECORD, i * 0.5, text);
    }
    scope_markers_add(markers, SCOPE_MARKER_COMMAND, NAN, "no time");
    assert_int_equal(observed, 6);
    assert_int_equal(scope_markers_count(markers), 4);
    for (unsigned i = 0; i < 4; i++)
    {
        const scope_marker *m = scope_markers_get(markers, i);
        char text[16];
        snprintf(text, sizeof(text), "event %u", i + 2);
        assert_string_equal(m->text, text);
        assert_true(m->time == (i + 2) * 0.5);
        assert_int_equal(m->kind, SCOPE_MARKER_RECORD);
    }
    assert_null(scope_markers_get(markers, 4));

    /* A long text is cut before a character, never inside one. */
    char text[2 * SCOPE_MARKER_TEXT];
    memset(text, 'x', sizeof(text) - 1);
    text[sizeof(text) - 1] = 0;
    memcpy(text + SCOPE_MARKER_TEXT - 2, "\xc3\xa9", 2);  /* é at the end */
    scope_markers_add(markers, SCOPE_MARKER_RESTART, 9, text);
    const scope_marker *last = scope_markers_get(markers, 3);
    assert_int_equal(strlen(last->text), SCOPE_MARKER_TEXT - 2);
    assert_string_equal(scope_marker_kind_name(last->kind), "restart");
    assert_string_equal(scope_marker_kind_name(SCOPE_MARKER_COMMAND),
                        "command");
    assert_string_equal(scope_marker_kind_name(SCOPE_MARKER_RECORD), "record");
    scope_markers_delete(markers);
}

static void test_the_marker_under_the_pointer(void **state)
{
    (void) state;
    scope_markers *markers = scope_markers_new(0);
    /* A plot from x 100, 800 px wide, over 0..8 s: 100 px a second. */
    scope_markers_add(markers, SCOPE_MARKER_RECORD, 2.5, "at 350");
    scope_markers_add(markers, SCOPE_MARKER_COMMAND, 2.56, "at 356");
    scope_markers_add(markers, SCOPE_MARKER_RESTART, 9.0, "after the span");
    const double x0 = 100, w = 800, t0 = 0, t1 = 8;
    const scope_marker *m;
    m = scope_markers_near(markers, 350.5, SCOPE_MARKER_SLOP, t0, t1, x0, w);
    assert_non_null(m);
    assert_string_equal(m->text, "at 350");
    m = scope_markers_near(markers, 355, SCOPE_MARKER_SLOP, t0, t1, x0, w);
    assert_non_null(m);
    assert_string_equal(m->text, "at 356");
    /* Too far from both. */
    assert_null(scope_markers_near(markers, 345, SCOPE_MARKER_SLOP, t0, t1,
                                   x0, w));
    assert_null(scope_markers_near(markers, 362, SCOPE_MARKER_SLOP, t0, t1,
                                   x0, w));
    /* Outside the span: not there, even at the edge. */
    assert_null(scope_markers_near(markers, 900, SCOPE_MARKER_SLOP, t0, t1,
                                   x0, w));
    /* Another span moves them: 2.5 s is at x 600 over 0..4 s. */
    m = scope_markers_near(markers, 600, SCOPE_MARKER_SLOP, 0, 4, 100, 800);
    assert_non_null(m);
    assert_string_equal(m->text, "at 350");
    /* Of two on one pixel, the newest. */
    scope_markers_add(markers, SCOPE_MARKER_RECORD, 2.5, "again at 350");
    m = scope_markers_near(markers, 350.5, SCOPE_MARKER_SLOP, t0, t1, x0, w);
    assert_string_equal(m->text, "again at 350");
    assert_null(scope_markers_near(NULL, 350, 4, t0, t1, x0, w));
    scope_markers_delete(markers);
}

/* Pixels of exactly 'rgb' in columns [x0, x1). */
static unsigned count_colour(cairo_surface_t *surface,
                             const unsigned char rgb[3], int x0, int x1)
{
    unsigned char *data = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    uint32_t want = (uint32_t) rgb[0] << 16 | (uint32_t) rgb[1] << 8 | rgb[2];
    unsigned count = 0;
    for (int y = 0; y < HEIGHT; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < WIDTH; x++)
            if ((*(uint32_t *) (data + y * stride + 4 * x) & 0xffffff) == want)
                count++;
    return count;
}

static void test_markers_are_drawn_at_their_times(void **state)
{
    (void) state;
    /* No channel colour is a marker colour. */
    for (unsigned k = 0; k < SCOPE_MARKER_KINDS; k++)
    {
        unsigned char marker[3], channel[3];
        graph_marker_colour((scope_marker_kind) k, marker);
        for (unsigned c = 0; c < 64; c++)
        {
            graph_channel_colour(c, channel);
            assert_memory_not_equal(marker, channel, 3);
        }
    }
    scope_series *s[1] = { test_series("ramp", 1000, 0, 0.01, 0, 1) };
    scope_markers *markers = scope_markers_new(0);
    scope_markers_add(markers, SCOPE_MARKER_RESTART, 2.0, "restart");
    scope_markers_add(markers, SCOPE_MARKER_COMMAND, 5.0, "gain=2");
    scope_markers_add(markers, SCOPE_MARKER_RECORD, 8.0, "spike 1");
    scope_markers_add(markers, SCOPE_MARKER_SNAPSHOT, 6.5, "snapshot=ramp>6");
    scope_markers_add(markers, SCOPE_MARKER_RECORD, 20.0, "not in view");
    graph_model model = {
        .title = "ramp", .series = s, .series_count = 1,
        .views = SCOPE_VIEW_NORMAL, .view_end = 10.0, .duration = 10.0,
        .max_samples = -1, .markers = markers,
    };
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                                          WIDTH, HEIGHT);
    cairo_t *cr = cairo_create(surface);
    graph_frame frame;
    graph_draw_frame(cr, WIDTH, HEIGHT, &model, &frame);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    if (getenv("SCOPE_TEST_PNG"))
        cairo_surface_write_to_png(surface, getenv("SCOPE_TEST_PNG"));
    const double times[SCOPE_MARKER_KINDS] = { 2.0, 5.0, 8.0, 6.5 };
    for (unsigned k = 0; k < SCOPE_MARKER_KINDS; k++)
    {
        unsigned char rgb[3];
        graph_marker_colour((scope_marker_kind) k, rgb);
        int x = (int) scope_time_to_x(times[k], frame.t0, frame.t1, frame.x,
                                      frame.w);
        /* Its glyph in its colour at its time, and nowhere else. */
        unsigned here = count_colour(surface, rgb, x - 5, x + 6);
        unsigned all = count_colour(surface, rgb, 0, WIDTH);
        print_message("%s at x %d: %u pixels\n",
                      scope_marker_kind_name((scope_marker_kind) k), x, here);
        assert_true(here >= 12);
        assert_int_equal(all, here);
    }
    cairo_surface_destroy(surface);

    /* Without markers, none of their colours. */
    model.markers = NULL;
    surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
    cr = cairo_create(surface);
    graph_draw(cr, WIDTH, HEIGHT, &model);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    for (unsigned k = 0; k < SCOPE_MARKER_KINDS; k++)
    {
        unsigned char rgb[3];
        graph_marker_colour((scope_marker_kind) k, rgb);
        assert_int_equal(count_colour(surface, rgb, 0, WIDTH), 0);
    }
    cairo_surface_destroy(surface);
    scope_markers_delete(markers);
    test_series_delete(s[0]);
}

static void test_feed_refuses_a_bad_regex(void **state)
{
    (void) state;
    scope_markers *markers = scope_markers_new(0);
    char error[256] = "";
    const char *bad[] = { "feed", "(" };
    assert_null(scope_marker_feed_new(markers, bad, 2, error, sizeof(error)));
    assert_true(error[0] != 0);
    const char *good[] = { "feed_event", "net.*" };
    scope_marker_feed *feed = scope_marker_feed_new(markers, good, 2, error,
                                                    sizeof(error));
    assert_non_null(feed);
    /* A command before any process: no time on the axis, no marker. */
    scope_source_config config = { .duration = 10 };
    scope_source *source = scope_source_new("/nonexistent/segment", &config);
    scope_marker_feed_command(feed, source, "gain=2", 1.0);
    assert_int_equal(scope_markers_count(markers), 0);
    assert_int_equal(scope_marker_feed_poll(feed, source,
                                            scope_source_poll(source, 1.0)), 0);
    scope_source_delete(source);
    scope_marker_feed_delete(feed);
    scope_markers_delete(markers);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_store_is_bounded_and_keeps_the_newest),
        cmocka_unit_test(test_the_marker_under_the_pointer),
        cmocka_unit_test(test_markers_are_drawn_at_their_times),
        cmocka_unit_test(test_feed_refuses_a_bad_regex),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
