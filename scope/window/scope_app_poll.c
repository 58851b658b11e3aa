/* scope_app_poll.c - reading the source (never from a draw): processes
 * attached, tweaks, new samples for the graphs, --view once samples are
 * held, the trigger, the source's messages and the commands' outcomes.
 *
 * A poll is due POLL_MS after the last. While the window's frame clock
 * runs (data scrolling), its frames poll, FRAME_POLL_MS apart: a frame
 * shows what the poll before it read, so reading between frames shows
 * nothing sooner, and a timer of its own would wake the whole main loop
 * (X events, GTK's sources) once more each time, for nothing else;
 * POLL_MS apart again while a ring fills fast (SCOPE_POLL_HURRY), so that
 * it is read before it wraps. When no frame comes, a timer polls; once
 * nothing new has come for IDLE_SECONDS, every IDLE_POLL_MS only, so that
 * a window whose programs stopped costs next to nothing. */
#include "window/scope_app_private.h"
#include "window/target_choice.h"
#include "common/scope_message.h"
#include "source/multi_source.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define POLL_MS         20              /* read the segment 50 times a second */
#define IDLE_SECONDS    1.0             /* then, nothing new that long: */
#define IDLE_POLL_MS    100             /* 10 times a second */
/* While frames come: every other frame of a 60 Hz clock (a 16-channel
 * window read at each of its 60, some from the timer between them, and
 * took about 3 % more CPU). Frames have come while the last one is no
 * older than FRAMES_GONE. */
#define FRAME_POLL_MS   30
#define FRAMES_GONE     0.1
/* A frame this close to a poll's due time polls (at 60 Hz, frames come
 * every 16.7 ms: the second after a poll does). */
#define FRAME_EARLY_MS  4

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

/* Read the source now; true if anything new came (or is awaited). */
static bool poll_now(ScopeApp *app, double now)
{
    unsigned found = scope_source_poll(app->source, now);
    app->hurry = found & SCOPE_POLL_HURRY;
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
    bool waiting = app->view_pending || app->triggering;
    if (app->view_pending)
        apply_view_request(app);
    if (app->triggering)
        scope_app_follow_trigger(app, 0);
    if (found & SCOPE_POLL_CHANNELS)
        scope_app_trace_view(app, "shown");
    scope_app_trace_frames(app, now);

    const char *message = scope_source_message(app->source);
    bool said = strcmp(message, app->said) != 0;
    if (said)
    {
        scope_message("%s", message);
        snprintf(app->said, sizeof(app->said), "%s", message);
        scope_app_update_title(app);
    }
    scope_app_command_outcomes(app);
    scope_app_refit_status(app);
    return found || fresh || marked || waiting || said;
}

/* Frames poll at their own pace: the clock runs, and no ring hurries. */
static bool frames_poll(const ScopeApp *app, double now)
{
    return now - app->framed < FRAMES_GONE && !app->hurry;
}

/* Milliseconds from one poll to the next. */
static int poll_interval(const ScopeApp *app, double now)
{
    if (now - app->news >= IDLE_SECONDS)
        return IDLE_POLL_MS;
    return frames_poll(app, now) ? FRAME_POLL_MS : POLL_MS;
}

/* The poll's source: due POLL_MS (or IDLE_POLL_MS) after the last poll,
 * which its prepare tells the main loop each time round. Not a ready
 * time: GLib wakes the loop once more each time one is set, even from its
 * own thread, an extra round of the whole main loop every poll. */
typedef struct poll_source
{
    GSource   base;
    ScopeApp *app;
} poll_source;

/* The timer's due time: while frames poll, a frame's later (the timer
 * polls only if they stop). */
static gint64 poll_due_us(const ScopeApp *app)
{
    int wait = poll_interval(app, app->polled);
    if (frames_poll(app, g_get_monotonic_time() / 1e6))
        wait += FRAME_POLL_MS;
    return (gint64) (app->polled * 1e6) + wait * (gint64) 1000;
}

static gboolean poll_prepare(GSource *source, gint *timeout)
{
    gint64 wait = poll_due_us(((poll_source *) source)->app) -
                  g_source_get_time(source);
    if (wait <= 0)
        return TRUE;
    *timeout = (gint) ((wait + 999) / 1000);
    return FALSE;
}

static gboolean poll_check(GSource *source)
{
    return g_source_get_time(source) >=
           poll_due_us(((poll_source *) source)->app);
}

/* Poll now; the source's next due time follows from app->polled. */
static void poll_and_reschedule(ScopeApp *app)
{
    double now = g_get_monotonic_time() / 1e6;
    if (poll_now(app, now))
        app->news = now;
    app->polled = now;
    app->reads++;
}

/* A frame of the window's: poll if one is due, or nearly. */
static void on_frame_update(GdkFrameClock *clock, gpointer data)
{
    (void) clock;
    ScopeApp *app = data;
    double now = g_get_monotonic_time() / 1e6;
    app->framed = now;
    if ((now - app->polled) * 1e3 >=
        poll_interval(app, app->polled) - FRAME_EARLY_MS)
        poll_and_reschedule(app);
}

static gboolean on_poll_due(GSource *source, GSourceFunc callback,
                            gpointer data)
{
    (void) callback;
    (void) data;
    ScopeApp *app = ((poll_source *) source)->app;
    poll_and_reschedule(app);
    /* The window's frames, once it has them (realized after the first
     * poll), poll too. */
    GdkFrameClock *clock = app->window
                         ? gtk_widget_get_frame_clock(app->window) : NULL;
    if (clock && !app->clock)
    {
        app->clock = g_object_ref(clock);
        app->clock_update = g_signal_connect(clock, "update",
                                             G_CALLBACK(on_frame_update),
                                             app);
    }
    return G_SOURCE_CONTINUE;
}

static GSourceFuncs poll_funcs = {
    .prepare = poll_prepare, .check = poll_check, .dispatch = on_poll_due,
};

/* A first poll at once, so that the window opens on what is there. */
void scope_app_start_polling(ScopeApp *app)
{
    app->poll = g_source_new(&poll_funcs, sizeof(poll_source));
    ((poll_source *) app->poll)->app = app;
    g_source_attach(app->poll, NULL);
    app->news = g_get_monotonic_time() / 1e6;
    poll_and_reschedule(app);
}

void scope_app_stop_polling(ScopeApp *app)
{
    if (app->clock)
    {
        g_signal_handler_disconnect(app->clock, app->clock_update);
        g_clear_object(&app->clock);
    }
    if (app->poll)
    {
        g_source_destroy(app->poll);
        g_source_unref(app->poll);
        app->poll = NULL;
    }
}
