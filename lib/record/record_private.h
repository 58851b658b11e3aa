/* record_private.h - the record path, for writers other than record(). */
#ifndef RECORDER_RECORD_PRIVATE_H
#define RECORDER_RECORD_PRIVATE_H

#include "recorder.h"
#include "base/visibility_private.h"

#include <stdbool.h>

/* Write one record of 'count' (at most RECORDER_MAX_ARGS) words of 'args'
 * into 'rec', as recorder_write(), or recorder_write_fast() if 'fast', and
 * return its index in the thread's lane. Same cost rules: no allocation,
 * lock or system call. */
uint64_t recorder_write_indexed(recorder_info *rec, const recorder_site *site,
                                bool fast, unsigned count,
                                const uint64_t args[RECORDER_MAX_ARGS])
    RECORDER_HIDDEN;

#endif /* RECORDER_RECORD_PRIVATE_H */
