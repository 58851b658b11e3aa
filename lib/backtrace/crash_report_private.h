/* crash_report_private.h - what a process that dies of a signal leaves.
 *
 * The crash handler fills one crash_report with no allocation and only
 * async-signal-safe calls: the signal and faulting address, the thread, the
 * raw program counters of its stack (libunwind's local unwinder), and the
 * executable modules mapped at that moment with their load bias and build
 * id. Turning those counters into functions, files and lines (DWARF) is
 * never done in the crashing process: the handler execs the
 * recorder_symbolize helper and pipes it the report, and a reader of the
 * shared segment does the same work after the process died.
 *
 * The same bytes go into the segment's crash region and down the pipe, so
 * the struct holds fixed-width integers and offsets only, and its layout is
 * pinned below. Whoever receives one trusts nothing in it until
 * crash_report_check() accepted a private copy.
 */
#ifndef RECORDER_CRASH_REPORT_PRIVATE_H
#define RECORDER_CRASH_REPORT_PRIVATE_H

#include "base/visibility_private.h"

#include <assert.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CRASH_MAGIC             0x4853524344524352ull  /* "RCRDCRSH" */
#define CRASH_VERSION           1
#define CRASH_FRAMES            256     /* deeper stacks are cut */
#define CRASH_MODULES           256
#define CRASH_BUILD_ID_MAX      40
#define CRASH_STRINGS           32768   /* module paths */
#define CRASH_NAME_MAX          64
#define CRASH_NO_MODULE         UINT32_MAX

/* Room reserved for a report in the shared segment. */
#define CRASH_REGION_SIZE       (64u << 10)

enum crash_state
{
    CRASH_STATE_EMPTY    = 0,
    CRASH_STATE_WRITING  = 1,
    CRASH_STATE_COMPLETE = 2            /* stored last, with release order */
};

enum crash_flags
{
    CRASH_FRAMES_TRUNCATED  = 1,        /* the stack had more frames */
    CRASH_MODULES_TRUNCATED = 2,        /* more modules than room */
    CRASH_UNWIND_FAULTED    = 4,        /* unwinding hit bad memory */
    CRASH_NO_MODULE_MAP     = 8         /* /proc/self/maps unreadable */
};

enum crash_frame_flags
{
    CRASH_FRAME_EXACT = 1               /* pc is the faulting instruction,
                                           not a return address */
};

typedef struct crash_frame
{
    uint64_t pc;
    uint32_t module;                    /* index, or CRASH_NO_MODULE */
    uint32_t flags;                     /* crash_frame_flags */
} crash_frame;

/* An executable or shared library: every address it maps is in
 * [start, end), and its ELF virtual address v is at bias + v. Bias and
 * build id are read for the modules that hold frames; for others, bias is
 * 'start' and there is no build id. */
typedef struct crash_module
{
    uint64_t start;
    uint64_t end;
    uint64_t bias;
    uint32_t path;                      /* offset in 'strings' */
    uint32_t build_id_size;             /* 0 if it has none */
    uint8_t  build_id[CRASH_BUILD_ID_MAX];
} crash_module;

typedef struct crash_report
{
    uint64_t     magic;
    uint32_t     version;
    uint32_t     size;                  /* sizeof(crash_report) */
    uint32_t     state;                 /* enum crash_state */
    uint32_t     flags;                 /* enum crash_flags */
    int32_t      signal;                /* 0: captured, not a crash */
    int32_t      code;                  /* si_code */
    uint64_t     address;               /* si_addr */
    uint32_t     pid;
    uint32_t     tid;
    uint32_t     sender;                /* si_pid, for signals sent */
    uint32_t     frame_count;
    uint32_t     module_count;
    uint32_t     strings_used;
    int64_t      wall_us;               /* time of the crash, UTC */
    char         program[CRASH_NAME_MAX];
    char         host[CRASH_NAME_MAX];
    char         thread[32];
    uint8_t      reserved[24];
    crash_frame  frames[CRASH_FRAMES];
    crash_module modules[CRASH_MODULES];
    char         strings[CRASH_STRINGS];
} crash_report;

static_assert(sizeof(crash_frame) == 16, "crash_frame layout");
static_assert(sizeof(crash_module) == 72, "crash_module layout");
static_assert(offsetof(crash_report, program) == 72, "crash_report header");
static_assert(offsetof(crash_report, frames) == 256, "crash_report layout");
static_assert(sizeof(crash_report) ==
              256 + 16 * CRASH_FRAMES + 72 * CRASH_MODULES + CRASH_STRINGS,
              "crash_report layout");
static_assert(sizeof(crash_report) <= CRASH_REGION_SIZE,
              "crash region too small");
static_assert(_Alignof(crash_report) == 8, "crash_report alignment");

/* ---- capture: async-signal-safe ------------------------------------------ */

/* Start a report: clear it, and fill the header from the signal (0 and
 * NULL for a backtrace taken on purpose) and the calling thread. */
void crash_report_start(crash_report *report, int sig, const siginfo_t *info)
    RECORDER_HIDDEN;

/* Unwind the stack into report->frames: from the signal context 'context'
 * (the handler's third argument), or from the caller when it is NULL,
 * skipping 'skip' more frames. Returns the number of frames. */
unsigned crash_capture_frames(crash_report *report, void *context,
                              unsigned skip) RECORDER_HIDDEN;

/* Read /proc/self/maps into report->modules, with load bias and build id
 * read from memory, and point each frame at its module. */
void crash_capture_modules(crash_report *report) RECORDER_HIDDEN;

/* ---- reading: untrusted input ---------------------------------------------- */

/* Whether 'report' (a private copy) is whole and consistent: magic,
 * version, size, state, counts, module indexes, string offsets and
 * terminations. Only then may the functions below be used on it. */
bool crash_report_check(const crash_report *report, char *why, size_t size)
    RECORDER_HIDDEN;

/* The path of module 'index' of a checked report. */
const char *crash_module_path(const crash_report *report, unsigned index)
    RECORDER_HIDDEN;

/* "SIGSEGV", or "signal 42". Async-signal-safe. */
const char *crash_signal_name(int sig, char *buffer, size_t size)
    RECORDER_HIDDEN;

/* Whether si_addr means something for 'sig' (a fault) when si_code > 0. */
bool crash_signal_has_address(int sig) RECORDER_HIDDEN;

/* What si_code says for this signal ("address not mapped"), or NULL. */
const char *crash_code_text(int sig, int code) RECORDER_HIDDEN;

/* Where reports live in a segment: recorder_share_crash_area()
 * (share_writer_private.h) and recorder_share_crash_region()
 * (share_reader_private.h). */

#endif /* RECORDER_CRASH_REPORT_PRIVATE_H */
