/* scope_app_private.h - the application's state, shared by the files that
 * make it (scope_app*.c) and by no one else: scope_app.h stays the only
 * interface of the window. */
#ifndef SCOPE_APP_PRIVATE_H
#define SCOPE_APP_PRIVATE_H

#include "window/scope_app.h"
#include "source/channel_data.h"
#include "source/command_targets.h"
#include "view/event_markers.h"
#include "view/marker_feed.h"
#include "view/trigger.h"
#include "window/graph_view.h"

#include <gtk/gtk.h>

typedef struct slider
{
    ScopeApp *               app;
    const scope_slider_spec *spec;
    GtkWidget *              scale;
    GtkWidget *              value_label, *min_label, *max_label;
    GtkWidget *              note;      /* why it does nothing, beside it */
    gboolean                 missing;   /* the program has no such tweak */
    gboolean                 chosen;    /* a value the user gave or set */
    double                   moved;     /* monotonic time of the last move */
} slider;

struct _ScopeApp
{
    GtkApplication       parent_instance;
    const scope_options *options;
    scope_source *       source;
    scope_targets *      commands;      /* a queue per segment */
    GtkWidget *          target_choice; /* where commands go */
    scope_markers *      markers;       /* events on the time axis */
    scope_marker_feed *  marker_feed;
    GtkWidget *          window;
    GtkWidget *          header;        /* the GtkHeaderBar */
    GtkWidget *          banner;        /* errors, until dismissed */
    GtkWidget *          status;
    GraphView **         views;
    unsigned             view_count;
    GtkWidget *          graphs_box;    /* the views, in a scroller */
    GtkWidget *          picker;        /* its GtkMenuButton */
    graph_window         shared;        /* span, crosshair, cursors */
    bool                 view_pending;  /* --view waits for samples */
    char                 readout_line[600];
    slider *             sliders;
    gboolean             setting_slider; /* not the user moving it */
    GSource *            poll;          /* reads the source when due */
    GdkFrameClock *      clock;         /* the window's, once it has one */
    gulong               clock_update;  /* polls on its frames when due */
    double               polled;        /* monotonic seconds of last poll */
    double               news;          /* and of the last that found any */
    double               framed;        /* and of the clock's last frame */
    bool                 hurry;         /* the last poll said SCOPE_POLL_HURRY */
    unsigned             reads;         /* polls since frames_traced */
    double               next_tweak_poll;
    double               frames_traced; /* --trace-view: frames told then */
    bool                 renderer_traced;
    unsigned             save_next;
    char                 action_text[1200];
    char                 said[4608];    /* last state told on stderr */
    scope_trigger        trigger;       /* when 'triggering' */
    bool                 triggering;
    double               trigger_shown; /* end of the span it put in view */
    char                 trigger_text[300];
    char                 trigger_traced[96];
};

/* scope_app.c: the window, the status line, the shared view's changes. */
void scope_app_set_action_text(ScopeApp *app, const char *text);
/* The status line fitted again if its width changed. */
void scope_app_refit_status(ScopeApp *app);
/* An error: on stderr, and in the banner until the user dismisses it. */
void scope_app_show_error(ScopeApp *app, const char *text);
/* The graph keys act on. */
GraphView *scope_app_focused_view(ScopeApp *app);
/* Graph 'graph' gets its view, below the others; view_count counts it. */
void scope_app_add_view(ScopeApp *app, unsigned graph, unsigned views);
void scope_app_align_graphs(ScopeApp *app);
void scope_app_update_title(ScopeApp *app);
/* graph_window's 'changed': what all graphs show changed ('what' says
 * how, or is NULL). */
void scope_app_shared_changed(void *data, const char *what);

/* scope_app_sliders.c: the sliders and the tweaks they set. */
GtkWidget *scope_app_sliders_new(ScopeApp *app);
void scope_app_sliders_attached(ScopeApp *app);
void scope_app_follow_tweaks(ScopeApp *app, double now);
slider *scope_app_slider_of_outcome(ScopeApp *app, const char *outcome);
void scope_app_slider_note(slider *s, const char *text);

/* scope_app_commands.c: commands, where they go and what came of them. */
void scope_app_send_command(ScopeApp *app, const char *command,
                            const char *key);
void scope_app_attached(ScopeApp *app, unsigned segment);
void scope_app_command_outcomes(ScopeApp *app);
void scope_app_target_chosen(void *data);

/* scope_app_poll.c: reading the source when due, from a timer or from
 * the frames the window draws anyway. */
void scope_app_start_polling(ScopeApp *app);
void scope_app_stop_polling(ScopeApp *app);

/* scope_app_trace.c: --trace-view, what the window shows on stdout. */
void scope_app_trace_view(ScopeApp *app, const char *what);
void scope_app_trace_frames(ScopeApp *app, double now);

/* scope_app_trigger.c: the trigger and its keys. */
void scope_app_follow_trigger(ScopeApp *app, unsigned found);
void scope_app_trigger_rearm(ScopeApp *app);
void scope_app_trigger_cycle_mode(ScopeApp *app);
void scope_app_trigger_cycle_edge(ScopeApp *app);
void scope_app_trigger_level_here(ScopeApp *app);

/* scope_app_actions.c: the actions the keys and buttons activate. */
void scope_app_install_actions(ScopeApp *app);
void scope_app_sync_actions(ScopeApp *app);

/* scope_app_picker.c: the channel picker's changes. */
void scope_app_picker_attach(ScopeApp *app, GtkWidget *header_bar);

#endif /* SCOPE_APP_PRIVATE_H */
