/* dump_formats.c - recorder_scope -D --format chrome-json | ctf.
 *
 * The Chrome trace-event JSON is the library's
 * (recorder_share_chrome_json, the same writer a program's own
 * recorder_dump_chrome_json uses); here are the checks and notes around
 * it, as the text dump gives them. */
#include "cli/dump_formats.h"
#include "cli/ctf_export.h"
#include "common/scope_message.h"
#include "cli/scope_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int scope_dump_chrome_json(recorder_share *const *shares, unsigned count,
                           const char *regex, FILE *out)
{
    recorder_share **dumped = calloc(count ? count : 1, sizeof(*dumped));
    if (!dumped)
    {
        scope_message("out of memory");
        return 1;
    }
    /* A recorder 1.2 segment has no flight recorder, but its channels
     * still make counters. */
    unsigned used = scope_dump_gather(shares, count, false, dumped);
    unsigned records = recorder_share_chrome_json(dumped, used, regex, out);
    if (records == 0)
        scope_message("no records%s%s",
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
