/* chrome_json_self.c - the process's own flight recorder as a Chrome
 * trace-event JSON file: recorder_dump_chrome_json(), and the chrome=FILE
 * item of trace specifications, written at exit.
 *
 * The records come from the process's rings, merged as dump.c merges
 * them, but from the oldest record kept and without moving where the next
 * dump starts: the file is a snapshot, dumps go on as before. Each is
 * rendered, located and typed as a reader of the segment gives it
 * (share_records.c), then handed to the same writer (chrome_json.c), with
 * the arguments exported as channels as counters: one format for both.
 */
#define _GNU_SOURCE                     /* program_invocation_short_name */
#include "trace/chrome_json_private.h"
#include "record/clock_private.h"
#include "text/format_scan_private.h"
#include "record/output_private.h"
#include "record/record_merge_private.h"
#include "record/registry_private.h"
#include "text/render_private.h"
#include "trace/trace_spec_private.h"

#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct self_source
{
    chrome_json *    json;
    unsigned         process;
    recorder_output  out;
    recorder_info ** recorders;         /* cursor -> its recorder */
    unsigned *       lanes;             /* cursor -> its lane */
    struct self_texts *texts;
    unsigned         records;
    uint64_t         until_ns;          /* later records are left out */
} self_source;

/* Texts of one record: escaped as a segment's reader gets them. */
typedef struct self_texts
{
    char name[4 * 64 + 1];
    char format[4 * 1024 + 1];
    char file[4 * 256 + 1];
    char function[4 * 128 + 1];
    char message[4 * RECORDER_MESSAGE_MAX + 1];
    char strings[RECORDER_MAX_ARGS][4 * 256 + 1];
} self_texts;

static void escape(char *out, size_t size, const char *text, size_t max)
{
    recorder_share_escape(out, size, text ? text : "",
                          text ? strnlen(text, max) : 0);
}

/* Arguments exported as channels ("rec=a,b"): counters. */
static void add_counters(self_source *source, recorder_info *rec,
                         uint64_t ns, const recorder_share_arg *args,
                         unsigned nargs)
{
    for (const recorder_export_request *request = recorder_spec_exports();
         request; request = request->next)
    {
        if (regexec(&request->regex, rec->name, 0, NULL, 0) != 0)
            continue;
        for (unsigned a = 0; a < request->count && a < nargs; a++)
        {
            const recorder_share_arg *arg = &args[a];
            if (!request->names[a] || arg->type == RECORDER_SHARE_ARG_STRING)
                continue;
            double value = arg->type == RECORDER_SHARE_ARG_SIGNED
                               ? (double) arg->value.i
                         : arg->type == RECORDER_SHARE_ARG_REAL
                               ? arg->value.r
                               : (double) arg->value.u;
            chrome_json_counter(source->json, source->process, ns,
                                request->names[a], value);
        }
    }
}

static bool take_record(const recorder_record *record, unsigned cursor,
                        void *arg)
{
    self_source *source = arg;
    recorder_info *rec = source->recorders[cursor];
    const recorder_site *site = (const recorder_site *) record->site;
    self_texts *texts = source->texts;
    uint64_t ns = recorder_clock_ns_since_start(record->timestamp);
    if (ns > source->until_ns)
        return false;

    char message[RECORDER_MESSAGE_MAX];
    recorder_render_options options;
    bool known = recorder_output_message(message, &source->out, rec->trace,
                                         site, record->args, record->nargs,
                                         &options);
    escape(texts->name, sizeof(texts->name), rec->name, 64);
    escape(texts->message, sizeof(texts->message), message,
           sizeof(message));
    escape(texts->format, sizeof(texts->format),
           known ? site->format : "", 1024);
    escape(texts->file, sizeof(texts->file), known ? site->file : "", 256);
    escape(texts->function, sizeof(texts->function),
           known ? site->function : "", 128);

    recorder_share_arg args[RECORDER_MAX_ARGS];
    unsigned nargs = record->nargs < RECORDER_MAX_ARGS ? record->nargs
                                                       : RECORDER_MAX_ARGS;
    for (unsigned a = 0; a < nargs; a++)
    {
        bool text;
        recorder_format_typed(known ? site->format : "", a, record->args[a],
                              &args[a], &text);
        if (args[a].type != RECORDER_SHARE_ARG_STRING)
            continue;
        /* The string as the dump shows it, read as the dump reads it
         * (through the kernel when the rings are shared). */
        char shown[256] = "";
        if (text)
            recorder_render(shown, sizeof(shown), "%+s", &record->args[a], 1,
                            &options);
        escape(texts->strings[a], sizeof(texts->strings[a]), shown,
               sizeof(shown));
        args[a].value.s = texts->strings[a];
    }

    recorder_share_record given = {
        .time = (double) ns * 1e-9,
        .recorder = texts->name,
        .message = texts->message,
        .ticks = record->timestamp,
        .site = (uint64_t) record->site,
        .format = texts->format,
        .file = texts->file,
        .function = texts->function,
        .line = known ? site->line : 0,
        .lane = source->lanes[cursor],
        .nargs = nargs,
        .args = args,
    };
    chrome_json_record(source->json, source->process, ns, &given);
    add_counters(source, rec, ns, args, nargs);
    source->records++;
    return true;
}

int recorder_chrome_json_self(FILE *out, uint64_t until_ns)
{
    recorder_init();
    unsigned recorders = 0;
    for (recorder_info *rec = recorder_list(); rec; rec = rec->next)
        recorders++;
    size_t most = (size_t) recorders * RECORDER_LANES;
    lane_cursor *cursors = calloc(most ? most : 1, sizeof(*cursors));
    self_source source = {
        .json = chrome_json_new(),
        .out = recorder_output_current(false),
        .recorders = calloc(most ? most : 1, sizeof(*source.recorders)),
        .lanes = calloc(most ? most : 1, sizeof(*source.lanes)),
        .texts = malloc(sizeof(self_texts)),
        .until_ns = until_ns,
    };
    int result = -1;
    if (!cursors || !source.json || !source.recorders || !source.lanes ||
        !source.texts)
    {
        errno = ENOMEM;
        goto done;
    }
    source.process = chrome_json_process(source.json, (unsigned) getpid(),
                                         program_invocation_short_name);

    /* Recorders activated since the count are left for the next file. */
    unsigned used = 0;
    for (recorder_info *rec = recorder_list(); rec; rec = rec->next)
    {
        uint32_t size = __atomic_load_n(&rec->mask, __ATOMIC_ACQUIRE) + 1;
        recorder_buffer *first = __atomic_load_n(&rec->buffer,
                                                 __ATOMIC_ACQUIRE);
        for (unsigned lane = 0; lane < RECORDER_LANES && used < most; lane++)
        {
            lane_cursor *cursor = &cursors[used];
            lane_cursor_open(cursor, RECORDER_LANE(first, size, lane), size,
                             0, NULL);
            if (!lane_cursor_any(cursor))
                continue;
            source.recorders[used] = rec;
            source.lanes[used] = lane;
            used++;
        }
    }
    lane_losses losses = { .gone = -1 };
    record_merge(cursors, used, SIZE_MAX, &losses, take_record, &source);

    errno = 0;
    if (!chrome_json_write(source.json, out) || fflush(out) != 0)
    {
        if (!errno)
            errno = EIO;
        goto done;
    }
    result = (int) source.records;

done:
    chrome_json_delete(source.json);
    free(source.recorders);
    free(source.lanes);
    free(source.texts);
    free(cursors);
    return result;
}

int recorder_dump_chrome_json(const char *path)
{
    if (!path || !*path)
    {
        errno = EINVAL;
        return -1;
    }
    FILE *out = fopen(path, "w");
    if (!out)
        return -1;
    int result = recorder_chrome_json_self(out, UINT64_MAX);
    int saved = errno;
    if (fclose(out) != 0 && result >= 0)
        return -1;
    errno = saved;
    return result;
}

/* ---- chrome=FILE: written at exit ----------------------------------------- */

static pthread_mutex_t at_exit_lock = PTHREAD_MUTEX_INITIALIZER;
static char *at_exit_path;

static void write_at_exit(void)
{
    pthread_mutex_lock(&at_exit_lock);
    char *path = at_exit_path;
    at_exit_path = NULL;
    pthread_mutex_unlock(&at_exit_lock);
    if (!path)
        return;
    if (recorder_dump_chrome_json(path) < 0)
        fprintf(stderr, "recorder: cannot write %s: %s\n", path,
                strerror(errno));
    free(path);
}

static bool write_at_exit_to(const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return false;
    pthread_mutex_lock(&at_exit_lock);
    static bool registered;
    bool ok = registered || atexit(write_at_exit) == 0;
    registered = ok;
    char *old = at_exit_path;
    at_exit_path = ok ? copy : NULL;
    pthread_mutex_unlock(&at_exit_lock);
    free(old);
    if (!ok)
        free(copy);
    return ok;
}

void recorder_chrome_json_install(void)
{
    recorder_spec_chrome_hook(write_at_exit_to);
}
