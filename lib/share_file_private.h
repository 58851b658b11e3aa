/* share_file_private.h - creating and locking the segment file safely. */
#ifndef RECORDER_SHARE_FILE_PRIVATE_H
#define RECORDER_SHARE_FILE_PRIVATE_H

#include "share_access_private.h"
#include "clock_private.h"

#include <stddef.h>
#include <sys/types.h>

#define RECORDER_SHARE_DEFAULT_PATH     "/tmp/recorder_share"

/* Create the segment file at 'path', 'size' bytes, mapped read-write into
 * 'view' and write-locked for as long as this process lives. Refuses a
 * symbolic link, anything but a regular file, a file of another user, a
 * directory others can write without the sticky bit, and a file a live
 * process holds (naming it); moves a stale file to PATH.prev. Returns the
 * descriptor, or -1 with a message in 'why'. */
int share_file_create(const char *path, uint64_t size, share_view *view,
                      char *why, size_t why_size) RECORDER_HIDDEN;

/* The pid of the process holding the writer lock on 'fd', or 0. */
pid_t share_file_holder(int fd) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_FILE_PRIVATE_H */
