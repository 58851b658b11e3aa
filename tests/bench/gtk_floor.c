/* gtk_floor.c - what GTK itself costs to show a scrolling plot: the
 * reference the scope window's CPU is measured against.
 *
 *   gtk_floor WIDTHxHEIGHT AREAS FPS SLIDERS
 *
 * A window laid out as the scope's (header bar, AREAS plot areas of
 * WIDTHxHEIGHT each, the size --trace-view says the scope's graphs have,
 * SLIDERS slider rows, a status line), drawn with the renderer the scope
 * picks (renderer_choice.c: cairo where GL is software), whose areas each
 * paint a kept image, shifted by a pixel more each frame, FPS times a
 * second: no data read, nothing drawn but that image. The header bar,
 * sliders and status line are in still bins (still_bin.c), as the
 * scope's are: with the cairo renderer, drawn once instead of at every
 * frame. What this takes is GTK's own work for a frame of that window
 * (render nodes, the renderer's repaint of the changed area, the copy to
 * the X server), which no drawing of the scope's can avoid. Prints
 * "renderer: NAME" and "size: area N: WxH" once shown, as the scope's
 * --trace-view does, and "frames: N" each second.
 */
#include "window/renderer_choice.h"
#include "window/still_bin.h"

#include <gtk/gtk.h>

#include <math.h>
#include <stdio.h>

#define SCROLL_PERIOD   64              /* columns the image scrolls over */

#define FLOOR_TYPE_AREA (floor_area_get_type())
G_DECLARE_FINAL_TYPE(FloorArea, floor_area, FLOOR, AREA, GtkWidget)

struct _FloorArea
{
    GtkWidget        parent;
    cairo_surface_t *image;             /* the plot, made at first frame */
    unsigned         shift;             /* columns scrolled */
};

G_DEFINE_TYPE(FloorArea, floor_area, GTK_TYPE_WIDGET)

/* A dark plot with a bright trace, wider than the area by the scroll. */
static cairo_surface_t *make_image(int width, int height)
{
    cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_RGB24,
                                                        width, height);
    cairo_t *cr = cairo_create(image);
    cairo_set_source_rgb(cr, 0.08, 0.09, 0.11);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0.95, 0.75, 0.2);
    cairo_set_line_width(cr, 2);
    for (int x = 0; x < width; x++)
        cairo_line_to(cr, x, height * (0.5 + 0.4 * sin(x * 0.05)));
    cairo_stroke(cr);
    cairo_destroy(cr);
    return image;
}

static void floor_area_snapshot(GtkWidget *widget, GtkSnapshot *snapshot)
{
    FloorArea *area = FLOOR_AREA(widget);
    int width = gtk_widget_get_width(widget);
    int height = gtk_widget_get_height(widget);
    if (width <= 0 || height <= 0)
        return;
    if (!area->image ||
        cairo_image_surface_get_height(area->image) != height ||
        cairo_image_surface_get_width(area->image) < width + SCROLL_PERIOD)
    {
        if (area->image)
            cairo_surface_destroy(area->image);
        area->image = make_image(width + SCROLL_PERIOD, height);
    }
    cairo_t *cr = gtk_snapshot_append_cairo(snapshot,
                                            &GRAPHENE_RECT_INIT(0, 0, width,
                                                                height));
    cairo_set_source_surface(cr, area->image,
                             -(double) (area->shift++ % SCROLL_PERIOD), 0);
    cairo_paint(cr);
    cairo_destroy(cr);
}

static void floor_area_dispose(GObject *object)
{
    FloorArea *area = FLOOR_AREA(object);
    if (area->image)
    {
        cairo_surface_destroy(area->image);
        area->image = NULL;
    }
    G_OBJECT_CLASS(floor_area_parent_class)->dispose(object);
}

static void floor_area_class_init(FloorAreaClass *klass)
{
    GTK_WIDGET_CLASS(klass)->snapshot = floor_area_snapshot;
    G_OBJECT_CLASS(klass)->dispose = floor_area_dispose;
}

static void floor_area_init(FloorArea *area)
{
    (void) area;
}

typedef struct floor_run
{
    int        width, height;           /* of each area */
    unsigned   count, sliders;
    GtkWidget *window;
    bool       told;                    /* renderer and sizes */
    double     interval;                /* seconds between frames */
    GtkWidget *areas[16];
    gint64     due;                     /* frame clock time of the next */
    unsigned   frames;                  /* in the current second */
} floor_run;

static gboolean on_tick(GtkWidget *widget, GdkFrameClock *clock,
                        gpointer data)
{
    (void) widget;
    floor_run *run = data;
    gint64 now = gdk_frame_clock_get_frame_time(clock);
    gint64 interval = (gint64) (run->interval * 1e6);
    /* Frames fall on display ticks: half a tick early is on time, and
     * the schedule, not the last tick, sets the next, so that 40 a
     * second at 60 ticks a second is 40, not 30. */
    if (now < run->due - 8000)
        return G_SOURCE_CONTINUE;
    run->due = now - run->due > interval ? now + interval
                                         : run->due + interval;
    run->frames++;
    for (unsigned a = 0; a < run->count; a++)
        gtk_widget_queue_draw(run->areas[a]);
    return G_SOURCE_CONTINUE;
}

/* What the bench compares with the scope's --trace-view. */
static void tell_layout(floor_run *run)
{
    GskRenderer *renderer = gtk_native_get_renderer(GTK_NATIVE(run->window));
    if (run->told || !renderer)
        return;
    printf("renderer: %s\n", G_OBJECT_TYPE_NAME(renderer));
    for (unsigned a = 0; a < run->count; a++)
        printf("size: area %u: %dx%d\n", a + 1,
               gtk_widget_get_width(run->areas[a]),
               gtk_widget_get_height(run->areas[a]));
    run->told = true;
}

static gboolean on_second(gpointer data)
{
    floor_run *run = data;
    tell_layout(run);
    printf("frames: %u\n", run->frames);
    fflush(stdout);
    run->frames = 0;
    return G_SOURCE_CONTINUE;
}

static void on_activate(GtkApplication *app, gpointer data)
{
    floor_run *run = data;
    scope_renderer_avoid_software_gl(NULL, 0);
    GtkWidget *window = gtk_application_window_new(app);
    run->window = window;
    scope_still_bin_set_titlebar(GTK_WINDOW(window), gtk_header_bar_new());
    gtk_window_set_title(GTK_WINDOW(window), "gtk_floor");
    /* The window takes its children's size: each area the scope's. */
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    for (unsigned a = 0; a < run->count; a++)
    {
        run->areas[a] = g_object_new(FLOOR_TYPE_AREA, NULL);
        gtk_widget_set_size_request(run->areas[a], run->width, run->height);
        gtk_box_append(GTK_BOX(box), run->areas[a]);
    }
    if (run->sliders)
    {
        GtkWidget *sliders = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
        for (unsigned s = 0; s < run->sliders; s++)
            gtk_box_append(GTK_BOX(sliders), gtk_scale_new_with_range(
                               GTK_ORIENTATION_HORIZONTAL, 0, 100, 1));
        gtk_box_append(GTK_BOX(box), scope_still_bin_new(sliders));
    }
    GtkWidget *status = gtk_label_new("status");
    gtk_widget_set_margin_bottom(status, 4);
    gtk_box_append(GTK_BOX(box), scope_still_bin_new(status));
    gtk_window_set_child(GTK_WINDOW(window), box);
    gtk_widget_add_tick_callback(window, on_tick, run, NULL);
    g_timeout_add(1000, on_second, run);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv)
{
    floor_run run = { 0 };
    double fps = 0;
    char extra;
    if (argc != 5 ||
        sscanf(argv[1], "%dx%d%c", &run.width, &run.height, &extra) != 2 ||
        sscanf(argv[2], "%u%c", &run.count, &extra) != 1 ||
        sscanf(argv[3], "%lf%c", &fps, &extra) != 1 ||
        sscanf(argv[4], "%u%c", &run.sliders, &extra) != 1 ||
        run.width < 100 || run.height < 100 || run.count < 1 ||
        run.count > 16 || !(fps > 0 && fps <= 1000) || run.sliders > 16)
    {
        fprintf(stderr, "usage: gtk_floor WIDTHxHEIGHT AREAS FPS SLIDERS "
                        "(each area WIDTHxHEIGHT, at least 100x100; AREAS "
                        "1 to 16, FPS above 0, SLIDERS 0 to 16)\n");
        return 2;
    }
    run.interval = 1 / fps;
    GtkApplication *app = gtk_application_new(NULL,
                                              G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(on_activate), &run);
    char *args[] = { argv[0], NULL };
    int status = g_application_run(G_APPLICATION(app), 1, args);
    g_object_unref(app);
    return status;
}
