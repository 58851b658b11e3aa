/* chrome_json.c - write records, counters and crashes as Chrome trace
 * events (the JSON that the Perfetto UI and chrome://tracing open).
 *
 * Events are formatted as they come into one growing text, and indexed by
 * (kind, time, process, arrival); the file is written once, sorted, so a
 * source may give its processes one after the other. Times are kept in
 * integer nanoseconds and written as microseconds with three decimals:
 * no rounding, so a record's microsecond is the text dump's.
 *
 * Every string goes through recorder_share_escape first (a dump shows
 * text the same way), then quotes and backslashes are escaped for JSON:
 * the file is valid UTF-8 JSON whatever a segment holds.
 */
#define _GNU_SOURCE                     /* sigabbrev_np */
#include "trace/chrome_json_private.h"
#include "recorder_backtrace.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct json_event
{
    unsigned kind;                      /* 0: metadata, first; 1: the rest */
    uint64_t ns;
    unsigned process;
    size_t   sequence;                  /* arrival, for equal times */
    size_t   offset, length;            /* in the text */
} json_event;

typedef struct json_process
{
    unsigned pid;
    uint64_t last_ns;
    uint8_t  lanes[RECORDER_SHARE_LANES_MAX]; /* thread_name written */
} json_process;

struct chrome_json
{
    char *        text;
    size_t        used, room;
    json_event *  events;
    size_t        count, capacity;
    json_process *processes;
    unsigned      process_count;
    bool          failed;               /* out of memory: events missing */
    /* The event being formatted starts here. */
    size_t        start;
};

chrome_json *chrome_json_new(void)
{
    return calloc(1, sizeof(chrome_json));
}

void chrome_json_delete(chrome_json *json)
{
    if (!json)
        return;
    free(json->text);
    free(json->events);
    free(json->processes);
    free(json);
}

/* ---- text ----------------------------------------------------------------- */

static bool reserve(chrome_json *json, size_t more)
{
    if (json->failed)
        return false;
    if (json->room - json->used > more)
        return true;
    size_t room = json->room ? json->room : 1 << 16;
    while (room - json->used <= more)
        room *= 2;
    char *text = realloc(json->text, room);
    if (!text)
    {
        json->failed = true;
        return false;
    }
    json->text = text;
    json->room = room;
    return true;
}

static void put(chrome_json *json, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
static void put(chrome_json *json, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int n = json->failed ? -1 : vsnprintf(json->text + json->used,
                                          json->room - json->used, format,
                                          args);
    va_end(args);
    if (n < 0)
        return;
    if ((size_t) n >= json->room - json->used)
    {
        if (!reserve(json, (size_t) n + 1))
            return;
        va_start(args, format);
        vsnprintf(json->text + json->used, json->room - json->used, format,
                  args);
        va_end(args);
    }
    json->used += (size_t) n;
}

size_t chrome_json_escape(char *out, size_t size, const char *text,
                          size_t length)
{
    if (!size)
        return 0;
    /* Controls and bad UTF-8 become the text \xNN first, as dumps show
     * them; then only quotes and backslashes remain to escape. */
    char small[1024];
    size_t shown_size = 4 * length + 1;
    char *shown = shown_size <= sizeof(small) ? small : malloc(shown_size);
    if (!shown)
    {
        out[0] = 0;
        return 0;
    }
    size_t shown_length = recorder_share_escape(shown, shown_size, text,
                                                length);
    size_t at = 0;
    for (size_t i = 0; i < shown_length; i++)
    {
        char c = shown[i];
        bool escaped = c == '"' || c == '\\';
        if (at + 1 + escaped > size - 1)
            break;
        if (escaped)
            out[at++] = '\\';
        out[at++] = c;
    }
    out[at] = 0;
    if (shown != small)
        free(shown);
    return at;
}

/* "TEXT" with its quotes. */
static void put_string(chrome_json *json, const char *text)
{
    size_t length = strlen(text);
    if (!reserve(json, 6 * length + 3))
        return;
    json->text[json->used++] = '"';
    json->used += chrome_json_escape(json->text + json->used,
                                     json->room - json->used, text, length);
    json->text[json->used++] = '"';
}

/* Microseconds, exactly: integer part, then the three digits of the ns. */
static void put_time(chrome_json *json, uint64_t ns)
{
    put(json, "%llu.%03u", (unsigned long long) (ns / 1000),
        (unsigned) (ns % 1000));
}

static void put_real(chrome_json *json, double value)
{
    if (isfinite(value))
        put(json, "%.17g", value);
    else
        put_string(json, isnan(value) ? "nan" : value > 0 ? "inf" : "-inf");
}

/* ---- events --------------------------------------------------------------- */

static void begin(chrome_json *json)
{
    reserve(json, 256);
    json->start = json->used;
}

static void end(chrome_json *json, unsigned kind, unsigned process,
                uint64_t ns)
{
    if (json->failed)
        return;
    if (json->count == json->capacity)
    {
        size_t capacity = json->capacity ? 2 * json->capacity : 1024;
        json_event *events = realloc(json->events,
                                     capacity * sizeof(*events));
        if (!events)
        {
            json->failed = true;
            return;
        }
        json->events = events;
        json->capacity = capacity;
    }
    json->events[json->count] = (json_event) {
        kind, ns, process, json->count, json->start, json->used - json->start
    };
    json->count++;
    if (kind && ns > json->processes[process].last_ns)
        json->processes[process].last_ns = ns;
}

unsigned chrome_json_process(chrome_json *json, unsigned pid,
                             const char *program)
{
    json_process *grown = realloc(json->processes,
                                  (json->process_count + 1) * sizeof(*grown));
    if (!grown)
    {
        json->failed = true;
        return json->process_count ? json->process_count - 1 : 0;
    }
    json->processes = grown;
    unsigned process = json->process_count++;
    json->processes[process] = (json_process) { .pid = pid };
    begin(json);
    put(json, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%u,\"tid\":0,"
        "\"args\":{\"name\":", pid);
    put_string(json, program);
    put(json, "}}");
    end(json, 0, process, 0);
    return process;
}

static void put_argument(chrome_json *json, const recorder_share_arg *arg)
{
    switch (arg->type)
    {
    case RECORDER_SHARE_ARG_SIGNED:
        put(json, "%lld", (long long) arg->value.i);
        break;
    case RECORDER_SHARE_ARG_UNSIGNED:
        put(json, "%llu", (unsigned long long) arg->value.u);
        break;
    case RECORDER_SHARE_ARG_REAL:
        put_real(json, arg->value.r);
        break;
    case RECORDER_SHARE_ARG_STRING:
        put_string(json, arg->value.s ? arg->value.s : "");
        break;
    case RECORDER_SHARE_ARG_POINTER:
    default:
        put(json, "\"%#llx\"", (unsigned long long) arg->value.u);
        break;
    }
}

void chrome_json_record(chrome_json *json, unsigned process, uint64_t ns,
                        const recorder_share_record *record)
{
    if (json->failed || process >= json->process_count)
        return;
    json_process *p = &json->processes[process];
    unsigned lane = record->lane;
    if (lane < RECORDER_SHARE_LANES_MAX && !p->lanes[lane])
    {
        p->lanes[lane] = 1;
        begin(json);
        put(json, "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%u,"
            "\"tid\":%u,\"args\":{\"name\":\"lane %u\"}}", p->pid, lane,
            lane);
        end(json, 0, process, 0);
    }
    begin(json);
    put(json, "{\"ph\":\"i\",\"s\":\"t\",\"ts\":");
    put_time(json, ns);
    put(json, ",\"pid\":%u,\"tid\":%u,\"cat\":", p->pid, lane);
    put_string(json, record->recorder);
    put(json, ",\"name\":");
    put_string(json, record->message);
    put(json, ",\"args\":{\"format\":");
    put_string(json, record->format ? record->format : "");
    put(json, ",\"file\":");
    put_string(json, record->file ? record->file : "");
    put(json, ",\"line\":%u,\"function\":", record->line);
    put_string(json, record->function ? record->function : "");
    put(json, ",\"arguments\":[");
    for (unsigned a = 0; a < record->nargs; a++)
    {
        if (a)
            put(json, ",");
        put_argument(json, &record->args[a]);
    }
    put(json, "]}}");
    end(json, 1, process, ns);
}

void chrome_json_counter(chrome_json *json, unsigned process, uint64_t ns,
                         const char *channel, double value)
{
    if (json->failed || process >= json->process_count || !isfinite(value))
        return;
    begin(json);
    put(json, "{\"ph\":\"C\",\"ts\":");
    put_time(json, ns);
    put(json, ",\"pid\":%u,\"tid\":0,\"name\":",
        json->processes[process].pid);
    put_string(json, channel);
    put(json, ",\"args\":{");
    put_string(json, channel);
    put(json, ":");
    put_real(json, value);
    put(json, "}}");
    end(json, 1, process, ns);
}

void chrome_json_crash(chrome_json *json, unsigned process, uint64_t ns,
                       const recorder_backtrace *backtrace)
{
    if (json->failed || process >= json->process_count || !backtrace)
        return;
    unsigned frames = recorder_backtrace_count(backtrace);
    int signal = 0;
    for (unsigned f = 0; f < frames && !signal; f++)
    {
        recorder_backtrace_frame frame;
        if (recorder_backtrace_frame_info(backtrace, f, &frame))
            signal = frame.signal;
    }
    const char *abbreviation = signal ? sigabbrev_np(signal) : NULL;
    char name[64];
    if (abbreviation)
        snprintf(name, sizeof(name), "crash: SIG%s", abbreviation);
    else if (signal)
        snprintf(name, sizeof(name), "crash: signal %d", signal);
    else
        snprintf(name, sizeof(name), "crash");
    begin(json);
    put(json, "{\"ph\":\"i\",\"s\":\"p\",\"ts\":");
    put_time(json, ns);
    put(json, ",\"pid\":%u,\"tid\":0,\"cat\":\"crash\",\"name\":",
        json->processes[process].pid);
    put_string(json, name);
    put(json, ",\"args\":{\"signal\":%d,\"frames\":[", signal);
    for (unsigned f = 0; f < frames; f++)
    {
        recorder_backtrace_frame frame;
        if (!recorder_backtrace_frame_info(backtrace, f, &frame))
            continue;
        /* "#N FUNCTION at FILE:LINE (MODULE+0xOFFSET)", as much as known. */
        char text[1024];
        int at = snprintf(text, sizeof(text), "#%u %s", f,
                          frame.function ? frame.function
                          : frame.symbol ? frame.symbol : "??");
        if (at > 0 && frame.file && frame.file[0] &&
            (size_t) at < sizeof(text))
            at += snprintf(text + at, sizeof(text) - (size_t) at,
                           " at %s:%u", frame.file, frame.line);
        if (at > 0 && (size_t) at < sizeof(text))
            snprintf(text + at, sizeof(text) - (size_t) at,
                     " (%s+%#llx)", frame.module ? frame.module : "?",
                     (unsigned long long) frame.offset);
        if (f)
            put(json, ",");
        put_string(json, text);
    }
    put(json, "]}}");
    end(json, 1, process, ns);
}

uint64_t chrome_json_last_ns(const chrome_json *json, unsigned process)
{
    return process < json->process_count ? json->processes[process].last_ns
                                         : 0;
}

/* ---- the file ------------------------------------------------------------- */

static int event_order(const void *left, const void *right)
{
    const json_event *a = left, *b = right;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->ns != b->ns)
        return a->ns < b->ns ? -1 : 1;
    if (a->process != b->process)
        return a->process < b->process ? -1 : 1;
    return a->sequence < b->sequence ? -1 : a->sequence > b->sequence;
}

bool chrome_json_write(chrome_json *json, FILE *out)
{
    if (json->count)
        qsort(json->events, json->count, sizeof(*json->events), event_order);
    fputs("{\"traceEvents\":[\n", out);
    for (size_t e = 0; e < json->count; e++)
    {
        const json_event *event = &json->events[e];
        fwrite(json->text + event->offset, 1, event->length, out);
        fputs(e + 1 < json->count ? ",\n" : "\n", out);
    }
    fputs("],\"displayTimeUnit\":\"ns\"}\n", out);
    return !json->failed && !ferror(out);
}
