/* scope_app_trigger.c - the trigger: following its channel's samples,
 * moving the view as it says and telling its state, and the keys that
 * arm it, change its mode and edge and set its level. */
#include "window/scope_app_private.h"

#include <stdio.h>
#include <string.h>

/* Look at the trigger channel's new samples; move the view as the trigger
 * says; tell its state (status line, --trace-view 'trigger: STATE [T]').
 * 'found' adds what an action did. */
void scope_app_follow_trigger(ScopeApp *app, unsigned found)
{
    double t0, t1;
    scope_time_view_window(&app->shared.time, &app->shared.held, &t0, &t1);
    found |= scope_trigger_follow(&app->trigger, app->source, app->view_count,
                                  t1 - t0);
    const scope_trigger *trigger = &app->trigger;
    if (found & SCOPE_TRIGGER_CAPTURED)
    {
        /* Each capture says "triggered", even when re-armed at once. */
        snprintf(app->trigger_traced, sizeof(app->trigger_traced),
                 "trigger: triggered %.6f", trigger->shown_time);
        scope_app_trace_view(app, "trigger");
    }
    char traced[sizeof(app->trigger_traced)];
    const char *state = scope_trigger_state_name(trigger->state);
    if (trigger->state != SCOPE_TRIGGER_ARMED)
        snprintf(traced, sizeof(traced), "trigger: %s %.6f", state,
                 trigger->state == SCOPE_TRIGGER_WAITING
                 ? trigger->time : trigger->shown_time);
    else if (trigger->has_capture)
        snprintf(traced, sizeof(traced), "trigger: %s %.6f", state,
                 trigger->shown_time);
    else
        snprintf(traced, sizeof(traced), "trigger: %s", state);
    if (strcmp(traced, app->trigger_traced) != 0)
    {
        snprintf(app->trigger_traced, sizeof(app->trigger_traced), "%s",
                 traced);
        scope_app_trace_view(app, "trigger");
    }
    char text[sizeof(app->trigger_text)];
    scope_trigger_describe(trigger, text, sizeof(text));
    bool moved = scope_trigger_steer(trigger, found, &app->shared.time,
                                     &app->trigger_shown);
    if (moved || strcmp(text, app->trigger_text) != 0 || found)
    {
        snprintf(app->trigger_text, sizeof(app->trigger_text), "%s", text);
        scope_app_shared_changed(app, moved ? "view" : NULL);
    }
}

/* r: arm again (single: for the next capture). */
void scope_app_trigger_rearm(ScopeApp *app)
{
    if (!app->triggering)
    {
        scope_app_set_action_text(app, "no trigger: point at a level and "
                                       "press v, or start with --trigger "
                                       "'CHANNEL>LEVEL'");
        return;
    }
    scope_trigger_arm(&app->trigger);
    scope_app_set_action_text(app, "trigger armed");
    scope_app_follow_trigger(app, 0);
}

/* o: auto, normal, single. */
void scope_app_trigger_cycle_mode(ScopeApp *app)
{
    if (!app->triggering)
    {
        scope_app_trigger_rearm(app);
        return;
    }
    scope_trigger_set_mode(&app->trigger, (app->trigger.mode + 1) %
                                          SCOPE_TRIGGER_MODES);
    char text[80];
    snprintf(text, sizeof(text), "trigger mode %s",
             scope_trigger_mode_name(app->trigger.mode));
    scope_app_set_action_text(app, text);
    scope_app_follow_trigger(app, 0);
}

/* e: rising, falling, either. */
void scope_app_trigger_cycle_edge(ScopeApp *app)
{
    if (!app->triggering)
    {
        scope_app_trigger_rearm(app);
        return;
    }
    scope_trigger_spec *spec = &app->trigger.spec;
    spec->edge = spec->edge == SCOPE_TRIGGER_RISING ? SCOPE_TRIGGER_FALLING
               : spec->edge == SCOPE_TRIGGER_FALLING ? SCOPE_TRIGGER_EITHER
               : SCOPE_TRIGGER_RISING;
    scope_trigger_set_level(&app->trigger, spec->level);
    static const char *const edges[] = { "", "rising", "falling", "either" };
    char text[80];
    snprintf(text, sizeof(text), "trigger edge %s", edges[spec->edge]);
    scope_app_set_action_text(app, text);
    scope_app_follow_trigger(app, 0);
}

/* v: the level at the pointer; the graph's first channel shown becomes
 * the trigger channel unless the trigger's own is in that graph. */
void scope_app_trigger_level_here(ScopeApp *app)
{
    graph_window *w = &app->shared;
    double level;
    const scope_series *first;
    if (!w->hovering || !w->hovered ||
        !graph_view_pointer_value(w->hovered, &level, &first) || !first)
    {
        scope_app_set_action_text(app, "point at the trigger level in a "
                                       "graph with one value axis, then "
                                       "press v");
        return;
    }
    unsigned count = 0, g = 0;
    while (g < app->view_count && app->views[g] != w->hovered)
        g++;
    scope_series *const *series = scope_source_graph_series(app->source, g,
                                                            &count);
    bool here = false;
    for (unsigned s = 0; s < count && app->triggering; s++)
        here |= series[s] == app->trigger.series;
    if (!here)
    {
        scope_trigger_spec spec = app->triggering ? app->trigger.spec
            : (scope_trigger_spec) { .edge = SCOPE_TRIGGER_RISING };
        snprintf(spec.channel, sizeof(spec.channel), "%s", first->name);
        spec.level = level;
        scope_trigger_init(&app->trigger, &spec,
                           app->triggering ? app->trigger.mode
                                           : app->options->trigger_mode,
                           app->triggering ? app->trigger.pre
                                           : app->options->trigger_pre);
        app->triggering = true;
        w->trigger = &app->trigger;
    }
    scope_trigger_set_level(&app->trigger, level);
    char text[200], spec[96];
    scope_trigger_spec_text(&app->trigger.spec, spec, sizeof(spec));
    snprintf(text, sizeof(text), "trigger %s", spec);
    scope_app_set_action_text(app, text);
    scope_app_follow_trigger(app, 0);
}
