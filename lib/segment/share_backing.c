/* share_backing.c - reserve the blocks of the segment's tables and strings
 * as they fill, and put strings in (share_backing_private.h). */
#include "segment/share_backing_private.h"
#include "segment/share_file_private.h"
#include "segment/share_limits_private.h"
#include "segment/share_sizing_private.h"
#include "segment/share_writer_state_private.h"
#include "recorder.h"

#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

/* Per table (and the strings): reserved from its start up to this offset. */
static uint64_t reserved_to[SHARE_LIMITS];

static const share_table *table_of(enum share_limit limit)
{
    share_header *L = &writer->layout;
    switch (limit)
    {
    case SHARE_LIMIT_RECORDERS: return &L->recorders;
    case SHARE_LIMIT_TWEAKS:    return &L->tweaks;
    case SHARE_LIMIT_SITES:     return &L->sites;
    case SHARE_LIMIT_CHANNELS:  return &L->channels;
    case SHARE_LIMIT_MODULES:   return &L->modules;
    default:                    return NULL;
    }
}

static uint64_t entry_size(enum share_limit limit)
{
    switch (limit)
    {
    case SHARE_LIMIT_RECORDERS: return sizeof(share_recorder);
    case SHARE_LIMIT_TWEAKS:    return sizeof(share_tweak);
    case SHARE_LIMIT_SITES:     return sizeof(share_site);
    case SHARE_LIMIT_CHANNELS:  return sizeof(share_channel);
    case SHARE_LIMIT_MODULES:   return sizeof(share_module);
    default:                    return 0;
    }
}

void share_backing_reset_locked(void)
{
    for (unsigned k = 0; k < SHARE_LIMITS; k++)
    {
        const share_table *table = table_of(k);
        reserved_to[k] = table ? table->offset : 0;
    }
    reserved_to[SHARE_LIMIT_STRINGS] = writer->layout.strings.offset;
}

/* Say once per process that the file system is full, and why. */
static void say_no_room(int error)
{
    static bool said;
    record(recorder_error, "No room for the shared segment's pages, errno %d",
           error);
    if (said)
        return;
    said = true;
    fprintf(stderr, "recorder: no room for %s: %s; what needs more of it "
            "from now on stays in process memory, not shared\n",
            writer->path, strerror(error));
}

bool share_back_locked(uint64_t offset, uint64_t size)
{
    if (writer->fd < 0)
        return true;                    /* private memory now: no file */
    int error = share_file_reserve(writer->fd, offset, size);
    if (!error)
        return true;
    say_no_room(error);
    return false;
}

/* Reserve region 'limit' from where it is reserved to 'end' at least, a
 * chunk at a time, never past 'limit_end'. */
static bool reserve_up_to(enum share_limit limit, uint64_t end,
                          uint64_t limit_end)
{
    if (end <= reserved_to[limit])
        return true;
    uint64_t to = align_up(end, SHARE_BACKING_CHUNK);
    if (to > limit_end)
        to = limit_end;
    if (to < end || !share_back_locked(reserved_to[limit],
                                       to - reserved_to[limit]))
        return false;
    reserved_to[limit] = to;
    return true;
}

bool share_back_entry_locked(enum share_limit table, uint64_t index)
{
    const share_table *t = table_of(table);
    uint64_t size = entry_size(table);
    if (!t || index >= t->capacity)
        return false;
    return reserve_up_to(table, t->offset + (index + 1) * size,
                         t->offset + (uint64_t) t->capacity * size);
}

bool share_back_strings_locked(uint64_t bytes)
{
    const share_header *L = &writer->layout;
    return reserve_up_to(SHARE_LIMIT_STRINGS,
                         L->strings.offset + L->strings_used + bytes,
                         L->strings.offset + L->strings.size);
}

uint64_t share_backing_free(void)
{
    struct statvfs fs;
    if (writer->fd < 0)
        return UINT64_MAX;
    if (fstatvfs(writer->fd, &fs) != 0)
        return 0;
    return (uint64_t) fs.f_bavail * fs.f_frsize;
}

/* From our copy of the layout (readers can write the header), once the
 * blocks are reserved. */
uint64_t share_put_string(const char *text)
{
    share_header *L = &writer->layout;
    if (!text)
        return 0;
    size_t len = strlen(text) + 1;
    if (L->strings_used + len > L->strings.size ||
        !share_back_strings_locked(len))
        return 0;
    uint64_t offset = L->strings.offset + L->strings_used;
    memcpy(writer->view.base + offset, text, len);
    L->strings_used += len;
    writer->header->strings_used = L->strings_used;
    return offset;
}
