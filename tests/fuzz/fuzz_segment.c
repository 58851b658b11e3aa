/* fuzz_segment.c - the segment reader on corrupted segments.
 *
 * A real segment is made once, by a child process that shares, exports
 * channels, records, takes a snapshot (so its snapshot table is filled)
 * and is killed. Each input is a list of patches
 * (region, offset, bytes) written over a copy of it; the reader then opens,
 * validates, lists, reads samples and renders a dump. Patched bytes are
 * restored afterwards, so every input starts from the same segment.
 */
#include "fuzz_common.h"
#include "recorder_share.h"
#include "segment/share_layout_private.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

RECORDER(fuzz_shared, 64, "Records in the template segment");

static char path[600];
static uint8_t *template_data;
static size_t template_size;
static int fd = -1;

/* A second thread, so the template's ring has two lanes to merge. */
static void *record_more(void *arg)
{
    (void) arg;
    for (int i = 0; i < 50; i++)
        record(fuzz_shared, "<Count %u items ratio %f %+s", i, -i / 3.0,
               "other");
    return NULL;
}

static void make_template(void)
{
    snprintf(path, sizeof(path), "%s/segment", fuzz_scratch_directory());
    int ready[2];
    if (pipe(ready))
        abort();
    pid_t pid = fork();
    if (pid == 0)
    {
        char spec[700];
        snprintf(spec, sizeof(spec), "share=%s", path);
        recorder_configure_show(fuzz_discard);
        recorder_trace_set(spec);
        recorder_trace_set("fuzz_shared=count,ratio,name");
        setenv("RECORDER_SNAPSHOT_DIR", fuzz_scratch_directory(), 1);
        recorder_trace_set("snapshot=fuzz_shared snapshot_post=0 "
                           "snapshot=count>50");
        for (int i = 0; i < 100; i++)
            record(fuzz_shared, ">Count %u items ratio %f %+s", i, i / 3.0,
                   "text");
        pthread_t other;
        if (pthread_create(&other, NULL, record_more, NULL) ||
            pthread_join(other, NULL))
            _exit(1);
        usleep(100000);                 /* the snapshot thread's turn */
        if (write(ready[1], "r", 1) != 1)
            _exit(1);
        pause();
        _exit(0);
    }
    char byte;
    if (read(ready[0], &byte, 1) != 1)
        abort();
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);

    fd = open(path, O_RDWR);
    struct stat st;
    if (fd < 0 || fstat(fd, &st))
        abort();
    template_size = (size_t) st.st_size;
    template_data = malloc(template_size);
    if (pread(fd, template_data, template_size, 0) != (ssize_t) template_size)
        abort();
}

/* Where patches land: the header and each table or region. */
static uint64_t region_start(unsigned which)
{
    const share_header *h = (const share_header *) template_data;
    switch (which % 10)
    {
    case 9: return h->snapshots.offset;
    case 8: return h->modules.offset;
    case 0: return 0;
    case 1: return h->recorders.offset;
    case 2: return h->tweaks.offset;
    case 3: return h->sites.offset;
    case 4: return h->channels.offset;
    case 5: return h->commands.offset;
    case 6: return h->strings.offset;
    default: return h->rings.offset;
    }
}

typedef struct patch { uint64_t at; size_t len; } patch;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!template_data)
        make_template();
    fuzz_quiet();

    patch patches[64];
    unsigned count = 0;
    size_t i = 0;
    while (i + 4 <= size && count < 64)
    {
        unsigned which = data[i];
        uint64_t at = region_start(which) + (data[i + 1] | data[i + 2] << 8);
        size_t len = data[i + 3] % 16 + 1;
        i += 4;
        if (i + len > size)
            len = size - i;
        if (at + len > template_size)
            break;
        if (pwrite(fd, data + i, len, (off_t) at) != (ssize_t) len)
            abort();
        patches[count++] = (patch) { at, len };
        i += len;
    }

    char error[256];
    recorder_share *share = recorder_share_open(path, error, sizeof(error));
    if (share)
    {
        recorder_share_process process;
        recorder_share_process_info(share, &process);
        unsigned recorders = recorder_share_recorder_count(share);
        for (unsigned r = 0; r < recorders && r < 64; r++)
        {
            recorder_share_recorder rec;
            recorder_share_recorder_info(share, r, &rec);
        }
        unsigned tweaks = recorder_share_tweak_count(share);
        for (unsigned t = 0; t < tweaks && t < 64; t++)
        {
            recorder_share_tweak tweak;
            recorder_share_tweak_info(share, t, &tweak);
        }
        unsigned channels = recorder_share_channel_count(share);
        for (unsigned c = 0; c < channels && c < 16; c++)
        {
            recorder_share_channel channel;
            recorder_share_channel_info(share, c, &channel);
            recorder_share_stats stats;
            recorder_share_channel_stats(share, c, &stats);
            recorder_sample samples[32];
            recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
            uint64_t lost;
            recorder_share_read(share, c, &cursor, samples, 32, &lost);
        }
        /* Channels read together: pairs as the segment lists them, which
         * a forged table may put on one recorder or on several. */
        for (unsigned c = 0; c + 1 < channels && c < 16; c += 2)
        {
            unsigned pair[2] = { c, c + 1 };
            recorder_sample first[16], second[16];
            recorder_sample *out[2] = { first, second };
            size_t got[2];
            recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
            uint64_t lost;
            recorder_share_read_channels(share, pair, 2, &cursor, out, got,
                                         16, &lost);
        }
        recorder_share_find_channel(share, "c.*", -1);
        recorder_share_snapshot conditions[4];
        recorder_share_snapshots(share, conditions, 4);
        recorder_share_snapshot_event events[8];
        recorder_share_snapshot_events(share, events, 8);
        FILE *null = fopen("/dev/null", "w");
        recorder_share_dump(share, NULL, null);
        /* The merge of several processes reads each as the dump does. */
        recorder_share *both[2] = { share, share };
        recorder_share_dump_merged(both, 2, NULL, null);
        fclose(null);
        recorder_share_state(share);
        recorder_share_close(share);
    }

    for (unsigned p = 0; p < count; p++)
        if (pwrite(fd, template_data + patches[p].at, patches[p].len,
                   (off_t) patches[p].at) != (ssize_t) patches[p].len)
            abort();
    return 0;
}
