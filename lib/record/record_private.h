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

/* Two words of a recorder's 1.2 ring view that the library keeps for
 * itself (recorder 1.2 kept indexes there; recorder.h says they are not
 * kept): set once the recorder made its first record, and its entry in a
 * shared segment plus one (0: none). */
#define RECORDER_RECORDED(Rec)          ((Rec)->ring.commit)
#define RECORDER_SHARED_ENTRY(Rec)      ((Rec)->ring.released)

/* Lanes some thread has written (threads take lanes in turn), at most
 * RECORDER_LANES: the lanes of a ring that hold records. */
unsigned recorder_lanes_started(void) RECORDER_HIDDEN;

#endif /* RECORDER_RECORD_PRIVATE_H */
