/* share_records.c - follow a segment's flight recorder, record by record.
 *
 * A follower keeps, for each recorder of one segment, whether its name
 * matches and where each of its lanes was left. A read opens a lane cursor
 * at each of those places and merges the lanes that have anything new, so
 * a read with nothing new costs a load of each lane's writer index. Records
 * are rendered as share_dump.c renders them (record_line.c, the writer's
 * line settings, %+s strings fetched) and escaped: they come from the
 * segment. Each record also comes located (its site's format, file,
 * function and line, its lane) and with its arguments typed by the
 * conversions of the site's format, for exports that keep them apart.
 */
#include "segment/share_reader_private.h"
#include "text/format_scan_private.h"
#include "text/record_line_private.h"
#include "record/record_merge_private.h"
#include "recorder_regex.h"
#include "text/render_private.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a follower knows of a recorder's name and ring. */
enum follow_state
{
    FOLLOW_NOT = 0,                     /* not matched, or no ring to read */
    FOLLOW_YES = 1,                     /* followed: its lanes are read */
    FOLLOW_PENDING = 2                  /* matched, but it has no ring in
                                           the segment yet (it never
                                           recorded): looked at again */
};

typedef struct followed
{
    signed char matches;                /* enum follow_state */
    char        name[64];               /* escaped */
    uint64_t    next[RECORDER_SHARE_LANES_MAX];
} followed;

/* Texts of the record being given. They live with the follower, not on
 * the stack: a record may carry RECORDER_MAX_ARGS fetched strings, and
 * escaping can make any text four times longer. */
typedef struct given_texts
{
    char format[4 * sizeof(((site_text *) 0)->format)];
    char file[4 * sizeof(((site_text *) 0)->file)];
    char function[4 * sizeof(((site_text *) 0)->function)];
    char fetched[256];                  /* as render.c fetches a %+s */
    char strings[RECORDER_MAX_ARGS][4 * 256];
} given_texts;

struct recorder_share_records
{
    regex_t      regex;
    bool         any;                   /* no regex: every recorder */
    bool         started;
    uint64_t     generation;            /* of the segment 'recorders' are in */
    followed *   recorders;
    unsigned     count;
    lane_cursor *cursors;               /* room for a read's lanes */
    unsigned *   owner;                 /* cursor -> recorder * LANES + lane */
    size_t       room;
    given_texts  texts;
};

typedef struct records_read
{
    recorder_share *         share;
    recorder_share_records * records;
    recorder_line_settings   settings;
    fetch_context            fetch;
    recorder_render_options  options;
    recorder_share_record_fn fn;
    void *                   arg;
} records_read;

recorder_share_records *recorder_share_records_new(const char *pattern,
                                                   char *error, size_t size)
{
    recorder_share_records *records = calloc(1, sizeof(*records));
    if (!records)
    {
        snprintf(error, size, "out of memory");
        return NULL;
    }
    records->any = !pattern;
    if (pattern && !recorder_regex_compile(&records->regex, pattern, NULL,
                                           error, size))
    {
        free(records);
        return NULL;
    }
    return records;
}

void recorder_share_records_delete(recorder_share_records *records)
{
    if (!records)
        return;
    if (!records->any)
        regfree(&records->regex);
    free(records->recorders);
    free(records->cursors);
    free(records->owner);
    free(records);
}

/* Whether the ring of recorder 'r' overlaps that of a recorder already
 * followed: a table pointing many recorders at one ring would give its
 * records again and again. */
static bool ring_followed(recorder_share *share,
                          const recorder_share_records *records, unsigned r,
                          const ring_view *ring)
{
    const uint8_t *start = (const uint8_t *) ring->first;
    const uint8_t *end = start + share_ring_bytes(ring->size, ring->lanes);
    for (unsigned o = 0; o < r; o++)
    {
        ring_view other;
        if (records->recorders[o].matches != FOLLOW_YES ||
            !share_reader_ring(share, o, &other))
            continue;
        const uint8_t *other_start = (const uint8_t *) other.first;
        const uint8_t *other_end = other_start +
                                   share_ring_bytes(other.size, other.lanes);
        if (start < other_end && other_start < end)
            return true;
    }
    return false;
}

/* Look at recorder 'r': whether its name matches, and whether it has a
 * ring to follow yet. */
static void look_at(recorder_share *share, recorder_share_records *records,
                    unsigned r)
{
    followed *f = &records->recorders[r];
    ring_view ring;
    if (f->matches == FOLLOW_NOT)
    {
        const share_recorder *entry = share_reader_recorder(share, r);
        char name[sizeof(f->name)];
        if (!entry ||
            !share_reader_string(share, entry->name, name, sizeof(name)) ||
            (!records->any && regexec(&records->regex, name, 0, NULL, 0) != 0))
            return;
        recorder_share_escape(f->name, sizeof(f->name), name,
                              strnlen(name, sizeof(name)));
        f->matches = FOLLOW_PENDING;
    }
    if (!share_reader_ring(share, r, &ring))
        return;                         /* no ring yet: pending */
    f->matches = ring_followed(share, records, r, &ring) ? FOLLOW_NOT
                                                          : FOLLOW_YES;
}

/* Look at recorders published since the last read, and again at those
 * that had no ring yet (a ring takes its place in the segment at its
 * recorder's first record). A name is matched once. */
static bool follow_new_recorders(recorder_share *share,
                                 recorder_share_records *records)
{
    unsigned seen = records->count;
    unsigned count = recorder_share_recorder_count(share);
    if (count > seen)
    {
        followed *grown = realloc(records->recorders, count * sizeof(*grown));
        if (!grown)
            return false;
        memset(grown + seen, 0, (count - seen) * sizeof(*grown));
        records->recorders = grown;
        records->count = count;
    }
    for (unsigned r = 0; r < records->count; r++)
        if (r >= seen || records->recorders[r].matches == FOLLOW_PENDING)
            look_at(share, records, r);
    return true;
}

/* Argument 'a' of a record made at a site with 'format' ("" if unknown).
 * Strings are never read here at the writer's addresses: a %+s is fetched
 * the way the dump fetches it, a plain %s (a bare pointer) gives "". */
static void type_argument(records_read *read, const char *format, unsigned a,
                          uint64_t word, recorder_share_arg *out)
{
    bool fetch;
    recorder_format_typed(format, a, word, out, &fetch);
    if (out->type != RECORDER_SHARE_ARG_STRING)
        return;
    given_texts *t = &read->records->texts;
    char *text = t->strings[a];
    text[0] = 0;
    if (fetch)
    {
        const char *got = share_reader_fetch(word, t->fetched,
                                             sizeof(t->fetched), &read->fetch);
        recorder_share_escape(text, sizeof(t->strings[0]), got,
                              strnlen(got, sizeof(t->fetched) - 1));
    }
    out->value.s = text;
}

static bool give_record(const recorder_record *record, unsigned source,
                        void *arg)
{
    records_read *read = arg;
    unsigned owner = read->records->owner[source];
    const followed *f = &read->records->recorders[owner /
                                                  RECORDER_SHARE_LANES_MAX];
    site_text text;
    recorder_site site;
    bool known = share_reader_site(read->share, record->site, &text);
    if (known)
        site = (recorder_site) { text.format, text.file, text.function,
                                 text.line, 0 };
    /* One record alone: no indentation carried from the records before. */
    int indent = 0;
    char message[RECORDER_MESSAGE_MAX];
    recorder_line_text(message, &read->settings, known ? &site : NULL,
                       (uintptr_t) record->site, &indent, record->args,
                       record->nargs, &read->options);
    char shown[4 * RECORDER_MESSAGE_MAX];
    recorder_share_escape(shown, sizeof(shown), message,
                          strnlen(message, sizeof(message)));
    given_texts *t = &read->records->texts;
    t->format[0] = t->file[0] = t->function[0] = 0;
    if (known)
    {
        recorder_share_escape(t->format, sizeof(t->format), text.format,
                              strnlen(text.format, sizeof(text.format)));
        recorder_share_escape(t->file, sizeof(t->file), text.file,
                              strnlen(text.file, sizeof(text.file)));
        recorder_share_escape(t->function, sizeof(t->function),
                              text.function,
                              strnlen(text.function, sizeof(text.function)));
    }
    recorder_share_arg args[RECORDER_MAX_ARGS];
    unsigned nargs = record->nargs < RECORDER_MAX_ARGS ? record->nargs
                                                       : RECORDER_MAX_ARGS;
    for (unsigned a = 0; a < nargs; a++)
        type_argument(read, known ? text.format : "", a, record->args[a],
                      &args[a]);
    recorder_share_record given = {
        .time = share_reader_seconds(read->share, record->timestamp),
        .recorder = f->name,
        .message = shown,
        .ticks = record->timestamp,
        .site = (uint64_t) record->site,
        .format = t->format,
        .file = t->file,
        .function = t->function,
        .line = known ? text.line : 0,
        .lane = owner % RECORDER_SHARE_LANES_MAX,
        .nargs = nargs,
        .args = args,
    };
    read->fn(&given, read->arg);
    return true;
}

size_t recorder_share_records_read(recorder_share *share,
                                   recorder_share_records *records,
                                   size_t max, recorder_share_record_fn fn,
                                   void *arg, uint64_t *lost)
{
    if (lost)
        *lost = 0;
    if (!share || !records || !fn || share->v12 || !share_reader_intact(share))
        return 0;
    if (!records->started || records->generation != share->header.generation)
    {
        /* Another process: its recorders and lanes start over. */
        records->started = true;
        records->generation = share->header.generation;
        records->count = 0;
    }
    if (!follow_new_recorders(share, records))
        return 0;

    lane_losses losses = { .count = lost,
                           .writers_gone = share_reader_writer_gone,
                           .gone_arg = share, .gone = -1 };
    unsigned used = 0;
    for (unsigned r = 0; r < records->count; r++)
    {
        followed *f = &records->recorders[r];
        ring_view ring;
        if (f->matches != FOLLOW_YES || !share_reader_ring(share, r, &ring))
            continue;
        for (unsigned lane = 0; lane < ring.lanes; lane++)
        {
            if (used == records->room)
            {
                size_t room = records->room ? 2 * records->room
                                            : RECORDER_SHARE_LANES_MAX;
                lane_cursor *cursors = realloc(records->cursors,
                                               room * sizeof(*cursors));
                if (cursors)
                    records->cursors = cursors;
                unsigned *owner = realloc(records->owner,
                                          room * sizeof(*owner));
                if (owner)
                    records->owner = owner;
                if (!cursors || !owner)
                    return 0;
                records->room = room;
            }
            lane_cursor *c = &records->cursors[used];
            lane_cursor_open(c, share_ring_lane(&ring, lane), ring.size,
                             f->next[lane], &losses);
            f->next[lane] = c->index;
            if (!lane_cursor_any(c))
                continue;
            records->owner[used++] = r * RECORDER_SHARE_LANES_MAX + lane;
        }
    }
    if (!used)
        return 0;

    records_read read = {
        .share = share, .records = records, .fn = fn, .arg = arg,
        .fetch = { share, share_reader_writer_readable(share) },
    };
    share_reader_line_settings(share, &read.settings);
    read.options = (recorder_render_options) {
        .fetch = share_reader_fetch, .fetch_arg = &read.fetch,
    };
    size_t given = record_merge(records->cursors, used, max, &losses,
                                give_record, &read);
    for (unsigned c = 0; c < used; c++)
    {
        unsigned owner = records->owner[c];
        records->recorders[owner / RECORDER_SHARE_LANES_MAX]
            .next[owner % RECORDER_SHARE_LANES_MAX] = records->cursors[c].index;
    }
    return given;
}
