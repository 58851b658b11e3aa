/* scope_text.h - recorder_scope's modes that need no window. */
#ifndef SCOPE_TEXT_H
#define SCOPE_TEXT_H

#include <recorder/recorder_share.h>
#include <stdio.h>

/* Each prints errors on stderr and returns an exit status. */
int scope_list(recorder_share *share, const char *path, FILE *out);
int scope_dump(recorder_share *share, const char *regex, FILE *out);
int scope_send(recorder_share *share, const char *command);

/* Flush 'out': 1 with a message naming the error if anything written to
 * it was lost (a full disk, a closed descriptor), else 0. */
int scope_finish_output(FILE *out);

#endif /* SCOPE_TEXT_H */
