/* marker_feed.c - restarts, commands and -e records become markers. */
#include "view/marker_feed.h"

#include <recorder/recorder_share.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records read per poll at most: a burst is spread over a few polls
 * rather than stalling one. */
#define RECORDS_PER_POLL 2048
/* Snapshots looked at per poll: the segment keeps the last 64. */
#define SNAPSHOTS_PER_POLL 64

struct scope_marker_feed
{
    scope_markers *         markers;
    recorder_share_records *records;    /* NULL: no -e */
    bool                    attached;   /* to a first process already */
    double                  snapshot;   /* time of the last snapshot marked */
    const scope_source *    source;     /* of the poll in progress */
    unsigned                added;
};

scope_marker_feed *scope_marker_feed_new(scope_markers *markers,
                                         const char *const *regexes,
                                         unsigned count, char *error,
                                         size_t size)
{
    scope_marker_feed *feed = calloc(1, sizeof(*feed));
    if (!feed)
    {
        snprintf(error, size, "out of memory");
        return NULL;
    }
    feed->markers = markers;
    feed->snapshot = -1;
    if (!count)
        return feed;
    /* One follower for all: a recorder two regexes match is marked once. */
    size_t length = 1;
    for (unsigned r = 0; r < count; r++)
        length += strlen(regexes[r]) + 3;
    char *any = malloc(length);
    if (!any)
    {
        free(feed);
        snprintf(error, size, "out of memory");
        return NULL;
    }
    any[0] = 0;
    for (unsigned r = 0; r < count; r++)
    {
        strcat(any, r ? "|(" : "(");
        strcat(any, regexes[r]);
        strcat(any, ")");
    }
    feed->records = recorder_share_records_new(any, error, size);
    free(any);
    if (!feed->records)
    {
        free(feed);
        return NULL;
    }
    return feed;
}

void scope_marker_feed_delete(scope_marker_feed *feed)
{
    if (!feed)
        return;
    recorder_share_records_delete(feed->records);
    free(feed);
}

static void mark_record(const recorder_share_record *record, void *arg)
{
    scope_marker_feed *feed = arg;
    char text[2 * SCOPE_MARKER_TEXT + 64];
    snprintf(text, sizeof(text), "%s: %s", record->recorder, record->message);
    scope_markers_add(feed->markers, SCOPE_MARKER_RECORD,
                      scope_source_axis_time(feed->source, record->time),
                      text);
    feed->added++;
}

/* Snapshots the program wrote since the last poll (times increase). */
static void mark_snapshots(scope_marker_feed *feed, recorder_share *share)
{
    recorder_share_snapshot_event events[SNAPSHOTS_PER_POLL];
    unsigned count = recorder_share_snapshot_events(share, events,
                                                    SNAPSHOTS_PER_POLL);
    for (unsigned e = 0; e < count; e++)
    {
        if (events[e].time <= feed->snapshot)
            continue;
        feed->snapshot = events[e].time;
        char text[2 * SCOPE_MARKER_TEXT + 64];
        snprintf(text, sizeof(text), "snapshot=%s",
                 events[e].condition);
        scope_markers_add(feed->markers, SCOPE_MARKER_SNAPSHOT,
                          scope_source_axis_time(feed->source, events[e].time),
                          text);
        feed->added++;
    }
}

unsigned scope_marker_feed_poll(scope_marker_feed *feed, scope_source *source,
                                unsigned found)
{
    feed->added = 0;
    feed->source = source;
    recorder_share *share = scope_source_share(source);
    if ((found & SCOPE_POLL_ATTACHED) && share)
    {
        if (feed->attached)
        {
            /* The new process's own start, on the scope's axis. */
            recorder_share_process process;
            recorder_share_process_info(share, &process);
            char program[4 * sizeof(process.program)];
            recorder_share_escape(program, sizeof(program), process.program,
                                  strnlen(process.program,
                                          sizeof(process.program)));
            char text[2 * SCOPE_MARKER_TEXT + 64];
            snprintf(text, sizeof(text), "%s (pid %u) started", program,
                     process.pid);
            scope_markers_add(feed->markers, SCOPE_MARKER_RESTART,
                              scope_source_axis_time(source, 0), text);
            feed->added++;
        }
        feed->attached = true;
    }
    if (found & SCOPE_POLL_ATTACHED)
        feed->snapshot = -1;            /* a new process: its own times */
    if (share)
        mark_snapshots(feed, share);
    if (feed->records && share)
        recorder_share_records_read(share, feed->records, RECORDS_PER_POLL,
                                    mark_record, feed, NULL);
    return feed->added;
}

void scope_marker_feed_command(scope_marker_feed *feed,
                               const scope_source *source,
                               const char *command, double now)
{
    scope_markers_add(feed->markers, SCOPE_MARKER_COMMAND,
                      scope_source_axis_now(source, now), command);
}
