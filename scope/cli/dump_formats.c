/* dump_formats.c - recorder_scope -D --format chrome-json | ctf.
 *
 * Both writers are the library's: the Chrome trace-event JSON
 * (recorder_share_chrome_json, the same a program's own
 * recorder_dump_chrome_json uses) and the CTF trace (recorder_share_ctf);
 * here are the checks and notes around them, as the text dump gives
 * them. */
#include "cli/dump_formats.h"
#include "common/scope_message.h"
#include "cli/scope_text.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int scope_dump_chrome_json(recorder_share *const *shares, unsigned count,
                           const char *regex, FILE *out)
{
    /* A recorder 1.2 segment has no flight recorder, but its channels
     * still make counters. */
    unsigned used;
    recorder_share **dumped = scope_dump_gather(shares, count,
                                                SCOPE_GATHER_CHANNELS_TOO,
                                                &used);
    if (!dumped)
        return 1;
    unsigned records = recorder_share_chrome_json(dumped, used, regex, out);
    if (records == 0)
        scope_say_no_records(regex);
    free(dumped);
    return 0;
}

/* Exit 2 for a directory that is no place for a new trace, as for a bad
 * command line; 1 when writing failed. */
static int scope_dump_ctf(recorder_share *const *shares, unsigned count,
                          const char *regex, const char *dir)
{
    unsigned used;
    recorder_share **dumped = scope_dump_gather(shares, count,
                                                SCOPE_GATHER_EXPORT, &used);
    if (!dumped)
        return 1;
    char why[1024];
    long records = used ? recorder_share_ctf(dumped, used, regex, dir, why,
                                             sizeof(why))
                        : -1;
    int error = errno;
    free(dumped);
    if (!used)
        return 1;
    if (records < 0)
    {
        scope_message("%s", why);
        return error == ENOTEMPTY || error == ENOTDIR || error == EINVAL
               ? 2 : 1;
    }
    if (records == 0)
        scope_say_no_records(regex);
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
        return scope_dump_ctf(shares, count, options->dump_regex,
                              options->output_dir);
    case SCOPE_DUMP_TEXT:
    default:
        return 1;
    }
}
