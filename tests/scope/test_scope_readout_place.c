/* test_scope_readout_place.c - readout boxes that hide nothing they
 * describe: the placement rule on its own (view/readout_place.c), then
 * frames drawn with and without the box, whose samples, cursor names and
 * axis labels must come out pixel for pixel the same. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "draw/graph_draw.h"
#include "view/readout.h"
#include "view/readout_place.h"
#include "view/time_view.h"
#include "scope_test_render.h"
#include "scope_test_series.h"

#include <math.h>
#include <string.h>

/* ---- the rule --------------------------------------------------------------- */

/* A 900 x 300 graph whose plot is 818 x 200 at (66, 60). */
static scope_readout_room room_of(const scope_box *keep, unsigned count,
                                  double x, double y)
{
    return (scope_readout_room) {
        .plot = { 66, 60, 818, 200 }, .bounds = { 0, 0, 900, 300 },
        .keep = keep, .keep_count = count, .pointer = x >= 0, .x = x, .y = y,
    };
}

static bool within(const scope_box *box, const scope_box *region)
{
    return box->x >= region->x && box->y >= region->y &&
           box->x + box->w <= region->x + region->w &&
           box->y + box->h <= region->y + region->h;
}

static void assert_hides_none(const scope_box *box, const scope_box *keep,
                              unsigned count)
{
    for (unsigned k = 0; k < count; k++)
        if (scope_box_overlap(box, &keep[k]))
            fail_msg("box %g,%g %gx%g covers %g,%g %gx%g", box->x, box->y,
                     box->w, box->h, keep[k].x, keep[k].y, keep[k].w,
                     keep[k].h);
}

static void test_box_beside_the_pointer_on_the_free_side(void **state)
{
    (void) state;
    /* Room on the right: there, below the pointer. */
    scope_box sample = { 300 - 5, 150 - 5, 10, 10 };
    scope_readout_room room = room_of(&sample, 1, 300, 100);
    scope_box box = scope_readout_place(&room, 200, 60);
    assert_float_equal(box.x, 300 + SCOPE_READOUT_GAP, 0);
    assert_float_equal(box.y, 100 + SCOPE_READOUT_GAP, 0);
    assert_hides_none(&box, &sample, 1);

    /* Near the right edge: on the left of the crosshair. */
    scope_box right = { 860 - 5, 150 - 5, 10, 10 };
    room = room_of(&right, 1, 860, 100);
    box = scope_readout_place(&room, 200, 60);
    assert_true(box.x + box.w <= 860);
    assert_true(within(&box, &room.plot));

    /* Near the bottom: still beside it, moved up into the plot. */
    room = room_of(NULL, 0, 300, 250);
    box = scope_readout_place(&room, 200, 60);
    assert_float_equal(box.x, 300 + SCOPE_READOUT_GAP, 0);
    assert_true(within(&box, &room.plot));
}

/* Too wide for either side of a pointer in the middle: the old rule
 * pushed it back over the crosshair and its samples. It goes above or
 * below them instead. */
static void test_wide_box_clears_the_samples_on_the_crosshair(void **state)
{
    (void) state;
    scope_box samples[] = {
        { 475 - 5, 100 - 5, 10, 10 },
        { 475 - 5, 170 - 5, 10, 10 },
        { 475 - 4, 130 - 4, 8, 8 },             /* the pointer */
    };
    scope_readout_room room = room_of(samples, 3, 475, 130);
    scope_box box = scope_readout_place(&room, 500, 60);
    assert_hides_none(&box, samples, 3);
    assert_true(within(&box, &room.plot));
    /* Below the lower sample: the only band 60 pixels high. */
    assert_true(box.y >= 175);
}

/* The cursors' box, in the top right corner unless that hides cursor B's
 * name or its samples. */
static void test_corner_box_leaves_the_cursor_name(void **state)
{
    (void) state;
    scope_box keep[] = {
        { 850 + 2, 60, 12, 16 },                /* "B" */
        { 850 - 5, 200 - 5, 10, 10 },           /* its sample */
    };
    scope_readout_room room = room_of(keep, 2, -1, -1);
    scope_box box = scope_readout_place(&room, 300, 40);
    assert_hides_none(&box, keep, 2);
    assert_true(within(&box, &room.plot));
    /* With nothing there, the corner itself. */
    room = room_of(NULL, 0, -1, -1);
    box = scope_readout_place(&room, 300, 40);
    assert_float_equal(box.x + box.w, 884 - 6, 0);
    assert_float_equal(box.y, 66, 0);
}

/* Taller than the plot: out of it, over the title and legend, but not
 * over the axis labels; and when nothing is free, still in the graph. */
static void test_tall_box_leaves_the_plot_not_the_labels(void **state)
{
    (void) state;
    scope_box labels[] = {
        { 0, 50, 66, 220 },                     /* value labels */
        { 0, 260, 900, 24 },                    /* time labels */
    };
    scope_readout_room room = room_of(labels, 2, 300, 150);
    scope_box box = scope_readout_place(&room, 300, 240);
    assert_hides_none(&box, labels, 2);
    assert_true(within(&box, &room.bounds));

    box = scope_readout_place(&room, 300, 400);
    assert_true(box.x >= 0 && box.y >= 0);
    assert_true(box.x + box.w <= 900);
}

/* What it spares it covers only when nothing else is free: here the
 * only spot clear of the samples is over cursor A's name. */
static void test_spared_only_when_needed(void **state)
{
    (void) state;
    scope_box samples[] = { { 475 - 5, 100 - 5, 10, 10 },
                            { 475 - 5, 170 - 5, 10, 10 } };
    scope_box name = { 300, 60, 12, 16 };
    scope_readout_room room = room_of(samples, 2, 475, 130);
    room.bounds = room.plot;
    room.spare = &name;
    room.spare_count = 1;
    scope_box box = scope_readout_place(&room, 810, 80);
    assert_hides_none(&box, samples, 2);
    /* Narrow enough to pass beside it: spared. */
    box = scope_readout_place(&room, 400, 30);
    assert_hides_none(&box, samples, 2);
    assert_hides_none(&box, &name, 1);
}

/* ---- frames drawn --------------------------------------------------------- */

/* Two channels over 10 s, cursors at 2 s and 8.9 s. */
typedef struct scene
{
    scope_series *series[2];
    graph_model model;
    char readout[2048];
} scene;

static void scene_open(scene *s)
{
    s->series[0] = test_series("bytes", 1000, 0, 0.01, 0, 1);
    s->series[1] = test_series("loops", 1000, 0, 0.01, 999, -0.5);
    s->series[1]->colour = 1;
    /* Units as programs give them: long lines, a wide box. */
    snprintf(s->series[0]->unit, sizeof(s->series[0]->unit), "Mbytes");
    snprintf(s->series[1]->unit, sizeof(s->series[1]->unit), "kiterations");
    s->model = (graph_model) {
        .title = "bytes|loops", .series = s->series, .series_count = 2,
        .views = SCOPE_VIEW_NORMAL, .view_end = 10, .duration = 10,
        .max_samples = -1, .has_cursor = { true, true },
        .cursor = { 2, 8.9 }, .readout_x = -1, .readout_y = -1,
    };
}

static void scene_close(scene *s)
{
    test_series_delete(s->series[0]);
    test_series_delete(s->series[1]);
}

/* The model drawn without its readout and with it. */
static void draw_both(const graph_model *model, graph_frame *frame,
                      cairo_surface_t **without, cairo_surface_t **with)
{
    graph_model bare = *model;
    bare.readout = NULL;
    *without = render_named(&bare, "bare");
    *with = render_framed(model, "readout", frame);
}

/* True if [x0, x1) x [y0, y1) is the same in both pictures. */
static bool same(cairo_surface_t *a, cairo_surface_t *b, int x0, int y0,
                 int x1, int y1)
{
    unsigned char *pa = cairo_image_surface_get_data(a);
    unsigned char *pb = cairo_image_surface_get_data(b);
    int stride = cairo_image_surface_get_stride(a);
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < HEIGHT; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < WIDTH; x++)
            if (*(uint32_t *) (pa + y * stride + 4 * x) !=
                *(uint32_t *) (pb + y * stride + 4 * x))
                return false;
    return true;
}

/* Each channel's sample at time t, 4 pixels around, is left alone. */
static void assert_samples_shown(cairo_surface_t *a, cairo_surface_t *b,
                                 const graph_frame *f, const scene *s,
                                 double t)
{
    double x = scope_time_to_x(t, f->t0, f->t1, f->x, f->w);
    for (unsigned c = 0; c < 2; c++)
    {
        double when, v;
        assert_true(scope_series_value_at(s->series[c], t, &when, &v));
        double y = f->y + f->h * (1 - (v - f->lo) / (f->hi - f->lo));
        if (!same(a, b, (int) x - 4, (int) y - 4, (int) x + 5, (int) y + 5))
            fail_msg("the readout covers %s at %g s (%.0f, %.0f)",
                     s->series[c]->name, t, x, y);
    }
}

/* The value labels left of the plot, the time labels under it. */
static void assert_labels_shown(cairo_surface_t *a, cairo_surface_t *b,
                                const graph_frame *f)
{
    if (!same(a, b, 0, (int) f->y - 8, (int) f->x - 1,
              (int) (f->y + f->h) + 8))
        fail_msg("the readout covers the value labels");
    if (!same(a, b, 0, (int) (f->y + f->h) + 2, WIDTH, HEIGHT))
        fail_msg("the readout covers the time labels");
}

/* The cursors' names on top of the plot. */
static void assert_names_shown(cairo_surface_t *a, cairo_surface_t *b,
                               const graph_frame *f, const scene *s)
{
    for (unsigned c = 0; c < 2; c++)
    {
        double x = scope_time_to_x(s->model.cursor[c], f->t0, f->t1, f->x,
                                   f->w);
        if (!same(a, b, (int) x + 2, (int) f->y, (int) x + 14,
                  (int) f->y + 15))
            fail_msg("the readout covers cursor %c's name", "AB"[c]);
    }
}

/* The pointer mid-plot with a readout too wide for either side of it
 * (time, values, dt and each channel at A and B). */
static void test_drawn_readout_leaves_samples_and_labels(void **state)
{
    (void) state;
    scene s;
    scene_open(&s);
    graph_frame f;
    cairo_surface_t *a, *b;
    draw_both(&s.model, &f, &a, &b);    /* where the plot is */
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);

    double x = f.x + f.w / 2, hover = scope_x_to_time(x, f.t0, f.t1, f.x,
                                                      f.w);
    scope_readout_text(s.series, 2, NULL, hover, 2, 8.9, s.readout,
                       sizeof(s.readout));
    s.model.crosshair = true;
    s.model.crosshair_x = s.model.readout_x = x;
    s.model.crosshair_y = s.model.readout_y = f.y + 20;
    s.model.readout = s.readout;
    draw_both(&s.model, &f, &a, &b);
    assert_true(f.readout.w > f.w / 2 - SCOPE_READOUT_GAP);  /* the case */
    assert_false(same(a, b, 0, 0, WIDTH, HEIGHT));           /* it shows */
    assert_samples_shown(a, b, &f, &s, hover);
    assert_labels_shown(a, b, &f);
    /* Drawn whole: in the graph. */
    assert_true(f.readout.x >= 0 && f.readout.y >= 0 &&
                f.readout.x + f.readout.w <= WIDTH &&
                f.readout.y + f.readout.h <= HEIGHT);
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
    scene_close(&s);
}

/* No pointer: the cursors' box, which the top right corner would put on
 * cursor B's name and samples. */
static void test_drawn_cursor_box_leaves_cursor_b(void **state)
{
    (void) state;
    scene s;
    scene_open(&s);
    scope_readout_text(s.series, 2, NULL, NAN, 2, 8.9, s.readout,
                       sizeof(s.readout));
    s.model.readout = s.readout;
    graph_frame f;
    cairo_surface_t *a, *b;
    draw_both(&s.model, &f, &a, &b);
    assert_false(same(a, b, 0, 0, WIDTH, HEIGHT));
    assert_samples_shown(a, b, &f, &s, 2);
    assert_samples_shown(a, b, &f, &s, 8.9);
    assert_labels_shown(a, b, &f);
    assert_names_shown(a, b, &f, &s);
    cairo_surface_destroy(a);
    cairo_surface_destroy(b);
    scene_close(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_beside_the_pointer_on_the_free_side),
        cmocka_unit_test(test_wide_box_clears_the_samples_on_the_crosshair),
        cmocka_unit_test(test_corner_box_leaves_the_cursor_name),
        cmocka_unit_test(test_tall_box_leaves_the_plot_not_the_labels),
        cmocka_unit_test(test_spared_only_when_needed),
        cmocka_unit_test(test_drawn_readout_leaves_samples_and_labels),
        cmocka_unit_test(test_drawn_cursor_box_leaves_cursor_b),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
