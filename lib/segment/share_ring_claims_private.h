/* share_ring_claims_private.h - rings that take segment memory when first
 * used.
 *
 * A recorder in the segment costs its table entry and its strings; its
 * ring stays in process memory (where its RECORDER_DEFINE put it: zero
 * pages until written) until the recorder records, or is exported. Then
 * the ring takes its place in the segment's ring region, at the next
 * 64-byte boundary of what is claimed so far, and the recorder writes
 * there from then on: readers list it, plot it, dump it after a kill -9.
 *
 * The first record in a lane of a ring (index 0, record.c) claims the
 * place itself, from the record path: a compare-exchange on what is
 * claimed, a compare-exchange on the entry's state, a copy of the ring's
 * few records, two stores to switch the recorder over. No lock, no
 * allocation, no system call. The file's blocks are reserved ahead of
 * those claims (HEADROOM bytes past what is claimed) by the writer, when
 * it makes the segment and each time the command thread wakes up; a claim
 * past the reserved blocks is taken too, and reserved at the next wake-up,
 * unless a reservation already failed (the file system is full, said
 * once): then the recorder goes on recording in process memory, and a
 * later wake-up moves it in if room came back.
 *
 * A ring larger than a few pages (an exported recorder's) gets the blocks
 * of the lanes some thread writes (recorder_lanes_started), and of the
 * others when a thread first uses them.
 *
 * The writer (its lock held) makes the claims of a segment with the
 * segment, places rings itself (a recorder that recorded before the
 * segment existed, an export's larger ring), and opens the claims to the
 * record path once the segment is filled. Before it makes the next
 * segment (a growth, a move), or lets a truncated one go, it closes them:
 * no claim is then in progress, and none starts, in the old segment.
 */
#ifndef RECORDER_SHARE_RING_CLAIMS_PRIVATE_H
#define RECORDER_SHARE_RING_CLAIMS_PRIVATE_H

#include "segment/share_access_private.h"
#include "segment/share_layout_private.h"
#include "base/visibility_private.h"

#include <stdbool.h>
#include <stdint.h>

/* Blocks reserved past what rings have claimed: room for about fifty
 * rings of 8 slots before the command thread's next wake-up. */
#define RING_CLAIMS_HEADROOM    (128u << 10)

typedef struct ring_claims ring_claims;

/* Claims for a segment laid out as 'layout', closed to the record path
 * until opened; NULL if out of memory. Then, once it is mapped as 'view':
 * where it is. */
ring_claims *ring_claims_make(const share_header *layout) RECORDER_HIDDEN;
void ring_claims_map(ring_claims *claims, share_view view) RECORDER_HIDDEN;

/* Entry 'index' of the recorders table is 'rec': claims for it may be
 * made once it is published. */
void ring_claims_own(ring_claims *claims, unsigned index, recorder_info *rec)
    RECORDER_HIDDEN;

/* Whether 'rec' made a record, ever (RECORDER_RECORDED). */
bool ring_claims_recorded(const recorder_info *rec) RECORDER_HIDDEN;

/* Give entry 'index' its ring in the segment, with at least 'slots' slots
 * per lane (0: as many as it has), now, from the writer. True if it has
 * one (already large enough, or placed now). */
bool ring_claims_place(ring_claims *claims, unsigned index, uint32_t slots)
    RECORDER_HIDDEN;

/* Let the record path claim rings in this segment. */
void ring_claims_open(ring_claims *claims) RECORDER_HIDDEN;

/* No more claims from the record path; returns once none is in progress.
 * Then whether 'rec' had its ring placed in that segment (whose mapping
 * goes away after a growth or a move: the ring must be placed again even
 * if it holds no record), and freeing. */
void ring_claims_close(ring_claims *claims) RECORDER_HIDDEN;
bool ring_claims_had_ring(const ring_claims *claims, const recorder_info *rec)
    RECORDER_HIDDEN;
void ring_claims_free(ring_claims *claims) RECORDER_HIDDEN;

/* In a forked child, alone: forget the parent's claims (not freed: a
 * parent's thread may have been in one). */
void ring_claims_forget(void) RECORDER_HIDDEN;

/* The record path's claim: see above. */
void ring_claims_first_record(recorder_info *rec) RECORDER_HIDDEN;

/* From the writer, on each wake-up of the command thread: reserve blocks
 * ahead of the claims and for new lanes, place the rings of recorders
 * that record in process memory. */
void ring_claims_tend(ring_claims *claims) RECORDER_HIDDEN;

/* When the command thread should tend the claims next, in nanoseconds
 * from now; 0: no need, it may sleep until it has work. Soon after claims
 * were made (to reserve behind them), or refused for want of room; once a
 * second while the file system is short of room for the rings not placed
 * yet (a claim may then be refused while the thread sleeps). Lock-free. */
uint64_t ring_claims_next_tend_ns(void) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_RING_CLAIMS_PRIVATE_H */
