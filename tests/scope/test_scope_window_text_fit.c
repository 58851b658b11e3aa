/* test_scope_window_text_fit.c - at the default 900 pixels, the window's
 * status line and title show their information uncut, measured with the
 * fonts GTK lays them out in. Needs a display: with SCOPE_TEST_DISPLAY=1
 * (check-scope-first-look.sh, under Xvfb); skipped without. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "window/status_line.h"
#include "window/still_bin.h"
#include "window/window_chrome.h"
#include "options/scope_options.h"
#include "view/status_text.h"
#include "view/window_title.h"

#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

#define LONG_DIRECTORY  "/home/someone/recordings/of/the/perfdata/example/" \
                        "kept/for/a/week/on/this/machine/"
#define SEGMENT_NAME    "perfdata_transfers_segment"

/* Run GTK until the window has laid 'widget' out. */
static void settle(GtkWidget *widget)
{
    for (int i = 0; i < 200 && gtk_widget_get_width(widget) <= 0; i++)
        g_main_context_iteration(NULL, FALSE), g_usleep(5000);
    for (int i = 0; i < 50; i++)
        g_main_context_iteration(NULL, FALSE);
}

/* A window of the default width with the scope's header bar and status
 * line, as scope_app.c builds them; the test skipped without a display. */
typedef struct window
{
    GtkWidget *window, *bar, *status;
} window;

static void window_open(window *w)
{
    if (!getenv("SCOPE_TEST_DISPLAY"))
        skip();
    assert_true(gtk_init_check());
    w->window = gtk_window_new();
    gtk_window_set_default_size(GTK_WINDOW(w->window), SCOPE_DEFAULT_WIDTH,
                                300);
    w->bar = scope_header_bar_new();
    scope_still_bin_set_titlebar(GTK_WINDOW(w->window), w->bar);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4);
    GtkWidget *graphs = gtk_drawing_area_new();
    gtk_widget_set_vexpand(graphs, TRUE);
    gtk_box_append(GTK_BOX(box), graphs);
    w->status = scope_status_line_new();
    gtk_box_append(GTK_BOX(box), scope_still_bin_new(w->status));
    gtk_window_set_child(GTK_WINDOW(w->window), box);
    gtk_window_present(GTK_WINDOW(w->window));
    settle(w->status);
}

static bool cut(GtkWidget *label)
{
    return pango_layout_is_ellipsized(gtk_label_get_layout(GTK_LABEL(label)));
}

/* A save into a long directory, paused, the readout of two channels
 * between two cursors: today's line runs past 900 pixels. */
static void test_status_line_is_not_cut(void **state)
{
    (void) state;
    window w;
    window_open(&w);
    int width = gtk_widget_get_width(w.status);
    assert_true(width > SCOPE_DEFAULT_WIDTH - 40);

    char action[600], readout[600], full[2048];
    scope_saved_text(action, sizeof(action), LONG_DIRECTORY "perfdata-", 12,
                     true, true, 4000, NULL);
    scope_status_readout_line(
        "t 11.831443 s\nbytes     326.385 Mbytes\n"
        "loops      12.122 kiterations\ndt    3.451 s  1/dt  289.751 mHz\n"
        "bytes A  186.786 Mbytes  B  283.159 Mbytes  delta   96.373 Mbytes\n"
        "loops A    5.426 kiterations  B    8.288 kiterations  delta    "
        "2.862 kiterations\n", readout, sizeof(readout));
    scope_status_parts parts = {
        .action = action, .paused = true, .from = 3.2, .to = 13.2,
        .readout = readout,
    };
    /* Today's: all of it in the label, which GTK cuts at its end. */
    scope_status_full(full, sizeof(full), &parts);
    gtk_label_set_text(GTK_LABEL(w.status), full);
    settle(w.status);
    assert_true(cut(w.status));

    scope_status_line_show(w.status, &parts, full, sizeof(full));
    settle(w.status);
    const char *shown = gtk_label_get_text(GTK_LABEL(w.status));
    if (cut(w.status))
        fail_msg("the status line is cut: %s", shown);
    int text_width;
    pango_layout_get_pixel_size(gtk_label_get_layout(GTK_LABEL(w.status)),
                                &text_width, NULL);
    assert_true(text_width <= gtk_widget_get_width(w.status));
    assert_non_null(strstr(shown, "saved perfdata-12.png and "
                                  "perfdata-12.csv (4000 rows) in /home/"));
    assert_non_null(strstr(shown, "paused 3.2–13.2 s"));
    assert_non_null(strstr(shown, "t 11.831443 s"));
    /* All of it on hover. */
    assert_string_equal(gtk_widget_get_tooltip_text(w.status), full);
    gtk_window_destroy(GTK_WINDOW(w.window));
}

static GtkWidget *title_part(GtkWidget *bar, const char *key)
{
    GtkWidget *label = g_object_get_data(G_OBJECT(bar), key);
    assert_non_null(label);
    return label;
}

/* The label under 'widget' that shows 'text', or NULL. */
static GtkWidget *label_showing(GtkWidget *widget, const char *text)
{
    if (GTK_IS_LABEL(widget) &&
        strcmp(gtk_label_get_text(GTK_LABEL(widget)), text) == 0)
        return widget;
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child;
         child = gtk_widget_get_next_sibling(child))
    {
        GtkWidget *found = label_showing(child, text);
        if (found)
            return found;
    }
    return NULL;
}

/* A long segment path: the program, its pid and the segment's name stay
 * whole; its directory loses its middle; the tooltip has all. */
static void test_title_is_not_cut(void **state)
{
    (void) state;
    window w;
    window_open(&w);
    char title[512], heading[96];
    const char *path = LONG_DIRECTORY SEGMENT_NAME;
    scope_window_title(title, sizeof(title), path, "perfdata", 4194304);
    scope_window_heading(heading, sizeof(heading), "perfdata", 4194304);
    gtk_window_set_title(GTK_WINDOW(w.window), title);
    /* Today's: the bar's own title label, all of it on one line, which
     * GTK cuts at its end: the segment's name is lost. */
    GtkWidget *bar_title = g_object_ref(gtk_header_bar_get_title_widget(
        GTK_HEADER_BAR(w.bar)));
    gtk_header_bar_set_title_widget(GTK_HEADER_BAR(w.bar), NULL);
    settle(w.bar);
    GtkWidget *own = label_showing(w.bar, title);
    assert_non_null(own);
    settle(own);
    assert_true(cut(own));
    gtk_header_bar_set_title_widget(GTK_HEADER_BAR(w.bar), bar_title);
    g_object_unref(bar_title);

    scope_header_bar_set_title(w.bar, heading, path, title);
    GtkWidget *top = title_part(w.bar, SCOPE_TITLE_HEADING);
    GtkWidget *name = title_part(w.bar, SCOPE_TITLE_NAME);
    GtkWidget *directory = title_part(w.bar, SCOPE_TITLE_DIRECTORY);
    settle(directory);
    assert_string_equal(gtk_label_get_text(GTK_LABEL(top)),
                        "perfdata[4194304]");
    assert_false(cut(top));
    assert_string_equal(gtk_label_get_text(GTK_LABEL(name)), SEGMENT_NAME);
    assert_false(cut(name));
    assert_string_equal(gtk_label_get_text(GTK_LABEL(directory)),
                        LONG_DIRECTORY);
    /* Too long for the bar at 900 pixels: cut, in its middle. */
    assert_true(cut(directory));
    assert_int_equal(gtk_label_get_ellipsize(GTK_LABEL(directory)),
                     PANGO_ELLIPSIZE_MIDDLE);
    /* Within the window, not pushed out of it. */
    graphene_rect_t where;
    assert_true(gtk_widget_compute_bounds(name, w.window, &where));
    assert_true(where.origin.x + where.size.width <= SCOPE_DEFAULT_WIDTH);
    GtkWidget *box = gtk_header_bar_get_title_widget(GTK_HEADER_BAR(w.bar));
    assert_string_equal(gtk_widget_get_tooltip_text(box), title);
    gtk_window_destroy(GTK_WINDOW(w.window));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_status_line_is_not_cut),
        cmocka_unit_test(test_title_is_not_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
