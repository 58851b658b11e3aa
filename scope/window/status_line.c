/* status_line.c - the status line, fitted to its width. */
#include "window/status_line.h"

#include <string.h>

#define MARGIN          8               /* each side of the window */
#define FITTED_WIDTH    "scope-fitted-width"

GtkWidget *scope_status_line_new(void)
{
    GtkWidget *line = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(line), 0);
    /* Fitted to its width already; this only catches a window resized
     * between two fittings. */
    gtk_label_set_ellipsize(GTK_LABEL(line), PANGO_ELLIPSIZE_END);
    gtk_widget_set_margin_start(line, MARGIN);
    gtk_widget_set_margin_end(line, MARGIN);
    gtk_widget_set_margin_bottom(line, 4);
    return line;
}

/* Pixels the line has: its width once laid out, else its window's. */
static int line_width(GtkWidget *line)
{
    int width = gtk_widget_get_width(line);
    if (width > 0)
        return width;
    GtkRoot *root = gtk_widget_get_root(line);
    int window = 0, height;             /* GTK 4.8 fills both */
    if (root && GTK_IS_WINDOW(root))
        gtk_window_get_default_size(GTK_WINDOW(root), &window, &height);
    return window > 2 * MARGIN ? window - 2 * MARGIN : 0;
}

static double measure(const char *text, void *data)
{
    int width;
    pango_layout_set_text(data, text, -1);
    pango_layout_get_pixel_size(data, &width, NULL);
    return width;
}

bool scope_status_line_show(GtkWidget *line, const scope_status_parts *parts,
                            char *full, size_t size)
{
    scope_status_full(full, size, parts);
    int width = line_width(line);
    char fitted[2048];
    if (width > 0)
    {
        PangoLayout *layout = gtk_widget_create_pango_layout(line, NULL);
        scope_status_fit(fitted, sizeof(fitted), parts, width, measure,
                         layout);
        g_object_unref(layout);
    }
    else
        snprintf(fitted, sizeof(fitted), "%s", full);
    g_object_set_data(G_OBJECT(line), FITTED_WIDTH, GINT_TO_POINTER(width));
    if (strcmp(gtk_label_get_text(GTK_LABEL(line)), fitted) != 0)
        gtk_label_set_text(GTK_LABEL(line), fitted);
    const char *tooltip = gtk_widget_get_tooltip_text(line);
    if (strcmp(tooltip ? tooltip : "", full) == 0)
        return false;
    gtk_widget_set_tooltip_text(line, full[0] ? full : NULL);
    return true;
}

bool scope_status_line_resized(GtkWidget *line)
{
    int fitted = GPOINTER_TO_INT(g_object_get_data(G_OBJECT(line),
                                                   FITTED_WIDTH));
    int width = gtk_widget_get_width(line);
    return width > 0 && width != fitted;
}
