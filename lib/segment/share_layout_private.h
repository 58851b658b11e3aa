/* share_layout_private.h - the layout of the shared segment.
 *
 * One file, mapped by the recording process (the writer) and by any number
 * of readers, live or after the writer died. Everything in it is at a fixed
 * offset from the start, uses fixed-width types, and holds offsets, never
 * pointers. A reader checks the header (magic, version, byte order, word
 * size, struct sizes) before it touches anything else, and then trusts no
 * offset, count or string: see share_access_private.h.
 *
 *   header | recorders | tweaks | sites | channels | modules | commands |
 *   clock | strings | crash | rings
 *
 * The clock region is a recorder_time_base (time_base_private.h): the
 * calibration points that turn the records' ticks into CLOCK_MONOTONIC.
 *
 * The crash region (CRASH_REGION_SIZE bytes at 'crash') holds the
 * crash_report of crash_report_private.h once the writer died of a signal;
 * it describes its own layout (magic, version, size).
 */
#ifndef RECORDER_SHARE_LAYOUT_PRIVATE_H
#define RECORDER_SHARE_LAYOUT_PRIVATE_H

#include "recorder.h"
#include "record/time_base_private.h"

#include <assert.h>
#include <stdint.h>

#define SHARE_MAGIC             0x4D48535244524352ull  /* "RCRDRSHM" */
#define SHARE_VERSION           5
#define SHARE_ENDIAN_MARK       0x01020304u
#define SHARE_NAME_MAX          64

/* Capacities of the tables and regions, fixed when a segment is made. The
 * writer sizes them to the program (what it has when it starts sharing,
 * twice over), at least _MIN; when a library loaded later needs more, it
 * lays out a larger segment and renames it over this one, which readers
 * see as replaced. _MAX bounds what a reader accepts (and so what it may
 * allocate for a table); what still does not fit is counted in the
 * header's not_shared[]. */
#define SHARE_RECORDERS_MIN     1024
#define SHARE_RECORDERS_MAX     (1u << 20)
#define SHARE_TWEAKS_MIN        1024
#define SHARE_TWEAKS_MAX        (1u << 20)
#define SHARE_SITES_MIN         16384
#define SHARE_SITES_MAX         (1u << 22)
#define SHARE_CHANNELS_MIN      256
#define SHARE_CHANNELS_MAX      (1u << 20)
#define SHARE_MODULES_MIN       256
#define SHARE_MODULES_MAX       (1u << 16)
#define SHARE_STRINGS_MIN       (2ull << 20)
#define SHARE_STRINGS_MAX       (1ull << 30)
#define SHARE_RINGS_MIN_SIZE    (8ull << 20)
#define SHARE_RINGS_MAX_SIZE    (4ull << 30)
#define SHARE_COMMANDS          64
#define SHARE_COMMAND_TEXT      244
#define SHARE_TICKET_TEXT       112
#define SHARE_WHY_TEXT          24

enum share_state
{
    SHARE_STATE_STARTING = 0,
    SHARE_STATE_RUNNING  = 1,
    SHARE_STATE_EXITED   = 2,           /* the writer exited normally */
    SHARE_STATE_MOVED    = 3            /* the writer now shares elsewhere */
};

/* What may not fit: index of the header's not_shared[] counts. */
enum share_limit
{
    SHARE_LIMIT_RECORDERS,
    SHARE_LIMIT_TWEAKS,
    SHARE_LIMIT_SITES,
    SHARE_LIMIT_CHANNELS,
    SHARE_LIMIT_MODULES,
    SHARE_LIMIT_STRINGS,
    SHARE_LIMIT_RINGS,
    SHARE_LIMITS
};

/* A region of the segment: where it starts and how large it is. */
typedef struct share_region
{
    uint64_t offset;
    uint64_t size;
} share_region;

typedef struct share_table
{
    uint64_t offset;
    uint32_t capacity;
    uint32_t count;                     /* entries filled; release-published */
} share_table;

typedef struct share_header
{
    uint64_t     magic;
    uint32_t     version;
    uint32_t     endian;                /* SHARE_ENDIAN_MARK as written */
    uint32_t     word_size;             /* sizeof(void *) of the writer */
    uint32_t     header_size;
    uint32_t     recorder_size;         /* sizes of the shared structs */
    uint32_t     tweak_size;
    uint32_t     site_size;
    uint32_t     channel_size;
    uint32_t     command_size;
    uint32_t     slot_size;
    uint32_t     ring_head_size;
    uint32_t     state;                 /* enum share_state */
    uint64_t     total_size;            /* of the whole file */
    uint64_t     generation;            /* random, new for each segment */
    uint32_t     pid;
    uint32_t     reserved;
    char         host[SHARE_NAME_MAX];
    char         program[SHARE_NAME_MAX];
    int64_t      start_wall_us;         /* wall clock at start, UTC */
    int64_t      utc_offset_s;          /* local time zone at start */
    uint64_t     start_mono_ns;         /* CLOCK_MONOTONIC at start: time 0 */
    share_region clock;                 /* a recorder_time_base */
    share_table  recorders;
    share_table  tweaks;
    share_table  sites;
    share_table  channels;
    share_region commands;              /* a share_command_ring */
    share_region strings;
    share_region rings;
    uint64_t     strings_used;
    uint64_t     rings_used;
    uint64_t     crash;                 /* offset of the crash region, or 0 */
    share_table  modules;               /* read-only file mappings */
    uint64_t     writer_base;           /* where the writer mapped this file */
    /* What the writer could not provide, and why: an errno value (0: all
     * is well) and what failed, e.g. "pthread_create". Written after the
     * magic, so read them from the live header. */
    uint32_t     commands_error;        /* no command thread: -c cannot work */
    uint32_t     modules_error;         /* module table missing or partial */
    char         commands_why[SHARE_WHY_TEXT];
    char         modules_why[SHARE_WHY_TEXT];
    /* Entries the writer left out, by enum share_limit: a table or region
     * at its _MAX, or a segment that could not grow (its stderr says
     * why). Written after the magic, like the two above. */
    uint32_t     not_shared[SHARE_LIMITS];
    uint8_t      padding[4];
    /* The snapshot table (share_snapshots_private.h); zero in segments
     * of writers without it. */
    share_region snapshots;
} share_header;

typedef struct share_recorder
{
    uint64_t name;                      /* string offsets */
    uint64_t description;
    int64_t  trace;                     /* mirror of the writer's value */
    uint64_t ring;                      /* offset of its first lane */
    uint32_t ring_size;                 /* slots in each lane */
    uint32_t lanes;                     /* lanes laid end to end; 0 while
                                           it has no ring in the segment
                                           (it never recorded): ring_size
                                           is then its size as defined */
} share_recorder;

typedef struct share_tweak
{
    uint64_t name;
    uint64_t description;
    int64_t  value;                     /* mirror of the writer's value */
} share_tweak;

/* A call site, found by the address records carry in their slots. */
typedef struct share_site
{
    uint64_t address;
    uint64_t format;                    /* string offsets */
    uint64_t file;
    uint64_t function;
    uint32_t line;
    uint32_t reserved;
} share_site;

/* A channel is a view on the ring of a recorder: argument 'argument' of
 * each of its records. Nothing more is written on the record path. */
typedef struct share_channel
{
    uint64_t name;                      /* string offset */
    uint32_t recorder;                  /* index in the recorders table */
    uint32_t argument;                  /* 0 to RECORDER_MAX_ARGS - 1 */
    uint32_t active;                    /* 0 once the export was stopped */
    uint32_t reserved;
} share_channel;

/* A read-only mapping of an ELF file in the writer (program text and
 * constant data): lets a reader show %+s strings of a dead writer, read
 * from the same file, if it is still the same file: device, inode, size,
 * owner and build id all as the writer saw them (file_identity_private.h).
 * Files without a build id are not listed. */
typedef struct share_module
{
    uint64_t start, end;                /* addresses in the writer */
    uint64_t offset;                    /* file offset of 'start' */
    uint64_t path;                      /* string offset */
    uint64_t device, inode, size;
    uint32_t owner;
    uint32_t build_id_size;
    uint8_t  build_id[40];
} share_module;

/* Commands from readers to the writer: trace specification items. */
typedef struct share_command
{
    uint64_t seq;                       /* index + 1 once the text is in */
    uint32_t length;
    char     text[SHARE_COMMAND_TEXT];
} share_command;

/* The writer's answer to command 'seq - 1', in ticket (seq - 1) %
 * SHARE_COMMANDS: its sender waits for it. Written like a seqlock (seq 0
 * while the rest changes), so a sender knows when a later command took the
 * ticket over before it read it. */
enum share_ticket_status
{
    SHARE_TICKET_OK            = 1,
    SHARE_TICKET_INVALID_NAME  = 2,     /* a bad regex, an unknown @command */
    SHARE_TICKET_INVALID_VALUE = 3,     /* a bad number, file or channel */
    SHARE_TICKET_REFUSED       = 4,     /* not taken from another process */
    SHARE_TICKET_SKIPPED       = 5,     /* never completed by its sender */
    SHARE_TICKET_PARTLY        = 6      /* some items applied, some not:
                                           the reason says which */
};

typedef struct share_ticket
{
    uint64_t seq;                       /* index + 1 once answered */
    uint32_t status;                    /* enum share_ticket_status */
    uint32_t reserved;
    char     reason[SHARE_TICKET_TEXT]; /* terminated by the writer; readers
                                           terminate it again */
} share_ticket;

typedef struct share_command_ring
{
    uint64_t      writer;               /* commands ever queued by readers */
    uint64_t      reader;               /* commands the writer has taken */
    uint32_t      doorbell;             /* futex: bumped after each command */
    uint32_t      capacity;
    uint64_t      applied;              /* commands the writer has applied */
    uint8_t       padding[32];
    share_command slots[SHARE_COMMANDS];
    share_ticket  tickets[SHARE_COMMANDS];
} share_command_ring;

/* The layout is an interface between processes: pin it down. */
static_assert(sizeof(share_header) == 512, "share_header layout");
static_assert(sizeof(share_recorder) == 40, "share_recorder layout");
static_assert(sizeof(share_tweak) == 24, "share_tweak layout");
static_assert(sizeof(share_site) == 40, "share_site layout");
static_assert(sizeof(share_channel) == 24, "share_channel layout");
static_assert(sizeof(share_module) == 104, "share_module layout");
static_assert(sizeof(share_command) == 256, "share_command layout");
static_assert(sizeof(share_ticket) == 128, "share_ticket layout");
static_assert(sizeof(share_command_ring) == 64 + (256 + 128) * SHARE_COMMANDS,
              "share_command_ring layout");
static_assert(sizeof(recorder_time_point) == 24, "recorder_time_point layout");
static_assert(sizeof(recorder_time_base) == 4096, "recorder_time_base layout");
static_assert(sizeof(recorder_slot) == 64, "recorder_slot layout");
static_assert(sizeof(recorder_buffer) == 64, "recorder_buffer layout");
static_assert(_Alignof(share_header) == 8, "share_header alignment");

#endif /* RECORDER_SHARE_LAYOUT_PRIVATE_H */
