/* compat_sites_private.h - call sites for records made the 1.2 way. */
#ifndef RECORDER_COMPAT_SITES_PRIVATE_H
#define RECORDER_COMPAT_SITES_PRIVATE_H

#include "recorder.h"
#include "base/visibility_private.h"

/* The call site of records made with 'format' (a 1.2 format, which may
 * start with RECORDER_SOURCE_LOCATION) in function 'where': the same site
 * for the same two pointers. Lock-free, no allocation: usable on the
 * record path. When the table is full, a site that says so. */
const recorder_site *recorder_compat_site(const char *format,
                                          const char *where)
    RECORDER_HIDDEN;

#endif /* RECORDER_COMPAT_SITES_PRIVATE_H */
