/* test_scope_palette.c - light and dark graphs, and which one is chosen. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "draw/graph_draw.h"
#include "scope_test_render.h"
#include "view/palette.h"
#include "scope_test_series.h"

#include <math.h>

static cairo_surface_t *render(const graph_model *model)
{
    return render_named(model, "palette");
}

static uint32_t pixel_at(cairo_surface_t *surface, int x, int y)
{
    unsigned char *data = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    return *(uint32_t *) (data + y * stride + 4 * x) & 0xffffff;
}

static uint32_t packed(scope_rgb c)
{
    return (uint32_t) c.r << 16 | (uint32_t) c.g << 8 | c.b;
}

/* Pixels of exactly 'c' (or, with 'other', of anything else). */
static unsigned count(cairo_surface_t *surface, scope_rgb c, bool other,
                      int x0, int y0, int x1, int y1)
{
    unsigned n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            n += (pixel_at(surface, x, y) == packed(c)) != other;
    return n;
}

static double luminance(scope_rgb c)
{
    double v[3] = { c.r / 255.0, c.g / 255.0, c.b / 255.0 };
    for (int i = 0; i < 3; i++)
        v[i] = v[i] <= 0.03928 ? v[i] / 12.92 : pow((v[i] + 0.055) / 1.055, 2.4);
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}

static double contrast(scope_rgb a, scope_rgb b)
{
    double la = luminance(a), lb = luminance(b);
    return (fmax(la, lb) + 0.05) / (fmin(la, lb) + 0.05);
}

static void test_theme_names(void **state)
{
    (void) state;
    scope_theme theme;
    assert_true(scope_theme_parse("light", &theme));
    assert_int_equal(theme, SCOPE_THEME_LIGHT);
    assert_true(scope_theme_parse("dark", &theme));
    assert_int_equal(theme, SCOPE_THEME_DARK);
    assert_true(scope_theme_parse("auto", &theme));
    assert_int_equal(theme, SCOPE_THEME_AUTO);
    assert_false(scope_theme_parse("Light", &theme));
    assert_false(scope_theme_parse("", &theme));
}

static void test_the_desktop_preference_is_followed(void **state)
{
    (void) state;
    scope_desktop_hints none = { .color_scheme = -1 };
    /* Asked: the option wins over everything. */
    scope_desktop_hints dark_desktop = { .color_scheme = 1 };
    assert_int_equal(scope_theme_resolve(SCOPE_THEME_LIGHT, &dark_desktop),
                     SCOPE_THEME_LIGHT);
    assert_int_equal(scope_theme_resolve(SCOPE_THEME_DARK, NULL),
                     SCOPE_THEME_DARK);
    /* Headless, or nothing said: dark, as the scope always was. */
    assert_int_equal(scope_theme_resolve(SCOPE_THEME_AUTO, NULL),
                     SCOPE_THEME_DARK);
    assert_int_equal(scope_theme_resolve(SCOPE_THEME_AUTO, &none),
                     SCOPE_THEME_DARK);
    scope_desktop_hints adwaita = { .color_scheme = 0,
                                    .theme_name = "Adwaita" };
    assert_int_equal(scope_theme_resolve(SCOPE_THEME_AUTO, &adwaita),
                     SCOPE_THEME_DARK);
    /* The portal's switch. */
    scope_desktop_hints portal_light = { .color_scheme = 2,
                                         .theme_name = "Yaru-dark" };
    assert_int_equal(scope_theme_resolve(SCOPE_THEME_AUTO, &portal_light),
                     SCOPE_THEME_LIGHT);
    assert_int_equal(scope_theme_resolve(SCOPE_THEME_AUTO, &dark_desktop),
                     SCOPE_THEME_DARK);
    /* GTK_THEME, with or without a variant. */
    scope_desktop_hints env = { .color_scheme = -1,
                                .gtk_theme_env = "Adwaita:dark" };
    assert_int_equal(scope_theme_resolve(SCOPE_THEME_AUTO, &env),
                     SCOPE_THEME_DARK);
    env.gtk_theme_env = "Adwaita";
    env.prefers_dark = true;            /* GTK_THEME overrides it */
    assert_int_equal(scope_theme_resolve(SCOPE_THEME_AUTO, &env),
                     SCOPE_THEME_LIGHT);
    /* The user's GTK settings. */
    scope_desktop_hints settings = { .color_scheme = -1,
                                     .prefers_dark = true };
    assert_int_equal(scope_theme_resolve(SCOPE_THEME_AUTO, &settings),
                     SCOPE_THEME_DARK);
    settings = (scope_desktop_hints) { .color_scheme = -1,
                                       .theme_name = "Breeze" };
    assert_int_equal(scope_theme_resolve(SCOPE_THEME_AUTO, &settings),
                     SCOPE_THEME_LIGHT);
    settings.theme_name = "Breeze-Dark";
    assert_int_equal(scope_theme_resolve(SCOPE_THEME_AUTO, &settings),
                     SCOPE_THEME_DARK);
    assert_ptr_equal(scope_palette_of(SCOPE_THEME_LIGHT),
                     &scope_palette_light);
    assert_ptr_equal(scope_palette_of(SCOPE_THEME_DARK), &scope_palette_dark);
}

/* Each palette: channels readable on its plot, distinct from each other
 * and from the colours of the frame and text (tests count them). */
static void test_channel_colours_suit_their_background(void **state)
{
    (void) state;
    const scope_palette *palettes[] = { &scope_palette_dark,
                                        &scope_palette_light };
    for (unsigned p = 0; p < 2; p++)
    {
        const scope_palette *pal = palettes[p];
        scope_rgb chrome[] = { pal->background, pal->plot_fill, pal->grid,
                               pal->frame, pal->text, pal->dim, pal->title,
                               pal->alert, pal->focus };
        for (unsigned c = 0; c < SCOPE_PALETTE_CHANNELS; c++)
        {
            scope_rgb colour = pal->channel[c];
            if (contrast(colour, pal->plot_fill) < 3.0)
                fail_msg("%s channel %u: contrast %.2f on its plot",
                         pal->name, c, contrast(colour, pal->plot_fill));
            for (unsigned k = 0; k < sizeof(chrome) / sizeof(chrome[0]); k++)
                assert_int_not_equal(packed(colour), packed(chrome[k]));
            for (unsigned o = 0; o < c; o++)
                assert_int_not_equal(packed(colour), packed(pal->channel[o]));
        }
        assert_true(contrast(pal->text, pal->background) >= 4.5);
    }
    assert_true(luminance(scope_palette_light.background) > 0.8);
    assert_true(luminance(scope_palette_dark.background) < 0.05);
}

static void test_a_light_graph_is_light(void **state)
{
    (void) state;
    scope_series *s[2] = {
        test_series("up", 500, 0, 0.01, 0, 1),
        test_series("down", 500, 0, 0.01, 500, -1),
    };
    s[0]->colour = 0;
    s[1]->colour = 1;
    graph_model model = {
        .title = "up|down", .series = s, .series_count = 2,
        .views = SCOPE_VIEW_NORMAL, .view_end = 5.0, .duration = 5.0,
        .max_samples = -1, .palette = &scope_palette_light,
    };
    cairo_surface_t *surface = render(&model);
    const scope_palette *light = &scope_palette_light;
    unsigned area = WIDTH * HEIGHT;
    unsigned pale = count(surface, light->background, false, 0, 0, WIDTH,
                          HEIGHT) +
                    count(surface, light->plot_fill, false, 0, 0, WIDTH,
                          HEIGHT);
    assert_true(pale > area * 3 / 4);
    assert_int_equal(count(surface, scope_palette_dark.background, false, 0,
                           0, WIDTH, HEIGHT), 0);
    for (unsigned i = 0; i < 2; i++)
        assert_true(count(surface, light->channel[i], false,
                          (int) GRAPH_MARGIN_LEFT, 60, WIDTH, HEIGHT) > 300);
    cairo_surface_destroy(surface);

    /* The same model without a palette: dark, as before. */
    model.palette = NULL;
    surface = render(&model);
    assert_true(count(surface, scope_palette_dark.background, false, 0, 0,
                      WIDTH, HEIGHT) > area / 10);
    cairo_surface_destroy(surface);
    for (unsigned i = 0; i < 2; i++)
        test_series_delete(s[i]);
}

/* A message is said once: in the plot while there is nothing to draw, in
 * the header once there is. */
static void test_a_message_is_said_once(void **state)
{
    (void) state;
    const scope_palette *dark = &scope_palette_dark;
    graph_model empty = {
        .title = "x", .views = SCOPE_VIEW_NORMAL, .view_end = NAN,
        .duration = 10, .max_samples = -1,
        .message = "waiting for /tmp/a_segment_path",
    };
    cairo_surface_t *surface = render(&empty);
    /* The header's right half holds nothing but the background. */
    assert_int_equal(count(surface, dark->background, true, WIDTH / 2, 0,
                           WIDTH, 24), 0);
    assert_true(count(surface, dark->plot_fill, true, 200, 100, 700, 200) >
                50);
    cairo_surface_destroy(surface);

    scope_series *s = test_series("up", 500, 0, 0.01, 0, 1);
    graph_model drawn = {
        .title = "up", .series = &s, .series_count = 1,
        .views = SCOPE_VIEW_NORMAL, .view_end = 5.0, .duration = 5.0,
        .max_samples = -1, .message = "exited; showing its last data",
    };
    surface = render(&drawn);
    assert_true(count(surface, dark->background, true, WIDTH / 2, 0, WIDTH,
                      24) > 50);
    cairo_surface_destroy(surface);

    /* With the timing axis, the message ends where the plot does: the
     * unit above that axis has its corner to itself. */
    drawn.views |= SCOPE_VIEW_TIMING;
    surface = render(&drawn);
    double right = GRAPH_MARGIN_LEFT + graph_plot_width(&drawn, WIDTH);
    assert_int_equal(count(surface, dark->background, true, (int) right + 1,
                           0, WIDTH, 24), 0);
    assert_true(count(surface, dark->background, true, WIDTH / 2, 0,
                      (int) right + 1, 24) > 50);
    cairo_surface_destroy(surface);
    test_series_delete(s);
}

static void test_the_focused_graph_is_marked(void **state)
{
    (void) state;
    graph_model model = {
        .title = "x", .views = SCOPE_VIEW_NORMAL, .view_end = NAN,
        .duration = 10, .max_samples = -1, .palette = &scope_palette_light,
    };
    cairo_surface_t *surface = render(&model);
    assert_int_equal(count(surface, scope_palette_light.focus, false, 0, 0,
                           WIDTH, HEIGHT), 0);
    cairo_surface_destroy(surface);
    model.focused = true;
    surface = render(&model);
    /* A ring all round. */
    assert_true(count(surface, scope_palette_light.focus, false, 0, 0,
                      WIDTH, HEIGHT) > 2 * (WIDTH + HEIGHT));
    cairo_surface_destroy(surface);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_theme_names),
        cmocka_unit_test(test_the_desktop_preference_is_followed),
        cmocka_unit_test(test_channel_colours_suit_their_background),
        cmocka_unit_test(test_a_light_graph_is_light),
        cmocka_unit_test(test_a_message_is_said_once),
        cmocka_unit_test(test_the_focused_graph_is_marked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
