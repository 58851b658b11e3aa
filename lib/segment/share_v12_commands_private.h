/* share_v12_commands_private.h - commands to a recorder 1.2 program.
 *
 * Its segment holds a ring of 1024 bytes that the program polls every
 * 100 ms, taking all it holds as one trace specification: we append a
 * command there (after a ':' when one is still unread, so that the two
 * stay apart) as its own recorder_chans_configure() did. It gives no
 * answer: a command counts as applied once the program has taken it.
 */
#ifndef RECORDER_SHARE_V12_COMMANDS_PRIVATE_H
#define RECORDER_SHARE_V12_COMMANDS_PRIVATE_H

#include "recorder_share.h"
#include "base/visibility_private.h"

/* Whether 'share' is a 1.2 segment (for modules that know no internals). */
bool share_v12_segment(const recorder_share *share) RECORDER_HIDDEN;

bool share_v12_post(recorder_share *share, const char *command,
                    recorder_share_ticket *ticket, char *error, size_t size)
    RECORDER_HIDDEN;
recorder_share_outcome share_v12_answer(recorder_share *share,
                                        recorder_share_ticket ticket,
                                        unsigned timeout_ms, char *text,
                                        size_t size) RECORDER_HIDDEN;
bool share_v12_available(recorder_share *share, recorder_share_service service,
                         char *why, size_t size) RECORDER_HIDDEN;

#endif /* RECORDER_SHARE_V12_COMMANDS_PRIVATE_H */
