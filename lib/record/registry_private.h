/* registry_private.h - the lists of recorders and tweaks of this process. */
#ifndef RECORDER_REGISTRY_PRIVATE_H
#define RECORDER_REGISTRY_PRIVATE_H

#include "recorder.h"
#include "base/visibility_private.h"

/* Newest first. Readers walk the lists without a lock: entries are only
 * ever added, each fully set up before it is published. */
recorder_tweak *recorder_tweak_list(void) RECORDER_HIDDEN;

/* Find by exact name; NULL if none. */
recorder_info *recorder_find(const char *name) RECORDER_HIDDEN;
recorder_tweak *recorder_tweak_find(const char *name) RECORDER_HIDDEN;

/* Modules above the registry that hear of every recorder and tweak
 * activated from the moment they listen: trace_spec.c (replays the specs
 * given so far) once a spec is applied, share_writer.c (adds them to the
 * segment) once it creates one, lib/snapshot (watches those its
 * conditions name) once one is armed. The registry calls them in slot order,
 * so a new recorder has its trace set before the segment copies it; it
 * never calls up into their modules by name. */
typedef enum recorder_listener_slot
{
    RECORDER_LISTENER_SPEC,
    RECORDER_LISTENER_SHARE,
    RECORDER_LISTENER_SNAPSHOT,
    RECORDER_LISTENERS
} recorder_listener_slot;

typedef struct recorder_registry_listener
{
    void (*recorder)(recorder_info *rec);
    void (*tweak)(recorder_tweak *tweak);
} recorder_registry_listener;

/* Set the listener of 'slot' ('listener' must outlive the process). Who
 * listens should walk the lists afterwards for what came before. */
void recorder_registry_listen(recorder_listener_slot slot,
                              const recorder_registry_listener *listener)
    RECORDER_HIDDEN;

/* Make sure the library is initialised, whatever constructor runs first. */
void recorder_init(void) RECORDER_HIDDEN;

#endif /* RECORDER_REGISTRY_PRIVATE_H */
