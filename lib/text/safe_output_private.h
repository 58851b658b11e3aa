/* safe_output_private.h - building and writing text where only
 * async-signal-safe calls are allowed: signal and crash handlers, the
 * SIGBUS repair, and the line layout every dump shares.
 *
 * No malloc, no stdio, no locale, no locks: text is rendered into the
 * caller's buffer by recorder_render() and written with write(2).
 */
#ifndef RECORDER_SAFE_OUTPUT_PRIVATE_H
#define RECORDER_SAFE_OUTPUT_PRIVATE_H

#include "base/visibility_private.h"

#include <stddef.h>
#include <stdint.h>

/* The argument words of safe_append(): SAFE_ARGS(a, b) is 'args, count'.
 * Strings go in as SAFE_TEXT(s). */
#define SAFE_ARGS(...)  (const uint64_t[]) { __VA_ARGS__ },             \
    sizeof((const uint64_t[]) { __VA_ARGS__ }) / sizeof(uint64_t)
#define SAFE_TEXT(s)    ((uint64_t) (uintptr_t) (s))

/* Write all of text[length] to 'fd', again after EINTR or a short write;
 * stops at the first error. Returns the number of bytes written. */
size_t safe_write_all(int fd, const char *text, size_t length) RECORDER_HIDDEN;

/* Render 'format' with 'args' (recorder_render, %s dereferenced) into
 * line[size] from 'at'; returns where the text now ends, always below
 * 'size' (what does not fit is dropped; line stays NUL-terminated). */
size_t safe_append(char *line, size_t size, size_t at, const char *format,
                   const uint64_t *args, unsigned count) RECORDER_HIDDEN;

/* The last component of 'path' ("/usr/lib/libc.so.6" gives "libc.so.6");
 * 'path' itself if it has no slash or ends in one. */
const char *safe_base_name(const char *path) RECORDER_HIDDEN;

#endif /* RECORDER_SAFE_OUTPUT_PRIVATE_H */
