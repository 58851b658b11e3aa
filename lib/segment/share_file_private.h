/* share_file_private.h - creating and locking the segment file safely. */
#ifndef RECORDER_SHARE_FILE_PRIVATE_H
#define RECORDER_SHARE_FILE_PRIVATE_H

#include "segment/share_access_private.h"
#include "base/visibility_private.h"

#include <stddef.h>
#include <sys/types.h>

#define RECORDER_SHARE_DEFAULT_PATH     "/tmp/recorder_share"

/* Create the segment file at 'path', laid out as 'layout' (its total_size
 * bytes, sparse: only the header, command ring, clock and crash region
 * get their blocks now), mapped read-write into 'view' and write-locked
 * for as long as this process lives. Refuses a
 * symbolic link, anything but a regular file, a directory others can write
 * without the sticky bit, a file that is not a recorder segment of ours,
 * one a live process holds (naming it), and a size above the file size
 * limit (RLIMIT_FSIZE, which would raise SIGXFSZ); moves a stale segment
 * to PATH.prev, if what is there is a segment of ours too. Returns the
 * descriptor, or with a message in 'why' SHARE_FILE_FOREIGN when another
 * user's file (at PATH or PATH.prev) is in the way, SHARE_FILE_HELD when a
 * live process holds PATH (the message names its pid and program), -1
 * otherwise. */
#define SHARE_FILE_FOREIGN      (-2)
#define SHARE_FILE_HELD         (-3)
struct share_header;
int share_file_create(const char *path, const struct share_header *layout,
                      share_view *view, char *why, size_t why_size)
    RECORDER_HIDDEN;

/* For a segment that grows: a new file beside the one at 'path' (same
 * directory, a unique name written into temporary[temporary_size]), made
 * as share_file_create makes one. Returns the descriptor, or -1 with a
 * message in 'why'. */
int share_file_create_beside(const char *path,
                             const struct share_header *layout,
                             share_view *view, char *temporary,
                             size_t temporary_size, char *why,
                             size_t why_size) RECORDER_HIDDEN;

/* Rename 'temporary' over 'path', if 'path' is still the file open as
 * 'old_fd' (or nothing): readers of the old file see it replaced, and
 * whoever opens 'path' next gets the new one, complete. False with a
 * message in 'why' otherwise. */
bool share_file_replace(const char *temporary, const char *path, int old_fd,
                        char *why, size_t why_size) RECORDER_HIDDEN;

/* Reserve the blocks of [offset, offset + size) of the segment file open
 * as 'fd', so that writing there cannot fault for want of room. 0, or an
 * errno value (ENOSPC: the file system is full; EFBIG: ulimit -f), never
 * SIGXFSZ. */
int share_file_reserve(int fd, uint64_t offset, uint64_t size)
    RECORDER_HIDDEN;

/* Whether a live writer holds the lock on the file open as 'fd'. The lock
 * is an open-file-description lock: it belongs to the writer's descriptor,
 * so a reader in the same process closing its own descriptor (or a forked
 * child closing its copy) does not release it; it goes with the writer. */
bool share_file_locked(int fd) RECORDER_HIDDEN;

/* Where a user shares when another user's file holds the default path:
 * $XDG_RUNTIME_DIR/recorder_share when that is a private directory of
 * ours, else /tmp/recorder_share.UID. Readers look there too. */
void share_file_fallback_path(char *out, size_t size) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_FILE_PRIVATE_H */
