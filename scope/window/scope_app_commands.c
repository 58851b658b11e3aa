/* scope_app_commands.c - commands to the programs: sent to the process
 * the target choice names (or to all), the -c commands each new process
 * gets, and what came of them, said in the status line, in the banner or
 * beside the slider that sent them. */
#include "window/scope_app_private.h"
#include "window/target_choice.h"
#include "common/scope_message.h"

#include <stdio.h>

/* Queue a command, and mark it on the time axis where it was sent. */
void scope_app_send_command(ScopeApp *app, const char *command,
                            const char *key)
{
    scope_targets_send(app->commands, app->source, command, key);
    scope_marker_feed_command(app->marker_feed, app->source, command,
                              g_get_monotonic_time() / 1e6);
}

/* A new process (segment 'segment' of the source): send it the -c
 * commands and the sliders' values, or read the values of tweaks whose
 * sliders the user did not set. */
void scope_app_attached(ScopeApp *app, unsigned segment)
{
    const scope_options *options = app->options;
    for (unsigned c = 0; c < options->command_count; c++)
    {
        scope_targets_send_to(app->commands, segment, options->commands[c],
                              NULL);
        scope_marker_feed_command(app->marker_feed, app->source,
                                  options->commands[c],
                                  g_get_monotonic_time() / 1e6);
    }
    scope_app_sliders_attached(app);
}

/* The queues' news: each command applied or refused. */
void scope_app_command_outcomes(ScopeApp *app)
{
    scope_targets_poll(app->commands);
    char outcome[480];
    bool failed;
    while (scope_targets_outcome(app->commands, app->source, outcome,
                                 sizeof(outcome), &failed))
    {
        /* A slider's refusal stays beside it until one is applied. */
        slider *s = scope_app_slider_of_outcome(app, outcome);
        if (s && failed)
        {
            scope_message("%s", outcome);
            scope_app_slider_note(s, outcome);
        }
        else if (failed)
            scope_app_show_error(app, outcome);
        else
        {
            if (s)
                scope_app_slider_note(s, NULL);
            scope_app_set_action_text(app, outcome);
        }
    }
}

/* Commands and sliders now go to another process (or to all): say so,
 * and let the sliders show that process's tweaks. */
void scope_app_target_chosen(void *data)
{
    ScopeApp *app = data;
    const char *target = scope_target_choice_text(app->target_choice);
    char text[160];
    snprintf(text, sizeof(text), "commands go to %s", target);
    scope_app_set_action_text(app, text);
    app->next_tweak_poll = 0;
    if (app->options->trace_view)
    {
        scope_print(stdout, "target: %s\n", target);
        fflush(stdout);
    }
    gtk_widget_grab_focus(GTK_WIDGET(scope_app_focused_view(app)));
}
