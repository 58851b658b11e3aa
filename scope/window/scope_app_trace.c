/* scope_app_trace.c - --trace-view: what the window shows (span, value
 * axes, hidden channels, cursors, readout, graphs, frames drawn, sizes), on
 * stdout in words a script can read. */
#include "window/scope_app_private.h"
#include "common/scope_message.h"

#include <stdio.h>
#include <string.h>

/* --trace-view: what the window shows, in words a script can read. */
void scope_app_trace_view(ScopeApp *app, const char *what)
{
    if (!app->options->trace_view || !what)
        return;
    const scope_time_view *time = &app->shared.time;
    GraphView *view = scope_app_focused_view(app);
    unsigned graph = 0;
    while (graph < app->view_count && app->views[graph] != view)
        graph++;
    if (strcmp(what, "view") == 0 || strcmp(what, "live") == 0)
    {
        if (time->paused)
            printf("view: paused %.6f %.6f\n", time->end - time->span,
                   time->end);
        else if (time->span > 0)
            printf("view: live %.6f\n", time->span);
        else
            printf("view: live all\n");
    }
    else if (strcmp(what, "values") == 0)
    {
        static const char *const modes[] = { "shared", "lanes", "normalised" };
        const scope_value_view *values = graph_view_get_values(view);
        if (values->manual)
            printf("values: graph %u: fixed %.9g %.9g %s %s\n", graph + 1,
                   values->lo, values->hi, modes[values->mode],
                   values->log ? "log" : "linear");
        else
            printf("values: graph %u: auto %s %s\n", graph + 1,
                   modes[values->mode], values->log ? "log" : "linear");
    }
    else if (strcmp(what, "channels") == 0)
    {
        for (unsigned g = 0; g < app->view_count; g++)
        {
            unsigned count;
            scope_series *const *series =
                scope_source_graph_series(app->source, g, &count);
            printf("hidden: graph %u:", g + 1);
            for (unsigned c = 0; c < count; c++)
                if (graph_view_channel_hidden(app->views[g], c))
                    scope_print(stdout, " %s", series[c]->name);
            printf("\n");
        }
    }
    else if (strncmp(what, "cursor", 6) == 0)
    {
        for (unsigned c = 0; c < 2; c++)
            if (app->shared.has_cursor[c])
                printf("cursor %c: %.6f\n", "AB"[c], app->shared.cursor[c]);
    }
    if (strcmp(what, "trigger") == 0 && app->triggering)
        scope_print(stdout, "%s\n", app->trigger_traced);
    if (strcmp(what, "readout") == 0 || strncmp(what, "cursor", 6) == 0)
        scope_print(stdout, "readout: %s\n", app->readout_line);
    /* What each graph asks for, then what it has found. */
    if (strcmp(what, "graphs") == 0)
        for (unsigned g = 0; g < app->view_count; g++)
        {
            char text[1200];
            scope_source_graph_describe(app->source, g, text, sizeof(text));
            scope_print(stdout, "graphs: %u: %s\n", g + 1, text);
        }
    if (strcmp(what, "graphs") == 0 || strcmp(what, "shown") == 0)
        for (unsigned g = 0; g < app->view_count; g++)
        {
            unsigned count;
            scope_series *const *series =
                scope_source_graph_series(app->source, g, &count);
            printf("shown: graph %u:", g + 1);
            for (unsigned c = 0; c < count; c++)
                scope_print(stdout, " %s", series[c]->name);
            printf("\n");
        }
    fflush(stdout);
}

/* --trace-view: the renderer GTK draws the window with (once), and each
 * graph's size when it changes, so that a benchmark can lay out GTK alone
 * like the window it measures (tests/bench/gtk_floor.c). */
static void trace_layout(ScopeApp *app)
{
    GskRenderer *renderer = gtk_native_get_renderer(GTK_NATIVE(app->window));
    if (!app->renderer_traced && renderer)
    {
        printf("renderer: %s\n", G_OBJECT_TYPE_NAME(renderer));
        app->renderer_traced = true;
    }
    for (unsigned g = 0; g < app->view_count; g++)
    {
        int width, height;
        if (graph_view_take_size(app->views[g], &width, &height))
            printf("size: graph %u: %dx%d\n", g + 1, width, height);
    }
}

/* --trace-view: the frames each graph drew in the last second, so that
 * a script can see them paced by the data, and the reads of the source. */
void scope_app_trace_frames(ScopeApp *app, double now)
{
    if (!app->options->trace_view || now < app->frames_traced + 1)
        return;
    app->frames_traced = now;
    trace_layout(app);
    for (unsigned g = 0; g < app->view_count; g++)
        printf("frames: graph %u: %u\n", g + 1,
               graph_view_take_frames(app->views[g]));
    printf("reads: %u\n", app->reads);
    app->reads = 0;
    fflush(stdout);
}
