/* trace_spec_private.h - what trace specifications leave behind. */
#ifndef RECORDER_TRACE_SPEC_PRIVATE_H
#define RECORDER_TRACE_SPEC_PRIVATE_H

#include "recorder.h"
#include "base/visibility_private.h"

#include <regex.h>

/* An export request "regex=chan0,chan1,...": names by argument position,
 * NULL where a position is skipped ('_' or empty). 'regex' is 'pattern'
 * compiled to match whole names, when the request was parsed. */
typedef struct recorder_export_request
{
    struct recorder_export_request *next;
    char *pattern;
    regex_t regex;
    char *names[RECORDER_MAX_ARGS];
    unsigned count;
} recorder_export_request;

/* Export requests seen so far, oldest first. */
const recorder_export_request *recorder_spec_exports(void) RECORDER_HIDDEN;

/* What chrome=FILE calls to have FILE written at exit (false: it could
 * not be arranged); set by chrome_json_self.c, which sits above. */
void recorder_spec_chrome_hook(bool (*at_exit)(const char *path))
    RECORDER_HIDDEN;

/* The snapshot items (snapshot=, snapshot_post=, ...), handled by
 * lib/snapshot, which sits above and installs this table. */
typedef struct recorder_spec_snapshot
{
    /* Apply item 'name=value' ('value' NULL without '='): -1 if 'name' is
     * not a snapshot item, else RECORDER_TRACE_OK or an error with what
     * is wrong in why[size]. */
    int (*item)(const char *name, const char *value, char *why, size_t size);
    /* A specification was applied: names it exported may be watched. */
    void (*applied)(void);
} recorder_spec_snapshot;

void recorder_spec_snapshot_hook(const recorder_spec_snapshot *hooks)
    RECORDER_HIDDEN;

/* Path given by the last share=PATH command, or NULL. */
const char *recorder_spec_share_path(void) RECORDER_HIDDEN;

/* Who gave a specification. The program itself (RECORDER_TRACES,
 * recorder_trace_set) may do anything; another process, through the
 * command ring, may not name files (output=, output_append=, share=,
 * chrome=) unless the program opted in with RECORDER_COMMANDS_FILES=1. */
typedef enum recorder_spec_source
{
    RECORDER_SPEC_FROM_PROGRAM,
    RECORDER_SPEC_FROM_RING,
    RECORDER_SPEC_FROM_RING_WITH_FILES  /* the program opted in */
} recorder_spec_source;

/* Results recorder_trace_set never returns: refused for its source; some
 * items applied and others not (from the ring only). */
#define RECORDER_SPEC_REFUSED   16
#define RECORDER_SPEC_PARTLY    17

/* recorder_trace_set for 'source'. The first problem is also explained in
 * why[why_size] (empty if none), e.g. "invalid trace value 'x' in 'a=x'";
 * when some items applied and others not, what was applied and refused
 * comes first: "applied a=1; refused b: no recorder or tweak 'b'". Text
 * from the specification is escaped there (recorder_share_escape). */
int recorder_spec_apply(const char *spec, recorder_spec_source source,
                        char *why, size_t why_size) RECORDER_HIDDEN;

#endif /* RECORDER_TRACE_SPEC_PRIVATE_H */
