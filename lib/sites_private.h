/* sites_private.h - the call sites of every module that records. */
#ifndef RECORDER_SITES_PRIVATE_H
#define RECORDER_SITES_PRIVATE_H

#include "recorder.h"
#include "clock_private.h"

typedef void (*recorder_sites_fn)(recorder_site *first, recorder_site *last,
                                  void *arg);

/* Call 'fn' for each registered range, oldest first. */
void recorder_sites_each(recorder_sites_fn fn, void *arg) RECORDER_HIDDEN;

#endif /* RECORDER_SITES_PRIVATE_H */
