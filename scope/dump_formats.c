/* dump_formats.c - recorder_scope -D --format chrome-json | ctf.
 *
 * The Chrome trace-event JSON is the library's
 * (recorder_share_chrome_json, the same writer a program's own
 * recorder_dump_chrome_json uses); here are the checks and notes around
 * it, as the text dump gives them. */
#include "dump_formats.h"
#include "ctf_export.h"
#include "scope_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int scope_dump_chrome_json(recorder_share *const *shares, unsigned count,
                           const char *regex, FILE *out)
{
    recorder_share **dumped = calloc(count ? count : 1, sizeof(*dumped));
    if (!dumped)
    {
        fprintf(stderr, "recorder_scope: out of memory\n");
        return 1;
    }
    unsigned used = 0;
    char first_host[sizeof(((recorder_share_process *) 0)->host)] = "";
    bool hosts_differ = false;
    for (unsigned s = 0; s < count; s++)
    {
        char name[SCOPE_PROCESS_NAME_MAX], why[256];
        scope_process_name(shares[s], name, sizeof(name));
        if (!recorder_share_available(shares[s], RECORDER_SHARE_RECORDERS,
                                      why, sizeof(why)))
            /* A recorder 1.2 segment still has channels: counters. */
            fprintf(stderr, "recorder_scope: %s: no flight recorder: %s\n",
                    name, why);
        recorder_share_status status = recorder_share_state(shares[s]);
        if (status != RECORDER_SHARE_ALIVE)
            fprintf(stderr, "recorder_scope: %s %s; showing what it left\n",
                    name, recorder_share_state_name(status));
        recorder_share_process process;
        recorder_share_process_info(shares[s], &process);
        if (!used)
            snprintf(first_host, sizeof(first_host), "%s", process.host);
        else if (strcmp(first_host, process.host) != 0)
            hosts_differ = true;
        dumped[used++] = shares[s];
    }
    if (hosts_differ)
        fprintf(stderr, "recorder_scope: these processes ran on different "
                "hosts: their times do not compare\n");
    unsigned records = recorder_share_chrome_json(dumped, used, regex, out);
    if (records == 0)
        fprintf(stderr, "recorder_scope: no records%s%s\n",
                regex ? " matching " : "", regex ? regex : "");
    free(dumped);
    return 0;
}

int scope_dump_as(const scope_options *options,
                  recorder_share *const *shares, unsigned count)
{
    switch (options->dump_format)
    {
    case SCOPE_DUMP_CHROME_JSON:
        return scope_dump_chrome_json(shares, count, options->dump_regex,
                                      stdout);
    case SCOPE_DUMP_CTF:
        return scope_export_ctf(shares, count, options->dump_regex,
                                options->output_dir);
    case SCOPE_DUMP_TEXT:
    default:
        return 1;
    }
}
