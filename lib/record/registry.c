/* registry.c - activation of recorders and tweaks, and the built-in ones. */
#define RECORDER_INSIDE_LIBRARY         /* recorder.h: no debugger entries */
#include "record/registry_private.h"
#include "record/clock_private.h"

#include <pthread.h>
#include <string.h>

RECORDER(recorder, 64, "Messages from the recorder library itself");
RECORDER(recorder_warning, 64, "Warnings, e.g. bad trace specifications");
RECORDER(recorder_error, 64, "Errors reported by the program or library");
RECORDER(recorder_signals, 32, "Signals received and dumps they caused");
RECORDER(recorder_traces, 64, "Trace and tweak changes, commands applied");

RECORDER_TWEAK_DEFINE(recorder_dump_sleep, 100,
                      "Milliseconds between background dumps");
RECORDER_TWEAK_DEFINE(recorder_location, 0,
                      "Prefix dumped records with FILE:LINE: (N>1: width)");
RECORDER_TWEAK_DEFINE(recorder_function, 0,
                      "Prefix dumped records with FUNCTION: (N>1: width)");
RECORDER_TWEAK_DEFINE(recorder_order, 1,
                      "Show the order of each record");
RECORDER_TWEAK_DEFINE(recorder_abstime, 0,
                      "Show time of day (HH:MM:SS.uuuuuu) too");
RECORDER_TWEAK_DEFINE(recorder_reltime, 1,
                      "Show seconds since the program started");
RECORDER_TWEAK_DEFINE(recorder_time_precision, 6,
                      "Digits after the second in dumped times (0-6)");
RECORDER_TWEAK_DEFINE(recorder_indent, 16,
                      "Deepest indentation from '>' formats");
RECORDER_TWEAK_DEFINE(recorder_export_size, 2048,
                      "Samples kept per exported channel and thread");

static recorder_info *recorders;
static recorder_tweak *tweaks;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static const recorder_registry_listener *listeners[RECORDER_LISTENERS];

void recorder_registry_listen(recorder_listener_slot slot,
                              const recorder_registry_listener *listener)
{
    /* The fences here and in tell_listeners order each store before the
     * load that follows it: either an activation sees this listener, or
     * the listener's walk of the lists, which comes after, sees the entry
     * activated. */
    if (slot < RECORDER_LISTENERS)
        __atomic_store_n(&listeners[slot], listener, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void tell_listeners(recorder_info *rec, recorder_tweak *tweak)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);     /* after the list store */
    for (unsigned slot = 0; slot < RECORDER_LISTENERS; slot++)
    {
        const recorder_registry_listener *listener =
            __atomic_load_n(&listeners[slot], __ATOMIC_SEQ_CST);
        if (listener && rec)
            listener->recorder(rec);
        if (listener && tweak)
            listener->tweak(tweak);
    }
}

/* Runs before the default-priority constructors of any program statically
 * linked with us, so records made from those are timed correctly. */
__attribute__((constructor(101))) void recorder_init(void)
{
    static bool started;
    if (__atomic_exchange_n(&started, true, __ATOMIC_ACQ_REL))
        return;
    recorder_clock_init();
}

recorder_info *recorder_list(void)
{
    return __atomic_load_n(&recorders, __ATOMIC_ACQUIRE);
}

recorder_tweak *recorder_tweak_list(void)
{
    return __atomic_load_n(&tweaks, __ATOMIC_ACQUIRE);
}

recorder_info *recorder_find(const char *name)
{
    for (recorder_info *rec = recorder_list(); rec; rec = rec->next)
        if (strcmp(rec->name, name) == 0)
            return rec;
    return NULL;
}

recorder_tweak *recorder_tweak_find(const char *name)
{
    for (recorder_tweak *tweak = recorder_tweak_list(); tweak;
         tweak = tweak->next)
        if (strcmp(tweak->name, name) == 0)
            return tweak;
    return NULL;
}

void recorder_activate(recorder_info *rec)
{
    recorder_init();
    pthread_mutex_lock(&registry_lock);
    bool known = false;
    for (recorder_info *r = recorders; r && !known; r = r->next)
        known = r == rec;
    if (!known)
    {
        rec->next = recorders;
        /* Release: a lock-free reader that finds 'rec' sees it whole. */
        __atomic_store_n(&recorders, rec, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&registry_lock);
    if (!known)
        tell_listeners(rec, NULL);
}

void recorder_tweak_activate(recorder_tweak *tweak)
{
    recorder_init();
    pthread_mutex_lock(&registry_lock);
    bool known = false;
    for (recorder_tweak *t = tweaks; t && !known; t = t->next)
        known = t == tweak;
    if (!known)
    {
        tweak->next = tweaks;
        __atomic_store_n(&tweaks, tweak, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&registry_lock);
    if (!known)
        tell_listeners(NULL, tweak);
}
