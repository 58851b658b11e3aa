/* sites_private.h - the call sites of every module that records. */
#ifndef RECORDER_SITES_PRIVATE_H
#define RECORDER_SITES_PRIVATE_H

#include "recorder.h"
#include "base/visibility_private.h"

typedef void (*recorder_sites_fn)(recorder_site *first, recorder_site *last,
                                  void *arg);

/* Call 'fn' for each range registered from now on (the segment writer,
 * once it shares, so sites.c never calls up into it). One listener; NULL
 * stops. It should walk recorder_sites_each afterwards for the older ones. */
typedef void (*recorder_sites_listener)(recorder_site *first,
                                        recorder_site *last);
void recorder_sites_listen(recorder_sites_listener listener) RECORDER_HIDDEN;

/* Call 'fn' for each registered range, oldest first. */
void recorder_sites_each(recorder_sites_fn fn, void *arg) RECORDER_HIDDEN;

/* True if 'site' is one of the registered call sites: the start of a
 * recorder_site inside a registered range. Slots can be forged by anyone
 * who can write a shared segment, so a site read from a slot is followed
 * only if this says yes. Lock-free and async-signal-safe. */
bool recorder_site_known(const recorder_site *site) RECORDER_HIDDEN;

#endif /* RECORDER_SITES_PRIVATE_H */
