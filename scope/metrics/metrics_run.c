/* metrics_run.c - the reading loop of recorder_scope --metrics. */
#include "metrics/metrics_run.h"
#include "source/channel_data.h"
#include "options/metrics_address.h"
#include "metrics/metrics_collect.h"
#include "metrics/metrics_server.h"
#include "source/multi_source.h"
#include "common/scope_message.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define POLL_SECONDS    0.02

static volatile sig_atomic_t stop_signal;

static void on_stop(int signal_number)
{
    stop_signal = signal_number;
}

static double monotonic_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double) now.tv_sec + now.tv_nsec / 1e9;
}

/* SIGINT and SIGTERM end the loop (they interrupt its sleep); a scraper
 * gone mid-response must not kill us with SIGPIPE. */
static void catch_signals(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = on_stop;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    action.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &action, NULL);
}

/* A new process: give it the -c commands, as the window does. */
static void send_commands(scope_source *segment, const scope_options *options)
{
    recorder_share *share = scope_source_share(segment);
    for (unsigned c = 0; share && c < options->command_count; c++)
    {
        char error[512];
        if (!recorder_share_send(share, options->commands[c], 1000, error,
                                 sizeof(error)))
            scope_message("%s", error);
    }
}

static void publish(metrics_server *server, metrics_collector *collector,
                    scope_source *source, const metrics_health *health)
{
    metrics_buffer plain = { 0 }, openmetrics = { 0 };
    metrics_collector_write(collector, source, health, &plain, &openmetrics);
    size_t plain_length, openmetrics_length;
    char *plain_text = metrics_buffer_take(&plain, &plain_length);
    char *openmetrics_text = metrics_buffer_take(&openmetrics,
                                                 &openmetrics_length);
    if (!plain_text || !openmetrics_text)
        scope_message("out of memory for the metrics");
    metrics_server_publish(server, plain_text, plain_length, openmetrics_text,
                           openmetrics_length);
}

int scope_metrics_run(const scope_options *options)
{
    metrics_address address;
    char error[512];
    if (!metrics_address_parse(options->metrics, &address, error,
                               sizeof(error)))
    {
        scope_message("--metrics '%s': %s",
                      options->metrics, error);
        return 2;
    }
    catch_signals();
    /* The port first: nothing else starts if it cannot be had. */
    metrics_server *server = metrics_server_start(&address, error,
                                                  sizeof(error));
    if (!server)
    {
        scope_message("--metrics: %s", error);
        return 1;
    }
    scope_source_config config = {
        .duration = 0,
        .keep = METRICS_HISTORY,
        .ratio = options->ratio,
        .open_flags = options->open_flags,
    };
    scope_source *source = scope_source_new_paths(options->share_paths,
                                                  options->share_path_count,
                                                  &config);
    metrics_collector *collector = metrics_collector_new();
    unsigned graphs = options->channel_count ? options->channel_count : 1;
    bool ok = source && collector;
    for (unsigned g = 0; ok && g < graphs; g++)
        ok = scope_source_add_graph(source, options->channel_count
                                            ? options->channels[g] : NULL) >= 0;
    if (!ok)
    {
        scope_message("out of memory");
        metrics_collector_delete(collector);
        scope_source_delete(source);
        metrics_server_stop(server);
        return 1;
    }
    scope_message("serving http://%s/metrics",
                  address.text);

    metrics_health health = { 0 };
    char said[4608] = "";
    double next_build = -1;
    bool changed = true;
    while (!stop_signal)
    {
        double now = monotonic_seconds();
        unsigned found = scope_source_poll(source, now);
        health.polls++;
        for (unsigned i = 0; i < scope_source_segment_count(source); i++)
            if (scope_source_segment_found(source, i) & SCOPE_POLL_ATTACHED)
                send_commands(scope_source_segment(source, i), options);
        const char *message = scope_source_message(source);
        if (strcmp(message, said) != 0)
        {
            scope_message("%s", message);
            snprintf(said, sizeof(said), "%s", message);
        }
        metrics_served served = metrics_server_served(server);
        if (served.any)
            metrics_collector_served(collector, served.latest);
        health.scrapes = served.scrapes;
        metrics_collector_read(collector, source);
        /* Rebuilt after a scrape (the next one's interval starts), while
         * things change at most every METRICS_BUILD_SECONDS, and every
         * second anyway: polls_total shows the reading goes on. */
        changed |= found != 0;
        if (served.any || (changed && now >= next_build) ||
            now >= next_build + 1)
        {
            publish(server, collector, source, &health);
            next_build = now + METRICS_BUILD_SECONDS;
            changed = false;
        }
        struct timespec delay = { 0, (long) (POLL_SECONDS * 1e9) };
        nanosleep(&delay, NULL);        /* a signal cuts it short */
    }
    scope_message("stopped by %s",
                  stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
    metrics_server_stop(server);
    metrics_collector_delete(collector);
    scope_source_delete(source);
    return 0;
}
