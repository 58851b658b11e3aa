/* dump_formats.h - recorder_scope -D --format: dumps other than text. */
#ifndef SCOPE_DUMP_FORMATS_H
#define SCOPE_DUMP_FORMATS_H

#include "options/scope_options.h"

#include <recorder/recorder_share.h>
#include <stdio.h>

/* -D --format chrome-json: the 'count' segments as one Chrome trace-event
 * JSON file on 'out', with the notes the text dump gives on stderr (a
 * dead process, no flight recorder, hosts that differ, no records).
 * Returns an exit status. */
int scope_dump_chrome_json(recorder_share *const *shares, unsigned count,
                           const char *regex, FILE *out);

/* -D in options->dump_format (not text): an exit status. */
int scope_dump_as(const scope_options *options,
                  recorder_share *const *shares, unsigned count);

#endif /* SCOPE_DUMP_FORMATS_H */
