/* dump.c - print the records of the program's recorders in time order.
 *
 * Each dump prints what earlier dumps have not, up to where the writers were
 * when it started, so a dump always ends even if records keep coming, and
 * background dumps show only what is new. Lock-free: writers go on while we
 * read. Where each lane's next dump starts is kept in the lane's 'reader'
 * word: a record still being written when a dump reaches it is printed by
 * the next dump, never skipped (see lane_cursor_private.h).
 */
#include "trace/dump_private.h"
#include "record/record_merge_private.h"
#include "recorder_regex.h"
#include "record/registry_private.h"

#include <regex.h>
#include <stdio.h>

/* Lanes merged in one pass (only lanes with records to print take one), on
 * the stack: a signal handler dumps without allocating. More lanes are
 * dumped in further passes, each merged in time order. */
#define MERGE_WIDTH     128

typedef struct dump_pass
{
    lane_cursor          cursors[MERGE_WIDTH];
    recorder_info *      recorders[MERGE_WIDTH];
    recorder_buffer *    lanes[MERGE_WIDTH];
    const recorder_output *out;
    lane_losses          losses;
    unsigned             count;
    unsigned             printed;
} dump_pass;

static bool print_record(const recorder_record *record, unsigned source,
                         void *arg)
{
    dump_pass *pass = arg;
    recorder_info *rec = pass->recorders[source];
    recorder_output_record(pass->out, rec->name, rec->trace,
                           (const recorder_site *) record->site, record->index,
                           record->timestamp, record->args, record->nargs);
    return true;
}

/* Print the lanes gathered so far, and note where their next dump starts.
 * A concurrent dump may have gone further: keep the larger position. */
static void print_pass(dump_pass *pass)
{
    pass->printed += (unsigned) record_merge(pass->cursors, pass->count,
                                             SIZE_MAX, &pass->losses,
                                             print_record, pass);
    for (unsigned c = 0; c < pass->count; c++)
    {
        uint64_t *reader = &pass->lanes[c]->reader;
        uint64_t done = pass->cursors[c].index;
        uint64_t seen = __atomic_load_n(reader, __ATOMIC_RELAXED);
        while (seen < done &&
               !__atomic_compare_exchange_n(reader, &seen, done, 0,
                                            __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED))
            ;
    }
    pass->count = 0;
}

/* Add lane 'lane' of 'rec' to the pass, if it has records to print. */
static void add_lane(dump_pass *pass, recorder_info *rec, unsigned lane)
{
    /* Same order as writers: mask, then ring (see recorder_info). */
    uint32_t size = __atomic_load_n(&rec->mask, __ATOMIC_ACQUIRE) + 1;
    recorder_buffer *first = __atomic_load_n(&rec->buffer, __ATOMIC_ACQUIRE);
    recorder_buffer *buffer = RECORDER_LANE(first, size, lane);
    lane_cursor *cursor = &pass->cursors[pass->count];
    lane_cursor_open(cursor, buffer, size,
                     __atomic_load_n(&buffer->reader, __ATOMIC_RELAXED), NULL);
    if (!lane_cursor_any(cursor))
        return;
    pass->recorders[pass->count] = rec;
    pass->lanes[pass->count] = buffer;
    if (++pass->count == MERGE_WIDTH)
        print_pass(pass);
}

/* A dying process cannot finish a record it was writing: print past it. */
static bool always(void *arg)
{
    (void) arg;
    return true;
}

/* Dump the recorders for which 'select' says yes. */
static unsigned dump_selected(const recorder_output *out, bool final,
                              bool (*select)(recorder_info *, void *),
                              void *select_arg)
{
    dump_pass pass;
    pass.out = out;
    pass.losses = (lane_losses) { .writers_gone = final ? always : NULL,
                                  .gone = -1 };
    pass.count = 0;
    pass.printed = 0;
    for (recorder_info *rec = recorder_list(); rec; rec = rec->next)
        if (!select || select(rec, select_arg))
            for (unsigned lane = 0; lane < RECORDER_LANES; lane++)
                add_lane(&pass, rec, lane);
    print_pass(&pass);
    return pass.printed;
}

unsigned recorder_dump_all(const recorder_output *out, bool final)
{
    return dump_selected(out, final, NULL, NULL);
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
        return recorder_dump_all(&out, false);

    /* Whole-name match, as for trace specifications. */
    regex_t regex;
    char why[160];
    if (!recorder_regex_compile(&regex, what, NULL, why, sizeof(why)))
    {
        fprintf(stderr, "recorder: invalid regular expression '%.300s': %s\n",
                what, why);
        return 0;
    }
    unsigned printed = dump_selected(&out, false, name_matches, &regex);
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
