/* trigger.c - find level crossings and decide the span they show. */
#include "view/trigger.h"
#include "view/graph_model.h"
#include "view/time_view.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- spelling ------------------------------------------------------------ */

bool scope_trigger_parse_level(const char *text, double *level)
{
    return recorder_level_parse(text, level);
}

bool scope_trigger_spec_parse(const char *text, scope_trigger_spec *spec,
                              char *why, size_t size)
{
    return recorder_level_crossing_parse(text, spec, why, size);
}

static const char *const mode_names[SCOPE_TRIGGER_MODES] = {
    [SCOPE_TRIGGER_AUTO] = "auto",
    [SCOPE_TRIGGER_NORMAL] = "normal",
    [SCOPE_TRIGGER_SINGLE] = "single",
};

bool scope_trigger_mode_parse(const char *text, scope_trigger_mode *mode)
{
    for (int m = 0; m < SCOPE_TRIGGER_MODES; m++)
        if (strcmp(text, mode_names[m]) == 0)
        {
            *mode = (scope_trigger_mode) m;
            return true;
        }
    return false;
}

const char *scope_trigger_mode_name(scope_trigger_mode mode)
{
    return mode < SCOPE_TRIGGER_MODES ? mode_names[mode] : "?";
}

const char *scope_trigger_state_name(scope_trigger_state state)
{
    switch (state)
    {
    case SCOPE_TRIGGER_ARMED:           return "armed";
    case SCOPE_TRIGGER_WAITING:         return "waiting";
    case SCOPE_TRIGGER_TRIGGERED:       return "triggered";
    }
    return "?";
}

size_t scope_trigger_spec_text(const scope_trigger_spec *spec, char *buf,
                               size_t size)
{
    return recorder_level_crossing_text(spec, buf, size);
}

/* ---- the state machine ------------------------------------------------- */

void scope_trigger_init(scope_trigger *trigger,
                        const scope_trigger_spec *spec,
                        scope_trigger_mode mode, double pre)
{
    *trigger = (scope_trigger) {
        .spec = *spec,
        .mode = mode,
        .pre = pre < 0 ? 0 : pre > 1 ? 1 : pre,
        .seen_lo = INFINITY,
        .seen_hi = -INFINITY,
        .time = NAN, .t0 = NAN, .t1 = NAN,
        .shown_time = NAN, .shown_t0 = NAN, .shown_t1 = NAN,
        .state = SCOPE_TRIGGER_ARMED,
    };
}

void scope_trigger_arm(scope_trigger *trigger)
{
    trigger->state = SCOPE_TRIGGER_ARMED;
    trigger->has_capture = false;
    /* Only what comes from now on: the detector is already past the rest. */
    if (trigger->series)
        trigger->next = trigger->series->end;
}

void scope_trigger_set_mode(scope_trigger *trigger, scope_trigger_mode mode)
{
    trigger->mode = mode;
    scope_trigger_arm(trigger);
}

void scope_trigger_set_level(scope_trigger *trigger, double level)
{
    if (!isfinite(level))
        return;
    trigger->spec.level = level;
    /* Which side the signal was on meant the old level. */
    trigger->ready_rise = trigger->ready_fall = false;
    if (trigger->have_prev)
    {
        double band = trigger->hysteresis > 0 ? trigger->hysteresis
                    : SCOPE_TRIGGER_HYSTERESIS *
                      (trigger->seen_hi - trigger->seen_lo);
        trigger->ready_rise = trigger->prev_value < level - band;
        trigger->ready_fall = trigger->prev_value > level + band;
    }
}

void scope_trigger_place(double time, double span, double pre, double *t0,
                         double *t1)
{
    *t0 = time - pre * span;
    *t1 = *t0 + span;
}

/* The span [t0, t1] is recorded: show it; auto and normal look again. */
static unsigned complete(scope_trigger *trigger)
{
    trigger->has_capture = true;
    trigger->shown_time = trigger->time;
    trigger->shown_t0 = trigger->t0;
    trigger->shown_t1 = trigger->t1;
    trigger->state = trigger->mode == SCOPE_TRIGGER_SINGLE
                   ? SCOPE_TRIGGER_TRIGGERED : SCOPE_TRIGGER_ARMED;
    return SCOPE_TRIGGER_CAPTURED;
}

/* One sample: cross? fire? */
static unsigned look(scope_trigger *trigger, double t, double v, double span)
{
    unsigned found = 0;
    if (!isfinite(v) || !isfinite(t))
        return 0;
    if (trigger->state == SCOPE_TRIGGER_WAITING && t >= trigger->t1)
        found |= complete(trigger);

    if (v < trigger->seen_lo)
        trigger->seen_lo = v;
    if (v > trigger->seen_hi)
        trigger->seen_hi = v;
    double level = trigger->spec.level;
    double band = trigger->hysteresis > 0 ? trigger->hysteresis
                : SCOPE_TRIGGER_HYSTERESIS *
                  (trigger->seen_hi - trigger->seen_lo);

    if (trigger->have_prev)
    {
        double p = trigger->prev_value;
        bool rise = (trigger->spec.edge & SCOPE_TRIGGER_RISING) &&
                    trigger->ready_rise && p < level && v >= level;
        bool fall = (trigger->spec.edge & SCOPE_TRIGGER_FALLING) &&
                    trigger->ready_fall && p > level && v <= level;
        if (rise || fall)
        {
            if (rise)
                trigger->ready_rise = false;
            if (fall)
                trigger->ready_fall = false;
            trigger->crossings++;
            /* Where the line between the two samples meets the level. */
            double when = trigger->prev_time +
                          (level - p) / (v - p) * (t - trigger->prev_time);
            if (trigger->state == SCOPE_TRIGGER_ARMED)
            {
                trigger->state = SCOPE_TRIGGER_WAITING;
                trigger->fired++;
                trigger->time = when;
                scope_trigger_place(when, span, trigger->pre, &trigger->t0,
                                    &trigger->t1);
                found |= SCOPE_TRIGGER_FIRED;
                if (t >= trigger->t1)
                    found |= complete(trigger);
            }
        }
    }
    if (v < level - band)
        trigger->ready_rise = true;
    if (v > level + band)
        trigger->ready_fall = true;
    trigger->have_prev = true;
    trigger->prev_time = t;
    trigger->prev_value = v;
    return found;
}

unsigned scope_trigger_update(scope_trigger *trigger,
                              const scope_series *series, double span,
                              double newest)
{
    unsigned found = 0;
    if (!(span > 0))
        span = 1;
    if (series != trigger->series)
    {
        /* A new channel to watch: from its oldest sample held. */
        trigger->series = series;
        trigger->next = series ? series->first : 0;
        trigger->have_prev = false;
    }
    if (series)
    {
        if (trigger->next < series->first)
        {
            trigger->next = series->first;      /* trimmed meanwhile */
            trigger->have_prev = false;
        }
        const double *times = series->time;
        const double *values = series->track[SCOPE_TRACK_VALUE];
        for (uint64_t i = trigger->next; i < series->end; i++)
            found |= look(trigger, times[i - series->base],
                          values[i - series->base], span);
        trigger->next = series->end;
    }
    if (trigger->state == SCOPE_TRIGGER_WAITING && newest >= trigger->t1)
        found |= complete(trigger);
    /* Auto: a whole span more with no trigger, and it runs free. */
    if (trigger->mode == SCOPE_TRIGGER_AUTO && trigger->has_capture &&
        trigger->state == SCOPE_TRIGGER_ARMED &&
        newest >= trigger->shown_t1 + (trigger->shown_t1 - trigger->shown_t0))
    {
        trigger->has_capture = false;
        found |= SCOPE_TRIGGER_FREE_RUN;
    }
    return found;
}

bool scope_trigger_window(const scope_trigger *trigger, double *t0,
                          double *t1)
{
    if (!trigger->has_capture)
        return false;
    *t0 = trigger->shown_t0;
    *t1 = trigger->shown_t1;
    return true;
}

size_t scope_trigger_describe(const scope_trigger *trigger, char *buf,
                              size_t size)
{
    char spec[96];
    scope_trigger_spec_text(&trigger->spec, spec, sizeof(spec));
    int n;
    const char *mode = scope_trigger_mode_name(trigger->mode);
    if (!trigger->series)
        n = snprintf(buf, size, "trigger %s %s: no channel '%s' yet", spec,
                     mode, trigger->spec.channel);
    else if (trigger->state == SCOPE_TRIGGER_WAITING)
        n = snprintf(buf, size, "trigger %s %s: waiting, fired at %.6g s",
                     spec, mode, trigger->time);
    else if (trigger->state == SCOPE_TRIGGER_TRIGGERED)
        n = snprintf(buf, size, "trigger %s %s: triggered at %.6g s "
                     "(r: re-arm)", spec, mode, trigger->shown_time);
    else if (trigger->has_capture)
        n = snprintf(buf, size, "trigger %s %s: armed, showing %.6g s",
                     spec, mode, trigger->shown_time);
    else
        n = snprintf(buf, size, "trigger %s %s: armed%s", spec, mode,
                     trigger->mode == SCOPE_TRIGGER_AUTO ? ", free-running"
                                                         : "");
    return n < 0 ? 0 : (size_t) n;
}

scope_series *scope_trigger_find_series(const scope_source *source,
                                        unsigned graphs, const char *name)
{
    scope_series *loose = NULL;
    for (unsigned g = 0; g < graphs; g++)
    {
        unsigned count;
        scope_series *const *series = scope_source_graph_series(source, g,
                                                                &count);
        for (unsigned s = 0; s < count; s++)
        {
            if (strcmp(series[s]->name, name) == 0)
                return series[s];
            /* Graph regexes ignore case; so does a name given loosely. */
            if (!loose && strcasecmp(series[s]->name, name) == 0)
                loose = series[s];
        }
    }
    return loose;
}

unsigned scope_trigger_follow(scope_trigger *trigger,
                              const scope_source *source, unsigned graphs,
                              double span)
{
    const scope_series *series =
        scope_trigger_find_series(source, graphs, trigger->spec.channel);
    double oldest, newest = -INFINITY;
    scope_source_held_range(source, &oldest, &newest);
    scope_source_state state = scope_source_get_state(source);
    /* The writer is gone: nothing more will be recorded. */
    if (state == SCOPE_SOURCE_EXITED || state == SCOPE_SOURCE_DIED ||
        state == SCOPE_SOURCE_MOVED)
        newest = INFINITY;
    return scope_trigger_update(trigger, series, span, newest);
}

void scope_trigger_mark(const scope_trigger *trigger,
                        struct graph_model *model, char *label, size_t size)
{
    model->trigger = true;
    model->trigger_series = trigger->series;
    model->trigger_level = trigger->spec.level;
    model->trigger_time = trigger->has_capture ? trigger->shown_time
                        : trigger->state == SCOPE_TRIGGER_WAITING
                        ? trigger->time : NAN;
    /* Its state over the graph of its channel (over all while it is
     * missing, to say so). */
    bool here = !trigger->series;
    for (unsigned s = 0; s < model->series_count; s++)
        here |= model->series[s] == trigger->series;
    if (label && size && here)
    {
        char spec[96];
        scope_trigger_spec_text(&trigger->spec, spec, sizeof(spec));
        if (trigger->series)
            snprintf(label, size, "%s %s: %s", spec,
                     scope_trigger_mode_name(trigger->mode),
                     scope_trigger_state_name(trigger->state));
        else
            snprintf(label, size, "%s: no channel '%s' here", spec,
                     trigger->spec.channel);
        model->trigger_label = label;
    }
}

bool scope_trigger_steer(const scope_trigger *trigger, unsigned found,
                         struct scope_time_view *time, double *shown)
{
    double t0, t1;
    /* Still on the span the trigger put there (not panned or zoomed)? */
    bool ours = time->paused && isfinite(*shown) && time->end == *shown;
    if ((found & SCOPE_TRIGGER_CAPTURED) &&
        scope_trigger_window(trigger, &t0, &t1))
    {
        scope_time_view_show(time, t0, t1);
        *shown = time->end;
        return true;
    }
    if (!trigger->has_capture && ours)
    {
        /* Auto running free, or re-armed: live again. */
        scope_time_view_resume(time);
        *shown = NAN;
        return true;
    }
    return false;
}
