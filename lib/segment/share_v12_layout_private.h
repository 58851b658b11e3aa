/* share_v12_layout_private.h - the segment a recorder 1.2 program writes.
 *
 * Programs built against recorder 1.2 (as distributions ship it: QEMU,
 * SPICE) export channels into a file of their own format, described here
 * from the 1.2 sources (recorder.c, "recorder shared memory structures").
 * On a 64-bit writer, at offset 0:
 *
 *   header  magic 0xC0DABABF (0xC0DABABE ^ 1 for 64 bits), version 0x010005,
 *           serial (new each time the file is made), the offset of the
 *           newest channel, a free list (unused), the next free offset, a
 *           ring of 1024 command bytes the program polls every 100 ms
 *   channel type, the offset of the next (older) channel, the offsets of
 *           its name, description and unit (from the channel's start), a
 *           declared min and max, a ring of 'size' samples right after it,
 *           then the three strings; channels are appended at increasing
 *           offsets and linked newest first
 *   sample  two words: the time in microseconds since the program's first
 *           tick, and the value (signed, unsigned or double, per 'type')
 *
 * A ring is size, item size, reader, writer and commit indexes, an overflow
 * count; items follow it. Its writer bumps 'writer', writes the item, then
 * bumps 'commit'. Nothing here is trusted: every offset and size is
 * checked against the mapping (share_access_private.h) before use.
 */
#ifndef RECORDER_SHARE_V12_LAYOUT_PRIVATE_H
#define RECORDER_SHARE_V12_LAYOUT_PRIVATE_H

#include "segment/share_reader_private.h"
#include "segment/segment_guard_private.h"

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#define V12_MAGIC               (0xC0DABABEu ^ 1u)  /* 64-bit writer */
#define V12_MAGIC_32BIT         0xC0DABABEu
#define V12_VERSION             0x010005u           /* 1.0.5 to 1.2.x */
#define V12_COMMAND_BYTES       1024u
#define V12_SAMPLE_BYTES        16u
#define V12_MAX_SLOTS           (1u << 24)          /* larger is corrupt */
#define V12_MAX_CHANNELS        1024                /* a reader follows */

/* The 1.2 types (size_t, off_t, uintptr_t) on a 64-bit writer. */
typedef struct v12_ring
{
    uint64_t size;                      /* items */
    uint64_t item_size;                 /* bytes */
    uint64_t reader;
    uint64_t writer;
    uint64_t commit;
    uint64_t overflow;
} v12_ring;

typedef struct v12_header
{
    uint32_t magic;
    uint32_t version;
    uint32_t serial;
    uint32_t padding;
    int64_t  head;                      /* newest channel, 0 for none */
    int64_t  free_list;
    int64_t  end;                       /* where the next channel goes */
    v12_ring commands;                  /* items of one byte, below */
    char     command_bytes[V12_COMMAND_BYTES];
} v12_header;

enum v12_type
{
    V12_NONE, V12_INVALID, V12_SIGNED, V12_UNSIGNED, V12_REAL
};

typedef struct v12_channel
{
    uint32_t type;                      /* enum v12_type */
    uint32_t padding;
    int64_t  next;                      /* older channel, 0 for none */
    int64_t  name;                      /* from the channel's start */
    int64_t  description;
    int64_t  unit;
    uint64_t min, max;                  /* declared, as raw words */
    v12_ring ring;                      /* samples follow */
} v12_channel;

static_assert(sizeof(v12_ring) == 48, "1.2 ring header layout");
static_assert(sizeof(v12_header) == 1112, "1.2 segment header layout");
static_assert(sizeof(v12_channel) == 104, "1.2 channel layout");

/* A channel once seen in the list keeps its index, so that readers can
 * name it by index (recorder_share_find_channel) while others come and
 * go. What never changes once the writer made it is copied here, checked;
 * what changes (type, indexes) is read from the segment each time. */
typedef struct v12_known
{
    uint64_t offset;                    /* of its v12_channel */
    uint64_t slots;                     /* its ring's size, checked */
    bool     active;                    /* still in the writer's list */
    char     name[64];
    char     description[128];
    char     unit[32];
} v12_known;

struct share_v12
{
    uint32_t   serial;                  /* of the file we mapped */
    bool       commands_ok;             /* the command ring checked out */
    v12_known *channels;
    unsigned   count, capacity;
    uint32_t   writer;                  /* pid holding the file, or 0 */
    double     next_search;             /* when to look for it again */
    double     start_time;              /* estimated, seconds since epoch */
    char       program[64];
};

/* The live header (the mapping was checked to hold it). */
static inline v12_header *v12_live(recorder_share *share)
{
    return (v12_header *) share->view.base;
}

/* Whether the file still covers what we mapped (as share_reader_intact,
 * which lies above this module). */
static inline bool v12_intact(recorder_share *share)
{
    struct stat st;
    return !segment_guard_detached(share->guard) &&
           fstat(share->fd, &st) == 0 &&
           (uint64_t) st.st_size >= share->view.size;
}

#endif /* RECORDER_SHARE_V12_LAYOUT_PRIVATE_H */
