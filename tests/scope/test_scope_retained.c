/* test_scope_retained.c - a plot kept as an image and scrolled looks
 * exactly like the same frame drawn whole.
 *
 * Frames of a live view scroll over channels as a window shows them
 * (smooth, noisy, sparse with a gap, one whose samples come late), with
 * the timing, average and min/max views, markers and a trigger. Each
 * frame drawn by graph_retained_draw() must equal, pixel for pixel,
 * graph_draw_frame() of the same model with the same ranges; and most
 * frames must have been scrolled, not drawn whole, or the test would
 * prove nothing. SCOPE_TEST_PNG=/tmp/x keeps the first frame that
 * differs and the difference.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "view/event_markers.h"
#include "draw/graph_retained.h"
#include "scope_test_render.h"
#include "scope_test_series.h"

#include <math.h>
#include <string.h>

#define CHANNELS        4
#define SPAN            5.0             /* seconds shown */

typedef struct scene
{
    scope_series * series[CHANNELS];
    scope_markers *markers;
    bool           hidden[CHANNELS];
    double         legend_values[CHANNELS], legend_intervals[CHANNELS];
    double         fed;                 /* samples are in up to here */
    unsigned       noise;
    bool           filling;             /* the span fills from... */
    double         filling_from;        /* ...this first sample */
    graph_model    model;
} scene;

static double noise(scene *s)
{
    s->noise = s->noise * 1103515245u + 12345u;
    return (s->noise >> 16 & 0x7fff) / 32767.0;
}

/* Samples of each channel up to time 'now'; the last one lags. */
static void feed(scene *s, double now, double loud)
{
    static const double dt[CHANNELS] = { 0.001, 0.0005, 0.137, 0.004 };
    for (unsigned c = 0; c < CHANNELS; c++)
    {
        scope_series *series = s->series[c];
        double until = c == 3 ? now - 0.3 : now;
        double t = series->end > series->first ? series->latest_time + dt[c]
                                               : 0.01 * c;
        for (; t <= until; t += dt[c])
        {
            double v;
            switch (c)
            {
            case 0: v = loud * sin(2 * M_PI * 0.7 * t); break;
            case 1: v = 5 + 3 * noise(s); break;
            case 2:
                if (t > 4.0 && t < 5.5)
                    continue;           /* a gap: not joined across */
                v = fmod(t, 1.0) < 0.5 ? -4 : 6;
                break;
            default: v = 2 * cos(2 * M_PI * 1.3 * t); break;
            }
            /* Jitter, so intervals (the timing view) vary. */
            scope_series_append(series, t + (c == 1 ? 0.0002 * noise(s) : 0),
                                v);
        }
    }
    s->fed = now;
}

static void scene_init(scene *s, unsigned views)
{
    memset(s, 0, sizeof(*s));
    static const char *const names[CHANNELS] = { "sine", "noise", "slow",
                                                 "late" };
    for (unsigned c = 0; c < CHANNELS; c++)
    {
        s->series[c] = test_series(names[c], 0, 0, 0, 0, 0);
        s->series[c]->colour = c;
    }
    s->markers = scope_markers_new(0);
    s->model = (graph_model) {
        .title = "retained",
        .series = s->series,
        .series_count = CHANNELS,
        .views = views,
        .duration = SPAN,
        .max_samples = -1,
        .hidden = s->hidden,
        .legend_values = s->legend_values,
        .legend_intervals = s->legend_intervals,
        .markers = s->markers,
        .trigger = true,
        .trigger_series = s->series[0],
        .trigger_level = 5,
        .trigger_time = NAN,
    };
}

static void scene_free(scene *s)
{
    for (unsigned c = 0; c < CHANNELS; c++)
        test_series_delete(s->series[c]);
    scope_markers_delete(s->markers);
}

static cairo_surface_t *blank(void)
{
    return cairo_image_surface_create(CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
}

static void keep_png(cairo_surface_t *surface, const char *name)
{
    const char *prefix = getenv("SCOPE_TEST_PNG");
    if (!prefix)
        return;
    char path[256];
    snprintf(path, sizeof(path), "%s%s.png", prefix, name);
    cairo_surface_write_to_png(surface, path);
}

/* Pixels that differ; the first difference is kept as PNGs on request. */
static unsigned differences(cairo_surface_t *a, cairo_surface_t *b,
                            unsigned frame)
{
    cairo_surface_flush(a);
    cairo_surface_flush(b);
    const unsigned char *pa = cairo_image_surface_get_data(a);
    const unsigned char *pb = cairo_image_surface_get_data(b);
    int stride = cairo_image_surface_get_stride(a);
    unsigned count = 0;
    for (int y = 0; y < HEIGHT; y++)
    {
        const uint32_t *ra = (const uint32_t *) (pa + y * stride);
        const uint32_t *rb = (const uint32_t *) (pb + y * stride);
        for (int x = 0; x < WIDTH; x++)
            if ((ra[x] & 0xffffff) != (rb[x] & 0xffffff))
            {
                if (!count)
                    print_message("frame %u: first difference at %d,%d: "
                                  "%06x drawn, %06x whole\n", frame, x, y,
                                  ra[x] & 0xffffff, rb[x] & 0xffffff);
                count++;
            }
    }
    static bool kept;
    if (count && !kept)
    {
        kept = true;
        keep_png(a, "retained");
        keep_png(b, "whole");
    }
    return count;
}

/* A window's parts (graph_bands) on one image, composed as GTK does its
 * nodes: a kept part is a recording replayed every frame, drawn again
 * only when its key changes; every other part is drawn every frame. The
 * image is cleared to magenta first, so a pixel no part covers differs. */
typedef struct bands_on_image
{
    cairo_surface_t *image;
    cairo_surface_t *kept[GRAPH_PARTS_KEPT]; /* recordings of kept parts */
    unsigned char    key[GRAPH_PARTS_KEPT][65536];
    size_t           size[GRAPH_PARTS_KEPT];
    size_t           largest[GRAPH_PARTS_KEPT]; /* key, in bytes */
    unsigned         drawn[GRAPH_PARTS]; /* parts drawn, by kind */
    unsigned         open;              /* parts open now */
} bands_on_image;

static int kept_slot(graph_part part)
{
    return part < GRAPH_PARTS_KEPT ? (int) part : -1;
}

static void replay(bands_on_image *b, int slot)
{
    cairo_t *cr = cairo_create(b->image);
    cairo_set_source_surface(cr, b->kept[slot], 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
}

static cairo_t *open_on_image(void *data, graph_part part, double x,
                              double y, double w, double h, const void *key,
                              size_t size)
{
    bands_on_image *b = data;
    assert_true(part < GRAPH_PARTS && w > 0 && h > 0 && x >= 0 && y >= 0 &&
                x + w <= WIDTH && y + h <= HEIGHT);
    assert_int_equal(b->open, 0);
    int slot = kept_slot(part);
    b->open++;
    if (slot < 0)
    {
        assert_null(key);
        b->drawn[part]++;
        return cairo_create(b->image);
    }
    assert_true(size <= sizeof(b->key[slot]));
    if (size > b->largest[slot])
        b->largest[slot] = size;
    if (b->kept[slot] && size == b->size[slot] &&
        memcmp(key, b->key[slot], size) == 0)
    {
        replay(b, slot);
        b->open--;
        return NULL;
    }
    memcpy(b->key[slot], key, size);
    b->size[slot] = size;
    b->drawn[part]++;
    if (b->kept[slot])
        cairo_surface_destroy(b->kept[slot]);
    b->kept[slot] = cairo_recording_surface_create(
        CAIRO_CONTENT_COLOR_ALPHA, &(cairo_rectangle_t) { x, y, w, h });
    return cairo_create(b->kept[slot]);
}

static void close_on_image(void *data, graph_part part, cairo_t *cr)
{
    bands_on_image *b = data;
    assert_int_equal(b->open, 1);
    assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
    cairo_destroy(cr);
    b->open--;
    int slot = kept_slot(part);
    if (slot >= 0)
        replay(b, slot);
}

static void bands_free(bands_on_image *b)
{
    for (unsigned slot = 0; slot < GRAPH_PARTS_KEPT; slot++)
        if (b->kept[slot])
            cairo_surface_destroy(b->kept[slot]);
}

typedef struct run
{
    unsigned frames, whole, differing;
    unsigned long legends;              /* drawn, not kept */
    unsigned long layouts;              /* laid out, not kept */
    unsigned long columns;              /* drawn by scrolled frames */
    unsigned long decimated, tracks;    /* track columns: all frames */
} run;

/* Draw the scene at time 'now' both ways and compare; in two bands if
 * 'bands' (their data a bands_on_image on 'drawn'). */
static void frame(scene *s, graph_retained *r, double now, run *totals,
                  cairo_surface_t *drawn, cairo_surface_t *whole,
                  const graph_bands *bands)
{
    feed(s, now, s->model.values.mode == SCOPE_SCALE_SHARED ? 10 : 4);
    /* The legend's numbers, refreshed every 10 frames as the window
     * does a few times a second. */
    if (totals->frames % 10 == 0)
        for (unsigned c = 0; c < CHANNELS; c++)
        {
            s->legend_values[c] = s->series[c]->latest_value;
            s->legend_intervals[c] = s->series[c]->latest_interval;
        }
    double columns = graph_plot_width(&s->model, WIDTH);
    s->model.view_end =
        s->filling ? graph_retained_filling_end(s->filling_from, SPAN, columns)
                   : graph_retained_live_end(now, SPAN, columns);

    cairo_t *cr = cairo_create(drawn);
    graph_retained_set_bands(r, bands);
    if (bands)
    {
        cairo_set_source_rgb(cr, 1, 0, 1);
        cairo_paint(cr);
        /* The frame's cr only measures: a recording, as GTK's nodes. */
        cairo_surface_t *measure = cairo_recording_surface_create(
            CAIRO_CONTENT_COLOR_ALPHA, &(cairo_rectangle_t) { 0, 0, 1, 1 });
        cairo_destroy(cr);
        cr = cairo_create(measure);
        cairo_surface_destroy(measure);
    }
    graph_retained_draw(r, cr, WIDTH, HEIGHT, &s->model, NULL);
    assert_int_equal(cairo_status(cr), CAIRO_STATUS_SUCCESS);
    cairo_destroy(cr);
    if (bands)
        assert_int_equal(((bands_on_image *) bands->data)->open, 0);
    cr = cairo_create(whole);
    graph_retained_reference(r, cr, WIDTH, HEIGHT, &s->model);
    cairo_destroy(cr);

    /* What a whole decimation of the frame would take. */
    unsigned views = s->model.views, tracks = 0;
    for (unsigned c = 0; c < CHANNELS; c++)
        if (!s->hidden[c])
            tracks += !!(views & SCOPE_VIEW_NORMAL) +
                      !!(views & SCOPE_VIEW_AVERAGE) +
                      2 * !!(views & SCOPE_VIEW_MINMAX) +
                      !!(views & SCOPE_VIEW_TIMING);
    totals->tracks += tracks * (unsigned long) (columns + 2 +
                                                GRAPH_MARGIN_COLUMNS);
    totals->decimated = graph_retained_decimated(r);
    totals->legends = graph_retained_legends(r);
    totals->layouts = graph_retained_layouts(r);
    if (!totals->frames && !s->filling) /* the first: every column */
        assert_int_equal(totals->decimated, totals->tracks);

    bool was_whole;
    unsigned drawn_columns = graph_retained_drawn(r, &was_whole);
    totals->frames++;
    if (was_whole)
        totals->whole++;
    else
        totals->columns += drawn_columns;
    if (differences(drawn, whole, totals->frames))
        totals->differing++;
}

/* A live view scrolling over 4 s of data, with what redraws whole on the
 * way: a marker in the past, a channel hidden and shown, a louder
 * signal, samples dropped, a jump of more than the plot's width. */
static void scroll(unsigned views, scope_scale_mode mode, run *totals,
                   bands_on_image *in_bands)
{
    scene s;
    scene_init(&s, views);
    s.model.values.mode = mode;
    graph_retained *r = graph_retained_new();
    assert_non_null(r);
    cairo_surface_t *drawn = blank(), *whole = blank();
    graph_bands bands = { .data = in_bands, .open = open_on_image,
                          .close = close_on_image };
    if (in_bands)
        in_bands->image = drawn;

    double now = 1.0;
    for (unsigned f = 0; f < 200; f++)
    {
        /* Not a whole number of columns per frame, as a real clock. */
        now += 0.0213 + 0.004 * (f % 3);
        if (f == 40)
            scope_markers_add(s.markers, SCOPE_MARKER_COMMAND, now - 0.01,
                              "new, at the right edge");
        if (f == 60)
            s.model.trigger_time = now - 1.0;
        if (f == 80)
            scope_markers_add(s.markers, SCOPE_MARKER_RECORD, now - 2.0,
                              "in the past");
        if (f == 100 || f == 101)
            s.hidden[1] = !s.hidden[1];
        if (f == 120)
            s.model.values.mode = mode;  /* unchanged: no redraw */
        if (f == 140)
            for (unsigned c = 0; c < CHANNELS; c++)
                scope_series_trim(s.series[c], now - 3.0, 0);
        if (f == 160)
            now += 1.3 * SPAN;
        frame(&s, r, now, totals, drawn, whole, in_bands ? &bands : NULL);
    }

    keep_png(drawn, mode == SCOPE_SCALE_SHARED ? "last-shared" : "last-lanes");
    cairo_surface_destroy(drawn);
    cairo_surface_destroy(whole);
    graph_retained_delete(r);
    scene_free(&s);
}

static void expect_scrolled(const run *totals)
{
    print_message("%u frames, %u drawn whole, %lu columns drawn by the "
                  "others, %u differing\n", totals->frames, totals->whole,
                  totals->columns, totals->differing);
    assert_int_equal(totals->differing, 0);
    /* Most frames scrolled, and drew a few tiles each (the late channel
     * changes 46 columns back, tiles are 16 wide): less than a fifth of
     * the 772 columns a whole frame draws. */
    assert_true(totals->whole <= totals->frames / 5);
    assert_true(totals->columns <
                150ul * (totals->frames - totals->whole));
    /* And decimated the columns new samples fell in, not all of them:
     * frames drawn whole for new ranges keep their columns too. */
    print_message("%lu track columns decimated of %lu\n", totals->decimated,
                  totals->tracks);
    assert_true(totals->decimated < totals->tracks / 10);
    /* The legend was drawn when its numbers or ranges changed, its kept
     * image painted the other times. */
    print_message("%lu legends drawn\n", totals->legends);
    assert_true(totals->legends < totals->frames / 3);
    /* And laid out (its texts made and measured) only then too: the same
     * pixels (above) from the layout kept. */
    print_message("%lu legends laid out\n", totals->layouts);
    assert_true(totals->layouts <= totals->legends);
}

static void test_scrolled_plot_equals_whole_frame(void **state)
{
    (void) state;
    run totals = { 0 };
    scroll(SCOPE_VIEW_NORMAL | SCOPE_VIEW_TIMING | SCOPE_VIEW_AVERAGE |
           SCOPE_VIEW_MINMAX, SCOPE_SCALE_SHARED, &totals, NULL);
    expect_scrolled(&totals);
}

/* In two bands, as the window draws a frame with nothing over its plot:
 * the same pixels, though the title line and legend were drawn only when
 * they changed (a band kept when it should not be would show the old
 * legend values and differ from the whole frame). */
static void test_bands_equal_whole_frame_and_keep_the_top(void **state)
{
    (void) state;
    run totals = { 0 };
    static bands_on_image bands;
    scroll(SCOPE_VIEW_NORMAL | SCOPE_VIEW_TIMING | SCOPE_VIEW_AVERAGE |
           SCOPE_VIEW_MINMAX, SCOPE_SCALE_SHARED, &totals, &bands);
    /* The top band, kept while it shows the same, holds the legend's
     * text itself, not an image of it: the legend is drawn when the band
     * is. */
    assert_int_equal(totals.legends, 0);
    totals.legends = bands.drawn[GRAPH_PART_TOP];
    expect_scrolled(&totals);
    const unsigned *drawn = bands.drawn;
    print_message("%u top bands drawn, %u around the plot (left), %u "
                  "plots, %u whole\n",
                  drawn[GRAPH_PART_TOP], drawn[GRAPH_PART_LEFT],
                  drawn[GRAPH_PART_PLOT], drawn[GRAPH_PART_REST]);
    assert_true(drawn[GRAPH_PART_TOP] >= 2 &&
                drawn[GRAPH_PART_TOP] < totals.frames / 3);
    /* The plot's surroundings are kept while the ranges are, and every
     * frame draws the plot with the time axis under it (its tiles hold
     * it), no more. */
    for (graph_part part = GRAPH_PART_ABOVE; part <= GRAPH_PART_BELOW;
         part++)
        assert_true(drawn[part] >= 2 && drawn[part] < totals.frames / 3);
    assert_int_equal(drawn[GRAPH_PART_PLOT], totals.frames);
    assert_int_equal(drawn[GRAPH_PART_REST], 0);
    /* Every frame compares the top band's key with the last one's: the
     * legend in it by its layout's stamp, not by the bytes of its entries
     * (352 bytes each, two a channel with the timing view), which were
     * mostly read from memory at every frame. */
    print_message("top band key: %zu bytes at most\n",
                  bands.largest[GRAPH_PART_TOP]);
    assert_true(bands.largest[GRAPH_PART_TOP] < 512);
    bands_free(&bands);
}

static void test_scrolled_lanes_equal_whole_frame(void **state)
{
    (void) state;
    run totals = { 0 };
    scroll(SCOPE_VIEW_NORMAL, SCOPE_SCALE_LANES, &totals, NULL);
    expect_scrolled(&totals);
}

/* ---- on a HiDPI screen ----------------------------------------------------- */

/* GTK records a frame in user units and replays it at the screen's scale:
 * 'draw' drawn so, on an image of SCALE pixels per unit. */
#define SCALE   2

static cairo_surface_t *replayed(void (*draw)(cairo_t *cr, void *data),
                                 void *data)
{
    cairo_surface_t *recording = cairo_recording_surface_create(
        CAIRO_CONTENT_COLOR_ALPHA,
        &(cairo_rectangle_t) { 0, 0, WIDTH, HEIGHT });
    cairo_t *cr = cairo_create(recording);
    draw(cr, data);
    cairo_destroy(cr);
    cairo_surface_t *out = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                                      SCALE * WIDTH,
                                                      SCALE * HEIGHT);
    cairo_surface_set_device_scale(out, SCALE, SCALE);
    cr = cairo_create(out);
    cairo_set_source_surface(cr, recording, 0, 0);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_destroy(recording);
    cairo_surface_flush(out);
    return out;
}

typedef struct hidpi
{
    scene *         s;
    graph_retained *r;
    graph_frame     frame;
} hidpi;

static void draw_retained(cairo_t *cr, void *data)
{
    hidpi *h = data;
    graph_retained_draw(h->r, cr, WIDTH, HEIGHT, &h->s->model, &h->frame);
}

static void draw_reference(cairo_t *cr, void *data)
{
    hidpi *h = data;
    graph_retained_reference(h->r, cr, WIDTH, HEIGHT, &h->s->model);
}

/* Pixels in [x0, x1) x [y0, y1) of two pictures of the same size whose
 * colours differ by more than 'levels' in a channel; 'differing' counts
 * those that differ at all. */
static unsigned far_apart(cairo_surface_t *a, cairo_surface_t *b, int x0,
                          int y0, int x1, int y1, unsigned levels,
                          unsigned *differing)
{
    const unsigned char *pa = cairo_image_surface_get_data(a);
    const unsigned char *pb = cairo_image_surface_get_data(b);
    int stride = cairo_image_surface_get_stride(a);
    unsigned far = 0;
    *differing = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
        {
            const unsigned char *ca = pa + y * stride + 4 * x;
            const unsigned char *cb = pb + y * stride + 4 * x;
            unsigned most = 0;
            for (int k = 0; k < 3; k++)
            {
                unsigned d = (unsigned) abs(ca[k] - cb[k]);
                if (d > most)
                    most = d;
            }
            *differing += most > 0;
            far += most > levels;
        }
    return far;
}

/* At 2 pixels per unit, scrolled frames still equal whole ones, whose
 * legend is drawn in place, not kept; and the plot's kept tiles are drawn
 * at that scale: as sharp as a plot drawn directly on the screen's pixels,
 * but for the antialiasing of tiles drawn apart. Kept at one pixel per
 * unit and enlarged, lines and text would blur. */
static void test_hidpi_frames_are_drawn_at_its_scale(void **state)
{
    (void) state;
    scene s;
    scene_init(&s, SCOPE_VIEW_NORMAL | SCOPE_VIEW_TIMING);
    graph_retained *r = graph_retained_new();
    assert_non_null(r);
    graph_retained_set_scale(r, SCALE);
    hidpi h = { .s = &s, .r = r };
    double now = 1.0;
    for (unsigned f = 0; f < 40; f++)
    {
        now += 0.0213 + 0.004 * (f % 3);
        feed(&s, now, 10);
        if (f % 10 == 0)
            for (unsigned c = 0; c < CHANNELS; c++)
                s.legend_values[c] = s.series[c]->latest_value;
        s.model.view_end = graph_retained_live_end(
            now, SPAN, graph_plot_width(&s.model, WIDTH));
        cairo_surface_t *drawn = replayed(draw_retained, &h);
        cairo_surface_t *whole = replayed(draw_reference, &h);
        unsigned differing;
        assert_int_equal(far_apart(drawn, whole, 0, 0, SCALE * WIDTH,
                                   SCALE * HEIGHT, 0, &differing), 0);
        if (f < 39)
        {
            cairo_surface_destroy(drawn);
            cairo_surface_destroy(whole);
            continue;
        }
        /* Directly on the screen's pixels: no kept image, no tiles (its
         * text takes other advances: the plot alone compares). */
        cairo_surface_t *direct = cairo_image_surface_create(
            CAIRO_FORMAT_RGB24, SCALE * WIDTH, SCALE * HEIGHT);
        cairo_surface_set_device_scale(direct, SCALE, SCALE);
        cairo_t *cr = cairo_create(direct);
        graph_retained_reference(r, cr, WIDTH, HEIGHT, &s.model);
        cairo_destroy(cr);
        cairo_surface_flush(direct);
        const graph_frame *p = &h.frame;
        unsigned far = far_apart(drawn, direct, SCALE * (int) p->x,
                                 SCALE * (int) p->y,
                                 SCALE * (int) (p->x + p->w),
                                 SCALE * (int) (p->y + p->h), 8, &differing);
        print_message("at %dx: %u plot pixels differ from a direct frame, "
                      "%u by more than 8 levels\n", SCALE, differing, far);
        keep_png(drawn, "hidpi-kept");
        keep_png(direct, "hidpi-direct");
        assert_true(far < 50);
        cairo_surface_destroy(direct);
        cairo_surface_destroy(drawn);
        cairo_surface_destroy(whole);
    }
    graph_retained_delete(r);
    scene_free(&s);
}

/* A span still filling from its first sample (off a column) stands on a
 * whole column too: its plot is kept and only new columns drawn, as when
 * it scrolls, and the frames are those drawn whole. (With its left edge
 * on the sample itself, every frame was drawn whole: a 16-channel window
 * took 23% of a core for its first 10 s instead of 7%.) */
static void test_filling_span_is_kept_and_equals_whole_frame(void **state)
{
    (void) state;
    scene s;
    scene_init(&s, SCOPE_VIEW_NORMAL | SCOPE_VIEW_TIMING);
    s.filling = true;
    s.filling_from = 0.0137;
    graph_retained *r = graph_retained_new();
    assert_non_null(r);
    cairo_surface_t *drawn = blank(), *whole = blank();
    run totals = { 0 };
    for (double now = 0.05; now < SPAN - 0.5; now += 0.0213)
        frame(&s, r, now, &totals, drawn, whole, NULL);
    print_message("%u frames filling, %u drawn whole, %lu columns drawn by "
                  "the others, %u differing\n", totals.frames, totals.whole,
                  totals.columns, totals.differing);
    assert_int_equal(totals.differing, 0);
    /* Whole when the ranges grow with the data (a tenth of the frames
     * here); the others draw the tiles of the new samples, not the empty
     * plot right of them (about 80 columns of 772). */
    assert_true(totals.whole <= totals.frames / 10);
    assert_true(totals.columns < 120ul * (totals.frames - totals.whole));

    /* The left edge: a whole column, within a column before the sample. */
    double columns = graph_plot_width(&s.model, WIDTH), column = SPAN / columns;
    double left = graph_retained_filling_end(s.filling_from, SPAN, columns) -
                  SPAN;
    assert_true(left <= s.filling_from && s.filling_from - left < column);
    assert_true(fabs(left / column - round(left / column)) < 1e-6);
    cairo_surface_destroy(drawn);
    cairo_surface_destroy(whole);
    graph_retained_delete(r);
    scene_free(&s);
}

/* One channel alone, each frame drawn retained and whole. */
typedef struct lone_scene
{
    scope_series *series[1];
    double legend_values[1], legend_intervals[1];
    graph_model model;
    graph_retained *r;
    cairo_surface_t *drawn, *whole;
    double columns;
    unsigned frames, wholes, differing;
} lone_scene;

static void lone_init(lone_scene *s, const char *title, unsigned views)
{
    memset(s, 0, sizeof(*s));
    s->series[0] = test_series(title, 0, 0, 0, 0, 0);
    s->legend_values[0] = s->legend_intervals[0] = NAN;
    s->model = (graph_model) {
        .title = title, .series = s->series, .series_count = 1,
        .views = views, .duration = SPAN, .max_samples = -1,
        .legend_values = s->legend_values,
        .legend_intervals = s->legend_intervals,
    };
    s->r = graph_retained_new();
    assert_non_null(s->r);
    s->drawn = blank();
    s->whole = blank();
    s->columns = graph_plot_width(&s->model, WIDTH);
}

/* A live frame ending at 'end': the columns it drew, and whether all. */
static unsigned lone_frame(lone_scene *s, double end, bool *was_whole)
{
    s->model.view_end = graph_retained_live_end(end, SPAN, s->columns);
    cairo_t *cr = cairo_create(s->drawn);
    graph_retained_draw(s->r, cr, WIDTH, HEIGHT, &s->model, NULL);
    cairo_destroy(cr);
    cr = cairo_create(s->whole);
    graph_retained_reference(s->r, cr, WIDTH, HEIGHT, &s->model);
    cairo_destroy(cr);
    unsigned count = graph_retained_drawn(s->r, was_whole);
    s->frames++;
    s->wholes += *was_whole;
    s->differing += differences(s->drawn, s->whole, s->frames) != 0;
    return count;
}

static void lone_free(lone_scene *s)
{
    cairo_surface_destroy(s->drawn);
    cairo_surface_destroy(s->whole);
    graph_retained_delete(s->r);
    test_series_delete(s->series[0]);
}

/* A counter rising through the view: its range grows with room to grow
 * into (GRAPH_RETAINED_ROOM), so the plot is drawn whole every so often,
 * not at each tick step the count passes; each frame is still the one
 * drawn whole with the same range. */
static void test_rising_counter_is_seldom_drawn_whole(void **state)
{
    (void) state;
    lone_scene s;
    lone_init(&s, "count", SCOPE_VIEW_NORMAL);
    double t = 0;
    for (double now = 1.0; now < 3 * SPAN; now += 0.0213)
    {
        for (; t <= now; t += 0.001)
            scope_series_append(s.series[0], t, 1700 * t);
        bool was_whole;
        lone_frame(&s, now, &was_whole);
    }
    print_message("%u frames of a rising count, %u drawn whole, %u "
                  "differing\n", s.frames, s.wholes, s.differing);
    assert_int_equal(s.differing, 0);
    /* The count rises by a fifth of its span in view each second, and
     * the range fitted to it, rounded to ticks, is a tick step shorter at
     * times: 22 whole frames if that shrinks a grown range, as many
     * without room to grow into. */
    assert_true(s.wholes <= 15);
    lone_free(&s);
}

/* A live plot with a sample a column: each frame draws again the columns
 * its one new sample changes, no more. The line to it starts at the
 * centre of the column before, and a trace reaches 1.5 pixels past a
 * centre (a gap dot's radius, a dense column's level end): that column,
 * the one left of it, the new one and the one right of it, 4 in all (6
 * when the reach was counted from a column's edge, as 2 pixels). */
static void test_new_sample_redraws_only_the_columns_it_changes(void **state)
{
    (void) state;
    lone_scene s;
    lone_init(&s, "wave", SCOPE_VIEW_NORMAL | SCOPE_VIEW_TIMING);
    double step = SPAN / s.columns;
    unsigned four = 0, more = 0;
    /* Up to the span full, then a frame a sample. */
    for (unsigned k = 0; k < 2 * (unsigned) s.columns; k++)
    {
        /* Irregular times in each column: steep timing dashes and dots. */
        double t = (k + 0.2 + 0.6 * ((k * 7) % 11) / 10.0) * step;
        scope_series_append(s.series[0], t,
                            sin(k / 9.0) + 0.3 * ((k * 5) % 3));
        if (k < (unsigned) s.columns)
            continue;
        bool was_whole;
        unsigned count = lone_frame(&s, t, &was_whole);
        if (was_whole)
            continue;
        four += count == 4;
        /* 3 when the next column is in a tile not yet held (drawn with
         * it); 16 more in a frame that adds a tile. */
        more += count > 4 && count < 16;
    }
    print_message("%u frames a sample each, %u drew 4 columns, %u more "
                  "without a new tile, %u differing\n", s.frames, four,
                  more, s.differing);
    assert_int_equal(s.differing, 0);
    assert_int_equal(more, 0);
    assert_true(four >= s.frames * 3 / 4);
    lone_free(&s);
}

/* The live end lands on a whole column, never before the data. */
static void test_live_end_is_a_whole_column(void **state)
{
    (void) state;
    double column = SPAN / 800;
    for (double end = 3.0; end < 3.1; end += 0.00137)
    {
        double snapped = graph_retained_live_end(end, SPAN, 800);
        assert_true(snapped >= end);
        assert_true(snapped - end < column);
        double whole = snapped / column;
        assert_true(fabs(whole - round(whole)) < 1e-6);
    }
    assert_true(isnan(graph_retained_live_end(NAN, SPAN, 800)));
    assert_true(graph_retained_live_end(2.5, 0, 800) == 2.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scrolled_plot_equals_whole_frame),
        cmocka_unit_test(test_scrolled_lanes_equal_whole_frame),
        cmocka_unit_test(test_bands_equal_whole_frame_and_keep_the_top),
        cmocka_unit_test(test_hidpi_frames_are_drawn_at_its_scale),
        cmocka_unit_test(test_filling_span_is_kept_and_equals_whole_frame),
        cmocka_unit_test(test_rising_counter_is_seldom_drawn_whole),
        cmocka_unit_test(test_new_sample_redraws_only_the_columns_it_changes),
        cmocka_unit_test(test_live_end_is_a_whole_column),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
