/* forge_v12_segment.c - write a segment as a recorder 1.2 program does.
 *
 *   forge_v12_segment FILE [--count N] [--corrupt WHAT] [--serve SECONDS]
 *
 * Lays the file out with 1.2's own C types (enum, off_t, size_t, a union
 * of intptr_t, uintptr_t and double), not the reader's fixed-width copy of
 * them, as 1.2's recorder_chans_new(), recorder_chan_new() and
 * recorder_trace_entry() did: the reader is checked against the format,
 * not against itself. Four channels with known values, N samples each
 * (default 40), sample i at i * 10 ms:
 *
 *   ramp      signed    "steps"  i - 10         ring of 64
 *   ratio     real      "x"      i / 4          ring of 64
 *   bytes     unsigned  "B"      1000 * i       ring of 16: keeps the last
 *   dev/temp  signed    ""       declared min -40, max 125, value i % 7
 *
 * --corrupt breaks one thing: head (the newest channel lies past the end),
 * name (a name offset past the end), ring (a ring larger than the file),
 * loop (a channel whose next is itself), version, 32bit (a 32-bit magic),
 * commands (the command ring's indexes).
 * --serve stays alive with the file open, taking commands from the ring
 * as 1.2's background thread did (every 10 ms here, not 100), printing
 * "command: TEXT" for each, until SECONDS passed or SIGTERM.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- recorder 1.2's declarations (recorder.h, recorder_ring.h) ----------- */

typedef enum { T_NONE, T_INVALID, T_SIGNED, T_UNSIGNED, T_REAL } chan_type;

typedef union
{
    intptr_t  signed_value;
    uintptr_t unsigned_value;
    double    real_value;
} chan_data;

typedef struct
{
    size_t    size;
    size_t    item_size;
    uintptr_t reader;
    uintptr_t writer;
    uintptr_t commit;
    uintptr_t overflow;
} ring_t;

typedef struct
{
    uint32_t magic;
    uint32_t version;
    uint32_t serial;
    off_t    head;
    off_t    free_list;
    off_t    offset;
    ring_t   commands;
    char     commands_buffer[1024];
} shans_t;

typedef struct
{
    chan_type type;
    off_t     next;
    off_t     name;
    off_t     description;
    off_t     unit;
    chan_data min;
    chan_data max;
    ring_t    ring;
} shan_t;

#define MAGIC   (0xC0DABABEu ^ 1u)
#define VERSION 0x010005u
#define PAGE    4096

static int fd;
static char *base;
static size_t mapped;

static void fail(const char *what)
{
    perror(what);
    exit(1);
}

/* Grow the file and the map in pages, as 1.2 did. */
static void extend(size_t size)
{
    size_t pages = (size / PAGE + 1) * PAGE;
    if (pages <= mapped)
        return;
    if (ftruncate(fd, (off_t) pages) != 0)
        fail("ftruncate");
    if (base)
        munmap(base, mapped);
    base = mmap(NULL, pages, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED)
        fail("mmap");
    mapped = pages;
}

static shans_t *shans(void)
{
    return (shans_t *) base;
}

static off_t new_channel(chan_type type, size_t size, const char *name,
                         const char *description, const char *unit,
                         chan_data min, chan_data max)
{
    size_t item = 2 * sizeof(chan_data);
    size_t name_at = sizeof(shan_t) + size * item;
    size_t description_at = name_at + strlen(name) + 1;
    size_t unit_at = description_at + strlen(description) + 1;
    size_t alloc = unit_at + strlen(unit) + 1;
    size_t offset = (size_t) shans()->offset;
    size_t align = sizeof(long double);
    size_t end = (offset + alloc + align - 1) & ~(align - 1);
    extend(end);
    shans()->offset = (off_t) end;
    shan_t *shan = (shan_t *) (base + offset);
    shan->type = type;
    shan->next = shans()->head;
    shan->name = (off_t) name_at;
    shan->description = (off_t) description_at;
    shan->unit = (off_t) unit_at;
    shan->min = min;
    shan->max = max;
    memcpy((char *) shan + name_at, name, strlen(name) + 1);
    memcpy((char *) shan + description_at, description,
           strlen(description) + 1);
    memcpy((char *) shan + unit_at, unit, strlen(unit) + 1);
    shan->ring = (ring_t) { .size = size, .item_size = item };
    shans()->head = (off_t) offset;
    return (off_t) offset;
}

/* One sample, the way recorder_trace_entry() exported it. */
static void export(off_t channel, uintptr_t timestamp, chan_data value)
{
    shan_t *shan = (shan_t *) (base + channel);
    ring_t *ring = &shan->ring;
    uintptr_t writer = __atomic_fetch_add(&ring->writer, 1, __ATOMIC_ACQUIRE);
    chan_data *data = (chan_data *) (ring + 1);
    data += 2 * (writer % ring->size);
    data[0].unsigned_value = timestamp;
    data[1] = value;
    __atomic_fetch_add(&ring->commit, 1, __ATOMIC_ACQUIRE);
}

/* Take what the command ring holds, as 1.2's configuration thread did. */
static void take_commands(void)
{
    ring_t *ring = &shans()->commands;
    size_t readable = ring->commit - ring->reader;
    if (!readable)
        return;
    if (readable > ring->size)
        readable = ring->size;
    char text[1025];
    for (size_t i = 0; i < readable && i < 1024; i++)
        text[i] = shans()->commands_buffer[(ring->reader + i) % ring->size];
    text[readable < 1024 ? readable : 1024] = 0;
    __atomic_fetch_add(&ring->reader, readable, __ATOMIC_RELEASE);
    printf("command: %s\n", text);
    fflush(stdout);
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
    (void) sig;
    stop = 1;
}

int main(int argc, char **argv)
{
    if (argc < 2)
    {
        fprintf(stderr, "usage: forge_v12_segment FILE [--count N] "
                "[--corrupt WHAT] [--serve SECONDS]\n");
        return 2;
    }
    long count = 40;
    double serve = -1;
    const char *corrupt = "";
    for (int a = 2; a + 1 < argc; a += 2)
    {
        if (strcmp(argv[a], "--count") == 0)
            count = atol(argv[a + 1]);
        else if (strcmp(argv[a], "--serve") == 0)
            serve = atof(argv[a + 1]);
        else if (strcmp(argv[a], "--corrupt") == 0)
            corrupt = argv[a + 1];
        else
        {
            fprintf(stderr, "forge_v12_segment: unknown option %s\n", argv[a]);
            return 2;
        }
    }
    fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0)
        fail(argv[1]);
    extend(PAGE - 1);
    shans()->magic = MAGIC;
    shans()->version = VERSION;
    shans()->serial = (uint32_t) getpid();
    shans()->head = 0;
    shans()->free_list = 0;
    shans()->offset = sizeof(shans_t);
    shans()->commands = (ring_t) { .size = sizeof(shans()->commands_buffer),
                                   .item_size = 1 };

    chan_data zero = { 0 }, min = { .signed_value = -40 },
              max = { .signed_value = 125 };
    off_t ramp = new_channel(T_NONE, 64, "ramp", "a ramp of known values",
                             "steps", zero, zero);
    off_t ratio = new_channel(T_NONE, 64, "ratio", "quarters", "x", zero,
                              zero);
    off_t bytes = new_channel(T_NONE, 16, "bytes", "a short ring", "B", zero,
                              zero);
    off_t temp = new_channel(T_NONE, 64, "dev/temp", "declared range", "",
                             min, max);
    for (long i = 0; i < count; i++)
    {
        uintptr_t when = (uintptr_t) i * 10000;
        export(ramp, when, (chan_data) { .signed_value = i - 10 });
        export(ratio, when, (chan_data) { .real_value = i / 4.0 });
        export(bytes, when, (chan_data) { .unsigned_value = 1000 * i });
        export(temp, when, (chan_data) { .signed_value = i % 7 });
    }
    /* The type is known once a sample came, from the record's format. */
    ((shan_t *) (base + ramp))->type = T_SIGNED;
    ((shan_t *) (base + ratio))->type = T_REAL;
    ((shan_t *) (base + bytes))->type = T_UNSIGNED;
    ((shan_t *) (base + temp))->type = T_SIGNED;

    if (strcmp(corrupt, "head") == 0)
        shans()->head = (off_t) mapped + 4096;
    else if (strcmp(corrupt, "name") == 0)
        ((shan_t *) (base + temp))->name = (off_t) mapped * 2;
    else if (strcmp(corrupt, "ring") == 0)
        ((shan_t *) (base + temp))->ring.size = (size_t) 1 << 40;
    else if (strcmp(corrupt, "loop") == 0)
        ((shan_t *) (base + ratio))->next = ratio;
    else if (strcmp(corrupt, "version") == 0)
        shans()->version = 0x010000;
    else if (strcmp(corrupt, "32bit") == 0)
        shans()->magic = 0xC0DABABEu;
    else if (strcmp(corrupt, "commands") == 0)
        shans()->commands.writer = 5000;
    else if (corrupt[0])
    {
        fprintf(stderr, "forge_v12_segment: unknown corruption %s\n", corrupt);
        return 2;
    }
    if (msync(base, mapped, MS_SYNC) != 0)
        fail("msync");
    if (serve < 0)
        return 0;

    signal(SIGTERM, on_term);
    printf("serving\n");
    fflush(stdout);
    struct timespec tick = { 0, 10 * 1000 * 1000 };
    for (double waited = 0; waited < serve && !stop; waited += 0.01)
    {
        take_commands();
        nanosleep(&tick, NULL);
    }
    return 0;
}
