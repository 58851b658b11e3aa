/* dump.c - merge the lanes of several recorders in time order and print them.
 *
 * Each dump prints what earlier dumps have not, up to where the writers were
 * when it started, so a dump always ends even if records keep coming, and
 * background dumps show only what is new. Lock-free: writers go on while we
 * read, and a record overwritten under us is skipped, never printed torn.
 */
#include "dump_private.h"
#include "regex_bound_private.h"
#include "registry_private.h"
#include "slot_read_private.h"

#include <regex.h>
#include <stdio.h>

/* Lanes merged in one pass (only lanes with records to print take one);
 * more are dumped in further passes. Small enough to keep a signal
 * handler's stack use modest. */
#define MERGE_WIDTH     128

typedef struct cursor
{
    recorder_info *  rec;
    recorder_buffer *buffer;            /* the lane */
    uint64_t         next;              /* next index to read */
    uint64_t         end;               /* writer index when the dump began */
    uint32_t         size;              /* slots, from the recorder */
    recorder_record  head;              /* next record to print, if 'ready' */
    bool             ready;
} cursor;

/* Load the next readable record of 'c' into c->head. */
static void cursor_advance(cursor *c)
{
    const recorder_slot *slots = RECORDER_BUFFER_SLOTS(c->buffer);
    c->ready = false;
    while (c->next < c->end)
    {
        recorder_read_status status =
            recorder_slot_read(slots, c->size, &c->buffer->writer,
                               c->next, &c->head);
        if (status == RECORDER_READ_OK)
        {
            c->next += c->head.slots;
            c->ready = true;
            return;
        }
        c->next++;                      /* lost, pending or mid-record */
    }
}

/* Start reading lane 'lane' of 'rec'; false if it has nothing to print. */
static bool cursor_start(cursor *c, recorder_info *rec, unsigned lane)
{
    /* Same order as writers: mask, then ring (see recorder_info). */
    c->size = __atomic_load_n(&rec->mask, __ATOMIC_ACQUIRE) + 1;
    recorder_buffer *first = __atomic_load_n(&rec->buffer, __ATOMIC_ACQUIRE);
    recorder_buffer *buffer = RECORDER_LANE(first, c->size, lane);
    c->rec = rec;
    c->buffer = buffer;
    c->end = __atomic_load_n(&buffer->writer, __ATOMIC_ACQUIRE);
    uint64_t reader = __atomic_load_n(&buffer->reader, __ATOMIC_RELAXED);
    uint64_t oldest = c->end > c->size ? c->end - c->size : 0;
    c->next = reader > oldest ? reader : oldest;
    if (c->next >= c->end)
        return false;
    cursor_advance(c);
    return true;
}

static void cursor_finish(cursor *c)
{
    /* Mark as dumped; a concurrent dump may have gone further: keep max. */
    uint64_t seen = __atomic_load_n(&c->buffer->reader, __ATOMIC_RELAXED);
    while (seen < c->end &&
           !__atomic_compare_exchange_n(&c->buffer->reader, &seen, c->end, 0,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

static unsigned merge(cursor *cursors, unsigned count,
                      const recorder_output *out)
{
    unsigned printed = 0;
    for (;;)
    {
        cursor *first = NULL;
        for (unsigned c = 0; c < count; c++)
            if (cursors[c].ready &&
                (!first || cursors[c].head.timestamp < first->head.timestamp))
                first = &cursors[c];
        if (!first)
            break;
        recorder_output_record(out, first->rec->name, first->rec->trace,
                               (const recorder_site *) first->head.site,
                               first->head.index, first->head.timestamp,
                               first->head.args, first->head.nargs);
        printed++;
        cursor_advance(first);
    }
    for (unsigned c = 0; c < count; c++)
        cursor_finish(&cursors[c]);
    return printed;
}

/* Dump the recorders for which 'select' says yes, MERGE_WIDTH at a time. */
static unsigned dump_selected(const recorder_output *out,
                              bool (*select)(recorder_info *, void *),
                              void *select_arg)
{
    cursor cursors[MERGE_WIDTH];
    unsigned count = 0, printed = 0;
    for (recorder_info *rec = recorder_list(); rec; rec = rec->next)
    {
        if (select && !select(rec, select_arg))
            continue;
        for (unsigned lane = 0; lane < RECORDER_LANES; lane++)
        {
            if (!cursor_start(&cursors[count], rec, lane))
                continue;
            if (++count == MERGE_WIDTH)
            {
                printed += merge(cursors, count, out);
                count = 0;
            }
        }
    }
    return printed + merge(cursors, count, out);
}

unsigned recorder_dump_all(const recorder_output *out)
{
    return dump_selected(out, NULL, NULL);
}

static bool name_matches(recorder_info *rec, void *regex)
{
    return regexec((regex_t *) regex, rec->name, 0, NULL, 0) == 0;
}

unsigned recorder_sort(const char *what, recorder_format_fn format,
                       recorder_show_fn show, void *show_arg)
{
    recorder_output out = recorder_output_current(false);
    if (format)
        out.format = format;
    if (show)
    {
        out.show = show;
        out.arg = show_arg;
    }
    else
    {
        recorder_output_flush();
    }
    if (!what)
        return recorder_dump_all(&out);

    /* Whole-name match, as for trace specifications. */
    regex_t regex;
    char why[160];
    if (!recorder_regex_compile(&regex, what, NULL, why, sizeof(why)))
    {
        fprintf(stderr, "recorder: invalid regular expression '%.300s': %s\n",
                what, why);
        return 0;
    }
    unsigned printed = dump_selected(&out, name_matches, &regex);
    regfree(&regex);
    return printed;
}

unsigned recorder_dump(void)
{
    return recorder_sort(NULL, NULL, NULL, NULL);
}

unsigned recorder_dump_for(const char *what)
{
    return recorder_sort(what, NULL, NULL, NULL);
}
