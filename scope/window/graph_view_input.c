/* graph_view_input.c - the graph widget and the mouse: the wheel zooms
 * time about the pointer (values with Shift or Ctrl), a drag pans, a drag
 * on the value axis zooms values, a box (right button, or Shift) zooms
 * both and a right click places a cursor, a click on the legend hides a
 * channel, a double click returns to live; hovering gives the readout. */
#include "window/graph_view_private.h"

#include <math.h>
#include <stdbool.h>

#define WHEEL_FACTOR    1.2             /* zoom per wheel notch */
#define CLICK_SLOP      3.0             /* pixels a click may move */

/* ---- mouse -------------------------------------------------------------- */

static bool in_plot(const graph_frame *frame, double x, double y)
{
    return x >= frame->x && x <= frame->x + frame->w && y >= frame->y &&
           y <= frame->y + frame->h;
}

static void on_motion(GtkEventControllerMotion *controller, double x,
                      double y, gpointer data)
{
    (void) controller;
    GraphView *view = data;
    graph_window *w = view->window;
    view->pointer_x = x;
    view->pointer_y = y;
    bool inside = view->has_frame && in_plot(&view->frame, x, y);
    if (!inside && !(w->hovering && w->hovered == view))
        return;
    w->hovering = inside;
    w->hover_x = x;
    w->hovered = view;
    graph_view_compute_readout(view, g_get_monotonic_time() / 1e6);
    graph_view_tell(view, inside ? "readout" : NULL);
}

static void on_leave(GtkEventControllerMotion *controller, gpointer data)
{
    (void) controller;
    GraphView *view = data;
    graph_window *w = view->window;
    if (w->hovered != view)
        return;
    w->hovering = false;
    view->readout[0] = 0;
    graph_view_tell(view, NULL);
}

static gboolean on_scroll(GtkEventControllerScroll *controller, double dx,
                          double dy, gpointer data)
{
    GraphView *view = data;
    if (!view->has_frame)
        return FALSE;
    /* The keys then act on the graph the user just touched. */
    gtk_widget_grab_focus(GTK_WIDGET(view));
    GdkModifierType state = gtk_event_controller_get_current_event_state(
        GTK_EVENT_CONTROLLER(controller));
    double notches = dy != 0 ? dy : dx;
    double factor = pow(WHEEL_FACTOR, notches);
    graph_frame *f = &view->frame;
    if (state & (GDK_SHIFT_MASK | GDK_CONTROL_MASK))
    {
        if (!graph_view_shared_axis(view))
            return TRUE;
        double fraction = 1 - (view->pointer_y - f->y) / f->h;
        double anchor = scope_value_at_fraction(fraction, f->lo, f->hi,
                                                f->log);
        scope_value_view_zoom(&view->values, f->lo, f->hi, factor, anchor);
        graph_view_values_changed(view);
        return TRUE;
    }
    double anchor = graph_view_time_at_x(f, view->pointer_x);
    if (view->pointer_x > f->x + f->w - 1)
        anchor = INFINITY;              /* at the right edge: stay live */
    scope_time_view_zoom(&view->window->time, &view->window->held, factor,
                         anchor);
    graph_view_tell(view, "view");
    return TRUE;
}

static bool in_legend(GraphView *view, double x, double y, unsigned *index)
{
    for (unsigned s = 0; s < view->frame.legend_count; s++)
    {
        const graph_frame *f = &view->frame;
        if (x >= f->legend[s].x && x <= f->legend[s].x + f->legend[s].w &&
            y >= f->legend[s].y && y <= f->legend[s].y + f->legend[s].h)
        {
            *index = s;
            return true;
        }
    }
    return false;
}

static void on_drag_begin(GtkGestureDrag *gesture, double x, double y,
                          gpointer data)
{
    GraphView *view = data;
    unsigned index;
    GdkModifierType state = gtk_event_controller_get_current_event_state(
        GTK_EVENT_CONTROLLER(gesture));
    view->drag_button = gtk_gesture_single_get_current_button(
        GTK_GESTURE_SINGLE(gesture));
    view->drag_shift = (state & GDK_SHIFT_MASK) != 0;
    gtk_widget_grab_focus(GTK_WIDGET(view));
    view->drag_x = x;
    view->drag_y = y;
    view->drag_time = view->window->time;
    view->drag_values = view->values;
    view->drag_frame = view->frame;
    const graph_frame *f = &view->frame;
    if (!view->has_frame)
        view->drag = DRAG_NONE;
    else if (in_legend(view, x, y, &index))
        view->drag = DRAG_LEGEND;
    else if (view->drag_button == GDK_BUTTON_SECONDARY ||
             (view->drag_button == GDK_BUTTON_PRIMARY && view->drag_shift))
        view->drag = in_plot(f, x, y) ? DRAG_BAND : DRAG_NONE;
    else if (x < f->x && y >= f->y && y <= f->y + f->h)
        view->drag = DRAG_VALUE_AXIS;
    else if (in_plot(f, x, y))
        view->drag = DRAG_PAN;
    else
        view->drag = DRAG_NONE;
}

static void on_drag_update(GtkGestureDrag *gesture, double dx, double dy,
                           gpointer data)
{
    (void) gesture;
    GraphView *view = data;
    const graph_frame *f = &view->drag_frame;
    switch (view->drag)
    {
    case DRAG_PAN:
        if (fabs(dx) < CLICK_SLOP && fabs(dy) < CLICK_SLOP)
            return;
        view->window->time = view->drag_time;
        scope_time_view_pan(&view->window->time, &view->window->held,
                            -dx * (f->t1 - f->t0) / f->w);
        if (fabs(dy) > 4 * CLICK_SLOP && f->shared &&
            view->values.mode == SCOPE_SCALE_SHARED)
        {
            view->values = view->drag_values;
            scope_value_view_pan(&view->values, f->lo, f->hi, dy / f->h);
        }
        graph_view_tell(view, NULL);
        break;
    case DRAG_VALUE_AXIS:
        if (!f->shared)
            return;
        view->values = view->drag_values;
        scope_value_view_zoom(&view->values, f->lo, f->hi, exp(dy / 120),
                              scope_value_at_fraction(
                                  1 - (view->drag_y - f->y) / f->h,
                                  f->lo, f->hi, f->log));
        gtk_widget_queue_draw(GTK_WIDGET(view));
        break;
    case DRAG_BAND:
        view->band = fabs(dx) >= CLICK_SLOP || fabs(dy) >= CLICK_SLOP;
        view->band_x1 = fmin(fmax(view->drag_x + dx, f->x), f->x + f->w);
        view->band_y1 = fmin(fmax(view->drag_y + dy, f->y), f->y + f->h);
        gtk_widget_queue_draw(GTK_WIDGET(view));
        break;
    default:
        break;
    }
}

static void place_cursor(GraphView *view, unsigned which, double t)
{
    graph_window *w = view->window;
    w->has_cursor[which] = true;
    w->cursor[which] = t;
    graph_view_tell(view, which ? "cursor B" : "cursor A");
}

static void on_drag_end(GtkGestureDrag *gesture, double dx, double dy,
                        gpointer data)
{
    (void) gesture;
    GraphView *view = data;
    const graph_frame *f = &view->drag_frame;
    bool click = fabs(dx) < CLICK_SLOP && fabs(dy) < CLICK_SLOP;
    unsigned index;
    switch (view->drag)
    {
    case DRAG_LEGEND:
        if (click && in_legend(view, view->drag_x, view->drag_y, &index) &&
            graph_view_toggle_channel(view, index))
            graph_view_tell(view, "channels");
        break;
    case DRAG_BAND:
        view->band = false;
        if (click)
        {
            if (view->drag_button == GDK_BUTTON_SECONDARY)
                place_cursor(view, view->drag_shift,
                             graph_view_time_at_x(f, view->drag_x));
            gtk_widget_queue_draw(GTK_WIDGET(view));
            break;
        }
        if (fabs(view->band_x1 - view->drag_x) >= CLICK_SLOP)
            scope_time_view_show(&view->window->time,
                                 graph_view_time_at_x(f, view->drag_x),
                                 graph_view_time_at_x(f, view->band_x1));
        if (fabs(view->band_y1 - view->drag_y) >= CLICK_SLOP && f->shared &&
            view->values.mode == SCOPE_SCALE_SHARED)
        {
            double top = 1 - (fmin(view->drag_y, view->band_y1) - f->y) / f->h;
            double bottom = 1 - (fmax(view->drag_y, view->band_y1) - f->y) /
                                f->h;
            scope_value_view_set(&view->values,
                                 scope_value_at_fraction(bottom, f->lo, f->hi,
                                                         f->log),
                                 scope_value_at_fraction(top, f->lo, f->hi,
                                                         f->log));
        }
        graph_view_tell(view, "view");
        break;
    case DRAG_PAN:
        if (!click)
            graph_view_tell(view, "view");
        break;
    case DRAG_VALUE_AXIS:
        if (!click)
            graph_view_values_changed(view);
        break;
    default:
        break;
    }
    view->drag = DRAG_NONE;
}

static void on_pressed(GtkGestureClick *gesture, int presses, double x,
                       double y, gpointer data)
{
    (void) gesture;
    GraphView *view = data;
    gtk_widget_grab_focus(GTK_WIDGET(view));
    if (presses == 2 && view->has_frame && in_plot(&view->frame, x, y))
        gtk_widget_activate_action(GTK_WIDGET(view), "app.live", NULL);
}

static void on_focus_change(GtkEventControllerFocus *controller, gpointer data)
{
    (void) controller;
    gtk_widget_queue_draw(GTK_WIDGET(data));
}

static void add_drag(GraphView *view, guint button)
{
    GtkGesture *drag = gtk_gesture_drag_new();
    gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(drag), button);
    g_signal_connect(drag, "drag-begin", G_CALLBACK(on_drag_begin), view);
    g_signal_connect(drag, "drag-update", G_CALLBACK(on_drag_update), view);
    g_signal_connect(drag, "drag-end", G_CALLBACK(on_drag_end), view);
    gtk_widget_add_controller(GTK_WIDGET(view), GTK_EVENT_CONTROLLER(drag));
}

/* From graph_view_init: the controllers that give the widget the focus
 * (marked when it changes), the buttons, the pointer and the wheel. */
void graph_view_input_init(GraphView *view)
{
    GtkWidget *widget = GTK_WIDGET(view);

    GtkEventController *focus = gtk_event_controller_focus_new();
    g_signal_connect(focus, "enter", G_CALLBACK(on_focus_change), view);
    g_signal_connect(focus, "leave", G_CALLBACK(on_focus_change), view);
    gtk_widget_add_controller(widget, focus);

    GtkGesture *click = gtk_gesture_click_new();
    g_signal_connect(click, "pressed", G_CALLBACK(on_pressed), view);
    gtk_widget_add_controller(widget, GTK_EVENT_CONTROLLER(click));

    add_drag(view, GDK_BUTTON_PRIMARY);
    add_drag(view, GDK_BUTTON_SECONDARY);

    GtkEventController *motion = gtk_event_controller_motion_new();
    g_signal_connect(motion, "motion", G_CALLBACK(on_motion), view);
    g_signal_connect(motion, "leave", G_CALLBACK(on_leave), view);
    gtk_widget_add_controller(widget, motion);

    GtkEventController *scroll = gtk_event_controller_scroll_new(
        GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
    g_signal_connect(scroll, "scroll", G_CALLBACK(on_scroll), view);
    gtk_widget_add_controller(widget, scroll);
}
