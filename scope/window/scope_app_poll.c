/* scope_app_poll.c - reading the source on a timer (never from a draw):
 * processes attached, tweaks, new samples for the graphs, --view once
 * samples are held, the trigger, the source's messages and the commands'
 * outcomes. */
#include "window/scope_app_private.h"
#include "window/target_choice.h"
#include "common/scope_message.h"
#include "source/multi_source.h"

#include <stdio.h>
#include <string.h>

#define POLL_MS         20              /* read the segment 50 times a second */

/* --view: once samples are held, pause on the span it names. */
static void apply_view_request(ScopeApp *app)
{
    double oldest, newest, t0, t1;
    if (!scope_source_held_range(app->source, &oldest, &newest) ||
        !scope_view_request_resolve(&app->options->view, oldest, newest,
                                    &t0, &t1))
        return;
    app->view_pending = false;
    scope_time_view_show(&app->shared.time, t0, t1);
    scope_app_shared_changed(app, "view");
}

static gboolean on_poll(gpointer data)
{
    ScopeApp *app = data;
    double now = g_get_monotonic_time() / 1e6;
    unsigned found = scope_source_poll(app->source, now);
    bool marked = scope_marker_feed_poll(app->marker_feed, app->source,
                                         found) != 0;
    /* Each process as it comes, when there are several. */
    scope_targets_follow(app->commands, app->source);
    for (unsigned i = 0; i < scope_source_segment_count(app->source); i++)
        if (scope_source_segment_found(app->source, i) & SCOPE_POLL_ATTACHED)
            scope_app_attached(app, i);
    if (found & (SCOPE_POLL_ATTACHED | SCOPE_POLL_STATE))
        scope_target_choice_update(app->target_choice);
    scope_app_follow_tweaks(app, now);
    bool everything = found & (SCOPE_POLL_STATE | SCOPE_POLL_ATTACHED |
                               SCOPE_POLL_CHANNELS);
    /* One time axis: when any graph moves, all do. */
    bool fresh = false;
    for (unsigned g = 0; g < app->view_count; g++)
        fresh |= scope_source_graph_take_new(app->source, g);
    if (fresh || everything)
        for (unsigned g = 0; g < app->view_count; g++)
            graph_view_update(app->views[g]);
    else if (marked)
        for (unsigned g = 0; g < app->view_count; g++)
            graph_view_redraw(app->views[g]);
    if (app->view_pending)
        apply_view_request(app);
    if (app->triggering)
        scope_app_follow_trigger(app, 0);
    if (found & SCOPE_POLL_CHANNELS)
        scope_app_trace_view(app, "shown");
    scope_app_trace_frames(app, now);

    const char *message = scope_source_message(app->source);
    if (strcmp(message, app->said) != 0)
    {
        scope_message("%s", message);
        snprintf(app->said, sizeof(app->said), "%s", message);
        scope_app_update_title(app);
    }
    scope_app_command_outcomes(app);
    scope_app_refit_status(app);
    return G_SOURCE_CONTINUE;
}

/* A first poll at once, so that the window opens on what is there. */
void scope_app_start_polling(ScopeApp *app)
{
    on_poll(app);
    app->poll = g_timeout_add(POLL_MS, on_poll, app);
}
