/* slot_read_private.h - read whole records back from a ring of slots.
 *
 * Used by in-process dumps, signal handlers and readers of the shared
 * segment alike, so it trusts nothing it reads from the slots and never
 * blocks the writers: a record being overwritten while it is copied is
 * reported lost, never returned torn.
 */
#ifndef RECORDER_SLOT_READ_PRIVATE_H
#define RECORDER_SLOT_READ_PRIVATE_H

#include "recorder.h"
#include "base/visibility_private.h"

typedef struct recorder_record
{
    uint64_t  index;                    /* position in its lane */
    uint64_t  timestamp;                /* ticks */
    uintptr_t site;                     /* call site, in the writer's memory */
    unsigned  nargs;
    unsigned  slots;                    /* slots it takes, 1 or 2 */
    uint64_t  args[RECORDER_MAX_ARGS];
} recorder_record;

typedef enum recorder_read_status
{
    RECORDER_READ_OK,
    RECORDER_READ_PENDING,              /* reserved, not committed yet */
    RECORDER_READ_LOST,                 /* overwritten by a later record */
    RECORDER_READ_CONTINUATION,         /* second slot of a record */
    RECORDER_READ_CORRUPT               /* slot content makes no sense */
} recorder_read_status;

/* Read the record at 'index' from 'size' slots (a power of two) whose writer
 * index is at '*writer'. Async-signal-safe. */
recorder_read_status recorder_slot_read(const recorder_slot *slots,
                                        uint32_t size, const uint64_t *writer,
                                        uint64_t index, recorder_record *out)
    RECORDER_HIDDEN;

/* Sequence word of the slot holding 'index'. */
static inline uint64_t recorder_slot_seq(uint64_t index, bool continuation)
{
    return ((index + 1) << 1) | (continuation ? 1 : 0);
}

#endif /* RECORDER_SLOT_READ_PRIVATE_H */
