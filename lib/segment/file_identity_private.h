/* file_identity_private.h - what makes a mapped file the same file.
 *
 * A reader that opens a file a segment names (a module of a dead writer,
 * to show its string literals) first checks that it is the very file the
 * writer had mapped: same device, inode, size, owner and GNU build id. A
 * file without a build id never qualifies: nothing else says it was not
 * rebuilt or replaced in place.
 */
#ifndef RECORDER_FILE_IDENTITY_PRIVATE_H
#define RECORDER_FILE_IDENTITY_PRIVATE_H

#include "base/visibility_private.h"

#include <stdbool.h>
#include <stdint.h>

#define FILE_BUILD_ID_MAX       40

typedef struct file_identity
{
    uint64_t device, inode, size;
    uint32_t owner;
    uint32_t build_id_size;             /* 0: none found */
    uint8_t  build_id[FILE_BUILD_ID_MAX];
} file_identity;

/* Identity of the regular file open as 'fd'; false if it is not a regular
 * file or cannot be examined. The build id comes from its ELF notes. */
bool file_identity_read(int fd, file_identity *out) RECORDER_HIDDEN;

/* Open 'path' to read it, refusing anything that could block (FIFO,
 * device) or is not a regular file; -1 on failure. */
int file_identity_open(const char *path) RECORDER_HIDDEN;

/* Both describe the same file, and it has a build id. */
bool file_identity_matches(const file_identity *a, const file_identity *b)
    RECORDER_HIDDEN;

/* Identity of the file a line of /proc/self/maps names, if it is still
 * the file mapped (same device and inode) and has a build id; cached for
 * the run of lines of one file. Sets *no_descriptor to errno when it could
 * not even be opened for want of descriptors. */
bool file_identity_mapped(const char *path, uint64_t device, uint64_t inode,
                          file_identity *out, int *no_descriptor)
    RECORDER_HIDDEN;

#endif /* RECORDER_FILE_IDENTITY_PRIVATE_H */
