/* share_reader_private.h - what the reader's modules share about a segment.
 *
 * A recorder_share is one mapped, validated segment. Its modules:
 *   share_open.c      open, validate, state, trust, ticks to seconds
 *   share_tables.c    the recorders, tweaks and channels tables, rings
 *   share_sites.c     the call sites index, and what an argument is
 *   share_channels.c  channel metadata, statistics, samples, search
 *   share_fetch.c     strings the records point to, in the writer
 *   share_dump.c      the flight recorder as dump lines
 *   share_dump_merged.c  several segments' as one, in time order
 *   share_records.c   the flight recorder followed, record by record
 *   share_services.c  command ring, services, crash region
 * Nothing read from the segment is trusted: every offset, count and size
 * goes through share_access_private.h.
 */
#ifndef RECORDER_SHARE_READER_PRIVATE_H
#define RECORDER_SHARE_READER_PRIVATE_H

#include "recorder_share.h"
#include "segment/share_access_private.h"
#include "segment/share_layout_private.h"
#include "record/lane_cursor_private.h"

#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct site_key
{
    uint64_t address;
    uint32_t index;
} site_key;

struct recorder_share
{
    int           fd;
    bool          writable;
    share_view    view;
    int           guard;                /* segment_guard handle of view */
    int64_t       intact_at;            /* coarse clock ns of the last
                                           fstat that found it whole */
    share_header  header;               /* validated copy of the fixed part */
    dev_t         device;
    ino_t         inode;
    uid_t         owner;                /* of the file */
    char          path[4096];
    site_key *    sites;                /* sorted by address */
    unsigned      site_count;
    recorder_time_cache time;           /* the writer's calibration points */
    struct share_v12 *  v12;            /* a recorder 1.2 segment instead:
                                           share_v12*.c read it */
    char *        find_pattern;         /* recorder_share_find_channel()'s
                                           last, compiled as find_regex: a
                                           scan calls it once a channel */
    regex_t       find_regex;
};

/* ---- share_open.c ----------------------------------------------------------- */

/* Free the compiled pattern of recorder_share_find_channel(), if any. */
void share_forget_find_regex(recorder_share *share) RECORDER_HIDDEN;

/* Whether the file still covers what we mapped. Reads ask this many
 * times a poll: under the SIGBUS guard, a file found whole less than 50 ms
 * ago (coarse clock) is not looked at again; a truncation in between
 * faults into the guard, which makes it detached. */
bool share_reader_intact(recorder_share *share) RECORDER_HIDDEN;

/* The header as the writer changes it (the validated copy is
 * share->header). */
static inline share_header *share_reader_live_header(recorder_share *share)
{
    return (share_header *) share->view.base;
}

/* May we read the memory of the process the header names? */
bool share_reader_writer_readable(recorder_share *share) RECORDER_HIDDEN;

/* Can the writer still finish a record it reserved? (lane_losses) */
bool share_reader_writer_gone(void *share) RECORDER_HIDDEN;

/* Time of 'ticks' since the writer started, through its calibration
 * points: final once read, the same for every reader. */
double share_reader_seconds(recorder_share *share, uint64_t ticks)
    RECORDER_HIDDEN;
uint64_t share_reader_microseconds(recorder_share *share, uint64_t ticks)
    RECORDER_HIDDEN;
/* CLOCK_MONOTONIC nanoseconds at 'ticks' (not before the writer started):
 * what orders the records of processes of one host. */
uint64_t share_reader_monotonic_ns(recorder_share *share, uint64_t ticks)
    RECORDER_HIDDEN;

/* ---- share_tables.c --------------------------------------------------------- */

/* Entries published so far, clamped to the validated capacity. */
static inline unsigned share_reader_published(const share_table *live,
                                              const share_table *checked)
{
    uint32_t count = __atomic_load_n(&live->count, __ATOMIC_ACQUIRE);
    return count < checked->capacity ? count : checked->capacity;
}

/* The string at 'offset' of the strings region, copied out. */
static inline bool share_reader_string(recorder_share *share, uint64_t offset,
                                       char *out, size_t size)
{
    return share_string(&share->view, share->header.strings.offset,
                        share->header.strings.size, offset, out, size);
}

const share_recorder *share_reader_recorder(recorder_share *share,
                                            unsigned index) RECORDER_HIDDEN;
const share_channel *share_reader_channel(recorder_share *share,
                                          unsigned index) RECORDER_HIDDEN;

/* The ring of a recorder: 'lanes' lanes of 'size' slots from 'first'. */
typedef struct ring_view
{
    const recorder_buffer *first;
    uint32_t               size;
    uint32_t               lanes;
} ring_view;

static inline uint64_t share_ring_bytes(uint32_t slots, uint32_t lanes)
{
    return (uint64_t) lanes * (sizeof(recorder_buffer) +
                               (uint64_t) slots * sizeof(recorder_slot));
}

static inline const recorder_buffer *share_ring_lane(const ring_view *ring,
                                                     unsigned lane)
{
    return RECORDER_LANE(ring->first, ring->size, lane);
}

/* The ring of recorder 'index', if all its lanes lie inside the rings
 * region. */
bool share_reader_ring(recorder_share *share, unsigned index, ring_view *out)
    RECORDER_HIDDEN;

/* ---- share_sites.c ---------------------------------------------------------- */

/* The call site a record names, copied out. */
typedef struct site_text
{
    char     format[1024];
    char     file[256];
    char     function[128];
    uint32_t line;
} site_text;

/* False if the segment does not know a site at 'address'. */
bool share_reader_site(recorder_share *share, uint64_t address,
                       site_text *out) RECORDER_HIDDEN;

/* Type and unit of an argument for records made at 'address'. */
typedef struct argument_kind
{
    uint64_t address;                   /* cache key */
    char     kind;                      /* 's', 'u', 'r' or 0 */
    char     unit[32];
} argument_kind;

void share_reader_kind(recorder_share *share, uint64_t address,
                       unsigned argument, argument_kind *out) RECORDER_HIDDEN;

/* ---- share_fetch.c ---------------------------------------------------------- */

/* Strings of a live writer are fetched from its memory; those of a dead
 * one from the files it mapped, when they are constants there; otherwise
 * the address is all we can show. */
typedef struct fetch_context
{
    recorder_share *share;
    bool            memory;             /* share_reader_writer_readable() */
} fetch_context;

/* A recorder_render_options fetch function; 'arg' is a fetch_context. */
const char *share_reader_fetch(uint64_t address, char *out, size_t size,
                               void *arg) RECORDER_HIDDEN;

/* ---- share_services.c ------------------------------------------------------- */

/* The crash region of a segment opened for reading, bounds-checked, or
 * NULL when it has none (crash_reader.c reads the report in it). */
const void *recorder_share_crash_region(recorder_share *share, size_t *size)
    RECORDER_HIDDEN;

/* ---- share_dump.c ----------------------------------------------------------- */

/* The writer's line settings, from its tweaks in the segment; those it does
 * not publish keep the library's defaults. */
struct recorder_line_settings;
void share_reader_line_settings(recorder_share *share,
                                struct recorder_line_settings *out)
    RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_READER_PRIVATE_H */
