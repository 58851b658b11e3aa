/* share_chrome_json.c - segments as one Chrome trace-event JSON file.
 *
 * The records come from the record follower (share_records.c: rendered,
 * located, typed, escaped), the counters from the channel reader, the
 * crash from the crash reader; chrome_json.c writes them. All times count
 * from the start of the earliest process, on the CLOCK_MONOTONIC axis the
 * processes of one host share, as recorder_share_dump_merged() counts
 * them: a record's microsecond is the one the text dump shows.
 */
#include "segment/share_reader_private.h"
#include "trace/chrome_json_private.h"
#include "recorder_regex.h"
#include "recorder_backtrace.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

typedef struct json_source
{
    recorder_share *share;
    chrome_json *   json;
    unsigned        process;
    uint64_t        base_ns;            /* start of the earliest process */
    unsigned        records;
} json_source;

static void take_record(const recorder_share_record *record, void *arg)
{
    json_source *source = arg;
    uint64_t ns = share_reader_monotonic_ns(source->share, record->ticks) -
                  source->base_ns;
    chrome_json_record(source->json, source->process, ns, record);
    source->records++;
}

/* Does the recorder of 'channel' match 'regex' (NULL: all do)? */
static bool channel_selected(recorder_share *share,
                             const recorder_share_channel *channel,
                             const regex_t *regex)
{
    if (!regex)
        return true;
    recorder_share_recorder rec;
    return recorder_share_recorder_info(share, channel->recorder, &rec) &&
           regexec(regex, rec.name, 0, NULL, 0) == 0;
}

static void add_counters(json_source *source, const regex_t *regex)
{
    recorder_share *share = source->share;
    uint64_t since_base = share->header.start_mono_ns - source->base_ns;
    unsigned channels = recorder_share_channel_count(share);
    recorder_sample samples[256];
    for (unsigned c = 0; c < channels; c++)
    {
        recorder_share_channel channel;
        if (!recorder_share_channel_info(share, c, &channel) ||
            !channel.active || !channel_selected(share, &channel, regex))
            continue;
        char name[4 * sizeof(channel.name)];
        recorder_share_escape(name, sizeof(name), channel.name,
                              strnlen(channel.name, sizeof(channel.name)));
        recorder_share_cursor cursor = RECORDER_SHARE_CURSOR_START;
        /* The rings hold a bounded number of records: this ends even
         * while the writer goes on (a few more reads at most). */
        for (unsigned reads = 0; reads < 4096; reads++)
        {
            size_t got = recorder_share_read(share, c, &cursor, samples,
                                             sizeof(samples) /
                                             sizeof(*samples), NULL);
            if (!got)
                break;
            for (size_t s = 0; s < got; s++)
            {
                /* Sample times are whole nanoseconds times 1e-9: back to
                 * the nanosecond, exactly, by rounding. */
                double t = samples[s].time;
                uint64_t ns = t > 0 ? (uint64_t) (t * 1e9 + 0.5) : 0;
                chrome_json_counter(source->json, source->process,
                                    since_base + ns, name, samples[s].value);
            }
        }
    }
}

/* The crash report of a dead process, after its last event. */
static void add_crash(json_source *source)
{
    if (recorder_share_state(source->share) == RECORDER_SHARE_ALIVE)
        return;
    char error[256];
    struct recorder_backtrace *backtrace =
        recorder_share_crash_backtrace(source->share, error, sizeof(error));
    if (!backtrace)
        return;
    chrome_json_crash(source->json, source->process,
                      chrome_json_last_ns(source->json, source->process),
                      backtrace);
    recorder_backtrace_delete(backtrace);
}

unsigned recorder_share_chrome_json(recorder_share *const *shares,
                                    unsigned count, const char *pattern,
                                    FILE *out)
{
    if (!shares || !count || !out)
        return 0;
    regex_t regex;
    if (pattern && !recorder_regex_compile(&regex, pattern, NULL, NULL, 0))
        return 0;
    chrome_json *json = chrome_json_new();
    unsigned records = 0;
    if (!json)
        goto done;

    uint64_t base = UINT64_MAX;
    for (unsigned s = 0; s < count; s++)
        if (shares[s] && shares[s]->header.start_mono_ns < base)
            base = shares[s]->header.start_mono_ns;

    for (unsigned s = 0; s < count; s++)
    {
        if (!shares[s])
            continue;
        recorder_share_process info;
        recorder_share_process_info(shares[s], &info);
        char program[4 * sizeof(info.program)];
        recorder_share_escape(program, sizeof(program), info.program,
                              strnlen(info.program, sizeof(info.program)));
        json_source source = {
            .share = shares[s], .json = json, .base_ns = base,
            .process = chrome_json_process(json, info.pid, program),
        };
        recorder_share_records *follower =
            recorder_share_records_new(pattern, NULL, 0);
        if (follower)
        {
            recorder_share_records_read(shares[s], follower, SIZE_MAX,
                                        take_record, &source, NULL);
            recorder_share_records_delete(follower);
        }
        add_counters(&source, pattern ? &regex : NULL);
        add_crash(&source);
        records += source.records;
    }
    chrome_json_write(json, out);
    fflush(out);
    chrome_json_delete(json);

done:
    if (pattern)
        regfree(&regex);
    return records;
}
