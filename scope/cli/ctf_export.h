/* ctf_export.h - recorder_scope -D --format ctf --output DIR: the flight
 * recorders of segments as a CTF 1.8 trace directory babeltrace2 reads. */
#ifndef SCOPE_CTF_EXPORT_H
#define SCOPE_CTF_EXPORT_H

#include <recorder/recorder_share.h>

/* Write the records of the recorders matching 'regex' (NULL: all) of the
 * 'count' segments in 'shares' as a CTF trace in directory 'dir'.
 * Returns the exit status: 0, 1 if the trace could not be written, 2 for
 * a bad argument (messages on stderr). */
int scope_export_ctf(recorder_share *const *shares, unsigned count,
                     const char *regex, const char *dir);

#endif /* SCOPE_CTF_EXPORT_H */
