/* still_bin.c - a bin whose child is painted as one image between the
 * child's changes. */
#include "window/still_bin.h"

#include <math.h>
#include <stdbool.h>

struct _ScopeStillBin
{
    GtkWidget     parent;
    unsigned long drawn;
};

G_DEFINE_TYPE(ScopeStillBin, scope_still_bin, GTK_TYPE_WIDGET)

/* Other renderers (GL) draw nodes on the GPU: there, an image would
 * only add an upload each time the child changes. */
static bool drawn_with_cairo(GtkWidget *widget)
{
    GtkNative *native = gtk_widget_get_native(widget);
    GskRenderer *renderer = native ? gtk_native_get_renderer(native) : NULL;
    return renderer && GSK_IS_CAIRO_RENDERER(renderer);
}

/* The image of 'node' as the window would draw it, painted at the node's
 * place: its bounds in whole units, at the output's scale, so that its
 * pixels land on the window's one for one. False if out of memory. */
static bool paint_as_image(GtkSnapshot *snapshot, GskRenderNode *node,
                           int scale)
{
    graphene_rect_t bounds;
    gsk_render_node_get_bounds(node, &bounds);
    double x = floor(bounds.origin.x), y = floor(bounds.origin.y);
    double w = ceil(bounds.origin.x + bounds.size.width) - x;
    double h = ceil(bounds.origin.y + bounds.size.height) - y;
    if (!(w >= 1 && h >= 1 && w * scale <= 16384 && h * scale <= 16384))
        return false;
    cairo_surface_t *image = cairo_image_surface_create(
        CAIRO_FORMAT_ARGB32, (int) w * scale, (int) h * scale);
    if (cairo_surface_status(image))
    {
        cairo_surface_destroy(image);
        return false;
    }
    cairo_surface_set_device_scale(image, scale, scale);
    cairo_t *cr = cairo_create(image);
    cairo_translate(cr, -x, -y);
    gsk_render_node_draw(node, cr);
    cairo_destroy(cr);

    cairo_t *out = gtk_snapshot_append_cairo(
        snapshot, &GRAPHENE_RECT_INIT((float) x, (float) y, (float) w,
                                      (float) h));
    cairo_set_source_surface(out, image, x, y);
    cairo_paint(out);
    cairo_destroy(out);
    /* The frame's recording holds its own reference. */
    cairo_surface_destroy(image);
    return true;
}

/* GTK asks for a snapshot when the bin or something in it changed, or
 * moved; between, it reuses the last one, and so the image. */
static void still_bin_snapshot(GtkWidget *widget, GtkSnapshot *snapshot)
{
    ScopeStillBin *bin = SCOPE_STILL_BIN(widget);
    GtkWidget *child = gtk_widget_get_first_child(widget);
    if (!child)
        return;
    if (!drawn_with_cairo(widget))
    {
        gtk_widget_snapshot_child(widget, child, snapshot);
        return;
    }
    GtkSnapshot *own = gtk_snapshot_new();
    gtk_widget_snapshot_child(widget, child, own);
    GskRenderNode *node = gtk_snapshot_free_to_node(own);
    if (!node)
        return;                         /* nothing to draw */
    if (paint_as_image(snapshot, node, gtk_widget_get_scale_factor(widget)))
        bin->drawn++;
    else
        gtk_snapshot_append_node(snapshot, node);
    gsk_render_node_unref(node);
}

static void still_bin_dispose(GObject *object)
{
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(GTK_WIDGET(object))))
        gtk_widget_unparent(child);
    G_OBJECT_CLASS(scope_still_bin_parent_class)->dispose(object);
}

static void scope_still_bin_class_init(ScopeStillBinClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = still_bin_dispose;
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    widget_class->snapshot = still_bin_snapshot;
    gtk_widget_class_set_layout_manager_type(widget_class,
                                             GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_css_name(widget_class, "stillbin");
    /* A container, nameless to assistive technologies, as a box is. */
    gtk_widget_class_set_accessible_role(widget_class,
                                         GTK_ACCESSIBLE_ROLE_GENERIC);
}

static void scope_still_bin_init(ScopeStillBin *bin)
{
    (void) bin;
}

GtkWidget *scope_still_bin_new(GtkWidget *child)
{
    GtkWidget *bin = g_object_new(SCOPE_TYPE_STILL_BIN, NULL);
    gtk_widget_set_parent(child, bin);
    return bin;
}

void scope_still_bin_set_titlebar(GtkWindow *window, GtkWidget *bar)
{
    GtkWidget *bin = scope_still_bin_new(bar);
    gtk_window_set_titlebar(window, bin);
    gtk_widget_remove_css_class(bin, "titlebar");
    gtk_widget_add_css_class(bar, "titlebar");
}

unsigned long scope_still_bin_drawn(ScopeStillBin *bin)
{
    return bin->drawn;
}
