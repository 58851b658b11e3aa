/* share_dump.c - print a segment's flight recorder as dump lines.
 *
 * The recorders' lanes are merged in time order by the merge every reader
 * uses, and each record becomes the line an in-process dump of it would
 * print (record_line.c), with the writer's own line settings (its tweaks
 * in the segment) and its %+s strings fetched (share_fetch.c). Text from
 * the segment is escaped before it reaches the output. Opening a segment
 * and printing a line are shared with share_dump_merged.c.
 */
#include "segment/share_dump_private.h"
#include "record/record_merge_private.h"
#include "recorder_regex.h"
#include "text/render_private.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

void share_reader_line_settings(recorder_share *share,
                                recorder_line_settings *out)
{
    recorder_line_settings settings = {
        .order = true, .reltime = true, .precision = 6, .indent_max = 16,
        .start_local_us = share->header.start_wall_us
                        + share->header.utc_offset_s * 1000000,
    };
    unsigned count = recorder_share_tweak_count(share);
    for (unsigned t = 0; t < count; t++)
    {
        recorder_share_tweak tweak;
        if (!recorder_share_tweak_info(share, t, &tweak))
            continue;
        if (strcmp(tweak.name, "recorder_location") == 0)
            settings.location = tweak.value;
        else if (strcmp(tweak.name, "recorder_function") == 0)
            settings.function = tweak.value;
        else if (strcmp(tweak.name, "recorder_time_precision") == 0)
            settings.precision = tweak.value;
        else if (strcmp(tweak.name, "recorder_order") == 0)
            settings.order = tweak.value != 0;
        else if (strcmp(tweak.name, "recorder_reltime") == 0)
            settings.reltime = tweak.value != 0;
        else if (strcmp(tweak.name, "recorder_abstime") == 0)
            settings.abstime = tweak.value != 0;
        else if (strcmp(tweak.name, "recorder_indent") == 0)
            settings.indent_max = tweak.value;
    }
    *out = settings;
}

void share_dump_line(segment_dump *dump, const recorder_record *record,
                     unsigned source, uint64_t time_us)
{
    site_text text;
    recorder_site site;
    bool known = share_reader_site(dump->share, record->site, &text);
    if (known)
        site = (recorder_site) { text.format, text.file, text.function,
                                 text.line, 0 };
    char message[RECORDER_MESSAGE_MAX];
    char where[RECORDER_LOCATION_MAX];
    recorder_line_text(message, &dump->settings, known ? &site : NULL,
                       (uintptr_t) record->site, &dump->indent, record->args,
                       record->nargs, &dump->options);
    recorder_line_where(where, known ? &site : NULL);
    char line[RECORDER_LINE_MAX];
    size_t len = recorder_format_line(line, sizeof(line), &dump->settings,
                                      dump->lanes[source].name, where,
                                      known ? text.function : "",
                                      record->index, time_us, message);
    /* Names, formats and strings come from the segment: no terminal
     * escapes, and no newline but the line's own. */
    char shown[4 * RECORDER_LINE_MAX];
    if (len > 0 && line[len - 1] == '\n')
        len--;
    size_t shown_len = recorder_share_escape(shown, sizeof(shown) - 1, line,
                                             len);
    shown[shown_len++] = '\n';
    fputs(dump->prefix, dump->out);
    fwrite(shown, 1, shown_len, dump->out);
}

static bool print_record(const recorder_record *record, unsigned source,
                         void *arg)
{
    segment_dump *dump = arg;
    share_dump_line(dump, record, source,
                    share_reader_microseconds(dump->share, record->timestamp));
    return true;
}

/* Does the ring of recorder 'r' overlap the ring of a recorder already
 * being dumped? The writer gives each recorder a ring of its own; a table
 * pointing many recorders at one ring would only make us print it again
 * and again. */
static bool ring_taken(recorder_share *share, const dump_lane *lanes,
                       unsigned used, unsigned r)
{
    ring_view ring, other;
    if (!share_reader_ring(share, r, &ring))
        return false;                   /* nothing to read anyway */
    const uint8_t *start = (const uint8_t *) ring.first;
    const uint8_t *end = start + share_ring_bytes(ring.size, ring.lanes);
    for (unsigned u = 0; u < used; u++)
    {
        if ((u && lanes[u - 1].recorder == lanes[u].recorder) ||
            !share_reader_ring(share, lanes[u].recorder, &other))
            continue;
        const uint8_t *other_start = (const uint8_t *) other.first;
        const uint8_t *other_end = other_start +
                                   share_ring_bytes(other.size, other.lanes);
        if (start < other_end && other_start < end)
            return true;
    }
    return false;
}

bool share_dump_open(segment_dump *dump, recorder_share *share,
                     const regex_t *regex, FILE *out)
{
    *dump = (segment_dump) {
        .share = share, .out = out, .prefix = "",
        .fetch = { share, false },
        .losses = { .writers_gone = share_reader_writer_gone,
                    .gone_arg = share, .gone = -1 },
    };
    if (share->v12)
        return false;                   /* no flight recorder in 1.2's */
    dump->fetch.memory = share_reader_writer_readable(share);
    share_reader_line_settings(share, &dump->settings);
    /* %+s arguments point into the writer: fetch or describe them. */
    dump->options = (recorder_render_options) {
        .fetch = share_reader_fetch, .fetch_arg = &dump->fetch,
    };
    unsigned count = recorder_share_recorder_count(share);
    size_t most = (size_t) (count ? count : 1) * RECORDER_SHARE_LANES_MAX;
    dump->cursors = calloc(most, sizeof(*dump->cursors));
    dump->lanes = calloc(most, sizeof(*dump->lanes));
    if (!dump->cursors || !dump->lanes)
    {
        share_dump_close(dump);
        return false;
    }
    unsigned used = 0;
    for (unsigned r = 0; r < count; r++)
    {
        char name[64];
        const share_recorder *entry = share_reader_recorder(share, r);
        ring_view ring;
        if (!entry ||
            !share_reader_string(share, entry->name, name, sizeof(name)))
            continue;
        if (regex && regexec(regex, name, 0, NULL, 0) != 0)
            continue;
        if (ring_taken(share, dump->lanes, used, r) ||
            !share_reader_ring(share, r, &ring))
            continue;
        for (unsigned lane = 0; lane < ring.lanes; lane++)
        {
            lane_cursor_open(&dump->cursors[used],
                             share_ring_lane(&ring, lane), ring.size, 0,
                             &dump->losses);
            if (!lane_cursor_any(&dump->cursors[used]))
                continue;
            memcpy(dump->lanes[used].name, name, sizeof(name));
            dump->lanes[used].recorder = r;
            used++;
        }
    }
    dump->used = used;
    return true;
}

void share_dump_close(segment_dump *dump)
{
    free(dump->cursors);
    free(dump->lanes);
    dump->cursors = NULL;
    dump->lanes = NULL;
    dump->used = 0;
}

unsigned recorder_share_dump(recorder_share *share, const char *pattern,
                             FILE *out)
{
    if (share->v12)
        return 0;                       /* no flight recorder in 1.2's */
    regex_t regex;
    if (pattern && !recorder_regex_compile(&regex, pattern, NULL, NULL, 0))
        return 0;
    segment_dump dump;
    unsigned printed = 0;
    if (share_dump_open(&dump, share, pattern ? &regex : NULL, out))
    {
        printed = (unsigned) record_merge(dump.cursors, dump.used, SIZE_MAX,
                                          &dump.losses, print_record, &dump);
        share_dump_close(&dump);
    }
    if (pattern)
        regfree(&regex);
    fflush(out);
    return printed;
}
