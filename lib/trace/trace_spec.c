/* trace_spec.c - recorder_trace_set(): the RECORDER_TRACES language.
 *
 * A specification is a list of items separated by ':' or spaces:
 *   re        set recorders (or, if none match, tweaks) named by 're' to 1
 *   re=N      set them to N (any base strtol accepts, negative allowed)
 *   -re       set to 0: record without tracing
 *   /re       set to -1: do not even record
 *   re=a,b    export arguments of matching recorders as channels a, b
 *             (a list needs a comma: 're=a,' exports one channel)
 *   command   help, list, all, traces, dump, output=FILE,
 *             output_append=FILE, share=PATH, chrome=FILE ('@' forces a
 *             command when a recorder has the same name)
 * Regexes are POSIX extended, must match a whole name, and ignore case
 * (as in recorder 1.2, "move" names MOVE). A name that matches nothing is
 * reported on stderr, and kept for what is activated later.
 */
#include "trace/trace_spec_private.h"
#include "trace/dump_private.h"
#include "record/output_private.h"
#include "text/regex_bound_private.h"
#include "record/registry_private.h"
#include "record/share_hooks_private.h"
#include "recorder_share.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct remembered
{
    struct remembered *next;
    char *             pattern;
    regex_t            regex;
    size_t             cost;            /* estimated by regex_bound */
    intptr_t           value;
    bool               for_tweaks;      /* matched no recorder when given */
} remembered;

static pthread_mutex_t spec_lock = PTHREAD_MUTEX_INITIALIZER;
static remembered *settings;            /* oldest first */
static size_t settings_cost;
static recorder_export_request *exports;
static size_t exports_cost;
static char *share_path;

/* Where the specification being applied comes from, and where its first
 * problem is explained: set by recorder_spec_apply, for its thread only. */
typedef struct spec_origin
{
    recorder_spec_source source;
    char *               why;
    size_t               why_size;
    unsigned             unmatched;     /* items that matched no name */
    char                 applied[128];  /* items applied, and refused, */
    char                 refused[128];  /* for the sender's answer */
} spec_origin;

static __thread spec_origin *origin;

/* Messages quote the specification, which may come from another process
 * through the command ring: every line is shown escaped, so no byte of it
 * drives a terminal. */
static void print_escaped(const char *text)
{
    char shown[1024];
    recorder_share_escape(shown, sizeof(shown), text, strcspn(text, "\n"));
    fprintf(stderr, "%s\n", shown);
}

/* The first problem with the specification goes to the caller's 'why'
 * (without the prefix and newline, escaped), for a command's ticket. */
static void explain(const char *text)
{
    if (!origin || !origin->why_size || origin->why[0])
        return;
    const char *body = text;
    if (strncmp(body, "recorder: ", 10) == 0)
        body += 10;
    recorder_share_escape(origin->why, origin->why_size, body,
                          strcspn(body, "\n"));
}

/* A problem with the specification: on stderr, and explained. */
static void complain(const char *text)
{
    print_escaped(text);
    explain(text);
}

static void warn(const char *what, const char *detail, const char *item)
{
    char text[512];
    snprintf(text, sizeof(text), "recorder: %s '%s' in '%s'\n",
             what, detail, item);
    complain(text);
    /* Only 'what' is a literal that outlives this call. */
    record(recorder_warning, "Trace specification: %+s", what);
}

/* Items of one specification that match nothing named on stderr; the
 * rest are counted (a generated specification may have thousands). */
#define UNMATCHED_NAMED 8

/* The program gave a name that matches nothing (yet): a typo is worth a
 * word, though the setting is kept for what a library loaded later may
 * bring. recorder 1.2 only recorded it. */
static void say_unmatched(const char *what, const char *pattern,
                          const char *item)
{
    if (!origin || origin->source != RECORDER_SPEC_FROM_PROGRAM ||
        origin->unmatched++ >= UNMATCHED_NAMED)
        return;
    char text[600];
    if (strcmp(pattern, item) == 0)
        snprintf(text, sizeof(text), "recorder: no %s matches '%.200s' "
                 "(kept for any activated later)\n", what, pattern);
    else
        snprintf(text, sizeof(text), "recorder: no %s matches '%.200s' in "
                 "'%.200s' (kept for any activated later)\n", what, pattern,
                 item);
    print_escaped(text);
    record(recorder_warning, "Trace specification: a name matched nothing");
}

/* Patterns can come from other processes (the command ring): their cost
 * is bounded by recorder_regex_compile(). '*cost' is its estimate. */
static bool compile_whole_name(const char *pattern, regex_t *regex,
                               size_t *cost, const char *item)
{
    char why[160];
    if (!recorder_regex_compile(regex, pattern, cost, why, sizeof(why)))
    {
        char text[720];
        snprintf(text, sizeof(text),
                 "recorder: invalid trace name '%.200s' in '%.200s': %s\n",
                 pattern, item, why);
        complain(text);
        record(recorder_warning, "Trace specification: invalid regex");
        return false;
    }
    return true;
}

static void set_recorder(recorder_info *rec, intptr_t value)
{
    __atomic_store_n(&rec->trace, value, __ATOMIC_RELAXED);
    record(recorder_traces, "Recorder %+s set to %ld", rec->name, (long) value);
}

static void set_tweak(recorder_tweak *tweak, intptr_t value)
{
    __atomic_store_n(&tweak->trace, value, __ATOMIC_RELAXED);
    record(recorder_traces, "Tweak %+s set to %ld", tweak->name, (long) value);
}

#define MAX_REMEMBERED  256
#define MAX_EXPORTS     256
/* Compiled patterns kept, in regex_bound's estimate: each is bounded, and
 * so is their sum, to about 16 MiB (ordinary patterns cost tens). */
#define MAX_KEPT_COST   (8 * RECORDER_REGEX_MAX_NODES)

static void forget(remembered **link)
{
    remembered *old = *link;
    *link = old->next;
    settings_cost -= old->cost;
    regfree(&old->regex);
    free(old->pattern);
    free(old);
}

/* Keep the setting for later activations; a newer one for the same
 * pattern replaces the older one so repeated commands do not pile up. */
static void remember(const char *pattern, regex_t *regex, size_t cost,
                     intptr_t value, bool for_tweaks)
{
    remembered *item = calloc(1, sizeof(*item));
    char *copy = strdup(pattern);
    if (!item || !copy)
    {
        free(item);
        free(copy);
        regfree(regex);
        return;
    }
    item->pattern = copy;
    item->regex = *regex;
    item->cost = cost;
    item->value = value;
    item->for_tweaks = for_tweaks;

    pthread_mutex_lock(&spec_lock);
    remembered **link = &settings;
    unsigned kept = 0;
    while (*link)
    {
        if (strcmp((*link)->pattern, pattern) == 0)
        {
            forget(link);
            continue;
        }
        link = &(*link)->next;
        kept++;
    }
    *link = item;
    settings_cost += cost;
    /* A long-running process fed commands must not grow without bound:
     * past the limits, the oldest settings are no longer replayed. */
    if (kept >= MAX_REMEMBERED)
        forget(&settings);
    while (settings_cost > MAX_KEPT_COST && settings != item)
        forget(&settings);
    pthread_mutex_unlock(&spec_lock);
}

static int apply_value(const char *pattern, intptr_t value, const char *item)
{
    regex_t regex;
    size_t cost;
    if (!compile_whole_name(pattern, &regex, &cost, item))
        return RECORDER_TRACE_INVALID_NAME;

    unsigned matched = 0, tweaks = 0;
    for (recorder_info *rec = recorder_list(); rec; rec = rec->next)
        if (regexec(&regex, rec->name, 0, NULL, 0) == 0)
        {
            set_recorder(rec, value);
            matched++;
        }
    if (!matched)
        for (recorder_tweak *t = recorder_tweak_list(); t; t = t->next)
            if (regexec(&regex, t->name, 0, NULL, 0) == 0)
            {
                set_tweak(t, value);
                tweaks++;
            }
    if (!matched && !tweaks && origin &&
        origin->source != RECORDER_SPEC_FROM_PROGRAM)
    {
        /* Another process asked for a change that changes nothing (a typo,
         * a slider on a tweak the program lacks): tell it, keep nothing.
         * The program's own settings are kept for a library loaded later. */
        char text[400];
        snprintf(text, sizeof(text), "no recorder or tweak '%.200s'", pattern);
        explain(text);
        record(recorder_warning, "Trace specification: no such name");
        regfree(&regex);
        return RECORDER_TRACE_INVALID_NAME;
    }
    if (!matched && !tweaks)
        say_unmatched("recorder or tweak", pattern, item);
    remember(pattern, &regex, cost, value, matched == 0);
    return RECORDER_TRACE_OK;
}

static void replay_for_recorder(recorder_info *rec)
{
    pthread_mutex_lock(&spec_lock);
    for (remembered *s = settings; s; s = s->next)
        if (regexec(&s->regex, rec->name, 0, NULL, 0) == 0)
            __atomic_store_n(&rec->trace, s->value, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&spec_lock);
}

static void replay_for_tweak(recorder_tweak *tweak)
{
    pthread_mutex_lock(&spec_lock);
    for (remembered *s = settings; s; s = s->next)
        if (s->for_tweaks && regexec(&s->regex, tweak->name, 0, NULL, 0) == 0)
            __atomic_store_n(&tweak->trace, s->value, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&spec_lock);
}

/* Settings are kept so that recorders and tweaks activated later (a library
 * loaded with dlopen, say) get them too, in the order they were given. */
static const recorder_registry_listener replay = {
    .recorder = replay_for_recorder, .tweak = replay_for_tweak,
};

static bool parse_number(const char *text, intptr_t *value)
{
    if (!*text || isspace((unsigned char) *text))
        return false;
    char *end;
    errno = 0;
    long long number = strtoll(text, &end, 0);
    if (*end || errno == ERANGE ||
        number < INTPTR_MIN || number > INTPTR_MAX)
        return false;
    *value = (intptr_t) number;
    return true;
}

static bool valid_channel_name(const char *name)
{
    if (!*name || strcmp(name, "_") == 0)
        return true;                    /* skips a position */
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char) *p) && *p != '_' && *p != '.' &&
            *p != '-')
            return false;
    return !isdigit((unsigned char) *name);
}

/* "re=a,b,c": parse the channel names and keep the request. */
static int apply_export(const char *pattern, const char *list,
                        const char *item)
{
    /* Compiled once, here: the share writer matches it under its lock,
     * which fork() waits for, so it must not compile there. */
    regex_t regex;
    size_t cost;
    if (!compile_whole_name(pattern, &regex, &cost, item))
        return RECORDER_TRACE_INVALID_NAME;

    recorder_export_request *request = calloc(1, sizeof(*request));
    char *names = strdup(list);
    if (!request || !names || !(request->pattern = strdup(pattern)))
        goto fail_alloc;

    char *cursor = names;
    for (;;)
    {
        char *comma = strchr(cursor, ',');
        if (comma)
            *comma = 0;
        if (request->count == RECORDER_MAX_ARGS || !valid_channel_name(cursor))
        {
            warn("invalid trace value", list, item);
            goto fail_value;
        }
        if (*cursor && strcmp(cursor, "_") != 0 &&
            !(request->names[request->count] = strdup(cursor)))
            goto fail_alloc;
        request->count++;
        if (!comma)
            break;
        cursor = comma + 1;
    }
    free(names);
    names = NULL;

    pthread_mutex_lock(&spec_lock);
    recorder_export_request **link = &exports;
    unsigned count = 0;
    while (*link)
    {
        link = &(*link)->next;
        count++;
    }
    if (count >= MAX_EXPORTS || exports_cost + cost > MAX_KEPT_COST)
    {
        /* Requests stay referenced by the segment; refuse rather than grow. */
        pthread_mutex_unlock(&spec_lock);
        warn(count >= MAX_EXPORTS ? "too many export requests, ignoring"
                                  : "export patterns too costly, ignoring",
             list, item);
        goto fail_value;
    }
    request->regex = regex;
    exports_cost += cost;
    bool matched = false;
    for (recorder_info *rec = recorder_list(); rec && !matched; rec = rec->next)
        matched = regexec(&regex, rec->name, 0, NULL, 0) == 0;
    /* Release: the share writer walks this list without the lock. */
    __atomic_store_n(link, request, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&spec_lock);
    if (!matched)
        say_unmatched("recorder", pattern, item);
    recorder_share_request(request);
    /* Requests are never freed, so their strings stay valid. */
    record(recorder_traces, "Export request %+s, %u channels",
           request->pattern, request->count);
    return RECORDER_TRACE_OK;

fail_value:
    regfree(&regex);
    for (unsigned n = 0; n < RECORDER_MAX_ARGS; n++)
        free(request->names[n]);
    free(request->pattern);
    free(request);
    free(names);
    return RECORDER_TRACE_INVALID_VALUE;
fail_alloc:
    regfree(&regex);
    if (request)
    {
        for (unsigned n = 0; n < RECORDER_MAX_ARGS; n++)
            free(request->names[n]);
        free(request->pattern);
    }
    free(request);
    free(names);
    warn("out of memory for", list, item);
    return RECORDER_TRACE_INVALID_VALUE;
}

static bool (*chrome_hook)(const char *path);
static const recorder_spec_snapshot *snapshot_hooks;

void recorder_spec_snapshot_hook(const recorder_spec_snapshot *hooks)
{
    __atomic_store_n(&snapshot_hooks, hooks, __ATOMIC_RELEASE);
}

void recorder_spec_chrome_hook(bool (*at_exit)(const char *path))
{
    __atomic_store_n(&chrome_hook, at_exit, __ATOMIC_RELEASE);
}

const recorder_export_request *recorder_spec_exports(void)
{
    return __atomic_load_n(&exports, __ATOMIC_ACQUIRE);
}

const char *recorder_spec_share_path(void)
{
    return __atomic_load_n(&share_path, __ATOMIC_ACQUIRE);
}

/* ---- commands ---------------------------------------------------------- */

static void show_list(bool traced_only)
{
    char line[512];
    unsigned shown = 0;
    if (!traced_only)
        recorder_output_text("Recorders (* = traced, - = off):\n");
    for (recorder_info *rec = recorder_list(); rec; rec = rec->next)
    {
        intptr_t trace = rec->trace;
        if (traced_only && trace == 0)
            continue;
        if (traced_only)
            snprintf(line, sizeof(line), "  %s=%ld\n", rec->name,
                     (long) trace);
        else
            snprintf(line, sizeof(line), "%c %-24s %s\n",
                     trace == -1 ? '-' : trace ? '*' : ' ',
                     rec->name, rec->description ? rec->description : "");
        recorder_output_text(line);
        shown++;
    }
    if (traced_only)
    {
        if (!shown)
            recorder_output_text("No recorder is traced or disabled\n");
        return;
    }
    recorder_output_text("Tweaks:\n");
    for (recorder_tweak *t = recorder_tweak_list(); t; t = t->next)
    {
        snprintf(line, sizeof(line), "  %-24s %-8ld %s\n", t->name,
                 (long) t->trace, t->description ? t->description : "");
        recorder_output_text(line);
    }
    /* A shared segment at a limit leaves some out: readers will not see
     * them, so say which. */
    char limits[400];
    if (recorder_share_limits(limits, sizeof(limits)))
    {
        snprintf(line, sizeof(line), "Not shared: %s\n", limits);
        recorder_output_text(line);
    }
}

static const char help_text[] =
    "Trace specification (RECORDER_TRACES, RECORDER_TWEAKS, "
    "recorder_trace_set):\n"
    "  items separated by ':' or spaces; regexes match whole names,\n"
    "  ignoring case\n"
    "  re            trace recorders matching re (or set tweaks to 1)\n"
    "  re=N          set trace or tweak value N (e.g. 0x10, -3)\n"
    "  -re           record, but do not trace\n"
    "  /re           do not even record\n"
    "  re=a,b,...    export arguments of re as channels a, b (_ skips);\n"
    "                one channel: re=a,\n"
    "  help, list    this help; recorders and tweaks\n"
    "  all           trace all recorders (same as .*)\n"
    "  traces        recorders whose trace is not 0\n"
    "  dump          dump the flight recorder now\n"
    "  output=FILE, output_append=FILE   send output to FILE\n"
    "  chrome=FILE   at exit, write the flight recorder to FILE as Chrome\n"
    "                trace-event JSON (Perfetto UI, chrome://tracing)\n"
    "  share=PATH    shared segment path; %p pid, %n program, %u user id,\n"
    "                %h host, %% a '%' (one segment per process: %p)\n"
    "  snapshot=RE   write the flight recorder to a file when a recorder\n"
    "                matching RE records; snapshot=CHAN>LEVEL (<, <>) when\n"
    "                a channel crosses LEVEL; snapshot= disarms them all\n"
    "  snapshot_post=MS, snapshot_holdoff=MS, snapshot_max=N,\n"
    "  snapshot_format=text|chrome|ctf   what follows, how often, how many\n"
    "  @cmd          run cmd even if a recorder has that name\n";

static int set_output(const char *path, const char *mode, const char *item)
{
    if (!*path)
    {
        warn("missing file name", "", item);
        return RECORDER_TRACE_INVALID_VALUE;
    }
    FILE *file = fopen(path, mode);
    if (!file)
    {
        warn("cannot open output file", path, item);
        return RECORDER_TRACE_INVALID_VALUE;
    }
    setvbuf(file, NULL, _IOLBF, 0);
    /* The previous file stays open: another thread may be tracing to it. */
    recorder_configure_output(file);
    return RECORDER_TRACE_OK;
}

/* Commands from another process must not name files: 'output=' would let
 * anyone who can write the segment write the program's output (a shell
 * line, say) into any file the program may write, 'chrome=' overwrite any
 * such file with the flight recorder, 'share=' move files aside. The program opts in with RECORDER_COMMANDS_FILES=1. */
static bool refused_from_ring(const char *name, const char *item)
{
    if (!origin || origin->source != RECORDER_SPEC_FROM_RING)
        return false;
    /* The sender knows its item: the ticket's short text gives the rule. */
    char why[128], text[512];
    snprintf(why, sizeof(why),
             "%s= refused from another process: names a file "
             "(program opt-in: RECORDER_COMMANDS_FILES=1)", name);
    explain(why);
    snprintf(text, sizeof(text), "recorder: %s in '%s'\n", why, item);
    print_escaped(text);
    record(recorder_warning, "Command naming a file refused from another "
           "process");
    return true;
}

/* snapshot=, snapshot_post=... : -1 if 'name' is not one of them. */
static int snapshot_item(const char *name, const char *value,
                         const char *item)
{
    const recorder_spec_snapshot *hooks =
        __atomic_load_n(&snapshot_hooks, __ATOMIC_ACQUIRE);
    if (strncmp(name, "snapshot", 8) != 0)
        return -1;
    char why[300] = "";
    int result = hooks ? hooks->item(name, value, why, sizeof(why)) : -1;
    if (result == RECORDER_TRACE_OK || result < 0)
        return result;
    char text[720];
    snprintf(text, sizeof(text), "recorder: %s in '%.200s'\n", why, item);
    complain(text);
    record(recorder_warning, "Trace specification: bad snapshot item");
    return result;
}

/* Returns -1 if 'name' is not a command. */
static int run_command(const char *name, const char *value, const char *item)
{
    bool plain = value == NULL;
    int snapshot = snapshot_item(name, value, item);
    if (snapshot >= 0)
        return snapshot;
    if (!plain && (strcmp(name, "output") == 0 ||
                   strcmp(name, "output_append") == 0 ||
                   strcmp(name, "chrome") == 0 ||
                   strcmp(name, "share") == 0) &&
        refused_from_ring(name, item))
        return RECORDER_SPEC_REFUSED;
    if (strcmp(name, "help") == 0 && plain)
    {
        recorder_output_text(help_text);
        show_list(false);
        return RECORDER_TRACE_OK;
    }
    if (strcmp(name, "list") == 0 && plain)
    {
        show_list(false);
        return RECORDER_TRACE_OK;
    }
    if (strcmp(name, "traces") == 0 && plain)
    {
        show_list(true);
        return RECORDER_TRACE_OK;
    }
    if (strcmp(name, "all") == 0 && plain)
        return apply_value(".*", 1, item);
    if (strcmp(name, "dump") == 0 && plain)
    {
        recorder_dump();
        return RECORDER_TRACE_OK;
    }
    if (strcmp(name, "output") == 0 && !plain)
        return set_output(value, "w", item);
    if (strcmp(name, "output_append") == 0 && !plain)
        return set_output(value, "a", item);
    if (strcmp(name, "chrome") == 0 && !plain)
    {
        if (!*value)
        {
            warn("missing file name", "", item);
            return RECORDER_TRACE_INVALID_VALUE;
        }
        bool (*at_exit)(const char *) =
            __atomic_load_n(&chrome_hook, __ATOMIC_ACQUIRE);
        if (!at_exit || !at_exit(value))
        {
            warn("cannot arrange to write at exit", value, item);
            return RECORDER_TRACE_INVALID_VALUE;
        }
        return RECORDER_TRACE_OK;
    }
    if (strcmp(name, "share") == 0 && !plain)
    {
        if (!*value)
        {
            warn("missing path", "", item);
            return RECORDER_TRACE_INVALID_VALUE;
        }
        char *copy = strdup(value);
        if (!copy)
            return RECORDER_TRACE_INVALID_VALUE;
        pthread_mutex_lock(&spec_lock);
        char *old = share_path;
        __atomic_store_n(&share_path, copy, __ATOMIC_RELEASE);
        pthread_mutex_unlock(&spec_lock);
        (void) old;                     /* readers may still hold it */
        record(recorder_traces, "Share path set");
        return recorder_share_start(copy) ? RECORDER_TRACE_OK
                                              : RECORDER_TRACE_INVALID_VALUE;
    }
    static const char *const names[] = {
        "help", "list", "traces", "all", "dump",
        "output", "output_append", "share", "chrome"
    };
    for (unsigned n = 0; n < sizeof(names) / sizeof(*names); n++)
        if (strcmp(name, names[n]) == 0)
        {
            warn(plain ? "missing value for command" : "unexpected value for command",
                 name, item);
            return RECORDER_TRACE_INVALID_VALUE;
        }
    return -1;
}

/* 'item' is a scratch copy of 'original', which messages quote. */
static int apply_item(char *item, const char *original)
{
    /* Separators aside, a control character (or a byte that is not text)
     * has no business in an item: from a terminal, it is a paste gone
     * wrong or an attempt to hide what the item does. The escaped text
     * differs from the item first where such a byte is. */
    size_t length = strlen(item);
    char *shown = malloc(4 * length + 1);
    bool clean = shown && recorder_share_escape(shown, 4 * length + 1, item,
                                                length) == length;
    if (!clean)
    {
        size_t at = 0;
        while (shown && shown[at] == item[at])
            at++;
        free(shown);
        char code[8];
        snprintf(code, sizeof(code), "\\x%02x", (unsigned char) item[at]);
        warn("control character", code, original);
        const char *equal = strchr(item, '=');
        return equal && equal < item + at ? RECORDER_TRACE_INVALID_VALUE
                                          : RECORDER_TRACE_INVALID_NAME;
    }
    free(shown);

    bool forced = item[0] == '@';
    if (forced)
        item++;

    char *equal = strchr(item, '=');
    const char *value = equal ? equal + 1 : NULL;
    if (equal)
        *equal = 0;
    const char *name = item;

    if (forced || (!recorder_find(name) && !recorder_tweak_find(name)))
    {
        int result = run_command(name, value, original);
        if (result >= 0)
            return result;
        if (forced)
        {
            warn("unknown command", name, original);
            return RECORDER_TRACE_INVALID_NAME;
        }
    }

    if (!value)
    {
        if (name[0] == '-')
            return apply_value(name + 1, 0, original);
        if (name[0] == '/')
            return apply_value(name + 1, -1, original);
        return apply_value(name, 1, original);
    }

    intptr_t number;
    if (parse_number(value, &number))
        return apply_value(name, number, original);
    /* A list needs a comma, so 'foo=x' is a bad number, not an export; one
     * channel is exported as 'foo=x,'. */
    if (strchr(value, ','))
        return apply_export(name, value, original);
    warn("invalid trace value", value, original);
    return RECORDER_TRACE_INVALID_VALUE;
}

/* Add 'item' to the items applied or refused, for the sender. */
static void note_outcome(const char *item, bool applied)
{
    if (!origin || !origin->why_size)
        return;
    char *list = applied ? origin->applied : origin->refused;
    size_t size = applied ? sizeof(origin->applied) : sizeof(origin->refused);
    size_t used = strlen(list);
    if (used + 4 >= size)
        return;                         /* "..." is there already */
    char shown[128];
    recorder_share_escape(shown, sizeof(shown), item, strlen(item));
    int wrote = snprintf(list + used, size - used, "%s%s", used ? " " : "",
                         shown);
    if (wrote < 0 || (size_t) wrote >= size - used)
        strcpy(list + size - 4, "...");
}

/* The answer to a sender when some items were applied and others refused:
 * which, and the first problem. True if so. */
static bool summarize(spec_origin *here)
{
    if (!here->why_size || !here->refused[0] || !here->applied[0])
        return false;
    char problem[256];
    snprintf(problem, sizeof(problem), "%s", here->why);
    /* A ticket is short: the problem is kept whole before the lists. */
    size_t size = here->why_size;
    if ((size_t) snprintf(here->why, size, "applied %s; refused %s: %s",
                          here->applied, here->refused, problem) >= size &&
        (size_t) snprintf(here->why, size, "%s; applied %s", problem,
                          here->applied) >= size)
        snprintf(here->why, size, "partly applied: %s", problem);
    return true;
}

/* Apply every item; the first problem decides the result. */
static int apply_spec(const char *spec)
{
    /* Items are cut in 'scratch'; 'quoted' keeps them whole for messages. */
    char *scratch = strdup(spec);
    char *quoted = strdup(spec);
    if (!scratch || !quoted)
    {
        free(scratch);
        free(quoted);
        return RECORDER_TRACE_INVALID_VALUE;
    }

    int result = RECORDER_TRACE_OK;
    char *rest = scratch;
    while (*rest)
    {
        size_t len = strcspn(rest, ": \t\n");
        char *original = quoted + (rest - scratch);
        char *next = rest + len;
        if (*next)
            *next++ = 0;
        original[len] = 0;
        if (len)
        {
            int status = apply_item(rest, original);
            if (status != RECORDER_TRACE_OK && result == RECORDER_TRACE_OK)
                result = status;
            note_outcome(original, status == RECORDER_TRACE_OK);
        }
        rest = next;
    }
    free(scratch);
    free(quoted);
    recorder_share_update();
    const recorder_spec_snapshot *hooks =
        __atomic_load_n(&snapshot_hooks, __ATOMIC_ACQUIRE);
    if (hooks)
        hooks->applied();
    return result;
}

int recorder_spec_apply(const char *spec, recorder_spec_source source,
                        char *why, size_t why_size)
{
    if (why_size)
        why[0] = 0;
    if (!spec)
        return RECORDER_TRACE_OK;
    recorder_init();
    /* Nothing to replay before the first spec; from now on, there may be. */
    recorder_registry_listen(RECORDER_LISTENER_SPEC, &replay);
    spec_origin here = { source, why, why_size, 0, "", "" }, *outer = origin;
    origin = &here;
    int result = apply_spec(spec);
    origin = outer;
    if (summarize(&here) && source != RECORDER_SPEC_FROM_PROGRAM)
        result = RECORDER_SPEC_PARTLY;
    if (here.unmatched > UNMATCHED_NAMED)
        fprintf(stderr, "recorder: %u more items of the specification match "
                "nothing\n", here.unmatched - UNMATCHED_NAMED);
    return result;
}
