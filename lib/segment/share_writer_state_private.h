/* share_writer_state_private.h - the segment writer's state, one per process.
 *
 * The writer's modules share it: share_writer.c makes, fills and grows
 * the segment, share_limits.c counts and tells what did not fit,
 * share_leave.c lets go of the segments left behind, and
 * share_writer_state.c, with the state, allocates in the segment. All of
 * it is read and written under 'lock', but for 'header', 'fd', 'guard',
 * 'serial' and 'detached', which the crash and SIGBUS handlers also read
 * (atomically).
 */
#ifndef RECORDER_SHARE_WRITER_STATE_PRIVATE_H
#define RECORDER_SHARE_WRITER_STATE_PRIVATE_H

#include "segment/share_access_private.h"
#include "segment/share_layout_private.h"
#include "base/visibility_private.h"

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* A segment left by a move or a growth. Its mapping is kept a while, for
 * threads that loaded a ring pointer before the switch and write into the
 * old ring one last time: the last one left until the next move, older
 * ones until RETIRED_GRACE_NS have passed, at most RETIRED_KEPT in all. */
#define RETIRED_KEPT            8
#define RETIRED_GRACE_NS        1000000000ull

typedef struct retired_segment
{
    share_view view;
    int        guard;                   /* its segment_guard handle */
    uint64_t   since_ns;                /* CLOCK_MONOTONIC when left */
} retired_segment;

typedef struct share_writer_state
{
    pthread_mutex_t  lock;
    int              fd;
    share_view       view;
    share_header *   header;            /* the segment's: written, never trusted */
    share_header     layout;            /* our copy: offsets, sizes and counts */
    char             path[PATH_MAX];
    /* The path of segment 'serial', for the SIGBUS handler: written before
     * the serial is published, in the half the previous segment's handler
     * does not read (a re-share may run while that handler speaks). */
    char             guarded_path[2][PATH_MAX];
    char             asked[PATH_MAX];   /* path as given, escapes and all */
    retired_segment  retired[RETIRED_KEPT]; /* segments left, oldest first */
    recorder_info ** recorders;         /* layout.recorders.capacity */
    recorder_tweak ** tweaks;           /* layout.tweaks.capacity */
    char **          channel_names;     /* layout.channels.capacity */
    uint32_t         rooms[SHARE_LIMITS]; /* entries these arrays hold */
    bool             laying_out;        /* filling a new segment: no growth */
    bool             cannot_grow;       /* a growth failed: do not retry */
    uint32_t         not_shared[SHARE_LIMITS];
    const char *     last_file;         /* string reuse across sites */
    uint64_t         last_file_offset;
    const char *     last_function;     /* the same, for sites' functions */
    uint64_t         last_function_offset;
    int              guard;             /* segment_guard handle of view */
    uintptr_t        serial;            /* which segment 'guard' is for */
    bool             detached;          /* file truncated: private memory */
    struct ring_claims *claims;         /* where rings take their place */
    struct ring_claims *claims_left;    /* the last segment's, closed, while
                                           the next one fills */
} share_writer_state;

/* The one state (share_writer_state.c), as the writer's files name it. */
extern share_writer_state share_writer RECORDER_HIDDEN;
static share_writer_state *const writer = &share_writer;

/* Count a ring of 'slots' slots per lane in the ring region: layout's
 * rings_used is what the rings of the recorders in the segment, and of
 * their exports, may take once used (share_ring_claims.c takes it). */
void share_count_ring(uint32_t slots) RECORDER_HIDDEN;

/* Whether 'bytes' more strings, or a ring of 'slots', would fit. */
bool share_strings_fit(uint64_t bytes) RECORDER_HIDDEN;
bool share_ring_fits(uint32_t slots) RECORDER_HIDDEN;

/* Our arrays beside the tables (recorders, tweaks, channel names), as
 * large as the tables of 'room'; false if out of memory. */
struct share_needs;
bool share_make_arrays(const struct share_needs *room) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_WRITER_STATE_PRIVATE_H */
