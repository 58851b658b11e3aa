/* metrics_text.h - the text recorder_scope --metrics serves on /metrics.
 *
 * Plain C, no I/O: the reader fills a snapshot (metrics_channel,
 * metrics_segment, metrics_health) and this writes it in the Prometheus
 * text exposition format 0.0.4, or in OpenMetrics 1.0 text, which differs
 * in the TYPE line of counters (the family name, without _total) and
 * the closing "# EOF". Label values are escaped for both: backslash,
 * quote and newline as \\ \" \n; control characters and bytes that are
 * not UTF-8 as the text \xNN (recorder_share_escape()).
 *
 * min, max and mean are over the samples since the previous scrape
 * (metrics_span): a channel that got none since omits the three.
 */
#ifndef SCOPE_METRICS_TEXT_H
#define SCOPE_METRICS_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Growing text; 'failed' once out of memory (the text is then partial). */
typedef struct metrics_buffer
{
    char * text;
    size_t length, capacity;
    bool   failed;
} metrics_buffer;

/* Hand the text over (NUL-terminated; NULL if it failed, freed) and
 * start empty. */
char *metrics_buffer_take(metrics_buffer *buffer, size_t *length);

/* 'length' bytes of 'text' as a label value, without the quotes. */
void metrics_escape_label(metrics_buffer *buffer, const char *text,
                          size_t length);

/* Count, min, max and sum of some samples. */
typedef struct metrics_stats
{
    uint64_t count;
    double   min, max, sum;
} metrics_stats;

void metrics_stats_add(metrics_stats *stats, double value);
void metrics_stats_merge(metrics_stats *into, const metrics_stats *from);

/* The samples of one channel "since the previous scrape", exactly: each
 * sample is in the interval of one scrape. The reader adds samples as it
 * reads them ('pending'); each text it publishes shows 'shown' with
 * 'pending' merged in (metrics_span_publish). A scrape that served the
 * latest text clears 'shown'; one that served the text before it (while
 * the reader built the next) leaves what that one lacked ('delta'). */
typedef struct metrics_span
{
    metrics_stats pending;              /* read since the last text */
    metrics_stats delta;                /* what the last text added */
    metrics_stats shown;                /* in the last text */
} metrics_span;

void metrics_span_add(metrics_span *span, double value);
/* Building a new text: 'shown' is what it shows. */
void metrics_span_publish(metrics_span *span);
/* A scrape was served: 'latest' if it got the last text published, false
 * if it got the one before. */
void metrics_span_served(metrics_span *span, bool latest);

/* Where a segment stands, as recorder_segment_state{state=...} says. */
typedef enum metrics_state
{
    METRICS_WAITING,                    /* no segment at the path yet */
    METRICS_FAILED,                     /* a file there we cannot use */
    METRICS_LIVE,                       /* its process runs */
    METRICS_EXITED,                     /* it exited: post-mortem data */
    METRICS_DIED,                       /* it crashed: post-mortem data */
    METRICS_MOVED,                      /* it shares elsewhere now */
    METRICS_STATES
} metrics_state;

/* One channel of one process, as the reader saw it. Strings need not be
 * NUL-terminated within their size (they come from the segment). */
typedef struct metrics_channel
{
    const char *program;                /* labels */
    size_t      program_size;
    const char *host;
    size_t      host_size;
    unsigned    pid;
    const char *channel;
    const char *unit;
    bool        has_value;              /* a sample was read */
    double      value;                  /* the newest */
    uint64_t    samples;                /* read from this process */
    uint64_t    lost;                   /* overwritten before read */
    metrics_stats interval;             /* since the previous scrape */
} metrics_channel;

typedef struct metrics_segment
{
    const char *path;
    bool        has_process;            /* program, host, pid known */
    const char *program;
    size_t      program_size;
    const char *host;
    size_t      host_size;
    unsigned    pid;
    metrics_state state;
    uint64_t    restarts;               /* new processes after the first */
    uint64_t    read_errors;            /* times it became unusable */
} metrics_segment;

typedef struct metrics_health
{
    uint64_t scrapes;                   /* GET /metrics served */
    uint64_t polls;                     /* reads of the segments */
} metrics_health;

typedef struct metrics_snapshot
{
    const metrics_channel *channels;
    unsigned               channel_count;
    const metrics_segment *segments;
    unsigned               segment_count;
    metrics_health         health;
} metrics_snapshot;

/* The whole exposition of 'snapshot', appended to 'buffer'. */
void metrics_text_write(metrics_buffer *buffer,
                        const metrics_snapshot *snapshot, bool openmetrics);

#define METRICS_CONTENT_TYPE \
    "text/plain; version=0.0.4; charset=utf-8"
#define METRICS_OPENMETRICS_TYPE \
    "application/openmetrics-text; version=1.0.0; charset=utf-8"

/* Whether an Accept header asks for OpenMetrics before the 0.0.4 text
 * (Prometheus asks so); NULL: no. */
bool metrics_accepts_openmetrics(const char *accept);

#endif /* SCOPE_METRICS_TEXT_H */
