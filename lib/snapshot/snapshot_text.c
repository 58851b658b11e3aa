/* snapshot_text.c - a snapshot as the text dump: every recorder's
 * records from the oldest the rings hold up to a time, merged in time
 * order as dumps merge them, rendered as dumps render them, without
 * moving where the program's own dumps start. */
#include "snapshot/snapshot_private.h"
#include "record/clock_private.h"
#include "record/output_private.h"
#include "record/record_merge_private.h"
#include "record/registry_private.h"
#include "text/safe_output_private.h"

#include <errno.h>
#include <string.h>
#include <stdlib.h>

typedef struct text_pass
{
    int              fd;
    bool             failed;
    int              error;
    uint64_t         until_ns;
    recorder_output  out;
    recorder_info ** recorders;         /* cursor -> its recorder */
} text_pass;

/* The first failure stops the file: its errno is kept. */
static void put_text(text_pass *pass, const char *text, size_t length)
{
    if (pass->failed)
        return;
    errno = 0;
    if (safe_write_all(pass->fd, text, length) != length)
    {
        pass->failed = true;
        pass->error = errno ? errno : ENOSPC;
    }
}

/* A show function: one line, without its newline unless it has one. */
static unsigned show_line(const char *text, size_t length, void *arg)
{
    text_pass *pass = arg;
    put_text(pass, text, length);
    if (!length || text[length - 1] != '\n')
        put_text(pass, "\n", 1);
    return (unsigned) length;
}

static bool take_record(const recorder_record *record, unsigned cursor,
                        void *arg)
{
    text_pass *pass = arg;
    if (pass->failed ||
        recorder_clock_ns_since_start(record->timestamp) > pass->until_ns)
        return false;
    recorder_info *rec = pass->recorders[cursor];
    recorder_output_record(&pass->out, rec->name, rec->trace,
                           (const recorder_site *) record->site, record->index,
                           record->timestamp, record->args, record->nargs);
    return true;
}

bool snapshot_text_write(int fd, const char *header, uint64_t until_ns)
{
    unsigned recorders = 0;
    for (recorder_info *rec = recorder_list(); rec; rec = rec->next)
        recorders++;
    size_t most = (size_t) recorders * RECORDER_LANES + 1;
    lane_cursor *cursors = calloc(most, sizeof(*cursors));
    text_pass pass = {
        .fd = fd, .until_ns = until_ns,
        .out = recorder_output_current(false),
        .recorders = calloc(most, sizeof(*pass.recorders)),
    };
    if (!cursors || !pass.recorders)
    {
        free(cursors);
        free(pass.recorders);
        errno = ENOMEM;
        return false;
    }
    pass.out.show = show_line;
    pass.out.arg = &pass;
    put_text(&pass, header, strlen(header));

    /* Recorders activated since the count wait for the next snapshot. */
    unsigned used = 0;
    for (recorder_info *rec = recorder_list(); rec && used + RECORDER_LANES < most;
         rec = rec->next)
    {
        uint32_t size = __atomic_load_n(&rec->mask, __ATOMIC_ACQUIRE) + 1;
        recorder_buffer *first = __atomic_load_n(&rec->buffer,
                                                 __ATOMIC_ACQUIRE);
        for (unsigned lane = 0; lane < RECORDER_LANES; lane++)
        {
            lane_cursor_open(&cursors[used], RECORDER_LANE(first, size, lane),
                             size, 0, NULL);
            if (!lane_cursor_any(&cursors[used]))
                continue;
            pass.recorders[used++] = rec;
        }
    }
    lane_losses losses = { .gone = -1 };
    record_merge(cursors, used, SIZE_MAX, &losses, take_record, &pass);
    free(cursors);
    free(pass.recorders);
    errno = pass.error;
    return !pass.failed;
}
