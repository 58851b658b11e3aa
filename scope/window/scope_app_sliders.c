/* scope_app_sliders.c - the sliders under the graphs: each sets a tweak
 * of the program (a command 'NAME=VALUE'), follows the tweak's value when
 * it changes from elsewhere, and says beside it when the program has no
 * such tweak or refused the value. */
#include "window/scope_app_private.h"
#include "common/scope_message.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define TWEAK_POLL      0.5             /* seconds between tweak reads */
#define SLIDER_SETTLE   1.5             /* a moved slider stays put this long */

static void slider_send(slider *s)
{
    char command[128];
    long value = lround(gtk_range_get_value(GTK_RANGE(s->scale)));
    snprintf(command, sizeof(command), "%s=%ld", s->spec->name, value);
    scope_app_send_command(s->app, command, s->spec->name);
    /* Until it is applied the program still has the old value. */
    s->moved = g_get_monotonic_time() / 1e6;
}

static void on_slider_moved(GtkRange *range, gpointer data)
{
    slider *s = data;
    char text[32];
    snprintf(text, sizeof(text), "%ld", lround(gtk_range_get_value(range)));
    gtk_label_set_text(GTK_LABEL(s->value_label), text);
    if (s->app->setting_slider)
        return;
    s->chosen = TRUE;
    slider_send(s);
}

static void slider_place(slider *s, long min, long max, long value)
{
    if (value < min)
        min = value;
    if (value > max)
        max = value;
    s->app->setting_slider = TRUE;
    gtk_range_set_range(GTK_RANGE(s->scale), min, max);
    gtk_range_set_value(GTK_RANGE(s->scale), value);
    s->app->setting_slider = FALSE;
    gtk_widget_set_sensitive(s->scale, !s->missing);
    char text[32];
    snprintf(text, sizeof(text), "%ld", value);
    gtk_label_set_text(GTK_LABEL(s->value_label), text);
    snprintf(text, sizeof(text), "%ld", min);
    gtk_label_set_text(GTK_LABEL(s->min_label), text);
    snprintf(text, sizeof(text), "%ld", max);
    gtk_label_set_text(GTK_LABEL(s->max_label), text);
}

/* Said beside the slider until a program that has the tweak attaches
 * (the banner, which the user dismisses, is for passing errors). */
void scope_app_slider_note(slider *s, const char *text)
{
    gtk_label_set_text(GTK_LABEL(s->note), text ? text : "");
    gtk_widget_set_visible(s->note, text != NULL);
}

static void slider_set_missing(slider *s, gboolean missing)
{
    if (missing == s->missing)
        return;
    s->missing = missing;
    gtk_widget_set_sensitive(s->scale, !missing);
    if (!missing)
    {
        scope_app_slider_note(s, NULL);
        return;
    }
    char text[160];
    snprintf(text, sizeof(text), "no tweak '%s' in this program",
             s->spec->name);
    scope_app_slider_note(s, text);
    scope_message("the program has no tweak '%s'",
                  s->spec->name);
}

/* Row 'row' of the sliders' grid: name | value | min | scale | max |
 * note. The names share a column, so the scales line up; the value comes
 * before the range, so neither reads as the other. (Tweaks have no unit in
 * the segment: none is shown.) */
static void slider_row(slider *s, GtkGrid *grid, int row)
{
    const scope_slider_spec *spec = s->spec;
    GtkWidget *label = gtk_label_new(spec->name);
    gtk_label_set_xalign(GTK_LABEL(label), 0);
    gtk_grid_attach(grid, label, 0, row, 1, 1);
    s->value_label = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(s->value_label), 1);
    gtk_label_set_width_chars(GTK_LABEL(s->value_label), 6);
    gtk_widget_add_css_class(s->value_label, "numeric");
    gtk_grid_attach(grid, s->value_label, 1, row, 1, 1);
    s->min_label = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(s->min_label), 1);
    gtk_widget_add_css_class(s->min_label, "dim-label");
    gtk_grid_attach(grid, s->min_label, 2, row, 1, 1);

    s->scale = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 100, 1);
    gtk_scale_set_digits(GTK_SCALE(s->scale), 0);
    gtk_scale_set_draw_value(GTK_SCALE(s->scale), FALSE);
    gtk_widget_set_hexpand(s->scale, TRUE);
    gtk_widget_set_name(s->scale, spec->name);
    gtk_grid_attach(grid, s->scale, 3, row, 1, 1);
    s->max_label = gtk_label_new("");
    gtk_label_set_xalign(GTK_LABEL(s->max_label), 0);
    gtk_widget_add_css_class(s->max_label, "dim-label");
    gtk_grid_attach(grid, s->max_label, 4, row, 1, 1);
    s->note = gtk_label_new("");
    gtk_widget_add_css_class(s->note, "scope-error");
    gtk_widget_set_visible(s->note, FALSE);
    gtk_grid_attach(grid, s->note, 5, row, 1, 1);

    if (spec->has_value)
    {
        long min = spec->min, max = spec->max;
        if (!spec->has_range)
            scope_slider_range(spec->value, &min, &max);
        slider_place(s, min, max, spec->value);
        s->chosen = TRUE;
    }
    else
    {
        /* Its range comes from the tweak's value, once we can read it. */
        gtk_widget_set_sensitive(s->scale, FALSE);
    }
    g_signal_connect(s->scale, "value-changed", G_CALLBACK(on_slider_moved), s);
}

/* The grid of the sliders, a row each. */
GtkWidget *scope_app_sliders_new(ScopeApp *app)
{
    GtkWidget *sliders = gtk_grid_new();
    gtk_grid_set_column_spacing(GTK_GRID(sliders), 8);
    gtk_grid_set_row_spacing(GTK_GRID(sliders), 4);
    gtk_widget_set_margin_start(sliders, 8);
    gtk_widget_set_margin_end(sliders, 8);
    for (unsigned i = 0; i < app->options->slider_count; i++)
        slider_row(&app->sliders[i], GTK_GRID(sliders), (int) i);
    return sliders;
}

/* A new process: send it the sliders' values, or read the values of
 * tweaks whose sliders the user did not set. */
void scope_app_sliders_attached(ScopeApp *app)
{
    const scope_options *options = app->options;
    for (unsigned i = 0; i < options->slider_count; i++)
    {
        slider *s = &app->sliders[i];
        intptr_t value;
        bool found = scope_source_tweak(app->source, s->spec->name, &value);
        slider_set_missing(s, !found);
        if (!found)
            continue;
        scope_app_slider_note(s, NULL);
        if (s->chosen)
        {
            slider_send(s);
            continue;
        }
        long min, max;
        scope_slider_range((long) value, &min, &max);
        slider_place(s, min, max, (long) value);
    }
}

/* Tweaks change from elsewhere too (recorder_scope -c, the program
 * itself): sliders the user is not moving show the program's value. */
void scope_app_follow_tweaks(ScopeApp *app, double now)
{
    if (now < app->next_tweak_poll)
        return;
    app->next_tweak_poll = now + TWEAK_POLL;
    if (scope_source_get_state(app->source) != SCOPE_SOURCE_LIVE)
        return;
    for (unsigned i = 0; i < app->options->slider_count; i++)
    {
        slider *s = &app->sliders[i];
        intptr_t value;
        if (s->missing)
        {
            /* Tweaks a program adds later (a module it loads). */
            if (scope_source_tweak(app->source, s->spec->name, &value))
            {
                long min, max;
                slider_set_missing(s, FALSE);
                scope_slider_range((long) value, &min, &max);
                if (s->chosen)
                    slider_send(s);
                else
                    slider_place(s, min, max, (long) value);
            }
            continue;
        }
        if (!gtk_widget_get_sensitive(s->scale) || now - s->moved < SLIDER_SETTLE ||
            !scope_source_tweak(app->source, s->spec->name, &value))
            continue;
        GtkAdjustment *adjustment = gtk_range_get_adjustment(GTK_RANGE(s->scale));
        if (lround(gtk_adjustment_get_value(adjustment)) != (long) value)
            slider_place(s, (long) gtk_adjustment_get_lower(adjustment),
                         (long) gtk_adjustment_get_upper(adjustment),
                         (long) value);
    }
}

/* The slider whose command an outcome ("'NAME=VALUE' refused: ...") is
 * about, or NULL. */
slider *scope_app_slider_of_outcome(ScopeApp *app, const char *outcome)
{
    for (unsigned i = 0; i < app->options->slider_count; i++)
    {
        const char *name = app->sliders[i].spec->name;
        size_t n = strlen(name);
        if (outcome[0] == '\'' && strncmp(outcome + 1, name, n) == 0 &&
            outcome[n + 1] == '=')
            return &app->sliders[i];
    }
    return NULL;
}
