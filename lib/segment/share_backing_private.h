/* share_backing_private.h - the blocks of the segment's file, reserved as
 * they come into use.
 *
 * A segment's file is as large as its layout (tables and regions with room
 * to spare) but sparse: at creation only the header, the command ring, the
 * clock and the crash region get their blocks (share_file.c). The writer
 * reserves the blocks of a table entry or a string before it writes
 * there, a chunk at a time, and the rings get theirs from
 * share_ring_claims.c. A full file system so shows as a refusal here, said
 * once, never as a SIGBUS on a page the file system could not give; what
 * is refused is left out of the segment, counted like what does not fit.
 * Writer lock held.
 */
#ifndef RECORDER_SHARE_BACKING_PRIVATE_H
#define RECORDER_SHARE_BACKING_PRIVATE_H

#include "segment/share_layout_private.h"
#include "base/visibility_private.h"

#include <stdbool.h>
#include <stdint.h>

/* Bytes reserved at a time in a table or the strings: a page, so that
 * what a table holds costs at most a page more than its entries. */
#define SHARE_BACKING_CHUNK     4096u

/* A new segment: nothing of its tables and strings is reserved yet. */
void share_backing_reset_locked(void) RECORDER_HIDDEN;

/* Reserve [offset, offset + size) of the segment's file. False, said once,
 * if the file system has no room. True without a file (the segment was
 * truncated under us and is private memory now). */
bool share_back_locked(uint64_t offset, uint64_t size) RECORDER_HIDDEN;

/* Reserve what entry 'index' of the table of 'table' (a table's enum
 * share_limit) needs. False, said once, if there is no room: the caller
 * leaves the entry out. */
bool share_back_entry_locked(enum share_limit table, uint64_t index)
    RECORDER_HIDDEN;

/* Reserve 'bytes' more of the strings, from what is used. */
bool share_back_strings_locked(uint64_t bytes) RECORDER_HIDDEN;

/* Bytes its file system has free for the segment's file now (0 if that
 * cannot be told; UINT64_MAX without a file). */
uint64_t share_backing_free(void) RECORDER_HIDDEN;

/* In the string region: a copy of 'text', or 0 (none, no room in the
 * region, or no room for its blocks). */
uint64_t share_put_string(const char *text) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_BACKING_PRIVATE_H */
