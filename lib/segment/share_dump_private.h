/* share_dump_private.h - a segment's flight recorder, opened for dumping.
 *
 * recorder_share_dump() prints one segment; recorder_share_dump_merged()
 * interleaves several in one time order. Both open each segment the same
 * way (every matching recorder's lanes, each ring once), and print each
 * record as the line an in-process dump of it would be.
 */
#ifndef RECORDER_SHARE_DUMP_PRIVATE_H
#define RECORDER_SHARE_DUMP_PRIVATE_H

#include "segment/share_reader_private.h"
#include "text/record_line_private.h"

#include <regex.h>
#include <stdio.h>

/* Whose lane each cursor of a dump reads. */
typedef struct dump_lane
{
    char     name[64];
    unsigned recorder;
} dump_lane;

typedef struct segment_dump
{
    recorder_share *       share;
    lane_cursor *          cursors;     /* one per lane read */
    dump_lane *            lanes;       /* by cursor */
    unsigned               used;        /* cursors open */
    lane_losses            losses;
    recorder_line_settings settings;
    fetch_context          fetch;
    recorder_render_options options;
    int                    indent;
    const char *           prefix;      /* before each line, "" for none */
    FILE *                 out;
} segment_dump;

/* Open a cursor on each lane, holding records, of the recorders of
 * 'share' whose name matches 'regex' (NULL: all). False, with nothing to
 * free, for a recorder 1.2 segment or no memory. */
bool share_dump_open(segment_dump *dump, recorder_share *share,
                     const regex_t *regex, FILE *out) RECORDER_HIDDEN;
void share_dump_close(segment_dump *dump) RECORDER_HIDDEN;

/* Print 'record' of cursor 'source' as a line stamped 'time_us'
 * microseconds (the line's relative time). */
void share_dump_line(segment_dump *dump, const recorder_record *record,
                     unsigned source, uint64_t time_us) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_DUMP_PRIVATE_H */
