/* snapshot_conditions.c - snapshot=REGEX and snapshot=CHANNEL>LEVEL: arm
 * conditions, and watch the recorders they name.
 *
 * A condition takes one of RECORDER_WATCH_SLOTS slots. Each recorder it
 * names (a regex: by name; a crossing: the recorders that export the
 * channel, by the export requests given so far) gets the slot's item in
 * its recorder_watch, and its 'watch' pointer set; the others keep a NULL
 * pointer and pay nothing. Recorders activated later, and exports given
 * later, are watched as they come.
 */
#include "snapshot/snapshot_private.h"
#include "recorder_level.h"
#include "recorder_regex.h"
#include "record/registry_private.h"
#include "trace/trace_spec_private.h"

#include <math.h>
#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The hysteresis of a crossing, as a fraction of the level's size: after
 * firing, a rising condition fires again only once the value went below
 * LEVEL - band (above LEVEL + band for falling). */
#define SNAPSHOT_HYSTERESIS     0.05

/* Argument of a recorder no condition looks at. */
#define NOT_WATCHED             (-2)

typedef struct condition
{
    bool                    armed;
    bool                    crossing;   /* CHANNEL>LEVEL, else a regex */
    uint32_t                serial;
    char                    text[SNAPSHOT_CONDITION_TEXT];
    regex_t                 regex;
    recorder_level_crossing level;
} condition;

/* The watch of a recorder, once it was named: kept for good, since a
 * record may still be using it when the condition goes. */
typedef struct watched
{
    struct watched *next;
    recorder_info * rec;
    recorder_watch  watch;
} watched;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static condition conditions[RECORDER_WATCH_SLOTS];
static watched *watches;
static uint32_t serials;

static recorder_watch *watch_for(recorder_info *rec)
{
    for (watched *w = watches; w; w = w->next)
        if (w->rec == rec)
            return &w->watch;
    watched *w = calloc(1, sizeof(*w));
    if (!w)
        return NULL;
    w->rec = rec;
    w->next = watches;
    watches = w;
    return &w->watch;
}

/* The argument of 'rec's records condition 'c' looks at. */
static int argument_for(const condition *c, recorder_info *rec)
{
    if (!c->crossing)
        return regexec(&c->regex, rec->name, 0, NULL, 0) == 0
                   ? RECORDER_WATCH_ANY : NOT_WATCHED;
    for (const recorder_export_request *request = recorder_spec_exports();
         request; request = request->next)
    {
        if (regexec(&request->regex, rec->name, 0, NULL, 0) != 0)
            continue;
        for (unsigned a = 0; a < request->count; a++)
            if (request->names[a] &&
                strcasecmp(request->names[a], c->level.channel) == 0)
                return (int) a;
    }
    return NOT_WATCHED;
}

static uint64_t bits_of(double value)
{
    uint64_t bits;
    memcpy(&bits, &value, sizeof(bits));
    return bits;
}

/* Set the item first, then its bit, then the recorder's pointer: a record
 * that sees the pointer sees the item (release, acquire on the path). */
static void watch_item(recorder_info *rec, unsigned slot, const condition *c,
                       int argument)
{
    recorder_watch *watch = watch_for(rec);
    uint32_t bit = 1u << slot;
    if (!watch || (__atomic_load_n(&watch->active, __ATOMIC_RELAXED) & bit))
        return;
    recorder_watch_item *item = &watch->items[slot];
    double band = SNAPSHOT_HYSTERESIS * fabs(c->level.level);
    __atomic_store_n(&item->argument, argument, __ATOMIC_RELAXED);
    __atomic_store_n(&item->edge, (uint32_t) c->level.edge, __ATOMIC_RELAXED);
    __atomic_store_n(&item->level, bits_of(c->level.level), __ATOMIC_RELAXED);
    __atomic_store_n(&item->band, bits_of(band), __ATOMIC_RELAXED);
    __atomic_store_n(&item->ready, 0, __ATOMIC_RELAXED);
    for (unsigned k = 0; k < RECORDER_WATCH_KINDS; k++)
        __atomic_store_n(&item->kinds[k], 0, __ATOMIC_RELAXED);
    __atomic_fetch_or(&watch->active, bit, __ATOMIC_RELEASE);
    __atomic_store_n((recorder_watch **) &rec->watch, watch,
                     __ATOMIC_RELEASE);
}

static void watch_matching(unsigned slot)
{
    const condition *c = &conditions[slot];
    for (recorder_info *rec = recorder_list(); rec; rec = rec->next)
    {
        int argument = argument_for(c, rec);
        if (argument != NOT_WATCHED)
            watch_item(rec, slot, c, argument);
    }
}

static void unwatch(unsigned slot)
{
    uint32_t bit = 1u << slot;
    for (watched *w = watches; w; w = w->next)
        if (__atomic_fetch_and(&w->watch.active, ~bit, __ATOMIC_RELEASE) ==
            bit)
            __atomic_store_n((recorder_watch **) &w->rec->watch, NULL,
                             __ATOMIC_RELEASE);
    condition *c = &conditions[slot];
    if (!c->crossing)
        regfree(&c->regex);
    c->armed = false;
    snapshot_thread_slot_disarmed(slot);
}

static void watch_new_recorder(recorder_info *rec)
{
    pthread_mutex_lock(&lock);
    for (unsigned s = 0; s < RECORDER_WATCH_SLOTS; s++)
        if (conditions[s].armed)
        {
            int argument = argument_for(&conditions[s], rec);
            if (argument != NOT_WATCHED)
                watch_item(rec, s, &conditions[s], argument);
        }
    pthread_mutex_unlock(&lock);
}

static const recorder_registry_listener on_activation = {
    .recorder = watch_new_recorder,
};

void snapshot_conditions_refresh(void)
{
    pthread_mutex_lock(&lock);
    for (unsigned s = 0; s < RECORDER_WATCH_SLOTS; s++)
        if (conditions[s].armed && conditions[s].crossing)
            watch_matching(s);
    pthread_mutex_unlock(&lock);
}

/* Parse 'value' into 'c'; false with why[size] if it is not a condition. */
static bool parse_condition(condition *c, const char *value, char *why,
                            size_t size)
{
    char reason[200];
    if (strlen(value) >= sizeof(c->text))
    {
        snprintf(why, size, "snapshot condition longer than %zu characters",
                 sizeof(c->text) - 1);
        return false;
    }
    memset(c, 0, sizeof(*c));
    snprintf(c->text, sizeof(c->text), "%s", value);
    c->crossing = strpbrk(value, "<>") != NULL;
    if (c->crossing &&
        !recorder_level_crossing_parse(value, &c->level, reason,
                                       sizeof(reason)))
    {
        snprintf(why, size, "bad snapshot level '%.96s': %s", value, reason);
        return false;
    }
    if (!c->crossing &&
        !recorder_regex_compile(&c->regex, value, NULL, reason,
                                sizeof(reason)))
    {
        snprintf(why, size, "bad snapshot pattern '%.96s': %s", value, reason);
        return false;
    }
    return true;
}

static int arm(const char *value, char *why, size_t size)
{
    condition parsed;
    if (!parse_condition(&parsed, value, why, size))
        return RECORDER_TRACE_INVALID_VALUE;
    pthread_mutex_lock(&lock);
    int free_slot = -1;
    for (unsigned s = 0; s < RECORDER_WATCH_SLOTS; s++)
    {
        if (conditions[s].armed && strcmp(conditions[s].text, value) == 0)
            free_slot = -2;             /* armed already: nothing to do */
        else if (!conditions[s].armed && free_slot == -1)
            free_slot = (int) s;
    }
    if (free_slot < 0)
    {
        pthread_mutex_unlock(&lock);
        if (!parsed.crossing)
            regfree(&parsed.regex);
        if (free_slot == -2)
            return RECORDER_TRACE_OK;
        snprintf(why, size, "too many snapshot conditions (at most %u)",
                 RECORDER_WATCH_SLOTS);
        return RECORDER_TRACE_INVALID_VALUE;
    }
    unsigned slot = (unsigned) free_slot;
    parsed.armed = true;
    parsed.serial = ++serials;
    conditions[slot] = parsed;
    snapshot_thread_slot_armed(slot, parsed.serial, parsed.text);
    watch_matching(slot);
    pthread_mutex_unlock(&lock);
    recorder_registry_listen(RECORDER_LISTENER_SNAPSHOT, &on_activation);
    snapshot_thread_start();
    record(recorder_traces, "Snapshot condition armed in slot %u", slot);
    return RECORDER_TRACE_OK;
}

static int disarm_all(void)
{
    pthread_mutex_lock(&lock);
    for (unsigned s = 0; s < RECORDER_WATCH_SLOTS; s++)
        if (conditions[s].armed)
            unwatch(s);
    pthread_mutex_unlock(&lock);
    record(recorder_traces, "Snapshot conditions disarmed");
    return RECORDER_TRACE_OK;
}

int snapshot_conditions_item(const char *name, const char *value, char *why,
                             size_t size)
{
    if (strcmp(name, "snapshot") != 0)
        return snapshot_settings_item(name, value, why, size);
    if (!value)
    {
        snprintf(why, size, "snapshot needs =REGEX or =CHANNEL>LEVEL "
                 "(snapshot= disarms every condition)");
        return RECORDER_TRACE_INVALID_VALUE;
    }
    return *value ? arm(value, why, size) : disarm_all();
}
