/* share_ctf.c - the flight recorders of segments as a CTF 1.8 trace
 * directory that babeltrace2 reads (recorder_share_ctf; recorder_scope -D
 * --format ctf --output DIR).
 *
 * Follows each process's flight recorder (recorder_share_records_*) to
 * its end and packs its records, in time order, into a stream file of its
 * own (ctf_stream.c); the call sites met on the way become the event
 * classes (ctf_classes.c) that the metadata, written last, declares
 * (ctf_metadata.c). One stream per process, not per lane: the follower
 * merges a process's lanes in time order, which a CTF stream needs, and
 * the lane stays in each event's context.
 *
 * Times: the clock counts nanoseconds from the start of the earliest
 * process (so its cycles are the text dump's relative times), and its
 * offset is that start in CLOCK_MONOTONIC, which every process of a host
 * shares.
 *
 * Files are created in DIR only, through its descriptor, each new
 * (O_EXCL, no symbolic link followed); on a failure they are removed.
 */
#include "recorder_share.h"
#include "segment/ctf_classes_private.h"
#include "segment/ctf_metadata_private.h"
#include "segment/ctf_stream_private.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Records asked of the follower at a time. */
#define EXPORT_BATCH            4096
/* Packets end past this size: babeltrace2 reads a packet at a time. */
#define EXPORT_PACKET_MAX       (64 * 1024)
/* Longest file name written: PROGRAM-PID-N. */
#define EXPORT_NAME_MAX         96

typedef struct export_process
{
    recorder_share *share;
    char            program[4 * 64 + 1];        /* escaped */
    char            host[4 * 64 + 1];           /* escaped */
    unsigned        pid;
    uint64_t        start_ns;                   /* CLOCK_MONOTONIC */
    double          end_time;                   /* s since its start */
} export_process;

/* The files written so far, to remove them if the export fails, and why
 * it failed. */
typedef struct export_files
{
    int      dir;
    char   (*names)[EXPORT_NAME_MAX];
    unsigned count;
    char *   why;
    size_t   why_size;
    int      error;                     /* errno for the caller */
} export_files;

static void failed(export_files *files, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The first failure is the one the caller hears of. */
static void failed(export_files *files, int error, const char *fmt, ...)
{
    if (files->error)
        return;
    files->error = error ? error : EIO;
    va_list args;
    va_start(args, fmt);
    if (files->why_size)
        vsnprintf(files->why, files->why_size, fmt, args);
    va_end(args);
}

/* One process's records going into its stream. */
typedef struct export_read
{
    ctf_class_table *classes;
    ctf_stream *     stream;
    unsigned         process;
    const char *     procname;
    unsigned         pid;
    uint64_t         shift_ns;          /* its start - the earliest start */
    double           end_time;
    bool             past_end;
    bool             failed;
    uint64_t         records;
} export_read;

/* nearbyint() for 0 <= x < 2^63, halves to even, without libm: the
 * library links with -pthread alone, as 1.2's did. */
static double whole_nanoseconds(double x)
{
    if (!(x > 0))
        return 0;
    if (x >= 4503599627370496.0)        /* 2^52: already a whole number */
        return x;
    double r = (double) (uint64_t) (x + 0.5);
    if (r - x == 0.5 && ((uint64_t) r & 1))
        r -= 1;
    return r;
}

static ctf_field_type field_type(recorder_share_arg_type type)
{
    switch (type)
    {
    case RECORDER_SHARE_ARG_SIGNED:   return CTF_FIELD_SIGNED;
    case RECORDER_SHARE_ARG_UNSIGNED: return CTF_FIELD_UNSIGNED;
    case RECORDER_SHARE_ARG_REAL:     return CTF_FIELD_DOUBLE;
    case RECORDER_SHARE_ARG_STRING:   return CTF_FIELD_STRING;
    case RECORDER_SHARE_ARG_POINTER:  return CTF_FIELD_HEX;
    }
    return CTF_FIELD_UNSIGNED;
}

static void give_record(const recorder_share_record *record, void *arg)
{
    export_read *read = arg;
    if (read->failed)
        return;
    if (record->time > read->end_time)
        read->past_end = true;

    unsigned nargs = record->nargs < CTF_ARGS_MAX ? record->nargs
                                                  : CTF_ARGS_MAX;
    if (!record->args)
        nargs = 0;
    ctf_field_type types[CTF_ARGS_MAX];
    for (unsigned a = 0; a < nargs; a++)
        types[a] = field_type(record->args[a].type);
    ctf_class_hex_arguments(record->format, nargs, types);
    ctf_site site = { read->process, record->site, record->recorder,
                      record->function, record->line };
    uint32_t id = ctf_class_find(read->classes, &site, nargs, types);
    if (id == UINT32_MAX)
    {
        read->failed = true;
        return;
    }

    ctf_value values[CTF_ARGS_MAX];
    for (unsigned a = 0; a < nargs; a++)
    {
        const recorder_share_arg *given = &record->args[a];
        values[a].type = types[a];
        switch (types[a])
        {
        case CTF_FIELD_SIGNED:
            values[a].value.i = given->value.i;
            break;
        case CTF_FIELD_UNSIGNED:
        case CTF_FIELD_HEX:
            values[a].value.u = given->value.u;
            break;
        case CTF_FIELD_DOUBLE:
            values[a].value.r = given->value.r;
            break;
        case CTF_FIELD_STRING:
            values[a].value.s = given->value.s;     /* escaped */
            break;
        }
    }
    /* Seconds since the process started, back to the nanoseconds they
     * were made of (exact below about 50 days, a nanosecond off at worst
     * beyond), then on the trace's axis. A damaged segment's absurd time
     * stays a number a uint64_t holds. */
    double ns = record->time > 0 ? whole_nanoseconds(record->time * 1e9) : 0;
    if (!(ns < 9e18))
        ns = 9e18;
    ctf_event event = {
        .id = id,
        .timestamp = (uint64_t) ns + read->shift_ns,
        .procname = read->procname,
        .vpid = read->pid,
        .lane = record->lane,
        .format = record->format,
        .message = record->message ? record->message : "",
        .nargs = nargs,
        .args = values,
    };
    if (!ctf_stream_event(read->stream, &event))
        read->failed = true;
    read->records++;
}

/* ---- the directory ---- */

/* Open 'dir', made now or found empty; -1 (files->error, why) if it is
 * not a place for a new trace or cannot be made or opened. */
static int open_directory(export_files *files, const char *dir,
                          bool *created)
{
    *created = false;
    if (!dir || !*dir)
    {
        failed(files, EINVAL, "a CTF trace is a directory: name one");
        return -1;
    }
    if (mkdir(dir, 0777) == 0)
        *created = true;
    else if (errno != EEXIST)
    {
        failed(files, errno, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
    {
        int error = errno;
        if (error == ENOTDIR)
            failed(files, ENOTDIR, "%s exists and is not a directory", dir);
        else
            failed(files, error, "cannot open %s: %s", dir, strerror(error));
        return -1;
    }
    if (*created)
        return fd;
    int listed = dup(fd);
    DIR *entries = listed >= 0 ? fdopendir(listed) : NULL;
    if (!entries)
    {
        failed(files, errno, "cannot read %s: %s", dir, strerror(errno));
        if (listed >= 0)
            close(listed);
        close(fd);
        return -1;
    }
    bool empty = true;
    for (struct dirent *entry; empty && (entry = readdir(entries)); )
        empty = strcmp(entry->d_name, ".") == 0 ||
                strcmp(entry->d_name, "..") == 0;
    closedir(entries);
    if (!empty)
    {
        failed(files, ENOTEMPTY, "%s is not empty: a CTF trace goes in a new "
               "or empty directory", dir);
        close(fd);
        return -1;
    }
    return fd;
}

/* A new file 'name' in the directory, noted for removal on failure. */
static FILE *create_file(export_files *files, const char *dir,
                         const char *name)
{
    char (*names)[EXPORT_NAME_MAX] = realloc(files->names,
                                             (files->count + 1) *
                                             sizeof(*names));
    if (!names)
    {
        failed(files, ENOMEM, "out of memory");
        return NULL;
    }
    files->names = names;
    int fd = openat(files->dir, name,
                    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0666);
    if (fd < 0)
    {
        if (errno != EEXIST)
            failed(files, errno, "cannot create %s/%s: %s", dir, name,
                   strerror(errno));
        return NULL;
    }
    snprintf(files->names[files->count++], EXPORT_NAME_MAX, "%s", name);
    FILE *file = fdopen(fd, "wb");
    if (!file)
    {
        failed(files, errno, "%s/%s: %s", dir, name, strerror(errno));
        close(fd);
    }
    return file;
}

/* The stream file of a process: PROGRAM-PID, in characters any file
 * system and shell take, made unique with -2, -3... if need be. */
static FILE *create_stream_file(export_files *files, const char *dir,
                                const export_process *process)
{
    char base[64];
    size_t at = 0;
    for (const char *p = process->program; *p && at + 1 < sizeof(base); p++)
    {
        char c = *p;
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                     (c >= '0' && c <= '9') || c == '_' || c == '-' ||
                     (c == '.' && at > 0);
        base[at++] = plain ? c : '_';
    }
    base[at] = 0;
    for (unsigned copy = 1; copy < 1000; copy++)
    {
        char name[EXPORT_NAME_MAX];
        if (copy == 1)
            snprintf(name, sizeof(name), "%s-%u", base, process->pid);
        else
            snprintf(name, sizeof(name), "%s-%u-%u", base, process->pid,
                     copy);
        errno = 0;
        FILE *file = create_file(files, dir, name);
        if (file || errno != EEXIST)
            return file;
    }
    return NULL;
}

static void remove_files(export_files *files, const char *dir,
                         bool created)
{
    for (unsigned f = 0; f < files->count; f++)
        unlinkat(files->dir, files->names[f], 0);
    if (created)
        rmdir(dir);
}

/* Close a file written to, saying why if anything written was lost
 * ('error': what the writer saw, 0 if nothing). */
static bool close_file(export_files *files, FILE *file, const char *dir,
                       const char *name, int error)
{
    bool lost = error != 0 || ferror(file);
    errno = 0;
    if (fclose(file) != 0 && !lost)
    {
        lost = true;
        error = errno;
    }
    if (lost)
        failed(files, error, "cannot write %s/%s: %s", dir, name,
               strerror(error ? error : EIO));
    return !lost;
}

/* ---- the export ---- */

static void new_uuid(uint8_t uuid[16])
{
    if (getrandom(uuid, 16, 0) != 16)
    {
        /* No entropy yet: unique enough for one host's traces. */
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        uint64_t seed[2] = { (uint64_t) now.tv_sec * 1000000000ull +
                             (uint64_t) now.tv_nsec, (uint64_t) getpid() };
        memcpy(uuid, seed, 16);
    }
    uuid[6] = (uint8_t) ((uuid[6] & 0x0f) | 0x40);      /* version 4 */
    uuid[8] = (uint8_t) ((uuid[8] & 0x3f) | 0x80);      /* variant 1 */
}

/* The processes with a flight recorder (the others are left out), their
 * start the earliest first needed: the caller's order is kept, the base
 * found. */
static unsigned gather(recorder_share *const *shares, unsigned count,
                       export_process *processes, uint64_t *base)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double now_s = (double) now.tv_sec + (double) now.tv_nsec * 1e-9;
    unsigned used = 0;
    *base = UINT64_MAX;
    for (unsigned s = 0; s < count; s++)
    {
        recorder_share_process info;
        recorder_share_process_info(shares[s], &info);
        export_process *process = &processes[used];
        recorder_share_escape(process->program, sizeof(process->program),
                              info.program, strnlen(info.program,
                                                    sizeof(info.program)));
        recorder_share_escape(process->host, sizeof(process->host),
                              info.host, strnlen(info.host,
                                                 sizeof(info.host)));
        if (!recorder_share_available(shares[s], RECORDER_SHARE_RECORDERS,
                                      NULL, 0))
            continue;
        process->share = shares[s];
        process->pid = info.pid;
        /* The header's start, if absurd, still a number to count from. */
        double start_ns = info.start_monotonic > 0
                        ? whole_nanoseconds(info.start_monotonic * 1e9) : 0;
        process->start_ns = start_ns < 9e18 ? (uint64_t) start_ns
                                            : 9000000000000000000ull;
        /* A live writer is followed up to now, not for ever. */
        process->end_time = now_s - info.start_monotonic;
        if (process->start_ns < *base)
            *base = process->start_ns;
        used++;
    }
    return used;
}

/* Pack the records of 'process' into a new stream file. */
static bool export_process_stream(export_files *files, const char *dir,
                                  const export_process *process,
                                  unsigned index, uint64_t base,
                                  const char *regex, const uint8_t uuid[16],
                                  ctf_class_table *classes, uint64_t *records)
{
    char error[512];
    recorder_share_records *follower = recorder_share_records_new(regex,
                                                                  error,
                                                                  sizeof(error));
    if (!follower)
    {
        failed(files, EINVAL, "%s", error);
        return false;
    }
    FILE *file = create_stream_file(files, dir, process);
    if (!file)
    {
        recorder_share_records_delete(follower);
        return false;
    }
    const char *name = files->names[files->count - 1];
    ctf_stream stream;
    ctf_stream_init(&stream, file, uuid, EXPORT_PACKET_MAX);
    export_read read = {
        .classes = classes, .stream = &stream, .process = index,
        .procname = process->program, .pid = process->pid,
        .shift_ns = process->start_ns - base,
        .end_time = process->end_time,
    };
    for (bool first = true;; first = false)
    {
        uint64_t lost = 0;
        size_t given = recorder_share_records_read(process->share, follower,
                                                   EXPORT_BATCH, give_record,
                                                   &read, &lost);
        /* The first read's losses are the ring's past, overwritten by
         * design; later ones, records a live writer overwrote before this
         * export could read them: the trace is missing those. */
        if (!first)
            ctf_stream_discard(&stream, lost);
        if (read.failed || read.past_end || given < EXPORT_BATCH)
            break;
    }
    recorder_share_records_delete(follower);
    bool written = ctf_stream_finish(&stream, read.shift_ns);
    /* Not written: the stream says why; else only classes can fail. */
    int failure = !written ? stream.error : read.failed ? ENOMEM : 0;
    *records += read.records;
    return close_file(files, file, dir, name, failure);
}

long recorder_share_ctf(recorder_share *const *shares, unsigned count,
                        const char *regex, const char *dir, char *why,
                        size_t why_size)
{
    export_files files = { .dir = -1, .why = why, .why_size = why_size };
    if (why_size)
        why[0] = 0;
    bool created;
    int fd = open_directory(&files, dir, &created);
    if (fd < 0)
    {
        errno = files.error;
        return -1;
    }
    files.dir = fd;
    export_process *processes = calloc(count ? count : 1,
                                       sizeof(*processes));
    ctf_process *described = calloc(count ? count : 1, sizeof(*described));
    ctf_class_table classes = { 0 };
    long written = -1;
    uint64_t base = 0, records = 0;
    unsigned used = processes && described
                  ? gather(shares, count, processes, &base) : 0;
    if (!processes || !described)
        failed(&files, ENOMEM, "out of memory");
    else if (!used)
        failed(&files, ENOENT, "no flight recorder to export");
    ctf_trace_info info = {
        .big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__,
        .offset_ns = base, .processes = described, .process_count = used,
    };
    new_uuid(info.uuid);
    bool ok = used > 0;
    for (unsigned p = 0; p < used && ok; p++)
    {
        described[p] = (ctf_process) { processes[p].program, processes[p].pid,
                                       processes[p].host };
        ok = export_process_stream(&files, dir, &processes[p], p, base, regex,
                                   info.uuid, &classes, &records);
    }
    FILE *metadata = ok ? create_file(&files, dir, "metadata") : NULL;
    if (ok && !metadata && errno == EEXIST)
        failed(&files, EEXIST, "%s/metadata appeared while exporting", dir);
    if (metadata)
    {
        errno = 0;
        int error = ctf_metadata_write(metadata, &info, classes.classes,
                                       classes.count) ? 0 : errno ? errno : EIO;
        if (close_file(&files, metadata, dir, "metadata", error))
            written = (long) records;
    }
    if (written < 0)
        remove_files(&files, dir, created);
    close(fd);
    free(files.names);
    ctf_class_table_free(&classes);
    free(described);
    free(processes);
    if (written < 0)
        errno = files.error ? files.error : EIO;
    return written;
}
