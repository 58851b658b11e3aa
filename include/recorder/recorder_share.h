/* recorder_share.h - read another process's flight recorder and channels.
 *
 * A process that records with RECORDER_TRACES=perfdata=bytes,loops (or
 * share=PATH, or $RECORDER_SHARE) writes its recorders, tweaks, call sites,
 * rings and exported channels into a shared segment, /tmp/recorder_share by
 * default. These functions map that segment from any other process, while
 * the writer runs or after it died: list what it holds, read channel
 * samples, render its flight recorder, send it commands.
 *
 * Nothing read from a segment is trusted: a truncated, corrupted or hostile
 * file gives an error or empty results, never a crash. Strings returned in
 * the structures below are copies, always terminated.
 */
#ifndef RECORDER_SHARE_H
#define RECORDER_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct recorder_share recorder_share;

/* The path readers use when given none: $RECORDER_SHARE, else
 * /tmp/recorder_share, unless that is not the reader's own file and the
 * fallback path a writer takes then is ($XDG_RUNTIME_DIR/recorder_share
 * for a private XDG_RUNTIME_DIR, else /tmp/recorder_share.UID). Of the
 * escapes writers expand in $RECORDER_SHARE, %u, %h and %% are expanded;
 * a path with %p or %n (one segment per writer) is returned as it is. */
extern const char *recorder_share_default_path(void);

/* Map and validate the segment at 'path' (NULL for the default). On error,
 * return NULL and put a one-line reason in error[size]. A segment that
 * another user owns is refused (the reason names the owner): anyone can
 * plant a file at a shared path. */
extern recorder_share *recorder_share_open(const char *path,
                                           char *error, size_t size);

/* Flags of recorder_share_open_flags(). */
enum
{
    /* Open a segment another user owns too, as data only: see
     * recorder_share_owned(). */
    RECORDER_SHARE_ANY_OWNER = 1
};
extern recorder_share *recorder_share_open_flags(const char *path,
                                                 unsigned flags,
                                                 char *error, size_t size);
extern void recorder_share_close(recorder_share *share);

typedef enum recorder_share_status
{
    RECORDER_SHARE_ALIVE,               /* the writer is running */
    RECORDER_SHARE_EXITED,              /* it exited normally */
    RECORDER_SHARE_DIED,                /* it died: crash, kill -9... */
    RECORDER_SHARE_REPLACED,            /* a newer segment, or truncated */
    RECORDER_SHARE_MOVED,               /* the writer shares elsewhere now */
    RECORDER_SHARE_CORRUPT              /* its header changed under us */
} recorder_share_status;

/* Where the writer is now. For a replaced segment, close and open again to
 * follow the new process (a new generation); a corrupt one gives the
 * reason when opened again. */
extern recorder_share_status recorder_share_state(recorder_share *share);
extern const char *recorder_share_state_name(recorder_share_status status);

typedef struct recorder_share_process
{
    unsigned pid;
    char     program[64];
    char     host[64];
    uint64_t generation;                /* differs for every segment made */
    double   start_time;                /* seconds since the epoch */
    double   start_monotonic;           /* CLOCK_MONOTONIC seconds at start:
                                           add to sample times to compare
                                           processes of one host */
    unsigned owner;                     /* user id owning the file */
    bool     owned;                     /* by the reader's effective user */
    bool     pid_verified;              /* 'pid' runs as the reader's user
                                           and has this very file open */
} recorder_share_process;

extern void recorder_share_process_info(recorder_share *share,
                                        recorder_share_process *info);

/* Whether the segment belongs to the reader's effective user. A segment of
 * another user is read as data only: the library then never opens a file
 * it names (modules for string literals, the crash report's binaries) nor
 * reads the memory of the process it names. The writer's memory is read
 * only when, in addition, that process runs as the reader's user and has
 * this very file open. */
extern bool recorder_share_owned(recorder_share *share);

typedef struct recorder_share_recorder
{
    char     name[64];
    char     description[128];
    intptr_t trace;                     /* as last published by the writer */
    unsigned size;                      /* slots in each lane of its ring */
    unsigned lanes;                     /* lanes: one per writing thread,
                                           up to RECORDER_LANES */
    uint64_t records;                   /* slots ever written, all lanes */
} recorder_share_recorder;

typedef struct recorder_share_tweak
{
    char     name[64];
    char     description[128];
    intptr_t value;
} recorder_share_tweak;

typedef enum recorder_share_type
{
    RECORDER_SHARE_NONE,                /* not known yet: no sample */
    RECORDER_SHARE_SIGNED,
    RECORDER_SHARE_UNSIGNED,
    RECORDER_SHARE_REAL
} recorder_share_type;

/* What a channel is. Cheap: the type and unit come from the newest record
 * of the channel (its format's conversion), found in a few slots whatever
 * the size of the ring. */
typedef struct recorder_share_channel
{
    char                name[64];
    char                description[128];
    char                unit[32];       /* word after the conversion */
    recorder_share_type type;           /* from the format's conversion */
    unsigned            recorder;       /* index of the recorder */
    unsigned            argument;       /* argument position in its records */
    bool                active;         /* false once the export stopped */
} recorder_share_channel;

/* What a channel holds now: reads its whole ring. */
typedef struct recorder_share_stats
{
    uint64_t            samples;        /* samples in the ring now */
    double              min, max;       /* over those samples (0 if none) */
} recorder_share_stats;

/* Counts, and entry 'index' of each table; false for a bad index. */
extern unsigned recorder_share_recorder_count(recorder_share *share);
extern bool recorder_share_recorder_info(recorder_share *share, unsigned index,
                                         recorder_share_recorder *out);
extern unsigned recorder_share_tweak_count(recorder_share *share);
extern bool recorder_share_tweak_info(recorder_share *share, unsigned index,
                                      recorder_share_tweak *out);
extern unsigned recorder_share_channel_count(recorder_share *share);
extern bool recorder_share_channel_info(recorder_share *share, unsigned index,
                                        recorder_share_channel *out);
extern bool recorder_share_channel_stats(recorder_share *share,
                                         unsigned index,
                                         recorder_share_stats *out);

/* The next active channel after 'after' (-1 to start) whose whole name
 * matches the POSIX extended 'regex' (NULL for any); -1 if none, -2 for a
 * bad regex. */
extern int recorder_share_find_channel(recorder_share *share,
                                       const char *regex, int after);

/* 'time' is CLOCK_MONOTONIC since the writer started, through the
 * calibration points the writer publishes: final once read (it does not
 * change when the writer calibrates again) and the same for every reader. */
typedef struct recorder_sample
{
    double   time;                      /* seconds since the writer started */
    double   value;                     /* the argument, as a number */
} recorder_sample;

/* Most lanes a reader follows in one ring. */
#define RECORDER_SHARE_LANES_MAX        8

/* Where a reader is in a channel: the next record of each lane of the
 * recorder's ring. All zero (RECORDER_SHARE_CURSOR_START) starts from the
 * oldest records kept. */
typedef struct recorder_share_cursor
{
    uint64_t next[RECORDER_SHARE_LANES_MAX];
} recorder_share_cursor;

#define RECORDER_SHARE_CURSOR_START     { { 0 } }

/* Read up to 'max' samples of 'channel' recorded since '*cursor', in time
 * order (the lanes merged by timestamp), advancing it. '*lost', if not
 * NULL, gets the number of records overwritten before they could be read.
 * Returns the number of samples stored. */
extern size_t recorder_share_read(recorder_share *share, unsigned channel,
                                  recorder_share_cursor *cursor,
                                  recorder_sample *samples, size_t max,
                                  uint64_t *lost);

/* Read channels 'channels[0..count)' of one recorder in one walk of its
 * ring, from one cursor: the samples recorder_share_read() gives each of
 * them from '*cursor' go to samples[k], their number to got[k], until one
 * of them has 'max' (call again while any got[k] is 'max'); '*cursor'
 * advances to there, '*lost' (if not NULL) counts the ring's records
 * overwritten unread. Reading a recorder's channels one by one walks its
 * ring once a channel. False, reading nothing, if the channels are not
 * all of one recorder, 'count' is 0 or above
 * RECORDER_SHARE_CHANNELS_READ_MAX, or the segment is recorder 1.2's:
 * read them one by one then. */
#define RECORDER_SHARE_CHANNELS_READ_MAX        16
extern bool recorder_share_read_channels(recorder_share *share,
                                         const unsigned *channels,
                                         unsigned count,
                                         recorder_share_cursor *cursor,
                                         recorder_sample *const *samples,
                                         size_t *got, size_t max,
                                         uint64_t *lost);

/* Text from a segment is untrusted and may carry terminal escapes (set the
 * title, clear the screen, write the clipboard). Copy 'length' bytes of
 * 'text' into out[size] with every control character written as \xNN:
 * C0 controls (newline included), DEL, C1 controls (raw bytes 0x80-0x9F,
 * or U+0080-U+009F in UTF-8) and bytes that are not part of valid UTF-8.
 * Valid UTF-8 text is kept as it is. Always NUL-terminates when size > 0,
 * never splits an escape or a character; returns the bytes written (at
 * most 4 * length). Async-signal-safe. recorder_share_dump() and
 * recorder_share_crash_print() already print through it. */
extern size_t recorder_share_escape(char *out, size_t size, const char *text,
                                    size_t length);

/* Print the flight recorder of the writer (recorders whose whole name
 * matches 'regex', NULL for all) to 'out' in the same line format as an
 * in-process dump, merged in time order. Returns the lines printed. */
extern unsigned recorder_share_dump(recorder_share *share, const char *regex,
                                    FILE *out);

/* The same for the 'count' segments of several processes of one host, as
 * one dump: all their records in CLOCK_MONOTONIC time order, each line
 * "PROGRAM[PID] " then the line recorder_share_dump() prints, with its
 * relative time counted from the start of the earliest of these processes
 * (so that the lines' times compare). Segments without a flight recorder
 * (recorder 1.2's) add nothing. Returns the lines printed. */
extern unsigned recorder_share_dump_merged(recorder_share *const *shares,
                                           unsigned count, const char *regex,
                                           FILE *out);

/* The same records as recorder_share_dump_merged(), with the exported
 * channels' samples and the crash report of a dead writer, as one Chrome
 * trace-event JSON file on 'out' (the Perfetto UI and chrome://tracing
 * open it): {"traceEvents":[...],"displayTimeUnit":"ns"}, one event a
 * line, in time order. A record is an instant event (cat: its recorder,
 * name: its message, args: format, file, line, function and its typed
 * arguments), pid the process's, tid its lane; a channel sample a counter
 * event; a crash a process-wide instant event "crash: SIGSEGV" with its
 * frames; metadata names processes and lanes. 'ts' is in microseconds
 * (three decimals) since the start of the earliest process. Channels of
 * recorders 'regex' leaves out are left out too. Returns the records
 * written (0 for a bad regex); check ferror(out) for the output. */
extern unsigned recorder_share_chrome_json(recorder_share *const *shares,
                                           unsigned count, const char *regex,
                                           FILE *out);

/* The records of the same recorders as a CTF 1.8 trace that babeltrace2
 * and Trace Compass read, in directory 'dir' (created if missing; an
 * existing one must be empty): one stream per process (PROGRAM-PID), its
 * lanes merged in time order, each record an event with its recorder,
 * format, rendered message and typed arguments, each call site an event
 * class, and "metadata" last. Times count nanoseconds from the start of
 * the earliest process; the clock's offset is that start in
 * CLOCK_MONOTONIC. Segments without a flight recorder are left out.
 * Files are created in 'dir' only, each new, no symbolic link followed.
 * Returns the records written, or -1 with errno set (ENOTEMPTY or ENOTDIR
 * when 'dir' is no place for a new trace) and the reason in why[why_size];
 * then nothing is left in 'dir', nor 'dir' if this call created it. */
extern long recorder_share_ctf(recorder_share *const *shares, unsigned count,
                               const char *regex, const char *dir,
                               char *why, size_t why_size);

/* Following the flight recorder: the records of the recorders whose whole
 * name matches a regex, each handed out once, in time order (the lanes of
 * every matching recorder merged by timestamp). A follower remembers where
 * it is in each lane of a segment: the first read of a segment starts from
 * the oldest records kept, later reads give only records newer than those
 * already given (a read with nothing new costs a few loads per lane), and
 * a segment of another process (another generation) starts over. */
typedef struct recorder_share_records recorder_share_records;

/* What an argument of a record is, from its conversion in the site's
 * format. */
typedef enum recorder_share_arg_type
{
    RECORDER_SHARE_ARG_SIGNED,          /* %d %i %ld %c ... : value.i */
    RECORDER_SHARE_ARG_UNSIGNED,        /* %u %x %o %lu ...  : value.u */
    RECORDER_SHARE_ARG_REAL,            /* %f %g %e %a       : value.r */
    RECORDER_SHARE_ARG_STRING,          /* %s (and %+s fetched): value.s,
                                           escaped text */
    RECORDER_SHARE_ARG_POINTER          /* %p, and an argument no
                                           conversion reads: value.u */
} recorder_share_arg_type;

typedef struct recorder_share_arg
{
    recorder_share_arg_type type;
    union { int64_t i; uint64_t u; double r; const char *s; } value;
} recorder_share_arg;

typedef struct recorder_share_record
{
    double      time;                   /* seconds since the writer started,
                                           as recorder_sample's time */
    const char *recorder;               /* name of its recorder */
    const char *message;                /* rendered as a dump renders it,
                                           control characters escaped */
    uint64_t    ticks;                  /* raw timestamp (the writer's clock
                                           ticks), ordering key */
    uint64_t    site;                   /* the call site's identity: equal
                                           for all records of one site */
    const char *format;                 /* the site's format string,
                                           escaped; "" if unknown */
    const char *file;                   /* source file, "" if unknown */
    const char *function;               /* "" if unknown */
    unsigned    line;                   /* 0 if unknown */
    unsigned    lane;                   /* the lane of the recorder's ring
                                           it was read from (the thread's
                                           lane) */
    unsigned    nargs;
    const recorder_share_arg *args;     /* nargs of them; valid during the
                                           callback only */
} recorder_share_record;

typedef void (*recorder_share_record_fn)(const recorder_share_record *record,
                                         void *arg);

/* A follower of the recorders matching the POSIX extended 'regex' (whole
 * names, ignoring case; NULL for all). NULL with the reason in
 * error[size] for a bad regex or no memory. */
extern recorder_share_records *recorder_share_records_new(const char *regex,
                                                          char *error,
                                                          size_t size);
/* Call 'fn' for up to 'max' records recorded since the last read of
 * 'records' in 'share' (the rest wait for the next read). '*lost', if not
 * NULL, gets the number of records overwritten before they could be read.
 * Returns the number of records given. The strings and arguments of a
 * record are valid during the call only. Arguments are typed by the
 * site's format, integers narrowed as printf reads them; a plain %s is a
 * pointer in the writer's memory, given as "", a %+s the text a dump
 * shows; arguments of a site the segment does not know are pointers. */
extern size_t recorder_share_records_read(recorder_share *share,
                                          recorder_share_records *records,
                                          size_t max,
                                          recorder_share_record_fn fn,
                                          void *arg, uint64_t *lost);
extern void recorder_share_records_delete(recorder_share_records *records);

/* The crash report the writer left when it died of SIGSEGV, SIGBUS,
 * SIGILL, SIGFPE, SIGABRT or SIGSYS (see recorder_dump_on_common_signals):
 * signal, faulting address, thread and backtrace, symbolized here with the
 * debug information of the files the writer had mapped (if they are still
 * the same build). NULL with error[0] == 0 if there is none; NULL with a
 * reason in error[size] if it cannot be read. Delete the result with
 * recorder_backtrace_delete() (<recorder/recorder_backtrace.h>). */
struct recorder_backtrace;
extern struct recorder_backtrace *
recorder_share_crash_backtrace(recorder_share *share, char *error,
                               size_t size);

/* Print that report to 'out' the way the crashing process printed it.
 * Returns the lines printed, 0 if there is no report, -1 with a reason in
 * error[size] if there is one that cannot be read. */
extern int recorder_share_crash_print(recorder_share *share, FILE *out,
                                      char *error, size_t size);

/* What a writer may be unable to provide. */
typedef enum recorder_share_service
{
    RECORDER_SHARE_COMMANDS,            /* a thread that applies commands */
    RECORDER_SHARE_MODULES,             /* its table of mapped files, which
                                           post-mortem %+s strings need */
    RECORDER_SHARE_RECORDERS,           /* recorders, tweaks and the flight
                                           recorder: not in the segment of
                                           a recorder 1.2 program, which
                                           holds only exported channels */
    RECORDER_SHARE_TABLES               /* room for all its recorders,
                                           tweaks, call sites, channels */
} recorder_share_service;

/* True if the writer provides 'service'; false with the reason it
 * published in why[size] (e.g. "pthread_create: Resource temporarily
 * unavailable") if it could not. */
extern bool recorder_share_available(recorder_share *share,
                                     recorder_share_service service,
                                     char *why, size_t size);

/* Send a trace specification ("dump", "foo=2", "perfdata=bytes,loops") to
 * the writer, and wait up to 'timeout_ms' for its answer (0: return as
 * soon as it is queued, without an answer). True if the writer applied
 * it. False with a reason in error[size] if the writer is not alive,
 * cannot take commands, the segment is read only, the command ring stayed
 * full, no answer came in time, or the writer rejected the command: then
 * the reason is the writer's (a bad value, or a command naming a file
 * refused from another process: see recorder_share_send(3)). */
extern bool recorder_share_send(recorder_share *share, const char *command,
                                unsigned timeout_ms, char *error, size_t size);

/* The same in two steps, for callers that must not block (a user
 * interface): recorder_share_post() queues 'command' and gives its ticket
 * without waiting for the writer; false with a reason in error[size] if it
 * cannot be queued (same reasons as above). */
typedef uint64_t recorder_share_ticket;
extern bool recorder_share_post(recorder_share *share, const char *command,
                                recorder_share_ticket *ticket,
                                char *error, size_t size);

typedef enum recorder_share_outcome
{
    RECORDER_SHARE_PENDING,             /* no answer yet: ask again later */
    RECORDER_SHARE_APPLIED,             /* the writer applied the command */
    RECORDER_SHARE_REJECTED,            /* it refused it: the writer's reason,
                                           e.g. "no recorder or tweak 'x'" */
    RECORDER_SHARE_UNANSWERED           /* no answer will come: why (the
                                           writer exited, the answer was
                                           overwritten...) */
} recorder_share_outcome;

/* The answer to the command of 'ticket', posted on this very handle,
 * waiting up to 'timeout_ms' for it (0: look once). The text of the
 * outcome goes to text[size]: "" when applied, the writer's reason when
 * rejected, why there is none when pending or unanswered. */
extern recorder_share_outcome recorder_share_answer(recorder_share *share,
                                                    recorder_share_ticket ticket,
                                                    unsigned timeout_ms,
                                                    char *text, size_t size);

/* Snapshots on a condition (the writer's snapshot= items): each armed
 * condition as given, escaped, with the snapshots it took and the
 * triggers it did not (hold-off, maximum, one already being taken). */
typedef struct recorder_share_snapshot
{
    char     condition[4 * 96 + 1];
    uint64_t taken;
    uint64_t suppressed;
} recorder_share_snapshot;

/* The writer's armed conditions, the first 'max' in out[]; returns how
 * many are armed (0 for a segment without snapshots). */
extern unsigned recorder_share_snapshots(recorder_share *share,
                                         recorder_share_snapshot *out,
                                         unsigned max);

/* A snapshot written: when its condition held, in seconds since the
 * writer started (as recorder_sample's time), and the condition. */
typedef struct recorder_share_snapshot_event
{
    double time;
    char   condition[4 * 96 + 1];
} recorder_share_snapshot_event;

/* The last snapshots written, oldest first, the last 'max' in out[];
 * returns how many. */
extern unsigned recorder_share_snapshot_events(
    recorder_share *share, recorder_share_snapshot_event *out, unsigned max);

#ifdef __cplusplus
}
#endif

#endif /* RECORDER_SHARE_H */
