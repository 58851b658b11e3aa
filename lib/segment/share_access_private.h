/* share_access_private.h - bounds-checked access to a mapped segment.
 *
 * Every read of the segment by a reader, and every read by the writer of
 * what readers may have written, goes through these helpers: an offset and
 * length that do not fit in the mapping give NULL, never a wild pointer.
 */
#ifndef RECORDER_SHARE_ACCESS_PRIVATE_H
#define RECORDER_SHARE_ACCESS_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct share_view
{
    uint8_t *base;
    uint64_t size;
} share_view;

/* Pointer to 'length' bytes at 'offset', or NULL if they are not all inside
 * the mapping or the start is not aligned for 'align'. */
static inline void *share_at(const share_view *view, uint64_t offset,
                             uint64_t length, uint64_t align)
{
    if (offset > view->size || length > view->size - offset)
        return NULL;
    if (align > 1 && offset % align != 0)
        return NULL;
    return view->base + offset;
}

/* Entry 'index' of a table of 'count' entries of 'size' bytes. */
static inline void *share_entry(const share_view *view, uint64_t table,
                                uint64_t count, uint64_t size, uint64_t index)
{
    if (index >= count || size == 0 || count > view->size / size)
        return NULL;
    return share_at(view, table + index * size, size, 8);
}

/* Copy the NUL-terminated string at 'offset' inside the region
 * [region, region + region_size) into out[size], always terminated. An
 * offset outside the region, or a string that runs off its end, gives ""
 * and false. Offset 0 means no string. */
static inline bool share_string(const share_view *view, uint64_t region,
                                uint64_t region_size, uint64_t offset,
                                char *out, size_t size)
{
    out[0] = 0;
    if (offset == 0 || offset < region || offset - region >= region_size)
        return false;
    const char *text = share_at(view, offset, 1, 1);
    if (!text)
        return false;
    uint64_t room = region_size - (offset - region);
    if (room > view->size - offset)
        room = view->size - offset;
    const char *end = memchr(text, 0, room);
    if (!end)
        return false;
    size_t len = (size_t) (end - text);
    if (len >= size)
        len = size - 1;             /* truncate, still terminated */
    memcpy(out, text, len);
    out[len] = 0;
    return true;
}

#endif /* RECORDER_SHARE_ACCESS_PRIVATE_H */
