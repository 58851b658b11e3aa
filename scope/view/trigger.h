/* trigger.h - the oscilloscope's trigger: a level crossed on one channel
 * picks the span to show.
 *
 *   --trigger 'CHANNEL>LEVEL'    rising through LEVEL
 *   --trigger 'CHANNEL<LEVEL'    falling through LEVEL
 *   --trigger 'CHANNEL<>LEVEL'   either
 *
 * A crossing is found on the channel's new samples as they arrive. Its
 * time is interpolated linearly between the sample before the level and
 * the sample at or past it (the traces join samples with lines). So that
 * noise at the level does not fire on every sample, the detector is a
 * Schmitt trigger: after a rising crossing, the next one needs the signal
 * to go below LEVEL - band first (above LEVEL + band for falling). The
 * band is SCOPE_TRIGGER_HYSTERESIS of the range of values the channel has
 * covered since the trigger watched it (about half a division of an
 * autoscaled ten-division screen), unless set explicitly. A signal that is
 * nothing but noise around the level still fires on that noise, as on any
 * scope.
 *
 * Modes: auto shows the live data until a trigger, then the triggered
 * span, re-arms, and runs free again when no trigger came for one more
 * span; normal keeps the last triggered span until the next replaces it;
 * single fires once and keeps that span until re-armed. A trigger fires
 * only while armed: once it fires it waits for the rest of its span to be
 * recorded (the post-trigger part), and crossings meanwhile are ignored.
 *
 * Plain C, no GTK: unit tests drive it with made-up series.
 */
#ifndef SCOPE_TRIGGER_H
#define SCOPE_TRIGGER_H

#include "source/channel_data.h"

#include <recorder/recorder_level.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hysteresis band, as a fraction of the range the channel covered. */
#define SCOPE_TRIGGER_HYSTERESIS        0.05
/* --pre default, percent of the span before the trigger. */
#define SCOPE_TRIGGER_DEFAULT_PRE       10.0

/* The spelling and its parser are the library's (recorder_level.h), which
 * its snapshot=CHANNEL>LEVEL conditions share. */
typedef recorder_level_edge scope_trigger_edge;
#define SCOPE_TRIGGER_RISING    RECORDER_LEVEL_RISING   /* CHANNEL>LEVEL */
#define SCOPE_TRIGGER_FALLING   RECORDER_LEVEL_FALLING  /* CHANNEL<LEVEL */
#define SCOPE_TRIGGER_EITHER    RECORDER_LEVEL_EITHER   /* CHANNEL<>LEVEL */

typedef enum scope_trigger_mode
{
    SCOPE_TRIGGER_AUTO,
    SCOPE_TRIGGER_NORMAL,
    SCOPE_TRIGGER_SINGLE,
    SCOPE_TRIGGER_MODES
} scope_trigger_mode;

typedef enum scope_trigger_state
{
    SCOPE_TRIGGER_ARMED,                /* looking for a crossing */
    SCOPE_TRIGGER_WAITING,              /* fired: the span's end is to come */
    SCOPE_TRIGGER_TRIGGERED             /* single: captured, frozen */
} scope_trigger_state;

typedef recorder_level_crossing scope_trigger_spec;

/* What an update found; a bit set. */
enum
{
    SCOPE_TRIGGER_FIRED    = 1,         /* a crossing: now waiting */
    SCOPE_TRIGGER_CAPTURED = 2,         /* a span is complete: show it */
    SCOPE_TRIGGER_FREE_RUN = 4          /* auto, no trigger lately: live */
};

typedef struct scope_trigger
{
    scope_trigger_spec spec;
    scope_trigger_mode mode;
    double             pre;             /* fraction of the span before */
    double             hysteresis;      /* absolute band; <= 0: automatic */

    /* The detector: where it is in the channel's samples. */
    const scope_series *series;
    uint64_t           next;            /* first sample not looked at */
    bool               have_prev;
    double             prev_time, prev_value;
    bool               ready_rise;      /* was below level - band */
    bool               ready_fall;      /* was above level + band */
    double             seen_lo, seen_hi;
    unsigned long      crossings;       /* every crossing, fired or not */

    /* The state machine. */
    scope_trigger_state state;
    unsigned long      fired;           /* crossings that fired */
    double             time;            /* of the last firing */
    double             t0, t1;          /* its span */
    bool               has_capture;     /* a complete span to show: */
    double             shown_time, shown_t0, shown_t1;
} scope_trigger;

/* Parse CHANNEL>LEVEL, CHANNEL<LEVEL or CHANNEL<>LEVEL; LEVEL is a number
 * with an optional SI suffix (p n u m k M G T; µ for u). False with the
 * reason in why[size]. */
bool scope_trigger_spec_parse(const char *text, scope_trigger_spec *spec,
                              char *why, size_t size);
/* A number with an optional SI suffix: "2.5k", "10u", "-3m", "1M". */
bool scope_trigger_parse_level(const char *text, double *level);
/* "auto", "normal" or "single". */
bool scope_trigger_mode_parse(const char *text, scope_trigger_mode *mode);
const char *scope_trigger_mode_name(scope_trigger_mode mode);
const char *scope_trigger_state_name(scope_trigger_state state);
/* The spec as the command line spells it: "sig>50". */
size_t scope_trigger_spec_text(const scope_trigger_spec *spec, char *buf,
                               size_t size);

/* A trigger armed, with 'pre' the fraction of the span before it. */
void scope_trigger_init(scope_trigger *trigger,
                        const scope_trigger_spec *spec,
                        scope_trigger_mode mode, double pre);
/* Arm again: forget the span shown; look at samples from now on. */
void scope_trigger_arm(scope_trigger *trigger);
/* Another mode (re-arms); a new level (keeps looking where it was). */
void scope_trigger_set_mode(scope_trigger *trigger, scope_trigger_mode mode);
void scope_trigger_set_level(scope_trigger *trigger, double level);

/* Look at the new samples of 'series' (the trigger's channel; NULL while
 * it is not there). A crossing fires a span 'span' seconds wide. 'newest'
 * is the time data is recorded up to (any channel; INFINITY once no more
 * will come): a span ending there is complete. Returns SCOPE_TRIGGER_*
 * bits. */
unsigned scope_trigger_update(scope_trigger *trigger,
                              const scope_series *series, double span,
                              double newest);

/* The span to show, when there is one (else: live). */
bool scope_trigger_window(const scope_trigger *trigger, double *t0,
                          double *t1);
/* The span 'span' wide with time 'time' at fraction 'pre' from its left. */
void scope_trigger_place(double time, double span, double pre, double *t0,
                         double *t1);

/* One line on where it stands, for the status line:
 * "trigger sig>50 single: triggered at 1.234 s". */
size_t scope_trigger_describe(const scope_trigger *trigger, char *buf,
                              size_t size);

/* The series named 'name' in any graph of 'source', or NULL. */
scope_series *scope_trigger_find_series(const scope_source *source,
                                        unsigned graphs, const char *name);

/* scope_trigger_update() on the trigger's channel in the first 'graphs'
 * graphs of 'source', with the data recorded up to the newest sample held
 * (or for good, once the writer is gone). */
unsigned scope_trigger_follow(scope_trigger *trigger,
                              const scope_source *source, unsigned graphs,
                              double span);

/* Put the trigger on 'model': its level on its channel, the marker where
 * the span shown (or being waited for) fired, a label of its state in
 * label[size]. */
struct graph_model;
void scope_trigger_mark(const scope_trigger *trigger,
                        struct graph_model *model, char *label, size_t size);

/* Move 'time' (the window's shared view) as 'found' (of an update) says:
 * pause on a captured span; back to live when auto runs free, unless the
 * user has moved the view off the span since. 'shown' keeps the span put
 * there (t1; NaN for none). True if the view changed. */
struct scope_time_view;
bool scope_trigger_steer(const scope_trigger *trigger, unsigned found,
                         struct scope_time_view *time, double *shown);

#endif /* SCOPE_TRIGGER_H */
