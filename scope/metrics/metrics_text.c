/* metrics_text.c - the exposition text of recorder_scope --metrics. */
#include "metrics/metrics_text.h"

#include <recorder/recorder_share.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- text ------------------------------------------------------------------ */

static bool reserve(metrics_buffer *buffer, size_t more)
{
    if (buffer->failed)
        return false;
    if (buffer->length + more + 1 <= buffer->capacity)
        return true;
    size_t capacity = buffer->capacity ? buffer->capacity : 4096;
    while (capacity < buffer->length + more + 1)
        capacity *= 2;
    char *text = realloc(buffer->text, capacity);
    if (!text)
    {
        buffer->failed = true;
        return false;
    }
    buffer->text = text;
    buffer->capacity = capacity;
    return true;
}

static void append(metrics_buffer *buffer, const char *text, size_t length)
{
    if (!reserve(buffer, length))
        return;
    memcpy(buffer->text + buffer->length, text, length);
    buffer->length += length;
    buffer->text[buffer->length] = 0;
}

static void append_text(metrics_buffer *buffer, const char *text)
{
    append(buffer, text, strlen(text));
}

static void append_format(metrics_buffer *buffer, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static void append_format(metrics_buffer *buffer, const char *format, ...)
{
    char line[128];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(line, sizeof(line), format, args);
    va_end(args);
    if (n > 0)
        append(buffer, line, (size_t) n < sizeof(line) ? (size_t) n
                                                       : sizeof(line) - 1);
}

char *metrics_buffer_take(metrics_buffer *buffer, size_t *length)
{
    char *text = buffer->failed ? NULL : buffer->text;
    if (!text && !buffer->failed)
        text = calloc(1, 1);            /* nothing written: "" */
    if (buffer->failed)
        free(buffer->text);
    *length = text ? buffer->length : 0;
    memset(buffer, 0, sizeof(*buffer));
    return text;
}

/* Newlines as \n (the format's own escape); within the lines, what the
 * segment may hold that is not printable UTF-8 as the text \xNN, so the
 * value stays valid UTF-8 for the parsers; then backslash and quote. */
void metrics_escape_label(metrics_buffer *buffer, const char *text,
                          size_t length)
{
    char *line = malloc(4 * length + 1);
    if (!line)
    {
        buffer->failed = true;
        return;
    }
    size_t start = 0;
    while (start <= length)
    {
        const char *newline = memchr(text + start, '\n', length - start);
        size_t end = newline ? (size_t) (newline - text) : length;
        size_t n = recorder_share_escape(line, 4 * length + 1, text + start,
                                         end - start);
        for (size_t i = 0; i < n; i++)
        {
            if (line[i] == '\\' || line[i] == '"')
                append(buffer, "\\", 1);
            append(buffer, line + i, 1);
        }
        if (!newline)
            break;
        append(buffer, "\\n", 2);
        start = end + 1;
    }
    free(line);
}

/* The shortest of %.15g and %.17g that reads back as the same double;
 * NaN and infinities as the format spells them. */
static void append_number(metrics_buffer *buffer, double value)
{
    if (isnan(value))
        return append_text(buffer, "NaN");
    if (isinf(value))
        return append_text(buffer, value > 0 ? "+Inf" : "-Inf");
    char text[40];
    snprintf(text, sizeof(text), "%.15g", value);
    if (strtod(text, NULL) != value)
        snprintf(text, sizeof(text), "%.17g", value);
    append_text(buffer, text);
}

/* ---- interval statistics ------------------------------------------------- */

void metrics_stats_add(metrics_stats *stats, double value)
{
    if (isnan(value))
        return;                         /* would poison min, max and mean */
    if (!stats->count || value < stats->min)
        stats->min = value;
    if (!stats->count || value > stats->max)
        stats->max = value;
    stats->sum += value;
    stats->count++;
}

void metrics_stats_merge(metrics_stats *into, const metrics_stats *from)
{
    if (!from->count)
        return;
    if (!into->count || from->min < into->min)
        into->min = from->min;
    if (!into->count || from->max > into->max)
        into->max = from->max;
    into->sum += from->sum;
    into->count += from->count;
}

void metrics_span_add(metrics_span *span, double value)
{
    metrics_stats_add(&span->pending, value);
}

void metrics_span_publish(metrics_span *span)
{
    span->delta = span->pending;
    metrics_stats_merge(&span->shown, &span->pending);
    memset(&span->pending, 0, sizeof(span->pending));
}

void metrics_span_served(metrics_span *span, bool latest)
{
    span->shown = latest ? (metrics_stats) { 0 } : span->delta;
    memset(&span->delta, 0, sizeof(span->delta));
}

/* ---- the exposition --------------------------------------------------------- */

static const char *const state_names[METRICS_STATES] = {
    [METRICS_WAITING] = "waiting",
    [METRICS_FAILED]  = "failed",
    [METRICS_LIVE]    = "live",
    [METRICS_EXITED]  = "exited",
    [METRICS_DIED]    = "died",
    [METRICS_MOVED]   = "moved",
};

/* The HELP and TYPE lines. OpenMetrics names a counter's family without
 * the _total its samples carry; the 0.0.4 text names the samples. */
static void family(metrics_buffer *buffer, const char *name, const char *type,
                   const char *help, bool openmetrics)
{
    size_t length = strlen(name);
    if (openmetrics && strcmp(type, "counter") == 0 && length > 6 &&
        strcmp(name + length - 6, "_total") == 0)
        length -= 6;
    append_text(buffer, "# HELP ");
    append(buffer, name, length);
    append(buffer, " ", 1);
    append_text(buffer, help);
    append_text(buffer, "\n# TYPE ");
    append(buffer, name, length);
    append_format(buffer, " %s\n", type);
}

static void label(metrics_buffer *buffer, const char *name, const char *value,
                  size_t size, bool first)
{
    append_format(buffer, "%s%s=\"", first ? "" : ",", name);
    if (value)
        metrics_escape_label(buffer, value, size == SIZE_MAX
                                            ? strlen(value)
                                            : strnlen(value, size));
    append(buffer, "\"", 1);
}

static void process_labels(metrics_buffer *buffer, const char *program,
                           size_t program_size, unsigned pid, bool has_pid,
                           const char *host, size_t host_size, bool first)
{
    label(buffer, "program", program, program_size, first);
    char text[16] = "";
    if (has_pid)
        snprintf(text, sizeof(text), "%u", pid);
    label(buffer, "pid", text, sizeof(text), false);
    label(buffer, "host", host, host_size, false);
}

/* {program, pid, host, channel, unit} of each channel, escaped once for
 * all the families that repeat them. */
static char **channel_labels(const metrics_snapshot *snapshot)
{
    char **labels = calloc(snapshot->channel_count + 1, sizeof(*labels));
    for (unsigned c = 0; labels && c < snapshot->channel_count; c++)
    {
        const metrics_channel *channel = &snapshot->channels[c];
        metrics_buffer text = { 0 };
        append(&text, "{", 1);
        process_labels(&text, channel->program, channel->program_size,
                       channel->pid, true, channel->host, channel->host_size,
                       true);
        label(&text, "channel", channel->channel, SIZE_MAX, false);
        label(&text, "unit", channel->unit, SIZE_MAX, false);
        append(&text, "} ", 2);
        size_t length;
        labels[c] = metrics_buffer_take(&text, &length);
    }
    return labels;
}

static void free_labels(char **labels, unsigned count)
{
    for (unsigned c = 0; labels && c < count; c++)
        free(labels[c]);
    free(labels);
}

enum { VALUE, SAMPLES, LOST, MIN, MAX, MEAN };

static void channel_family(metrics_buffer *buffer,
                           const metrics_snapshot *snapshot, char **labels,
                           unsigned which)
{
    for (unsigned c = 0; c < snapshot->channel_count; c++)
    {
        const metrics_channel *channel = &snapshot->channels[c];
        const metrics_stats *interval = &channel->interval;
        if ((which == VALUE && !channel->has_value) ||
            (which >= MIN && !interval->count) || !labels[c])
            continue;
        static const char *const names[] = {
            [VALUE] = "recorder_channel_value",
            [SAMPLES] = "recorder_channel_samples_total",
            [LOST] = "recorder_channel_lost_samples_total",
            [MIN] = "recorder_channel_min",
            [MAX] = "recorder_channel_max",
            [MEAN] = "recorder_channel_mean",
        };
        append_text(buffer, names[which]);
        append_text(buffer, labels[c]);
        switch (which)
        {
        case VALUE:   append_number(buffer, channel->value); break;
        case SAMPLES: append_format(buffer, "%" PRIu64, channel->samples); break;
        case LOST:    append_format(buffer, "%" PRIu64, channel->lost); break;
        case MIN:     append_number(buffer, interval->min); break;
        case MAX:     append_number(buffer, interval->max); break;
        case MEAN:
            append_number(buffer, interval->sum / (double) interval->count);
            break;
        }
        append(buffer, "\n", 1);
    }
}

static void segment_counter(metrics_buffer *buffer,
                            const metrics_snapshot *snapshot, const char *name,
                            bool errors)
{
    for (unsigned s = 0; s < snapshot->segment_count; s++)
    {
        const metrics_segment *segment = &snapshot->segments[s];
        append_text(buffer, name);
        append(buffer, "{", 1);
        label(buffer, "path", segment->path, SIZE_MAX, true);
        append_format(buffer, "} %" PRIu64 "\n",
                      errors ? segment->read_errors : segment->restarts);
    }
}

void metrics_text_write(metrics_buffer *buffer,
                        const metrics_snapshot *snapshot, bool openmetrics)
{
    char **labels = channel_labels(snapshot);
    if (!labels)
    {
        buffer->failed = true;
        return;
    }
    family(buffer, "recorder_channel_value", "gauge",
           "The newest sample of the channel.", openmetrics);
    channel_family(buffer, snapshot, labels, VALUE);
    family(buffer, "recorder_channel_samples_total", "counter",
           "Samples of the channel read from this process.", openmetrics);
    channel_family(buffer, snapshot, labels, SAMPLES);
    family(buffer, "recorder_channel_lost_samples_total", "counter",
           "Samples the process overwrote before they were read.",
           openmetrics);
    channel_family(buffer, snapshot, labels, LOST);
    family(buffer, "recorder_channel_min", "gauge",
           "Smallest sample since the previous scrape (absent if none).",
           openmetrics);
    channel_family(buffer, snapshot, labels, MIN);
    family(buffer, "recorder_channel_max", "gauge",
           "Largest sample since the previous scrape (absent if none).",
           openmetrics);
    channel_family(buffer, snapshot, labels, MAX);
    family(buffer, "recorder_channel_mean", "gauge",
           "Mean of the samples since the previous scrape (absent if none).",
           openmetrics);
    channel_family(buffer, snapshot, labels, MEAN);
    free_labels(labels, snapshot->channel_count);

    family(buffer, "recorder_segment_state", "gauge",
           "1 for the state the segment is in, 0 for the others.",
           openmetrics);
    for (unsigned s = 0; s < snapshot->segment_count; s++)
    {
        const metrics_segment *segment = &snapshot->segments[s];
        for (unsigned state = 0; state < METRICS_STATES; state++)
        {
            append_text(buffer, "recorder_segment_state{");
            label(buffer, "path", segment->path, SIZE_MAX, true);
            process_labels(buffer, segment->program, segment->program_size,
                           segment->pid, segment->has_process, segment->host,
                           segment->host_size, false);
            label(buffer, "state", state_names[state], SIZE_MAX, false);
            append_format(buffer, "} %d\n", segment->state == state);
        }
    }
    family(buffer, "recorder_segment_restarts_total", "counter",
           "New processes found at the path after the first.", openmetrics);
    segment_counter(buffer, snapshot, "recorder_segment_restarts_total", false);
    family(buffer, "recorder_segment_read_errors_total", "counter",
           "Times the segment at the path could not be used.", openmetrics);
    segment_counter(buffer, snapshot, "recorder_segment_read_errors_total",
                    true);

    family(buffer, "recorder_scope_scrapes_total", "counter",
           "Requests for the metrics served.", openmetrics);
    append_format(buffer, "recorder_scope_scrapes_total %" PRIu64 "\n",
                  snapshot->health.scrapes);
    family(buffer, "recorder_scope_polls_total", "counter",
           "Reads of the segments (about 50 a second).", openmetrics);
    append_format(buffer, "recorder_scope_polls_total %" PRIu64 "\n",
                  snapshot->health.polls);
    if (openmetrics)
        append_text(buffer, "# EOF\n");
}

/* Accept: a list of media ranges with an optional q; OpenMetrics if it
 * weighs at least as much as the 0.0.4 text (text/plain). */
bool metrics_accepts_openmetrics(const char *accept)
{
    double openmetrics = 0, plain = 0;
    while (accept && *accept)
    {
        size_t length = strcspn(accept, ",");
        char item[256];
        snprintf(item, sizeof(item), "%.*s",
                 (int) (length < sizeof(item) ? length : sizeof(item) - 1),
                 accept);
        accept += length + (accept[length] == ',');
        const char *type = item + strspn(item, " \t");
        size_t type_length = strcspn(type, "; \t");
        double q = 1;
        const char *weight = strstr(type, ";q=");
        if (!weight)
            weight = strstr(type, "; q=");
        if (weight)
            q = strtod(strchr(weight, '=') + 1, NULL);
        if (!(q >= 0 && q <= 1))
            q = 0;
        if (type_length == 28 &&
            strncasecmp(type, "application/openmetrics-text", 28) == 0)
            openmetrics = fmax(openmetrics, q);
        else if (type_length == 10 && strncasecmp(type, "text/plain", 10) == 0)
            plain = fmax(plain, q);
    }
    return openmetrics > 0 && openmetrics >= plain;
}
