/* registry_private.h - the lists of recorders and tweaks of this process. */
#ifndef RECORDER_REGISTRY_PRIVATE_H
#define RECORDER_REGISTRY_PRIVATE_H

#include "recorder.h"
#include "clock_private.h"

/* Newest first. Readers walk the lists without a lock: entries are only
 * ever added, each fully set up before it is published. */
recorder_tweak *recorder_tweak_list(void) RECORDER_HIDDEN;

/* Find by exact name; NULL if none. */
recorder_info *recorder_find(const char *name) RECORDER_HIDDEN;
recorder_tweak *recorder_tweak_find(const char *name) RECORDER_HIDDEN;

/* Make sure the library is initialised, whatever constructor runs first. */
void recorder_init(void) RECORDER_HIDDEN;

#endif /* RECORDER_REGISTRY_PRIVATE_H */
