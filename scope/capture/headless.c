/* headless.c - collect, decide the span, then draw offscreen and write
 * PNG and CSV. */
#include "capture/headless.h"
#include "source/channel_data.h"
#include "capture/csv_export.h"
#include "capture/graph_files.h"
#include "common/scope_message.h"
#include "view/trigger.h"
#include "view/marker_feed.h"
#include "source/multi_source.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POLL_SECONDS    0.02

static double monotonic_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double) now.tv_sec + now.tv_nsec / 1e9;
}

static void pause_seconds(double seconds)
{
    if (seconds <= 0)
        return;
    struct timespec delay = { (time_t) seconds,
                              (long) ((seconds - (time_t) seconds) * 1e9) };
    while (nanosleep(&delay, &delay) != 0 && errno == EINTR)
        continue;
}

/* A new process: give it the -c commands and the sliders' values. */
static void send_setup(scope_source *source, const scope_options *options,
                       scope_marker_feed *feed)
{
    recorder_share *share = scope_source_share(source);
    char error[512];
    for (unsigned c = 0; c < options->command_count; c++)
    {
        scope_marker_feed_command(feed, source, options->commands[c],
                                  monotonic_seconds());
        if (!recorder_share_send(share, options->commands[c], 1000, error,
                                 sizeof(error)))
            scope_message("%s", error);
    }
    for (unsigned s = 0; s < options->slider_count; s++)
    {
        const scope_slider_spec *slider = &options->sliders[s];
        if (!slider->has_value)
            continue;
        char command[128];
        snprintf(command, sizeof(command), "%s=%ld", slider->name,
                 slider->value);
        scope_marker_feed_command(feed, source, command, monotonic_seconds());
        if (!recorder_share_send(share, command, 1000, error, sizeof(error)))
            scope_message("%s", error);
    }
}

/* Single: stop once the triggered span is recorded; once it fires, the
 * timeout makes room for the rest of the span. */
static bool headless_trigger(scope_trigger *trigger, scope_source *source,
                             unsigned graphs, double span, double now,
                             double *stop)
{
    unsigned found = scope_trigger_follow(trigger, source, graphs, span);
    if (found & SCOPE_TRIGGER_FIRED)
    {
        char spec[96];
        scope_trigger_spec_text(&trigger->spec, spec, sizeof(spec));
        scope_message("trigger %s fired at %.6f s", spec,
                      trigger->time);
        double rest = now + (trigger->t1 - trigger->time) + 2.0;
        if (trigger->mode == SCOPE_TRIGGER_SINGLE && rest > *stop)
            *stop = rest;
    }
    return trigger->mode == SCOPE_TRIGGER_SINGLE && trigger->has_capture;
}

/* The span a trigger chose, with its marker on every graph; false (said
 * why) when there is none to capture. */
static bool headless_trigger_span(scope_trigger *trigger,
                                  const scope_options *options,
                                  scope_time_view *time)
{
    double t0, t1;
    char text[300];
    scope_trigger_describe(trigger, text, sizeof(text));
    if (!scope_trigger_window(trigger, &t0, &t1))
    {
        if (trigger->state == SCOPE_TRIGGER_WAITING)
        {
            /* Fired, but the end of its span never came: what there is. */
            scope_message("the end of the triggered span "
                          "was not recorded in time (%s)", text);
            t0 = trigger->t0;
            t1 = trigger->t1;
        }
        else if (trigger->mode == SCOPE_TRIGGER_AUTO)
        {
            return true;                /* free-running: the live span */
        }
        else
        {
            scope_message("the trigger did not fire in "
                          "%g s (%s)", options->capture_seconds, text);
            return false;
        }
    }
    scope_time_view_show(time, t0, t1);
    scope_message("triggered span %.6f s to %.6f s", t0,
                  t1);
    return true;
}

static bool holds_samples(const scope_source *source)
{
    double oldest, newest;
    return scope_source_held_range(source, &oldest, &newest);
}

static bool source_ended(scope_source *source)
{
    scope_source_state state = scope_source_get_state(source);
    return state == SCOPE_SOURCE_EXITED || state == SCOPE_SOURCE_DIED;
}

/* Whether the span --view names is all there: its end was recorded, or
 * the program ended (no more will come). */
static bool view_held(const scope_options *options, scope_source *source)
{
    double oldest, newest = NAN;
    if (!scope_source_held_range(source, &oldest, &newest))
        newest = NAN;
    return scope_view_request_complete(&options->view, newest) ||
           source_ended(source);
}

/* Show the span --view names, once collected; false (said why, nothing
 * is written) when its samples are not all there, or none of it is. */
static bool headless_view_span(const scope_options *options,
                               scope_source *source, const scope_held *held,
                               scope_time_view *time)
{
    const scope_view_request *view = &options->view;
    if (!view_held(options, source))
    {
        /* Most likely a regex that found nothing: say which. */
        unsigned graphs = scope_source_graph_count(source), count;
        for (unsigned g = 0; g < graphs && isnan(held->newest); g++)
            if (scope_source_graph_series(source, g, &count), !count)
                scope_message("no channel matches '%s'",
                              options->channel_count ? options->channels[g]
                                                     : ".*");
        if (isnan(held->newest))
            scope_message("--view: no sample came within --duration %g s; "
                          "nothing written",
                          options->capture_seconds);
        else
            scope_message("--view: the samples reach %.6f s, not the end of "
                          "the span (%.6f s) within --duration %g s; nothing "
                          "written", held->newest,
                          view->to, options->capture_seconds);
        return false;
    }
    double t0, t1;
    if (!scope_view_request_resolve(view, held->oldest, held->newest, &t0,
                                    &t1))
    {
        if (isnan(held->newest))
            scope_message("--view: no samples were collected; nothing "
                          "written");
        else
            scope_message("--view: the span is empty once resolved against "
                          "the samples held (%.6f s to %.6f s); nothing "
                          "written", held->oldest, held->newest);
        return false;
    }
    if (held->oldest > t1)
    {
        scope_message("--view: the samples held begin at %.6f s, after the "
                      "span ended (%.6f s): the program kept no older ones; "
                      "nothing written", held->oldest, t1);
        return false;
    }
    /* The program ended before the span did: what it recorded of the span
     * is all there will be; if that is nothing, no file. */
    if (source_ended(source) && held->newest < t1)
    {
        if (held->newest < t0)
        {
            scope_message("--view: the program ended at %.6f s, before the "
                          "span began (%.6f s); nothing written",
                          held->newest, t0);
            return false;
        }
        scope_message("--view: the program ended at %.6f s, before the end "
                      "of the span (%.6f s)", held->newest, t1);
    }
    scope_time_view_show(time, t0, t1);
    scope_message("view %.6f s to %.6f s", t0, t1);
    return true;
}

/* One capture: what its steps share. */
typedef struct headless
{
    const scope_options *options;
    scope_source *       source;
    scope_markers *      markers;
    scope_marker_feed *  feed;
    unsigned             graphs;
    double               now;           /* when the collection stopped */
    scope_trigger        trigger;
    char                 trigger_label[160];
} headless;

/* The source with a graph per channel pattern, and the event markers fed
 * from it; false (said why, nothing kept) when they cannot be made. */
static bool headless_open(headless *h)
{
    const scope_options *options = h->options;
    scope_source_config config = {
        .duration = options->duration,
        .keep = options->max_samples > (long) SCOPE_HISTORY_DEFAULT
              ? (size_t) options->max_samples : SCOPE_HISTORY_DEFAULT,
        .ratio = options->ratio,
        .open_flags = options->open_flags,
    };
    h->source = scope_source_new_paths(options->share_paths,
                                       options->share_path_count, &config);
    if (!h->source)
    {
        scope_message("out of memory");
        return false;
    }
    char error[512];
    h->markers = scope_markers_new(0);
    h->feed = h->markers ? scope_marker_feed_new(h->markers, options->events,
                                                 options->event_count, error,
                                                 sizeof(error))
                         : NULL;
    if (!h->feed)
    {
        scope_message("%s",
                      h->markers ? error : "out of memory");
        scope_markers_delete(h->markers);
        scope_source_delete(h->source);
        return false;
    }
    if (options->trace_view)
        scope_markers_observe(h->markers, scope_marker_print, stdout);
    h->graphs = options->channel_count ? options->channel_count : 1;
    for (unsigned g = 0; g < h->graphs; g++)
        if (scope_source_add_graph(h->source, options->channel_count
                                              ? options->channels[g]
                                              : NULL) < 0)
        {
            scope_message("out of memory");
            scope_marker_feed_delete(h->feed);
            scope_markers_delete(h->markers);
            scope_source_delete(h->source);
            return false;
        }
    return true;
}

static void headless_close(headless *h)
{
    scope_marker_feed_delete(h->feed);
    scope_markers_delete(h->markers);
    scope_source_delete(h->source);
}

/* Collect until the duration is over, the trigger's span or the --view
 * span is recorded, or the path turns out to be no segment of ours. */
static void headless_collect(headless *h)
{
    const scope_options *options = h->options;
    scope_source *source = h->source;
    double start = monotonic_seconds(), now = start;
    /* With --view alone, until its span is held (no timeout). */
    double stop = options->capture_seconds >= 0
                ? start + options->capture_seconds : INFINITY;
    char said[4608] = "";
    h->trigger = (scope_trigger) { .mode = SCOPE_TRIGGER_AUTO };
    double trigger_span = options->duration > 0 ? options->duration
                        : options->capture_seconds > 0
                        ? options->capture_seconds : SCOPE_DEFAULT_DURATION;
    if (options->has_trigger)
        scope_trigger_init(&h->trigger, &options->trigger,
                           options->trigger_mode, options->trigger_pre);
    for (;;)
    {
        unsigned found = scope_source_poll(source, now);
        scope_marker_feed_poll(h->feed, source, found);
        /* Each process as it comes, when there are several. */
        for (unsigned i = 0; i < scope_source_segment_count(source); i++)
            if (scope_source_segment_found(source, i) & SCOPE_POLL_ATTACHED)
                send_setup(scope_source_segment(source, i), options, h->feed);
        const char *message = scope_source_message(source);
        if (strcmp(message, said) != 0)
        {
            scope_message("%s", message);
            snprintf(said, sizeof(said), "%s", message);
        }
        if (options->has_trigger &&
            headless_trigger(&h->trigger, source, h->graphs, trigger_span,
                             now, &stop))
            break;
        if (options->view.set && view_held(options, source))
            break;
        /* A file there that is no usable segment of ours: say why at once
         * (a pattern of several paths keeps looking for others). */
        if (scope_source_get_state(source) == SCOPE_SOURCE_FAILED &&
            !scope_source_group(source) && !holds_samples(source))
            break;
        if (now >= stop)
            break;
        pause_seconds(stop - now < POLL_SECONDS ? stop - now : POLL_SECONDS);
        now = monotonic_seconds();
    }
    h->now = now;
}

/* Whether a segment was attached; if not, the reason, and no file that
 * would look like a capture. */
static bool headless_attached(const headless *h)
{
    scope_source *source = h->source;
    scope_source_state reached = scope_source_get_state(source);
    if ((reached != SCOPE_SOURCE_WAITING && reached != SCOPE_SOURCE_FAILED) ||
        holds_samples(source))
        return true;
    /* The reason was said as it came (the messages while collecting),
     * except for the files a pattern caught, which it passes over while
     * it looks for others: why each is no segment of ours, now. */
    unsigned unusable = 0;
    for (unsigned i = 0; scope_source_group(source) &&
                         i < scope_source_segment_count(source); i++)
    {
        scope_source *member = scope_source_segment(source, i);
        if (scope_source_get_state(member) == SCOPE_SOURCE_FAILED)
            unusable++, scope_message("%s", scope_source_message(member));
    }
    scope_message("%s; nothing written",
                  reached == SCOPE_SOURCE_WAITING && !unusable
                  ? "no segment appeared" : "no usable segment");
    return false;
}

/* Every graph over one span: the live one, or the one --view or the
 * trigger chose; false (said why) when there is none to write. */
static bool headless_span(headless *h, scope_held *held,
                          scope_time_view *time)
{
    const scope_options *options = h->options;
    graph_model_held(h->source, h->now, held, NULL);
    scope_time_view_init(time, options->duration);
    if (options->view.set &&
        !headless_view_span(options, h->source, held, time))
        return false;
    if (options->has_trigger &&
        !headless_trigger_span(&h->trigger, options, time))
        return false;
    return true;
}

/* The graphs as the window would show them now, into models[graphs] and
 * list[graphs] (messages[graphs] holds what they say); returns the number
 * of channels drawn. */
static unsigned headless_models(headless *h, const scope_time_view *time,
                                const scope_held *held, graph_model *models,
                                const graph_model **list,
                                char (*messages)[256])
{
    const scope_options *options = h->options;
    unsigned channels = 0;
    bool timing = false;
    for (unsigned g = 0; g < h->graphs; g++)
    {
        unsigned views = options->channel_count ? options->channel_views[g]
                                                : options->views;
        graph_model_fill(&models[g], h->source, g, views, time, held,
                         options->max_samples, h->now, messages[g],
                         sizeof(messages[g]));
        models[g].markers = h->markers;
        /* No desktop to follow: dark unless --theme says. */
        models[g].palette = scope_palette_of(scope_theme_resolve(
            options->theme, NULL));
        list[g] = &models[g];
        if (options->has_trigger)
            scope_trigger_mark(&h->trigger, &models[g], h->trigger_label,
                               sizeof(h->trigger_label));
        channels += models[g].series_count;
        timing |= (views & SCOPE_VIEW_TIMING) != 0;
    }
    for (unsigned g = 0; g < h->graphs; g++)
        models[g].right_axis = timing;      /* time axes line up */
    /* A regex that found nothing is most likely a typo: say which. */
    scope_source_state attached = scope_source_get_state(h->source);
    for (unsigned g = 0; g < h->graphs; g++)
        if (!models[g].series_count && attached != SCOPE_SOURCE_WAITING &&
            attached != SCOPE_SOURCE_FAILED)
            scope_message("no channel matches '%s'",
                          options->channel_count ? options->channels[g]
                                                 : ".*");
    return channels;
}

/* Write the PNG and the CSV asked for; the exit status. */
static int headless_write(const headless *h, const graph_model **list,
                          unsigned channels)
{
    const scope_options *options = h->options;
    unsigned graphs = h->graphs;
    char error[512];
    graph_files files = {
        .models = list,
        .count = graphs,
        .width = options->has_size ? options->width : SCOPE_DEFAULT_WIDTH,
        .height = options->has_size ? options->height
                                    : (int) graphs * SCOPE_DEFAULT_GRAPH_HEIGHT,
    };
    bool ok = true;
    if (options->png_path)
    {
        scope_save_item png = graph_files_item(&files, GRAPH_FILE_PNG);
        if (scope_save_replace(options->png_path, png.write, png.arg, error,
                               sizeof(error)))
            scope_message("wrote %s (%dx%d, %u graph%s, %u channel%s)",
                          options->png_path, files.width, files.height,
                          graphs, graphs == 1 ? "" : "s", channels,
                          channels == 1 ? "" : "s");
        else
            ok = false, scope_message("%s", error);
    }
    if (options->csv_path)
    {
        scope_save_item csv = graph_files_item(&files, GRAPH_FILE_CSV);
        if (!scope_save_replace(options->csv_path, csv.write, csv.arg, error,
                                sizeof(error)))
            ok = false, scope_message("%s", error);
        else if (files.rows > 0)
            scope_message("wrote %s (%ld rows)",
                          options->csv_path, files.rows);
        else
        {
            /* The header alone is still a valid CSV for the tools that
             * read it; a CI job learns from the status that it is empty,
             * and from stderr why. */
            scope_source_state now_state = scope_source_get_state(h->source);
            scope_message("wrote %s with no rows: %s",
                          options->csv_path,
                          now_state == SCOPE_SOURCE_WAITING ||
                          now_state == SCOPE_SOURCE_FAILED
                          ? scope_source_message(h->source)
                          : scope_csv_why_empty(list, graphs));
            ok = false;
        }
    }
    scope_source_state state = scope_source_get_state(h->source);
    return ok && state != SCOPE_SOURCE_WAITING &&
           state != SCOPE_SOURCE_FAILED ? 0 : 1;
}

/* Draw what the window would show now over the span chosen, and write
 * it; the exit status. */
static int headless_capture(headless *h)
{
    unsigned graphs = h->graphs;
    graph_model *models = calloc(graphs, sizeof(*models));
    const graph_model **list = calloc(graphs, sizeof(*list));
    char (*messages)[256] = calloc(graphs, sizeof(*messages));
    int status = 1;
    scope_held held;
    scope_time_view time;
    if (!models || !list || !messages)
        scope_message("out of memory");
    else if (headless_span(h, &held, &time))
    {
        unsigned channels = headless_models(h, &time, &held, models, list,
                                            messages);
        status = headless_write(h, list, channels);
    }
    free(messages);
    free(list);
    free(models);
    return status;
}

int scope_headless_run(const scope_options *options)
{
    headless h = { .options = options };
    if (!headless_open(&h))
        return 1;
    headless_collect(&h);
    int status = headless_attached(&h) ? headless_capture(&h) : 1;
    headless_close(&h);
    return status;
}
