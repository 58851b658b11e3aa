/* scope_text.h - recorder_scope's modes that need no window. */
#ifndef SCOPE_TEXT_H
#define SCOPE_TEXT_H

#include <recorder/recorder_share.h>
#include <stdio.h>

/* Each prints errors on stderr and returns an exit status. */
int scope_list(recorder_share *share, const char *path, FILE *out);
int scope_dump(recorder_share *share, const char *regex, FILE *out);
int scope_send(recorder_share *share, const char *command);

/* Several processes: -D merges their records in one time order, each line
 * starting "PROGRAM[PID] ", then prints the crash report each dead one
 * left, its lines starting the same way. */
/* What a dump gathers segments for: a text dump and a CTF export leave
 * out those with no flight recorder, Chrome JSON keeps their channels. */
typedef enum scope_gather
{
    SCOPE_GATHER_DUMP,
    SCOPE_GATHER_CHANNELS_TOO,
    SCOPE_GATHER_EXPORT
} scope_gather;

/* Of the 'count' segments, those a dump shows, in a new array the caller
 * frees (*gathered of them), saying on stderr which are dead and which
 * have no flight recorder, and whether their hosts differ. NULL, said on
 * stderr, when out of memory. */
recorder_share **scope_dump_gather(recorder_share *const *shares,
                                   unsigned count, scope_gather purpose,
                                   unsigned *gathered);

/* "no records", "no records matching REGEX" on stderr: a dump found
 * nothing to show, which is no error. */
void scope_say_no_records(const char *regex);

int scope_dump_merged(recorder_share *const *shares, unsigned count,
                      const char *regex, FILE *out);

/* "PROGRAM[PID]" of the segment, escaped, in name[size]. */
#define SCOPE_PROCESS_NAME_MAX  544
void scope_process_name(recorder_share *share, char *name, size_t size);

/* Flush 'out': 1 with a message naming the error if anything written to
 * it was lost (a full disk, a closed descriptor), else 0. */
int scope_finish_output(FILE *out);

#endif /* SCOPE_TEXT_H */
